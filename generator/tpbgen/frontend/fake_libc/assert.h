/* tpbgen's stand-in for <assert.h>: assert() does nothing (NDEBUG), static_assert is C11's. */
#ifndef TPBGEN_FAKE_ASSERT_H
#define TPBGEN_FAKE_ASSERT_H
#define assert(e) ((void)0)
#define static_assert _Static_assert
#endif
