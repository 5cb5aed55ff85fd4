/* tpbgen's stand-in for the GNU spellings of C keywords, which pycparser does not read.
 * Included first in every translation unit; __attribute__ is handled by the dialect pass. */
#ifndef TPBGEN_GNU_H
#define TPBGEN_GNU_H
#define __inline__ inline
#define __inline inline
#define __restrict__ restrict
#define __restrict restrict
#define __const const
#define __signed__ signed
#define __signed signed
#define __volatile__ volatile
#define __extension__
#define __alignof__ _Alignof
#endif
