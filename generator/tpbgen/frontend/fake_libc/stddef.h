/* tpbgen's stand-in for <stddef.h> (see stdint.h). */
#ifndef TPBGEN_FAKE_STDDEF_H
#define TPBGEN_FAKE_STDDEF_H
typedef unsigned long size_t;
typedef long ptrdiff_t;
#define NULL ((void *)0)
/* offsetof is a keyword to pycparser; no macro needed. */
#endif
