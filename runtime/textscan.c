/* The assembler's text scanner (see textscan.py, which loads it, and text.py's `_FastAsm`, which
 * reads what it gives).
 *
 * It reads the lines of a text as Python's `text.split("\n")` and each line as
 * `line.split(" ")` would (a line ends at '\n' and nowhere else, a token at ' ' and nowhere
 * else: other blanks are a token's bytes), and names each token by an id: two tokens have the
 * same id iff they are at the same place in their lines (the first token is at place 0) and
 * have the same bytes. Ids are given in the order the (place, bytes) pairs first occur, so the
 * answer depends on the text alone. It decides nothing about what a token means.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "textscan.h"

/* One entry of the interning table: the pair's hash, where its bytes first occur, how many,
 * its place and its id (-1: empty). */
typedef struct {
    uint64_t hash;
    int64_t at;
    int32_t len;
    int32_t pos;
    int64_t id;
} entry;

static uint64_t mix(uint64_t h) {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL
#define SPACES 0x2020202020202020ULL

/* FIRST + 8 - i: eight bytes, the first i of them 0xff (a mask of a word's first i bytes). */
static const unsigned char FIRST[16] = {255, 255, 255, 255, 255, 255, 255, 255};

/* One step of a token's hash over eight of its bytes (fewer, zero-filled, at its end). */
static uint64_t step(uint64_t h, uint64_t w) {
    h = (h ^ w) * 0x100000001b3ULL;
    return h ^ (h >> 29);
}

/* Whether a and b hold the same `len` bytes. */
static int same(const unsigned char *a, const unsigned char *b, int64_t len) {
    uint64_t x, y;
    while (len >= 8) {
        memcpy(&x, a, 8);
        memcpy(&y, b, 8);
        if (x != y) {
            return 0;
        }
        a += 8;
        b += 8;
        len -= 8;
    }
    while (len > 0) {
        if (*a++ != *b++) {
            return 0;
        }
        len--;
    }
    return 1;
}

/* Double the table (size a power of two), every entry put again by its hash. */
static entry *grow(entry *table, int64_t *size) {
    int64_t old = *size, bigger = old * 2;
    entry *t = malloc((size_t)bigger * sizeof(entry));
    if (t == NULL) {
        return NULL;
    }
    for (int64_t i = 0; i < bigger; i++) {
        t[i].id = -1;
    }
    for (int64_t i = 0; i < old; i++) {
        if (table[i].id >= 0) {
            int64_t k = (int64_t)(table[i].hash & (uint64_t)(bigger - 1));
            while (t[k].id >= 0) {
                k = (k + 1) & (bigger - 1);
            }
            t[k] = table[i];
        }
    }
    free(table);
    *size = bigger;
    return t;
}

/* The lines of text[start:n] (at most `max_lines`), each split into tokens, each token named by
 * the id of its (place, bytes) pair. For line k of those read:
 *   line_at[k]   its first byte's offset in `text`; line_at[lines] is where the next line starts
 *                (n + 1 after the text's last line, which no '\n' ends);
 *   line_tok[k]  the index in `ids` of its first token; line_tok[lines] is the tokens' count;
 * and for id d:
 *   tok_at[d], tok_len[d]  the offset and length of its first occurrence, tok_pos[d] its place.
 * `ids`, `tok_at`, `tok_len` and `tok_pos` hold `cap` entries: a line is read only if a token
 * for each of its bytes and one more would still fit (its tokens can be no more), so the answer
 * is whole lines. counts[0] is the number of ids, counts[1] the bytes the first line left unread
 * would need (0 if every line was read or `max_lines` stopped it). Returns the number of lines
 * read, or -1 if no memory could be had for the table. */
int64_t tpbgen_scan_lines(const unsigned char *text, int64_t n, int64_t start,
                          int64_t max_lines, int64_t cap, int64_t *line_at, int32_t *line_tok,
                          int32_t *ids, int64_t *tok_at, int32_t *tok_len, int32_t *tok_pos,
                          int64_t *counts) {
    int64_t size = 1024, distinct = 0, tokens = 0, lines = 0, at = start;
    entry *table = malloc((size_t)size * sizeof(entry));
    if (table == NULL) {
        return -1;
    }
    for (int64_t i = 0; i < size; i++) {
        table[i].id = -1;
    }
    counts[1] = 0;
    while (lines < max_lines && at <= n) {
        const unsigned char *nl = memchr(text + at, '\n', (size_t)(n - at));
        int64_t end = nl != NULL ? (int64_t)(nl - text) : n;
        if (tokens + (end - at) + 1 > cap) {
            counts[1] = (end - at) + 1;
            break;
        }
        line_at[lines] = at;
        line_tok[lines] = (int32_t)tokens;
        int64_t p = at, pos = 0;
        for (;;) {
            /* the token from p: up to a ' ' or the line's end, read eight bytes at a time (a
               word with a ' ' in it has a zero byte in w ^ SPACES), hashed as it is read */
            uint64_t h = mix((uint64_t)pos * 0x9e3779b97f4a7c15ULL), w;
            int64_t stop = p;
            for (;;) {
                int64_t room = end - stop < 8 ? end - stop : 8;
                int whole = stop + 8 <= n; /* eight bytes can be read here */
                if (whole) {
                    memcpy(&w, text + stop, 8);
                    uint64_t x = w ^ SPACES;
                    if (room == 8 && ((x - ONES) & ~x & HIGHS) == 0) {
                        h = step(h, w);
                        stop += 8;
                        continue;
                    }
                }
                int64_t i = 0; /* the ' ' is in these `room` bytes, or the line ends there */
                while (i < room && text[stop + i] != ' ') {
                    i++;
                }
                if (whole) { /* the token's first i bytes of w, in memory order */
                    uint64_t mask;
                    memcpy(&mask, FIRST + 8 - i, 8);
                    w &= mask;
                } else {
                    w = 0;
                    memcpy(&w, text + stop, (size_t)i);
                }
                h = step(h, w);
                stop += i;
                break;
            }
            int64_t len = stop - p;
            h = mix(h ^ (uint64_t)len);
            int64_t k = (int64_t)(h & (uint64_t)(size - 1));
            for (;;) {
                int64_t id = table[k].id;
                if (id < 0) {
                    id = distinct++;
                    table[k].hash = h;
                    table[k].at = p;
                    table[k].len = (int32_t)len;
                    table[k].pos = (int32_t)pos;
                    table[k].id = id;
                    tok_at[id] = p;
                    tok_len[id] = (int32_t)len;
                    tok_pos[id] = (int32_t)pos;
                    ids[tokens++] = (int32_t)id;
                    if (2 * distinct > size) {
                        entry *t = grow(table, &size);
                        if (t == NULL) {
                            free(table);
                            return -1;
                        }
                        table = t;
                    }
                    break;
                }
                if (table[k].hash == h && table[k].pos == pos && table[k].len == len &&
                    same(text + table[k].at, text + p, len)) {
                    ids[tokens++] = (int32_t)id;
                    break;
                }
                k = (k + 1) & (size - 1);
            }
            pos++;
            if (stop == end) {
                break;
            }
            p = stop + 1;
        }
        lines++;
        at = end + 1;
    }
    line_at[lines] = at;
    line_tok[lines] = (int32_t)tokens;
    counts[0] = distinct;
    free(table);
    return lines;
}
