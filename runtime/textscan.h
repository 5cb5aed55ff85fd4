/* The assembler's text scanner: a text's lines split at their blanks, each token given an id.
 *
 * This file is both the C header that textscan.c includes and the declaration cffi reads
 * (textscan.py), so it holds only what cdef accepts: no preprocessor lines, no includes (the
 * fixed-width types are cffi built-ins; textscan.c includes <stdint.h> first).
 */

int64_t tpbgen_scan_lines(const unsigned char *text, int64_t n, int64_t start,
                          int64_t max_lines, int64_t cap, int64_t *line_at, int32_t *line_tok,
                          int32_t *ids, int64_t *tok_at, int32_t *tok_len, int32_t *tok_pos,
                          int64_t *counts);
