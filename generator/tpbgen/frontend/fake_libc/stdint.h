/* tpbgen's stand-in for <stdint.h>: the fixed-width types the TPB headers use, on an LP64
 * target. pycparser cannot parse a system libc's headers (compiler extensions), so ingest puts
 * this directory first on the include path; the C compiler itself uses the real libc. */
#ifndef TPBGEN_FAKE_STDINT_H
#define TPBGEN_FAKE_STDINT_H
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long int64_t;
typedef unsigned long uint64_t;
typedef unsigned long uintptr_t;
typedef long intptr_t;
#endif
