/* tpbgen's stand-in for <stdbool.h> (see stdint.h). */
#ifndef TPBGEN_FAKE_STDBOOL_H
#define TPBGEN_FAKE_STDBOOL_H
#define bool _Bool
#define true 1
#define false 0
#endif
