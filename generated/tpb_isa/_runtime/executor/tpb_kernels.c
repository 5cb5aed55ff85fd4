/* The kernels of the executor's C backend, compiled with cffi on first use (see cbackend.py).
 *
 * They mirror the numpy backend operation for operation (dtypes.encode_format, alu.arith and
 * alu.bitvec, the accumulate recurrences and the exp polynomial), so the two backends are
 * bit-identical; the differential tests check that. Compile flags forbid FMA contraction and
 * fast-math so every fp32 operation is one IEEE binary32 operation.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include "tpb_kernels.h"

/* The executor's semantic codes (OP_, D_, W_ + the enumerator's name), never a drop's values:
   emitted by tpbgen from its table of executor semantics, as is the Python side's codes.py */
#include "tpb_codes.h"

#define BLK 1024

/* Hot helpers are inlined into the exported kernels; on x86-64 Linux with GCC the kernels are
   cloned for AVX-512 (x86-64-v4) and AVX2 and dispatched at load time: the same IEEE operations
   (no contraction, no fast-math: see cextensions.py), so the same bits on every clone. The
   block-level loads and stores (a loop per dtype each) are compiled once per clone and called
   once per block of BLK elements (TPB_BLOCK), not inlined into every kernel: that is most of the
   build's time and memory saved for a call per 1024 elements. */
#if defined(__GNUC__)
#define TPB_INLINE static inline __attribute__((always_inline))
#else
#define TPB_INLINE static inline
#endif
#if defined(TPB_CLONES)
/* given on the command line: `-DTPB_CLONES=` builds one ISA only (tests/executor/test_engine_clones.py) */
#define TPB_ONE_ISA 1
#elif defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#if __GNUC__ >= 11 /* the x86-64-v4 level (AVX-512 F/BW/CD/DQ/VL) is named from GCC 11 */
#define TPB_CLONES __attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
#else
#define TPB_CLONES __attribute__((target_clones("avx2", "default")))
#endif
#else
#define TPB_CLONES
#endif
#if defined(__GNUC__)
#define TPB_BLOCK static __attribute__((noinline)) TPB_CLONES
#define TPB_PREFETCH(p) __builtin_prefetch(p) /* a hint: never faults, changes no result */
#else
#define TPB_BLOCK static
#define TPB_PREFETCH(p) ((void)(p))
#endif

static inline uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline float qnan(void) { return u2f(0x7FC00000u); }
/* fp32 bits as stored: a NaN becomes the canonical quiet NaN */
static inline uint32_t canon_f32(uint32_t u) {
    return ((u & 0x7FFFFFFFu) > 0x7F800000u) ? 0x7FC00000u : u;
}

static int dsize(int code) {
    switch (code) {
    case D_INT8: case D_UINT8: case D_FP8_EXP3: case D_FP8_EXP4: case D_FP8_EXP5: return 1;
    case D_INT16: case D_UINT16: case D_BFLOAT16: case D_FP16: return 2;
    case D_INT32: case D_UINT32: case D_FP32: case D_FP32R: return 4;
    default: return 0;
    }
}

/* ---------------------------------------------------------------- formats */
typedef struct {
    int ebits, mbits, bias;
    int64_t max_code;
    uint32_t nan_code, inf_code;
    int has_inf, ieee_specials, is_fp8;
} tpb_fmt;

static tpb_fmt fmt_for(int code, const tpb_cfg *c) {
    tpb_fmt f;
    memset(&f, 0, sizeof f);
    switch (code) {
    case D_BFLOAT16: f.ebits = 8; f.mbits = 7; f.bias = 127; f.max_code = 0x7F7F;
        f.nan_code = 0x7FC0; f.inf_code = 0x7F80; f.has_inf = 1; f.ieee_specials = 1; break;
    case D_FP16: f.ebits = 5; f.mbits = 10; f.bias = 15; f.max_code = 0x7BFF;
        f.nan_code = 0x7E00; f.inf_code = 0x7C00; f.has_inf = 1; f.ieee_specials = 1; break;
    case D_FP8_EXP5: f.ebits = 5; f.mbits = 2; f.bias = 15; f.max_code = 0x7B;
        f.nan_code = 0x7E; f.inf_code = 0x7C; f.has_inf = 1; f.ieee_specials = 1;
        f.is_fp8 = 1; break;
    case D_FP8_EXP4:
        f.ebits = 4; f.mbits = 3; f.bias = 7; f.is_fp8 = 1;
        if (c->e4m3_ocp) { f.max_code = 0x7E; f.nan_code = 0x7F; f.inf_code = 0;
                           f.has_inf = 0; f.ieee_specials = 0; }
        else { f.max_code = 0x77; f.nan_code = 0x7C; f.inf_code = 0x78; f.has_inf = 1;
               f.ieee_specials = 1; }
        break;
    case D_FP8_EXP3: f.ebits = 3; f.mbits = 4; f.bias = 3; f.max_code = 0x6F;
        f.nan_code = 0x78; f.inf_code = 0x70; f.has_inf = 1; f.ieee_specials = 1;
        f.is_fp8 = 1; break;
    case D_FP32R: {
        int m = c->fp32r_bits;
        f.ebits = 8; f.mbits = m; f.bias = 127;
        f.max_code = ((int64_t)0xFE << m) | (((int64_t)1 << m) - 1);
        f.nan_code = 0; f.inf_code = (uint32_t)0xFF << m; f.has_inf = 1; f.ieee_specials = 1;
        break; }
    default: break;
    }
    return f;
}

static float decode_fmt(uint32_t code, const tpb_fmt *f) {
    int m = f->mbits;
    uint32_t sign = (code >> (f->ebits + m)) & 1u;
    uint32_t e = (code >> m) & ((1u << f->ebits) - 1u);
    uint32_t mant = code & ((1u << m) - 1u);
    uint32_t emax = (1u << f->ebits) - 1u;
    float mag;
    if (e == 0) mag = ldexpf((float)mant, 1 - f->bias - m);
    else mag = ldexpf((float)(mant | (1u << m)), (int)e - f->bias - m);
    if (f->ieee_specials) {
        if (e == emax) mag = (mant == 0) ? u2f(0x7F800000u) : qnan();
    } else if (e == emax && mant == (1u << m) - 1u) {
        mag = qnan();
    }
    return sign ? -mag : mag;
}

/* ---------------------------------------------------------------- rounding stream */
static inline uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static inline uint32_t rand32(uint64_t key, uint64_t idx) {
    return (uint32_t)(mix64(key + idx * 0x9E3779B97F4A7C15ull) & 0xFFFFFFFFull);
}

/* fp32 -> format code (sign included); mirrors dtypes.encode_format.

   Branch-free: both the normal-range rounding and the subnormal rounding are computed and the
   result selected, so the store loops vectorise. The format's mantissa width `m`, bias, width and
   the rounding mode are arguments that the per-format store loops pass as constants (after
   inlining, each loop is specialised); the overflow/NaN codes are loop invariants (enc_params).
   Every select reproduces one branch of the scalar algorithm of dtypes.encode_format:
     * NaN -> nan_code (sign clear);
     * normal range (fp32 exponent >= the format's minimum normal): round the bit pattern at
       23 - m bits (RNE: add half-ulp-minus-one plus the lsb; stochastic: add random low bits)
       and rebias;
     * below it: round the 24-bit significand to the format's subnormal quantum, a shift s in
       [1, 31] (s >= 32 gives 0); for bias 127 (bf16, FP32R) this is the normal formula itself,
       so that path is compiled out;
     * a magnitude above max_code: +-max (fp8 saturate), +-Inf, or the NaN code (e4m3fn). */
typedef struct {
    uint32_t max_code, nan_code, ovf_code, ovf_sign; /* ovf_sign: all ones if the sign is kept */
} enc_params;

static enc_params enc_params_for(const tpb_fmt *f, const tpb_cfg *c) {
    enc_params P;
    P.max_code = (uint32_t)f->max_code;
    P.nan_code = f->nan_code;
    if (f->is_fp8 && c->fp8_saturate) { P.ovf_code = (uint32_t)f->max_code; P.ovf_sign = ~0u; }
    else if (f->has_inf) { P.ovf_code = f->inf_code; P.ovf_sign = ~0u; }
    else { P.ovf_code = f->nan_code; P.ovf_sign = 0u; }
    return P;
}

TPB_INLINE uint32_t encode_bits(float xf, uint32_t rnd, const int stoch, const int m,
                                const int bias, const int width, const enc_params *P) {
    uint32_t u = f2u(xf);
    uint32_t a = u & 0x7FFFFFFFu;
    uint32_t sg = (u >> 31) << (width - 1);
    int shift = 23 - m;
    uint32_t low = (1u << shift) - 1u;
    uint32_t bump = stoch ? (rnd & low) : (((1u << (shift - 1)) - 1u) + ((a >> shift) & 1u));
    /* cannot wrap: a <= 0x7FFFFFFF and bump < 2**22 */
    uint32_t mag = ((a + bump) >> shift) - ((uint32_t)(127 - bias) << m);
    uint32_t res;
    if (bias != 127) {
        uint32_t e32 = a >> 23;
        uint32_t sig = (a & 0x7FFFFFu) | (e32 ? 0x800000u : 0u);
        int32_t s = (int32_t)(151 - bias - m) - (int32_t)(e32 > 1u ? e32 : 1u);
        uint32_t gone = s >= 32 ? 1u : 0u;
        uint32_t sh, q;
        s = s < 1 ? 1 : (s > 31 ? 31 : s);
        sh = (uint32_t)s;
        /* the same rounding-by-addition as the normal path, on the significand: (sig + bump)
           >> sh is q + (rem + bump >= 2**sh), i.e. RNE's "rem > half, or rem == half and q
           odd" and stochastic's carry; sig < 2**24 and bump < 2**31, so no wrap */
        if (stoch) q = (sig + (rnd & ((1u << sh) - 1u))) >> sh;
        else q = (sig + ((1u << (sh - 1u)) - 1u) + ((sig >> sh) & 1u)) >> sh;
        q = gone ? 0u : q;
        mag = (e32 >= (uint32_t)(128 - bias)) ? mag : q;
    }
    res = (mag > P->max_code) ? (P->ovf_code | (sg & P->ovf_sign)) : (mag | sg);
    return (a > 0x7F800000u) ? P->nan_code : res;
}

/* the scalar form (one element; the rounding stream drawn here) */
TPB_INLINE uint32_t encode_fmt(float xf, const tpb_fmt *f, const tpb_cfg *c, uint64_t idx) {
    enc_params P = enc_params_for(f, c);
    uint32_t rnd = c->stochastic ? rand32(c->key, idx) : 0u;
    return encode_bits(xf, rnd, c->stochastic != 0, f->mbits, f->bias, 1 + f->ebits + f->mbits,
                       &P);
}

TPB_INLINE int64_t to_int(float x, int code, const tpb_cfg *c) {
    double lo, hi;
    switch (code) {
    case D_INT8: lo = -128.0; hi = 127.0; break;
    case D_UINT8: lo = 0.0; hi = 255.0; break;
    case D_INT16: lo = -32768.0; hi = 32767.0; break;
    case D_UINT16: lo = 0.0; hi = 65535.0; break;
    case D_INT32: lo = -2147483648.0; hi = 2147483647.0; break;
    default: lo = 0.0; hi = 4294967295.0; break;
    }
    if (x != x) return c->f2i_truncate ? 0 : (int64_t)hi;
    {
        float y = c->f2i_truncate ? truncf(x) : rintf(x);
        double d = (double)y;
        if (d < lo) d = lo;
        if (d > hi) d = hi;
        return (int64_t)d;
    }
}

/* ---------------------------------------------------------------- load / store */
/* element loads and round-to-nearest-even stores of the fused loops (`xs`, `os`: the rows) */
#define LD_F32(k) (((const float *)xs)[k])
#define LD_BF16(k) u2f((uint32_t)((const uint16_t *)xs)[k] << 16)
#define ST_F32(k, y) (((uint32_t *)os)[k] = canon_f32(f2u(y)))
/* bf16 RNE on the bit pattern, branch-free: equal to encode_fmt for every input (bf16 has
   fp32's exponent range: subnormals and overflow to infinity come out of the one addition; a
   NaN is the canonical quiet NaN, sign dropped, as encode_fmt returns it). A specialisation of
   encode_bits kept on purpose: the fused loops through encode_bits ran at 0.69x of this one
   (measured with benchmarks/execute.py --case bf16, c_kernel_compact); tests hold the two equal
   on every bf16 input and every fp32 rounding boundary */
#define ST_BF16(k, y) do { \
        uint32_t u_ = f2u(y); \
        uint32_t r_ = (u_ + 0x7FFFu + ((u_ >> 16) & 1u)) >> 16; \
        ((uint16_t *)os)[k] = (uint16_t)(((u_ & 0x7FFFFFFFu) > 0x7F800000u) ? 0x7FC0u : r_); \
    } while (0)
/* fp16 bits -> fp32, exactly and without a table: normals rebias by adding to the exponent,
   subnormals are mant * 2**-24 (an exact int -> float conversion, then 24 off its exponent field:
   integer operations only, so the loop vectorises under the default -ftrapping-math), Inf stays Inf, every NaN becomes the quiet NaN with the input's sign
   (what decode_fmt gives). */
TPB_INLINE float fp16_to_f32(uint32_t h) {
    /* selects written as masks: GCC 12 does not if-convert the nested ?: form of this one */
    uint32_t em = h & 0x7FFFu;
    uint32_t sg = (h & 0x8000u) << 16;
    uint32_t nrm = (em << 13) + (112u << 23);
    uint32_t sub = f2u((float)(int32_t)em) - (24u << 23); /* em * 2**-24, em in 1..0x3FF */
    uint32_t is_sub = 0u - (uint32_t)(em < 0x400u), is_zero = 0u - (uint32_t)(em == 0u);
    uint32_t is_spec = 0u - (uint32_t)(em >= 0x7C00u), is_inf = 0u - (uint32_t)(em == 0x7C00u);
    uint32_t spec = (0x7F800000u & is_inf) | (0x7FC00000u & ~is_inf);
    uint32_t mag = ((sub & is_sub) | (nrm & ~is_sub)) & ~is_zero;
    mag = (spec & is_spec) | (mag & ~is_spec);
    return u2f(mag | sg);
}

/* One loop per dtype, the switch outside it; the contiguous case (es == 1) separate so it
   vectorises. Loads go through memcpy: element addresses need not be aligned. */
#define LOAD_LOOP(T, EXPR) \
    do { const char *b_ = base + i0 * es * (int64_t)sizeof(T); \
         if (es == 1) { for (k = 0; k < cnt; k++) { T v; memcpy(&v, b_ + k * (int64_t)sizeof(T), \
                                                                 sizeof(T)); out[k] = (EXPR); } } \
         else { for (k = 0; k < cnt; k++) { T v; memcpy(&v, b_ + k * es * (int64_t)sizeof(T), \
                                                         sizeof(T)); out[k] = (EXPR); } } \
    } while (0)

TPB_BLOCK void load_block(int code, const char *base, int64_t es, int64_t i0, int64_t cnt,
                           float *restrict out, const float *restrict lut) {
    int64_t k;
    switch (code) {
    case D_FP32: case D_FP32R: LOAD_LOOP(float, v); break;
    case D_BFLOAT16: LOAD_LOOP(uint16_t, u2f((uint32_t)v << 16)); break;
    case D_FP16: LOAD_LOOP(uint16_t, fp16_to_f32(v)); break;
    case D_FP8_EXP3: case D_FP8_EXP4: case D_FP8_EXP5: LOAD_LOOP(uint8_t, lut[v]); break;
    case D_INT8: LOAD_LOOP(int8_t, (float)v); break;
    case D_UINT8: LOAD_LOOP(uint8_t, (float)v); break;
    case D_INT16: LOAD_LOOP(int16_t, (float)v); break;
    case D_UINT16: LOAD_LOOP(uint16_t, (float)v); break;
    case D_INT32: LOAD_LOOP(int32_t, (float)v); break;
    case D_UINT32: LOAD_LOOP(uint32_t, (float)v); break;
    default: for (k = 0; k < cnt; k++) out[k] = 0.0f; break;
    }
}

TPB_INLINE void fast_load_fp32(const char *base, int64_t es, int64_t i0, int64_t cnt, float *out) {
    if (es == 1) { memcpy(out, base + i0 * 4, (size_t)cnt * 4); return; }
    { int64_t k; for (k = 0; k < cnt; k++) memcpy(&out[k], base + (i0 + k) * es * 4, 4); }
}

/* the stochastic-rounding bits of a block, one 32-bit draw per element index */
TPB_INLINE void rand_block(uint64_t key, uint64_t idx0, int64_t cnt, uint32_t *restrict r) {
    int64_t k;
    for (k = 0; k < cnt; k++) r[k] = rand32(key, idx0 + (uint64_t)k);
}

/* a narrow-float store loop: T the storage type, M/BIAS/WIDTH the format (constants here) */
#define ENC_LOOP(T, M, BIAS, WIDTH) \
    do { T *o_ = (T *)(void *)row + i0; \
         if (c->stochastic) { \
             for (j = 0; j < cnt; j += RB) { \
                 int64_t n_ = (cnt - j < RB) ? cnt - j : RB; \
                 rand_block(c->key, idx0 + (uint64_t)j, n_, rb); \
                 for (k = 0; k < n_; k++) \
                     o_[j + k] = (T)encode_bits(in[j + k], rb[k], 1, (M), (BIAS), (WIDTH), &P); \
             } \
         } else { \
             for (k = 0; k < cnt; k++) o_[k] = (T)encode_bits(in[k], 0u, 0, (M), (BIAS), (WIDTH), &P); \
         } \
    } while (0)
#define RB 256

TPB_BLOCK void store_block(const tpb_cfg *c, const tpb_fmt *f, const float *restrict in,
                            char *restrict row, int64_t i0, int64_t cnt, uint64_t idx0) {
    int code = c->out_code;
    int64_t k, j;
    uint32_t rb[RB];
    enc_params P = enc_params_for(f, c);
    switch (code) {
    case D_FP32: {
        uint32_t *o = (uint32_t *)(void *)row + i0;
        for (k = 0; k < cnt; k++) {
            uint32_t u = f2u(in[k]);
            o[k] = canon_f32(u);
        }
        break; }
    case D_FP32R: {
        uint32_t *o = (uint32_t *)(void *)row + i0;
        int m = f->mbits;
        uint32_t mmask = (1u << (8 + m)) - 1u;
        if (c->stochastic) {
            for (j = 0; j < cnt; j += RB) {
                int64_t n_ = (cnt - j < RB) ? cnt - j : RB;
                rand_block(c->key, idx0 + (uint64_t)j, n_, rb);
                for (k = 0; k < n_; k++) {
                    uint32_t u = f2u(in[j + k]);
                    uint32_t cd = encode_bits(in[j + k], rb[k], 1, m, 127, 9 + m, &P);
                    uint32_t v = ((cd >> (8 + m)) << 31) | ((cd & mmask) << (23 - m));
                    o[j + k] = ((u & 0x7FFFFFFFu) > 0x7F800000u) ? 0x7FC00000u : v;
                }
            }
        } else {
            for (k = 0; k < cnt; k++) {
                uint32_t u = f2u(in[k]);
                uint32_t cd = encode_bits(in[k], 0u, 0, m, 127, 9 + m, &P);
                uint32_t v = ((cd >> (8 + m)) << 31) | ((cd & mmask) << (23 - m));
                o[k] = ((u & 0x7FFFFFFFu) > 0x7F800000u) ? 0x7FC00000u : v;
            }
        }
        break; }
    case D_BFLOAT16: ENC_LOOP(uint16_t, 7, 127, 16); break;
    case D_FP16: ENC_LOOP(uint16_t, 10, 15, 16); break;
    case D_FP8_EXP5: ENC_LOOP(uint8_t, 2, 15, 8); break;
    case D_FP8_EXP4: ENC_LOOP(uint8_t, 3, 7, 8); break;
    case D_FP8_EXP3: ENC_LOOP(uint8_t, 4, 3, 8); break;
    case D_INT8: {
        int8_t *o = (int8_t *)(void *)row + i0;
        for (k = 0; k < cnt; k++) o[k] = (int8_t)to_int(in[k], D_INT8, c);
        break; }
    case D_UINT8: {
        uint8_t *o = (uint8_t *)row + i0;
        for (k = 0; k < cnt; k++) o[k] = (uint8_t)to_int(in[k], D_UINT8, c);
        break; }
    case D_INT16: {
        int16_t *o = (int16_t *)(void *)row + i0;
        for (k = 0; k < cnt; k++) o[k] = (int16_t)to_int(in[k], D_INT16, c);
        break; }
    case D_UINT16: {
        uint16_t *o = (uint16_t *)(void *)row + i0;
        for (k = 0; k < cnt; k++) o[k] = (uint16_t)to_int(in[k], D_UINT16, c);
        break; }
    case D_INT32: {
        int32_t *o = (int32_t *)(void *)row + i0;
        for (k = 0; k < cnt; k++) o[k] = (int32_t)to_int(in[k], D_INT32, c);
        break; }
    case D_UINT32: {
        uint32_t *o = (uint32_t *)(void *)row + i0;
        for (k = 0; k < cnt; k++) o[k] = (uint32_t)to_int(in[k], D_UINT32, c);
        break; }
    default: break;
    }
}

/* convert a block into contiguous bytes, then place them at element stride `es` */
TPB_INLINE void put_block(const tpb_cfg *c, const tpb_fmt *f, const float *in, char *row, int64_t es,
                          int osz, int64_t i0, int64_t cnt, uint64_t idx0, uint32_t *obuf) {
    if (es == 1) {
        store_block(c, f, in, row, i0, cnt, idx0);
        return;
    }
    store_block(c, f, in, (char *)obuf, 0, cnt, idx0);
    {
        int64_t k;
        const char *b = (const char *)obuf;
        for (k = 0; k < cnt; k++) memcpy(row + (i0 + k) * es * osz, b + k * osz, (size_t)osz);
    }
}

/* decode table for fp8 inputs (NULL for other dtypes, or when out of memory); fp16 is decoded
   arithmetically (fp16_to_f32) */
static float *make_lut(int code, const tpb_cfg *c) {
    float *lut;
    tpb_fmt f;
    uint32_t n, i;
    if (code != D_FP8_EXP3 && code != D_FP8_EXP4 && code != D_FP8_EXP5) return NULL;
    n = 256u;
    lut = (float *)malloc((size_t)n * sizeof(float));
    if (!lut) return NULL;
    f = fmt_for(code, c);
    for (i = 0; i < n; i++) lut[i] = decode_fmt(i, &f);
    return lut;
}

static int needs_lut(int code) {
    return code == D_FP8_EXP3 || code == D_FP8_EXP4 || code == D_FP8_EXP5;
}

/* ---------------------------------------------------------------- arithmetic */
static inline int isn(float x) { return x != x; }

static inline float f_max(float a, float b) {
    if (isn(a) || isn(b)) return qnan();
    if (a > b) return a;
    if (b > a) return b;
    return signbit(a) ? b : a;
}
static inline float f_min(float a, float b) {
    if (isn(a) || isn(b)) return qnan();
    if (a < b) return a;
    if (b < a) return b;
    return signbit(a) ? a : b;
}
static inline float f_absmax(float a, float b) {
    if (isn(a) || isn(b)) return qnan();
    return (fabsf(b) > fabsf(a)) ? b : a;
}
static inline float f_absmin(float a, float b) {
    if (isn(a) || isn(b)) return qnan();
    return (fabsf(b) < fabsf(a)) ? b : a;
}

/* f_max / f_min as selects (the same results: NaN -> the quiet NaN, -0 below +0), for loops
   the compiler should keep free of branches */
static inline float f_max_sel(float a, float b) {
    float r = (a > b) ? a : b;
    r = (a == b) ? (signbit(a) ? b : a) : r;
    return (a != a || b != b) ? qnan() : r;
}
static inline float f_min_sel(float a, float b) {
    float r = (a < b) ? a : b;
    r = (a == b) ? (signbit(a) ? a : b) : r;
    return (a != a || b != b) ? qnan() : r;
}

static inline float f_binary(int op, float a, float b) {
    switch (op) {
    case OP_ADD: return a + b;
    case OP_SUBTRACT: return a - b;
    case OP_MULT: return a * b;
    case OP_MAX: return f_max(a, b);
    case OP_MIN: return f_min(a, b);
    case OP_ABSOLUTE_DIFF: return fabsf(a - b);
    case OP_ABS_MAX: return f_absmax(a, b);
    case OP_ABS_MIN: return f_absmin(a, b);
    case OP_LOGICAL_AND: return ((a != 0.0f) && (b != 0.0f)) ? 1.0f : 0.0f;
    case OP_LOGICAL_OR: return ((a != 0.0f) || (b != 0.0f)) ? 1.0f : 0.0f;
    case OP_LOGICAL_XOR: return ((a != 0.0f) != (b != 0.0f)) ? 1.0f : 0.0f;
    case OP_IS_EQ: return (a == b) ? 1.0f : 0.0f;
    case OP_IS_NE: return (a != b) ? 1.0f : 0.0f;
    case OP_IS_GT: return (a > b) ? 1.0f : 0.0f;
    case OP_IS_GE: return (a >= b) ? 1.0f : 0.0f;
    case OP_IS_LE: return (a <= b) ? 1.0f : 0.0f;
    case OP_IS_LT: return (a < b) ? 1.0f : 0.0f;
    default: return qnan();
    }
}

#define STAGE_LOOP(EXPR) \
    do { int64_t k; \
         if (rev) { for (k = 0; k < cnt; k++) { float a = s, b = buf[k]; buf[k] = (EXPR); } } \
         else { for (k = 0; k < cnt; k++) { float a = buf[k], b = s; buf[k] = (EXPR); } } \
    } while (0)

TPB_INLINE void arith_stage(int op, float *buf, int64_t cnt, float s, int rev) {
    int64_t k;
    switch (op) {
    case OP_BYPASS: return;
    case OP_ABSOLUTE_VALUE: for (k = 0; k < cnt; k++) buf[k] = fabsf(buf[k]); return;
    case OP_SQUARE: for (k = 0; k < cnt; k++) buf[k] = buf[k] * buf[k]; return;
    case OP_RE_LU: for (k = 0; k < cnt; k++) buf[k] = f_max(buf[k], 0.0f); return;
    case OP_RSQRT: for (k = 0; k < cnt; k++) buf[k] = 1.0f / sqrtf(buf[k]); return;
    case OP_RECIPROCAL: for (k = 0; k < cnt; k++) buf[k] = 1.0f / buf[k]; return;
    case OP_ADD: STAGE_LOOP(a + b); return;
    case OP_SUBTRACT: STAGE_LOOP(a - b); return;
    case OP_MULT: STAGE_LOOP(a * b); return;
    default: STAGE_LOOP(f_binary(op, a, b)); return;
    }
}

/* Fused single-pass loops for fp32 -> fp32 with op0/op1 in {BYPASS, ADD, SUBTRACT, MULT, MAX,
   MIN}: the same per-element operations as the staged path, each op one of two parameterised
   forms (fused_stage), so there are four loops per load/store pair, not one per op pair:
     * affine, d * m + q (no contraction: two roundings): BYPASS is d * 1 + -0, ADD d * 1 + s,
       SUBTRACT d * 1 + -s (reversed d * -1 + s), MULT d * s + -0. Multiplying by 1 or -1 and
       adding -0 are exact, and x - y is x + -y in IEEE 754, so each is the op's one operation,
       bit for bit (a NaN stays a NaN; the stores make every NaN the canonical one);
     * clamp, f_min(f_max(d, lo), hi): MAX is lo = s, hi = +Inf, MIN lo = -Inf, hi = s (f_max
       with -Inf and f_min with +Inf return their other operand, or the quiet NaN).
   ADD, MULT, MAX and MIN are exactly commutative here, so only SUBTRACT looks at the reverse
   bit. Two affine stages where the first only multiplies (q0 = -0) or the second is the
   identity (m1 = 1, q1 = -0), such as MULT then ADD, are one: d * m0 + q1 (or + q0), the same
   two operations, a loop of its own; two identities (BYPASS, BYPASS: Cast 0x47) are a loop
   that only loads and stores, and RECIPROCAL then BYPASS (Reciprocal 0x48) is 1 / d, the IEEE
   division of arith_stage. */
enum { FS_AFFINE, FS_CLAMP };
#define FX_AFFINE(d, m, q) ((d) * (m) + (q))
#define FX_KEEP(d, m, q) (d)
#define FX_CLAMP(d, lo, hi) f_min(f_max((d), (lo)), (hi))
#define FX_RECIP(d, m, q) (1.0f / (d))
static int fused_stage(int op, int rev, float s, float *m, float *q) {
    switch (op) {
    case OP_ADD: *m = 1.0f; *q = s; return FS_AFFINE;
    case OP_SUBTRACT: *m = rev ? -1.0f : 1.0f; *q = rev ? s : -s; return FS_AFFINE;
    case OP_MULT: *m = s; *q = -0.0f; return FS_AFFINE;
    case OP_MAX: *m = s; *q = u2f(0x7F800000u); return FS_CLAMP;
    case OP_MIN: *m = u2f(0xFF800000u); *q = s; return FS_CLAMP;
    default: *m = 1.0f; *q = -0.0f; return FS_AFFINE; /* BYPASS */
    }
}
#define FUSED_LOOP(F0, F1, LD, ST) \
    for (k = 0; k < N; k++) { \
        float t = F0(LD(k), m0, q0); \
        float y = F1(t, m1, q1); \
        ST(k, y); \
    }
/* one row: the stages' forms are chosen outside the element loop */
#define FUSED_ROW(NAME, LD, ST) \
    TPB_INLINE void NAME(const tpb_cfg *c, const void *xs, void *os, int64_t N, float a, \
                         float b) { \
        int64_t k; \
        float m0, q0, m1, q1; \
        int f0 = fused_stage(c->op0, c->rev0, a, &m0, &q0); \
        int f1 = fused_stage(c->op1, c->rev1, b, &m1, &q1); \
        int one = f0 == FS_AFFINE && f1 == FS_AFFINE && m1 == 1.0f && \
                  (f2u(q0) == 0x80000000u || f2u(q1) == 0x80000000u); \
        if (c->op0 == OP_RECIPROCAL) { /* fused_kind: only with op1 BYPASS */ \
            FUSED_LOOP(FX_RECIP, FX_KEEP, LD, ST) \
        } else if (one && m0 == 1.0f && f2u(q0) == 0x80000000u && f2u(q1) == 0x80000000u) { \
            FUSED_LOOP(FX_KEEP, FX_KEEP, LD, ST) /* both BYPASS (or x 1, + -0): a move */ \
        } else if (one) { \
            q0 = (f2u(q0) == 0x80000000u) ? q1 : q0; \
            FUSED_LOOP(FX_AFFINE, FX_KEEP, LD, ST) \
        } else if (f0 == FS_AFFINE && f1 == FS_AFFINE) FUSED_LOOP(FX_AFFINE, FX_AFFINE, LD, ST) \
        else if (f0 == FS_AFFINE) FUSED_LOOP(FX_AFFINE, FX_CLAMP, LD, ST) \
        else if (f1 == FS_AFFINE) FUSED_LOOP(FX_CLAMP, FX_AFFINE, LD, ST) \
        else FUSED_LOOP(FX_CLAMP, FX_CLAMP, LD, ST) \
    }

static int fusable(int op) {
    return op == OP_BYPASS || op == OP_ADD || op == OP_SUBTRACT || op == OP_MULT || op == OP_MAX ||
           op == OP_MIN;
}

FUSED_ROW(fused_f32_f32, LD_F32, ST_F32)
FUSED_ROW(fused_f32_bf16, LD_F32, ST_BF16)
FUSED_ROW(fused_bf16_f32, LD_BF16, ST_F32)
FUSED_ROW(fused_bf16_bf16, LD_BF16, ST_BF16)

enum { FUSED_NONE, FUSED_F32_F32, FUSED_F32_BF16, FUSED_BF16_F32, FUSED_BF16_BF16 };

/* Which fused loop runs this instruction, if any: fp32/bf16 in and out (a bf16 store rounds to
   nearest even), op0 and op1 in the fusable set, one scalar per partition, unit steps. (A kind,
   not a function pointer, so the loops inline into each target clone of the kernel.) */
static int fused_kind(const tpb_cfg *c, int64_t W, int64_t src_es, int64_t dst_es) {
    int in32 = c->in_code == D_FP32 || c->in_code == D_FP32R, in16 = c->in_code == D_BFLOAT16;
    int out32 = c->out_code == D_FP32, out16 = c->out_code == D_BFLOAT16 && !c->stochastic;
    int recip = c->op0 == OP_RECIPROCAL && c->op1 == OP_BYPASS; /* Reciprocal 0x48's stages */
    if (W != 1 || src_es != 1 || dst_es != 1 || !(recip || (fusable(c->op0) && fusable(c->op1))))
        return FUSED_NONE;
    if (in32 && out32) return FUSED_F32_F32;
    if (in32 && out16) return FUSED_F32_BF16;
    if (in16 && out32) return FUSED_BF16_F32;
    if (in16 && out16) return FUSED_BF16_BF16;
    return FUSED_NONE;
}

TPB_CLONES
int tpb_ts_arith(const tpb_cfg *c, const void *src, int64_t src_rs, int64_t src_es,
                 void *dst, int64_t dst_rs, int64_t dst_es, int64_t n, int64_t N, int64_t W,
                 const float *s0, const float *s1) {
    float *lut;
    float buf[BLK];
    uint32_t obuf[BLK];
    tpb_fmt f = fmt_for(c->out_code, c);
    int isz = dsize(c->in_code), osz = dsize(c->out_code);
    int64_t L = (W > 0) ? N / W : N;
    int64_t p;
    if (isz == 0 || osz == 0 || L <= 0) return -1;
    {
        int kind = fused_kind(c, W, src_es, dst_es);
        if (kind != FUSED_NONE) {
            for (p = 0; p < n; p++) {
                const char *x = (const char *)src + p * src_rs * isz;
                char *o = (char *)dst + p * dst_rs * osz;
                switch (kind) {
                case FUSED_F32_F32: fused_f32_f32(c, x, o, N, s0[p], s1[p]); break;
                case FUSED_F32_BF16: fused_f32_bf16(c, x, o, N, s0[p], s1[p]); break;
                case FUSED_BF16_F32: fused_bf16_f32(c, x, o, N, s0[p], s1[p]); break;
                default: fused_bf16_bf16(c, x, o, N, s0[p], s1[p]); break;
                }
            }
            return 0;
        }
    }
    lut = make_lut(c->in_code, c);
    if (needs_lut(c->in_code) && !lut) return -2;
    for (p = 0; p < n; p++) {
        const char *srow = (const char *)src + p * src_rs * isz;
        char *drow = (char *)dst + p * dst_rs * osz;
        int64_t i0;
        for (i0 = 0; i0 < N; i0 += BLK) {
            int64_t cnt = (N - i0 < BLK) ? N - i0 : BLK;
            int64_t off = 0;
            if (c->in_code == D_FP32 || c->in_code == D_FP32R)
                fast_load_fp32(srow, src_es, i0, cnt, buf);
            else
                load_block(c->in_code, srow, src_es, i0, cnt, buf, lut);
            while (off < cnt) {
                int64_t w = (i0 + off) / L;
                int64_t seg_end = (w + 1) * L - i0;
                int64_t seg = ((seg_end < cnt) ? seg_end : cnt) - off;
                arith_stage(c->op0, buf + off, seg, s0[p * W + w], c->rev0);
                arith_stage(c->op1, buf + off, seg, s1[p * W + w], c->rev1);
                off += seg;
            }
            put_block(c, &f, buf, drow, dst_es, osz, i0, cnt, (uint64_t)(p * N + i0), obuf);
        }
    }
    free(lut);
    return 0;
}

/* ---------------------------------------------------------------- bitvec */
static inline uint32_t bv(int op, uint32_t a, uint32_t b, int w, uint32_t mask) {
    switch (op) {
    case OP_BITWISE_AND: return a & b;
    case OP_BITWISE_OR: return a | b;
    case OP_BITWISE_XOR: return a ^ b;
    case OP_ARITH_SHIFT_LEFT: case OP_LOGICAL_SHIFT_LEFT: return (b >= (uint32_t)w) ? 0u : ((a << b) & mask);
    case OP_LOGICAL_SHIFT_RIGHT: return (b >= (uint32_t)w) ? 0u : (a >> b);
    case OP_ARITH_SHIFT_RIGHT: {
        uint32_t neg = (a >> (w - 1)) & 1u;
        if (b >= (uint32_t)w) return neg ? mask : 0u;
        return (a >> b) | (neg ? (~(mask >> b) & mask) : 0u);
    }
    default: return 0u;
    }
}

TPB_INLINE void bitvec_stage(int op, uint32_t *buf, int64_t cnt, uint32_t s, int rev, int w,
                         uint32_t mask) {
    int64_t k;
    if (op == OP_BYPASS) return;
    if (op == OP_BITWISE_NOT) { for (k = 0; k < cnt; k++) buf[k] = ~buf[k] & mask; return; }
    if (rev) { for (k = 0; k < cnt; k++) buf[k] = bv(op, s, buf[k], w, mask); }
    else { for (k = 0; k < cnt; k++) buf[k] = bv(op, buf[k], s, w, mask); }
}

TPB_CLONES
int tpb_ts_bitvec(const tpb_cfg *c, const void *src, int64_t src_rs, int64_t src_es,
                  void *dst, int64_t dst_rs, int64_t dst_es, int64_t n, int64_t N, int64_t W,
                  const uint32_t *s0, const uint32_t *s1) {
    uint32_t buf[BLK];
    int isz = dsize(c->in_code);
    int w = isz * 8;
    uint32_t mask = (w == 32) ? 0xFFFFFFFFu : ((1u << w) - 1u);
    int64_t L = (W > 0) ? N / W : N;
    int64_t p;
    if (isz == 0 || L <= 0) return -1;
    for (p = 0; p < n; p++) {
        const char *srow = (const char *)src + p * src_rs * isz;
        char *drow = (char *)dst + p * dst_rs * isz;
        int64_t i0;
        for (i0 = 0; i0 < N; i0 += BLK) {
            int64_t cnt = (N - i0 < BLK) ? N - i0 : BLK;
            int64_t k, off = 0;
            for (k = 0; k < cnt; k++) {
                const char *q = srow + (i0 + k) * src_es * isz;
                if (isz == 1) buf[k] = *(const uint8_t *)q;
                else if (isz == 2) { uint16_t v; memcpy(&v, q, 2); buf[k] = v; }
                else { uint32_t v; memcpy(&v, q, 4); buf[k] = v; }
            }
            while (off < cnt) {
                int64_t wi = (i0 + off) / L;
                int64_t seg_end = (wi + 1) * L - i0;
                int64_t seg = ((seg_end < cnt) ? seg_end : cnt) - off;
                bitvec_stage(c->op0, buf + off, seg, s0[p * W + wi] & mask, c->rev0, w, mask);
                bitvec_stage(c->op1, buf + off, seg, s1[p * W + wi] & mask, c->rev1, w, mask);
                off += seg;
            }
            for (k = 0; k < cnt; k++) {
                char *q = drow + (i0 + k) * dst_es * isz;
                if (isz == 1) *(uint8_t *)q = (uint8_t)buf[k];
                else if (isz == 2) { uint16_t v = (uint16_t)buf[k]; memcpy(q, &v, 2); }
                else memcpy(q, &buf[k], 4);
            }
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- accumulate */
/* Each partition's running value is a chain of dependent operations along its row, one element
 * at a time: run alone, a row waits out the latency of every add. ACC_G partitions are run side
 * by side instead, their chains interleaved element by element (each row still folded in its
 * own element order, so the bits are the same), in blocks of ACC_BLK elements staged per row.
 * A group of fewer than ACC_G rows (the last) runs its spare lanes on a zero row, unstored. */
#define ACC_G 16
#define ACC_BLK 256

/* the chains of one block: reg[j] folded over buf[j][0..cnt), out[j][k] the value after k */
#define ACC_CHAINS(EXPR)                                                                     \
    for (k = 0; k < cnt; k++) {                                                              \
        for (j = 0; j < ACC_G; j++) {                                                        \
            float a_ = buf[j][k], b_ = reg[j];                                               \
            reg[j] = (EXPR);                                                                 \
            out[j][k] = reg[j];                                                              \
        }                                                                                    \
    }

TPB_INLINE void acc_chains(int op, float buf[ACC_G][ACC_BLK], float out[ACC_G][ACC_BLK],
                           float reg[ACC_G], int64_t cnt) {
    int64_t k;
    int j;
    switch (op) { /* the common operators with the switch outside the element loop */
    case OP_ADD: ACC_CHAINS(a_ + b_) break;
    case OP_MULT: ACC_CHAINS(a_ * b_) break;
    case OP_MAX: ACC_CHAINS(f_max(a_, b_)) break;
    case OP_MIN: ACC_CHAINS(f_min(a_, b_)) break;
    default: ACC_CHAINS(f_binary(op, a_, b_)) break;
    }
}

TPB_CLONES
int tpb_accumulate(const tpb_cfg *c, const void *src, int64_t src_rs, int64_t src_es,
                   void *dst, int64_t dst_rs, int64_t dst_es, int64_t n, int64_t N,
                   const float *s0, float *acc, int32_t cumulative, int32_t use_acc) {
    float *lut;
    float buf[ACC_G][ACC_BLK], out[ACC_G][ACC_BLK], reg[ACC_G];
    uint32_t obuf[ACC_BLK];
    tpb_fmt f = fmt_for(c->out_code, c);
    int isz = dsize(c->in_code), osz = dsize(c->out_code);
    int64_t p0;
    if (isz == 0 || osz == 0) return -1;
    lut = make_lut(c->in_code, c);
    if (needs_lut(c->in_code) && !lut) return -2;
    for (p0 = 0; p0 < n; p0 += ACC_G) {
        int g = (n - p0 < ACC_G) ? (int)(n - p0) : ACC_G;
        int j;
        int64_t i0;
        for (j = 0; j < ACC_G; j++) reg[j] = j < g ? acc[p0 + j] : 0.0f;
        for (i0 = 0; i0 < N; i0 += ACC_BLK) {
            int64_t cnt = (N - i0 < ACC_BLK) ? N - i0 : ACC_BLK;
            for (j = 0; j < ACC_G; j++) {
                if (j < g) {
                    const char *srow = (const char *)src + (p0 + j) * src_rs * isz;
                    load_block(c->in_code, srow, src_es, i0, cnt, buf[j], lut);
                    arith_stage(c->op0, buf[j], cnt, s0[p0 + j], c->rev0);
                } else {
                    memset(buf[j], 0, sizeof buf[j]);
                }
            }
            if (use_acc) {
                acc_chains(c->op1, buf, out, reg, cnt);
            } else if (cumulative) { /* no fold: the running value stays the seed */
                int64_t k;
                for (j = 0; j < g; j++)
                    for (k = 0; k < cnt; k++) out[j][k] = reg[j];
            }
            for (j = 0; j < g; j++) {
                char *drow = (char *)dst + (p0 + j) * dst_rs * osz;
                put_block(c, &f, cumulative ? out[j] : buf[j], drow, dst_es, osz, i0, cnt,
                          (uint64_t)((p0 + j) * N + i0), obuf);
            }
        }
        for (j = 0; j < g; j++) acc[p0 + j] = reg[j];
    }
    free(lut);
    return 0;
}

/* ---------------------------------------------------------------- exponential */
static inline float pow2i(int k) { return u2f((uint32_t)(k + 127) << 23); }

TPB_INLINE float exp_f32(float x) {
    float xc, nf, r, z, y;
    int ni, n1, n2;
    if (isn(x)) return qnan();
    xc = x;
    if (xc > 89.0f) xc = 89.0f;
    if (xc < -104.0f) xc = -104.0f;
    nf = rintf(xc * 1.44269504088896341f);
    r = xc - nf * 0.693359375f;
    r = r - nf * -2.12194440e-4f;
    z = r * r;
    y = 1.9875691500e-4f;
    y = y * r + 1.3981999507e-3f;
    y = y * r + 8.3334519073e-3f;
    y = y * r + 4.1665795894e-2f;
    y = y * r + 1.6666665459e-1f;
    y = y * r + 5.0000001201e-1f;
    y = y * z + r + 1.0f;
    ni = (int)nf;
    n1 = (ni >= 0) ? ni / 2 : -((-ni + 1) / 2);
    n2 = ni - n1;
    return (y * pow2i(n1)) * pow2i(n2);
}

TPB_CLONES
int tpb_exp(const tpb_cfg *c, const void *src, int64_t src_rs, int64_t src_es,
            void *dst, int64_t dst_rs, int64_t dst_es, int64_t n, int64_t N,
            const float *s0, float *acc, int32_t use_acc) {
    float *lut;
    float buf[BLK];
    uint32_t obuf[BLK];
    tpb_fmt f = fmt_for(c->out_code, c);
    int isz = dsize(c->in_code), osz = dsize(c->out_code);
    int64_t p;
    if (isz == 0 || osz == 0) return -1;
    lut = make_lut(c->in_code, c);
    if (needs_lut(c->in_code) && !lut) return -2;
    for (p = 0; p < n; p++) {
        const char *srow = (const char *)src + p * src_rs * isz;
        char *drow = (char *)dst + p * dst_rs * osz;
        float reg = acc[p];
        int64_t i0;
        for (i0 = 0; i0 < N; i0 += BLK) {
            int64_t cnt = (N - i0 < BLK) ? N - i0 : BLK;
            int64_t k;
            load_block(c->in_code, srow, src_es, i0, cnt, buf, lut);
            for (k = 0; k < cnt; k++) {
                buf[k] = exp_f32(buf[k] - s0[p]);
                if (use_acc) reg = buf[k] + reg;
            }
            put_block(c, &f, buf, drow, dst_es, osz, i0, cnt, (uint64_t)(p * N + i0), obuf);
        }
        acc[p] = reg;
    }
    free(lut);
    return 0;
}

/* ---------------------------------------------------------------- a program's prepared rows */
/* Consecutive TensorScalar instructions of a program (executor/program.py plans them): each
   record is 19 int64 (program.REC_FIELDS), the arguments a prepared call passes to tpb_ts_arith
   or tpb_ts_bitvec, with the walks as (region, byte offset, row and element strides) and the
   two scalars as raw bits (the same for every channel). Instruction i runs with the rounding
   key of stream stream0 + i (dtypes.stream_key: key_base is mix64(seed + golden)). Returns how
   many ran; *rc is the failing kernel's code, else 0. */
#define TPB_REC 19
#define TPB_MAX_CH 4096
int64_t tpb_run_ts(const tpb_cfg *arith, const tpb_cfg *bitvec, char *sbuf, char *psum,
                   const int64_t *recs, int64_t count, uint64_t key_base, uint64_t stream0,
                   int32_t *rc) {
    uint32_t b0[TPB_MAX_CH], b1[TPB_MAX_CH];
    float f0[TPB_MAX_CH], f1[TPB_MAX_CH];
    int64_t i, p;
    *rc = 0;
    for (i = 0; i < count; i++) {
        const int64_t *r = recs + i * TPB_REC;
        tpb_cfg c = r[0] ? *bitvec : *arith;
        int64_t n = r[15];
        int got;
        char *src = (r[7] ? psum : sbuf) + r[8];
        char *dst = (r[11] ? psum : sbuf) + r[12];
        if (n < 0 || n > TPB_MAX_CH) { *rc = -3; return i; }
        c.in_code = (int32_t)r[1];
        c.out_code = (int32_t)r[2];
        c.op0 = (int32_t)r[3];
        c.op1 = (int32_t)r[4];
        c.rev0 = (int32_t)r[5];
        c.rev1 = (int32_t)r[6];
        c.key = mix64(key_base ^ ((stream0 + (uint64_t)i) * 0xBF58476D1CE4E5B9ull));
        for (p = 0; p < n; p++) { b0[p] = (uint32_t)r[17]; b1[p] = (uint32_t)r[18]; }
        if (r[0]) {
            got = tpb_ts_bitvec(&c, src, r[9], r[10], dst, r[13], r[14], n, r[16], 1, b0, b1);
        } else { /* the scalars' bits as they are (a NaN keeps its payload) */
            memcpy(f0, b0, (size_t)n * 4);
            memcpy(f1, b1, (size_t)n * 4);
            got = tpb_ts_arith(&c, src, r[9], r[10], dst, r[13], r[14], n, r[16], 1, f0, f1);
        }
        if (got) { *rc = got; return i; }
    }
    return count;
}

/* ---------------------------------------------------------------- two sources */
/* One stage whose second operand is a tensor: buf[k] = op(buf[k], v[k]), reversed op(v[k],
   buf[k]); BYPASS and the unary ops act on buf whatever `rev` says (alu.arith). */
#define VSTAGE_LOOP(EXPR) \
    do { int64_t k; \
         if (rev) { for (k = 0; k < cnt; k++) { float a = v[k], b = buf[k]; buf[k] = (EXPR); } } \
         else { for (k = 0; k < cnt; k++) { float a = buf[k], b = v[k]; buf[k] = (EXPR); } } \
    } while (0)

TPB_INLINE void arith_vstage(int op, float *restrict buf, const float *restrict v, int64_t cnt,
                             int rev) {
    switch (op) {
    case OP_BYPASS: case OP_ABSOLUTE_VALUE: case OP_SQUARE: case OP_RE_LU: case OP_RSQRT:
    case OP_RECIPROCAL:
        arith_stage(op, buf, cnt, 0.0f, 0); return;
    case OP_ADD: VSTAGE_LOOP(a + b); return;
    case OP_SUBTRACT: VSTAGE_LOOP(a - b); return;
    case OP_MULT: VSTAGE_LOOP(a * b); return;
    case OP_MAX: VSTAGE_LOOP(f_max(a, b)); return;
    case OP_MIN: VSTAGE_LOOP(f_min(a, b)); return;
    default: VSTAGE_LOOP(f_binary(op, a, b)); return;
    }
}

/* one element of a stage (the scan's recurrence): op(d, s), reversed op(s, d) */
static inline float f_stage(int op, float d, float s, int rev) {
    switch (op) {
    case OP_BYPASS: return d;
    case OP_ABSOLUTE_VALUE: return fabsf(d);
    case OP_SQUARE: return d * d;
    case OP_RE_LU: return f_max(d, 0.0f);
    case OP_RSQRT: return 1.0f / sqrtf(d);
    case OP_RECIPROCAL: return 1.0f / d;
    default: return rev ? f_binary(op, s, d) : f_binary(op, d, s);
    }
}

TPB_INLINE void load_any(int code, const char *row, int64_t es, int64_t i0, int64_t cnt,
                         float *buf, const float *lut) {
    if (code == D_FP32 || code == D_FP32R) fast_load_fp32(row, es, i0, cnt, buf);
    else load_block(code, row, es, i0, cnt, buf, lut);
}

/* Fused single-pass rows for fp32 (or both bf16) sources, an fp32 destination, unit steps: op0 one of the two
   parameterised forms of fused_stage (affine or clamp, with the scalar), op1 one of two forms
   with the second tensor: a sum t * a1 + v * b1 (ADD: 1, 1; SUBTRACT: 1, -1, reversed -1, 1:
   each product exact, so one rounding, the op's own) or the product t * v (MULT). Four loops
   per source dtype (fp32, or bf16 for both: sunda's BF16 forms), not one per op pair. */
#define TT_SUM(t, v) ((t) * a1 + (v) * b1)
#define TT_PROD(t, v) ((t) * (v))
#define TT_FUSED_LOOP(F0, F1, L) \
    for (k = 0; k < N; k++) { \
        float t_ = F0(L(x0, k), m0, q0); \
        o[k] = canon_f32(f2u(F1(t_, L(x1, k)))); \
    }
/* the sources' elements: both fp32, or both bf16 (widened exactly, a shift) */
#define TL_F32(p, k) (((const float *)(p))[k])
#define TL_BF16(p, k) u2f((uint32_t)((const uint16_t *)(p))[k] << 16)
enum { TT_NONE, TT_F32, TT_BF16 };
static int tt_fusable(const tpb_cfg *c, int64_t es0, int64_t es1, int64_t des) {
    int f0 = c->in_code == D_FP32 || c->in_code == D_FP32R;
    int f1 = c->in1_code == D_FP32 || c->in1_code == D_FP32R;
    int b = c->in_code == D_BFLOAT16 && c->in1_code == D_BFLOAT16;
    if (c->out_code != D_FP32 || es0 != 1 || es1 != 1 || des != 1 || !fusable(c->op0) ||
        !(c->op1 == OP_ADD || c->op1 == OP_SUBTRACT || c->op1 == OP_MULT))
        return TT_NONE;
    return (f0 && f1) ? TT_F32 : b ? TT_BF16 : TT_NONE;
}
#define TT_FUSED_ROW(NAME, L) \
    TPB_INLINE void NAME(const tpb_cfg *c, const void *restrict x0, const void *restrict x1, \
                         uint32_t *restrict o, int64_t N, float s) { \
        int64_t k; \
        float m0, q0; \
        float a1 = 1.0f, b1 = (c->op1 == OP_SUBTRACT) ? -1.0f : 1.0f; \
        int f0 = fused_stage(c->op0, c->rev0, s, &m0, &q0); \
        if (c->op1 == OP_SUBTRACT && c->rev1) { a1 = -1.0f; b1 = 1.0f; } \
        if (c->op1 == OP_MULT) { \
            if (f0 == FS_AFFINE) TT_FUSED_LOOP(FX_AFFINE, TT_PROD, L) \
            else TT_FUSED_LOOP(FX_CLAMP, TT_PROD, L) \
        } else if (f0 == FS_AFFINE) TT_FUSED_LOOP(FX_AFFINE, TT_SUM, L) \
        else TT_FUSED_LOOP(FX_CLAMP, TT_SUM, L) \
    }
TT_FUSED_ROW(tt_fused_f32, TL_F32)
TT_FUSED_ROW(tt_fused_bf16, TL_BF16)

/* The scan's recurrence on LANES partitions side by side (independent chains: the loop runs at
   throughput, not at the latency of two dependent operations per element). */
#define SCAN_LOOP(EXPR) \
    for (k = 0; k < cnt; k++) \
        for (j = 0; j < LANES; j++) { float x_ = b0[k][j], v_ = b1[k][j], r_ = reg[j]; \
                                      reg[j] = (EXPR); b0[k][j] = reg[j]; }

/* the same on rows in place, the eight lanes' running values in locals (registers); a spare
   lane (past the last partition) repeats the last one's inputs and writes a scratch row. The
   rows do not overlap (the engine passes a destination that shares no memory with the sources,
   else a fresh array), hence restrict. */
#define SCAN_ROWS(EXPR) do { \
        const float *restrict x0 = x[0], *restrict x1 = x[1], *restrict x2 = x[2], \
                    *restrict x3 = x[3], *restrict x4 = x[4], *restrict x5 = x[5], \
                    *restrict x6 = x[6], *restrict x7 = x[7]; \
        const float *restrict v0 = v[0], *restrict v1 = v[1], *restrict v2 = v[2], \
                    *restrict v3 = v[3], *restrict v4 = v[4], *restrict v5 = v[5], \
                    *restrict v6 = v[6], *restrict v7 = v[7]; \
        uint32_t *restrict o0 = o[0], *restrict o1 = o[1], *restrict o2 = o[2], \
                 *restrict o3 = o[3], *restrict o4 = o[4], *restrict o5 = o[5], \
                 *restrict o6 = o[6], *restrict o7 = o[7]; \
        float a0 = reg[0], a1 = reg[1], a2 = reg[2], a3 = reg[3], a4 = reg[4], a5 = reg[5], \
              a6 = reg[6], a7 = reg[7]; \
        for (k = 0; k < N; k++) { \
            SCAN_STEP_E(0, EXPR) SCAN_STEP_E(1, EXPR) SCAN_STEP_E(2, EXPR) SCAN_STEP_E(3, EXPR) \
            SCAN_STEP_E(4, EXPR) SCAN_STEP_E(5, EXPR) SCAN_STEP_E(6, EXPR) SCAN_STEP_E(7, EXPR) \
        } \
        reg[0] = a0; reg[1] = a1; reg[2] = a2; reg[3] = a3; reg[4] = a4; reg[5] = a5; \
        reg[6] = a6; reg[7] = a7; \
    } while (0)
#define SCAN_STEP_E(J, EXPR) { float x_ = x##J[k], v_ = v##J[k], r_ = a##J; a##J = (EXPR); \
                               o##J[k] = f2u(a##J); }

/* GCC >= 9's vector extensions (each clone gets its own instructions; SSE2 pairs on the
   baseline) for the row paths that run eight partitions as the lanes of a vector: the scan's and
   the reduce's chains. Other compilers (or -DTPB_NO_VEC) run the scalar chains. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 9 && !defined(TPB_NO_VEC)
#define TPB_VEC 1
typedef float tpb_v8f __attribute__((vector_size(32)));
typedef uint32_t tpb_v8u __attribute__((vector_size(32)));
typedef int32_t tpb_v8i __attribute__((vector_size(32)));
typedef uint16_t tpb_v8h __attribute__((vector_size(16)));
#define SHUF(a, b, ...) __builtin_shuffle((a), (b), (tpb_v8i){__VA_ARGS__})
#define LV_F32(row, k, out) memcpy(&(out), (const float *)(const void *)(row) + (k), 32)
#define LV_BF16(row, k, out) do { \
        tpb_v8h h_; \
        memcpy(&h_, (const uint16_t *)(const void *)(row) + (k), 16); \
        (out) = (tpb_v8f)(__builtin_convertvector(h_, tpb_v8u) << 16); \
    } while (0)
/* an 8 x 8 transpose of named vectors (data movement only): o_i[j] = r_j[i] */
#define TR8(r0, r1, r2, r3, r4, r5, r6, r7, o0, o1, o2, o3, o4, o5, o6, o7) do { \
        tpb_v8f t0_ = SHUF(r0, r1, 0, 8, 1, 9, 4, 12, 5, 13); \
        tpb_v8f t1_ = SHUF(r0, r1, 2, 10, 3, 11, 6, 14, 7, 15); \
        tpb_v8f t2_ = SHUF(r2, r3, 0, 8, 1, 9, 4, 12, 5, 13); \
        tpb_v8f t3_ = SHUF(r2, r3, 2, 10, 3, 11, 6, 14, 7, 15); \
        tpb_v8f t4_ = SHUF(r4, r5, 0, 8, 1, 9, 4, 12, 5, 13); \
        tpb_v8f t5_ = SHUF(r4, r5, 2, 10, 3, 11, 6, 14, 7, 15); \
        tpb_v8f t6_ = SHUF(r6, r7, 0, 8, 1, 9, 4, 12, 5, 13); \
        tpb_v8f t7_ = SHUF(r6, r7, 2, 10, 3, 11, 6, 14, 7, 15); \
        tpb_v8f s0_ = SHUF(t0_, t2_, 0, 1, 8, 9, 4, 5, 12, 13); \
        tpb_v8f s1_ = SHUF(t0_, t2_, 2, 3, 10, 11, 6, 7, 14, 15); \
        tpb_v8f s2_ = SHUF(t1_, t3_, 0, 1, 8, 9, 4, 5, 12, 13); \
        tpb_v8f s3_ = SHUF(t1_, t3_, 2, 3, 10, 11, 6, 7, 14, 15); \
        tpb_v8f s4_ = SHUF(t4_, t6_, 0, 1, 8, 9, 4, 5, 12, 13); \
        tpb_v8f s5_ = SHUF(t4_, t6_, 2, 3, 10, 11, 6, 7, 14, 15); \
        tpb_v8f s6_ = SHUF(t5_, t7_, 0, 1, 8, 9, 4, 5, 12, 13); \
        tpb_v8f s7_ = SHUF(t5_, t7_, 2, 3, 10, 11, 6, 7, 14, 15); \
        o0 = SHUF(s0_, s4_, 0, 1, 2, 3, 8, 9, 10, 11); o1 = SHUF(s1_, s5_, 0, 1, 2, 3, 8, 9, 10, 11); \
        o2 = SHUF(s2_, s6_, 0, 1, 2, 3, 8, 9, 10, 11); o3 = SHUF(s3_, s7_, 0, 1, 2, 3, 8, 9, 10, 11); \
        o4 = SHUF(s0_, s4_, 4, 5, 6, 7, 12, 13, 14, 15); o5 = SHUF(s1_, s5_, 4, 5, 6, 7, 12, 13, 14, 15); \
        o6 = SHUF(s2_, s6_, 4, 5, 6, 7, 12, 13, 14, 15); o7 = SHUF(s3_, s7_, 4, 5, 6, 7, 12, 13, 14, 15); \
    } while (0)
#endif

#define LANES 8
/* The in-place scan path's recurrences on eight partitions (mult: x * r + v, else x + r + v), a
   block of SB elements at a time: each row's block is first copied into a staging block (a row
   at a time), the eight chains run on the copies, and the results are copied out row by row.
   The rows of the operands are a partition apart, the same cache set, so reading all 24 at once
   (the sources' and the destination's eight each) evicted each other's lines on every step:
   4 ms against 0.6 for memcpy of the bytes. Blocks of 128 elements (1 KiB of each of the
   16 staged rows, 16 KiB in all) rather than 256: the eight destination rows, written straight
   from registers, keep their lines in L1 beside them (1.62 -> 1.38 ms for 128 x 16,384 with
   caches cold, in a C harness). reg: the running values, in and out. */
#define SB 128
#if defined(TPB_VEC)
#define SV_MULT(a, r, b) ((a) * (r) + (b))
#define SV_ADD(a, r, b) ((a) + (r) + (b))
#define LD8(B, k, a0, a1, a2, a3, a4, a5, a6, a7) do { \
        memcpy(&a0, B[0] + (k), 32); memcpy(&a1, B[1] + (k), 32); memcpy(&a2, B[2] + (k), 32); \
        memcpy(&a3, B[3] + (k), 32); memcpy(&a4, B[4] + (k), 32); memcpy(&a5, B[5] + (k), 32); \
        memcpy(&a6, B[6] + (k), 32); memcpy(&a7, B[7] + (k), 32); \
    } while (0)
#define ST_CANON(o, y) do { /* canon_f32 on eight lanes, stored */ \
        tpb_v8u u_ = (tpb_v8u)(y); \
        tpb_v8u n_ = (tpb_v8u)((u_ & 0x7FFFFFFFu) > 0x7F800000u); \
        u_ = (u_ & ~n_) | (0x7FC00000u & n_); \
        memcpy((o), &u_, 32); \
    } while (0)
/* eight elements of the eight staged rows transposed, eight dependent vector steps, the results
   transposed back and stored (canonical NaNs): all in registers */
#define SCAN8_VLOOP(F) \
    for (; k + 8 <= N; k += 8) { \
        tpb_v8f a0, a1, a2, a3, a4, a5, a6, a7, b0, b1, b2, b3, b4, b5, b6, b7; \
        LD8(X, k, a0, a1, a2, a3, a4, a5, a6, a7); \
        TR8(a0, a1, a2, a3, a4, a5, a6, a7, a0, a1, a2, a3, a4, a5, a6, a7); \
        LD8(V, k, b0, b1, b2, b3, b4, b5, b6, b7); \
        TR8(b0, b1, b2, b3, b4, b5, b6, b7, b0, b1, b2, b3, b4, b5, b6, b7); \
        r = F(a0, r, b0); a0 = r; r = F(a1, r, b1); a1 = r; r = F(a2, r, b2); a2 = r; \
        r = F(a3, r, b3); a3 = r; r = F(a4, r, b4); a4 = r; r = F(a5, r, b5); a5 = r; \
        r = F(a6, r, b6); a6 = r; r = F(a7, r, b7); a7 = r; \
        TR8(a0, a1, a2, a3, a4, a5, a6, a7, b0, b1, b2, b3, b4, b5, b6, b7); \
        ST_CANON(os[0] + i0 + k, b0); ST_CANON(os[1] + i0 + k, b1); \
        ST_CANON(os[2] + i0 + k, b2); ST_CANON(os[3] + i0 + k, b3); \
        ST_CANON(os[4] + i0 + k, b4); ST_CANON(os[5] + i0 + k, b5); \
        ST_CANON(os[6] + i0 + k, b6); ST_CANON(os[7] + i0 + k, b7); \
    }
TPB_BLOCK void scan8_staged(const float *const *xs, const float *const *vs, uint32_t *const *os,
                            int64_t total, float *reg, int mult) {
    float xb[LANES][SB], vb[LANES][SB];
    const float *X[LANES], *V[LANES];
    tpb_v8f r;
    int64_t i0, k, N;
    int j;
    for (j = 0; j < LANES; j++) { X[j] = xb[j]; V[j] = vb[j]; r[j] = reg[j]; }
    for (i0 = 0; i0 < total; i0 += SB) {
        N = (total - i0 < SB) ? total - i0 : SB;
        for (j = 0; j < LANES; j++) memcpy(xb[j], xs[j] + i0, (size_t)N * 4);
        for (j = 0; j < LANES; j++) memcpy(vb[j], vs[j] + i0, (size_t)N * 4);
        k = 0;
        if (mult) SCAN8_VLOOP(SV_MULT)
        else SCAN8_VLOOP(SV_ADD)
        for (; k < N; k++)
            for (j = 0; j < LANES; j++) {
                float x_ = xb[j][k], v_ = vb[j][k], r_ = r[j];
                r[j] = mult ? SV_MULT(x_, r_, v_) : SV_ADD(x_, r_, v_);
                os[j][i0 + k] = canon_f32(f2u(r[j]));
            }
    }
    memcpy(reg, &r, 32);
}
#else
TPB_BLOCK void scan8_staged(const float *const *xs, const float *const *vs, uint32_t *const *os,
                            int64_t total, float *reg, int mult) {
    float xb[LANES][SB], vb[LANES][SB];
    uint32_t ob[LANES][SB];
    const float *x[LANES], *v[LANES];
    uint32_t *o[LANES];
    int64_t i0, k, N;
    int j;
    for (j = 0; j < LANES; j++) { x[j] = xb[j]; v[j] = vb[j]; o[j] = ob[j]; }
    for (i0 = 0; i0 < total; i0 += SB) {
        N = (total - i0 < SB) ? total - i0 : SB;
        for (j = 0; j < LANES; j++) memcpy(xb[j], xs[j] + i0, (size_t)N * 4);
        for (j = 0; j < LANES; j++) memcpy(vb[j], vs[j] + i0, (size_t)N * 4);
        if (mult) SCAN_ROWS(x_ * r_ + v_);
        else SCAN_ROWS(x_ + r_ + v_);
        for (j = 0; j < LANES; j++) { /* NaNs canonical as stored: a loop that vectorises */
            uint32_t *restrict out = os[j] + i0;
            const uint32_t *restrict in = ob[j];
            for (k = 0; k < N; k++) out[k] = canon_f32(in[k]);
        }
    }
}
#endif
/* The scan on sixteen partitions as the lanes of 512-bit vectors, for CPUs with AVX-512
   (x86-64-v4; compiled for that ISA alone, chosen at run time, not cloned: the other ISAs run
   scan8_staged). Each step takes 16 elements of each of the 16 rows (a 16 x 16 transpose of
   the sources' blocks in, and of the results out), then 16 dependent vector steps. The lanes
   are skewed: at step t lane j takes its rows' block t - j, so the 16 rows in flight lie 64
   bytes apart in the cache's set index instead of all in one set (the rows of a tensor are a
   partition apart, a power of two: read at the same offset, 16 sources' and destinations' rows
   evicted each other from the same set, and the staged copy that avoided that cost more than
   the chains). Where the destination's rows share their offset in a 64-byte line and the
   destination is large, the results go out as non-temporal full-line stores (after a few
   leading elements that align them), no read of the destination's lines first. In a C harness,
   128 x 16,384 fp32 with caches cold: 0.67-0.76 ms against 1.48-1.76 for scan8_staged and
   0.62-0.69 for memcpy of (read + written) / 2. */
#if defined(TPB_VEC) && defined(__x86_64__) && \
    (defined(__AVX512F__) || (defined(__linux__) && __GNUC__ >= 11 && !defined(TPB_ONE_ISA)))
#if defined(__AVX512F__)
#define TPB_SCAN16 static __attribute__((noinline))
#define TPB_SCAN16_OK() 1
#else
#define TPB_SCAN16 static __attribute__((noinline, target("arch=x86-64-v4")))
#define TPB_SCAN16_OK() (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") && \
                         __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") && \
                         __builtin_cpu_supports("avx512cd"))
#endif
#if !defined(SCAN16_NT_BYTES)
#define SCAN16_NT_BYTES (4.0 * 1024 * 1024)
#endif
typedef float tpb_v16f __attribute__((vector_size(64)));
typedef uint32_t tpb_v16u __attribute__((vector_size(64)));
typedef int32_t tpb_v16i __attribute__((vector_size(64)));
typedef long long tpb_v8q __attribute__((vector_size(64)));
#define SH16(a, b, ...) __builtin_shuffle((a), (b), (tpb_v16i){__VA_ARGS__})
/* a 16 x 16 transpose of r[0..15] in place (data movement only): 32-bit pairs, 64-bit pairs,
   then the 128-bit quarters in two steps */
#define TR16(r) do { \
        tpb_v16f t_[16], s_[16], p_[16]; \
        int q_; \
        _Pragma("GCC unroll 16") for (q_ = 0; q_ < 8; q_++) { \
            t_[2 * q_] = SH16(r[2 * q_], r[2 * q_ + 1], \
                              0, 16, 1, 17, 4, 20, 5, 21, 8, 24, 9, 25, 12, 28, 13, 29); \
            t_[2 * q_ + 1] = SH16(r[2 * q_], r[2 * q_ + 1], \
                                  2, 18, 3, 19, 6, 22, 7, 23, 10, 26, 11, 27, 14, 30, 15, 31); \
        } \
        _Pragma("GCC unroll 16") for (q_ = 0; q_ < 4; q_++) { \
            s_[4 * q_] = SH16(t_[4 * q_], t_[4 * q_ + 2], \
                              0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29); \
            s_[4 * q_ + 1] = SH16(t_[4 * q_], t_[4 * q_ + 2], \
                                  2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31); \
            s_[4 * q_ + 2] = SH16(t_[4 * q_ + 1], t_[4 * q_ + 3], \
                                  0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29); \
            s_[4 * q_ + 3] = SH16(t_[4 * q_ + 1], t_[4 * q_ + 3], \
                                  2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31); \
        } \
        /* s_[4Q + c], quarter L: rows 4Q..4Q+3 at element 4L + c */ \
        _Pragma("GCC unroll 16") for (q_ = 0; q_ < 4; q_++) { \
            p_[q_] = SH16(s_[q_], s_[4 + q_], 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23); \
            p_[4 + q_] = SH16(s_[q_], s_[4 + q_], \
                              8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31); \
            p_[8 + q_] = SH16(s_[8 + q_], s_[12 + q_], \
                              0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23); \
            p_[12 + q_] = SH16(s_[8 + q_], s_[12 + q_], \
                               8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31); \
        } \
        _Pragma("GCC unroll 16") for (q_ = 0; q_ < 4; q_++) { \
            r[q_] = SH16(p_[q_], p_[8 + q_], 0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27); \
            r[4 + q_] = SH16(p_[q_], p_[8 + q_], \
                             4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31); \
            r[8 + q_] = SH16(p_[4 + q_], p_[12 + q_], \
                             0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27); \
            r[12 + q_] = SH16(p_[4 + q_], p_[12 + q_], \
                              4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31); \
        } \
    } while (0)
/* one step of the skewed scan: lane j's 16 elements at X[j] + T, V[j] + T (bytes), results at
   O[j] + T, canonical NaNs; r the running values. PF: the sources' lines four steps ahead
   prefetched (cold, in a C harness: 0.67-0.76 ms against 0.77-0.92 without; the hint computed
   as an integer, as it may point past a row's end) */
#define SCAN16_PF(p) TPB_PREFETCH((const void *)((uintptr_t)(p) + 256))
#define SCAN16_STEP(F, X, V, O, T, NT, PF) do { \
        tpb_v16f a_[16], b_[16]; \
        int j_; \
        _Pragma("GCC unroll 16") for (j_ = 0; j_ < 16; j_++) { \
            memcpy(&a_[j_], X[j_] + (T), 64); \
            if (PF) { SCAN16_PF(X[j_] + (T)); SCAN16_PF(V[j_] + (T)); } \
        } \
        TR16(a_); \
        _Pragma("GCC unroll 16") for (j_ = 0; j_ < 16; j_++) memcpy(&b_[j_], V[j_] + (T), 64); \
        TR16(b_); \
        _Pragma("GCC unroll 16") for (j_ = 0; j_ < 16; j_++) { r = F(a_[j_], r, b_[j_]); a_[j_] = r; } \
        TR16(a_); \
        _Pragma("GCC unroll 16") for (j_ = 0; j_ < 16; j_++) { \
            tpb_v16u u_ = (tpb_v16u)a_[j_]; \
            tpb_v16u n_ = (tpb_v16u)((u_ & 0x7FFFFFFFu) > 0x7F800000u); \
            u_ = (u_ & ~n_) | (0x7FC00000u & n_); \
            if (NT) __builtin_ia32_movntdq512((tpb_v8q *)(void *)(O[j_] + (T)), (tpb_v8q)u_); \
            else memcpy(O[j_] + (T), &u_, 64); \
        } \
    } while (0)
#define SCAN16_MAIN(F) do { \
        if (nt) { for (T = 0; T < T1; T += 64) SCAN16_STEP(F, xr, vr, orr, T, 1, 1); } \
        else { for (T = 0; T < T1; T += 64) SCAN16_STEP(F, xr, vr, orr, T, 0, 1); } \
    } while (0)
/* xs, vs, os: the 16 lanes' rows (a spare lane repeats a partition's sources and writes a
   scratch row); reg: the running values, in and out; nt: non-temporal stores allowed */
TPB_SCAN16 void scan16_skewed(const float *const *xs, const float *const *vs, uint32_t *const *os,
                              int64_t total, float *reg, int mult, int nt) {
    float zx[16] = {0}, zv[16] = {0};
    uint32_t zo[16];
    const char *xr[16], *vr[16];
    char *orr[16];
    tpb_v16f r, r0;
    uintptr_t m = (uintptr_t)os[0] & 63;
    int64_t h = 0, C, t, k, T, T1;
    int j;
    for (j = 0; j < 16; j++) r[j] = reg[j];
    for (j = 0; j < 16; j++)
        if (((uintptr_t)os[j] & 63) != m) nt = 0;
    if (m & 3) nt = 0;
    if (nt) h = (int64_t)((64 - m) & 63) / 4; /* leading elements: the destination aligned after */
    if (h > total) h = total;
    for (k = 0; k < h; k++)
        for (j = 0; j < 16; j++) {
            float x_ = xs[j][k], v_ = vs[j][k], r_ = r[j];
            r[j] = mult ? SV_MULT(x_, r_, v_) : SV_ADD(x_, r_, v_);
            os[j][k] = canon_f32(f2u(r[j]));
        }
    C = (total - h) / 16; /* whole blocks of 16 after the leading elements */
    for (t = 0; C > 0 && t < C + 15; t++) {
        if (t == 15 && C > 15) { /* every lane in its rows: lane j's blocks 15 - j .. C - 1 - j */
            for (j = 0; j < 16; j++) {
                xr[j] = (const char *)(xs[j] + h + 16 * (15 - j));
                vr[j] = (const char *)(vs[j] + h + 16 * (15 - j));
                orr[j] = (char *)(os[j] + h + 16 * (15 - j));
            }
            T1 = (C - 15) * 64;
            if (mult) SCAN16_MAIN(SV_MULT);
            else SCAN16_MAIN(SV_ADD);
            t = C - 1;
            continue;
        }
        /* the first and last 15 steps: lanes before their first block or past their last read
           zeros, write a scratch block and keep their running values */
        for (j = 0; j < 16; j++) {
            int64_t c = t - j;
            int in = c >= 0 && c < C;
            xr[j] = in ? (const char *)(xs[j] + h + 16 * c) : (const char *)zx;
            vr[j] = in ? (const char *)(vs[j] + h + 16 * c) : (const char *)zv;
            orr[j] = in ? (char *)(os[j] + h + 16 * c) : (char *)zo;
        }
        r0 = r;
        if (mult) SCAN16_STEP(SV_MULT, xr, vr, orr, 0, 0, 0);
        else SCAN16_STEP(SV_ADD, xr, vr, orr, 0, 0, 0);
        for (j = 0; j < 16; j++)
            if (xr[j] == (const char *)zx) r[j] = r0[j];
    }
    if (nt) __builtin_ia32_sfence(); /* the streamed stores ordered before what follows */
    for (k = h + 16 * C; k < total; k++)
        for (j = 0; j < 16; j++) {
            float x_ = xs[j][k], v_ = vs[j][k], r_ = r[j];
            r[j] = mult ? SV_MULT(x_, r_, v_) : SV_ADD(x_, r_, v_);
            os[j][k] = canon_f32(f2u(r[j]));
        }
    for (j = 0; j < 16; j++) reg[j] = r[j];
}
#endif
/* a row block into column j of a lanes-interleaved block, and back */
TPB_INLINE void to_lane(float (*b)[LANES], const float *row, int64_t cnt, int64_t j) {
    int64_t k;
    for (k = 0; k < cnt; k++) b[k][j] = row[k];
}
TPB_INLINE void from_lane(float *row, float (*b)[LANES], int64_t cnt, int64_t j) {
    int64_t k;
    for (k = 0; k < cnt; k++) row[k] = b[k][j];
}


/* TensorReduce's MAX (MIN) of a row of R elements (fp32, or bf16): f_max_sel (f_min_sel)
   folded in element order gives the quiet NaN if any element is a NaN, else the maximum
   (minimum) in IEEE order with -0 below +0, a total order on the rest, so the order of the fold
   does not matter. Taken on an integer key (sign-magnitude bits to two's complement: -0 is -1,
   +0 is 0), the fold is an integer max (min), which vectorises along the row. The keys of the
   NaNs lie outside those of the rest: a positive NaN's above +Inf's, a negative NaN's below
   -Inf's; so the row's largest and smallest keys say both the result and whether a NaN was
   there, two integer folds and no NaN test per element. bf16 folds its 16-bit keys as they are
   (twice the lanes of the widened 32-bit keys; the same order, as the widened key is the 16-bit
   key followed by 16 copies of the sign). 128 rows of 16,384 bf16 in cache: 0.12 -> 0.056 ms
   in a C harness; with caches cold, reading the rows is the limit (0.18 ms either way). */
#define KEY32(u) ((int32_t)((u) ^ ((uint32_t)((int32_t)(u) >> 31) >> 1)))
#define KEY16(h) ((int16_t)((h) ^ (uint16_t)((uint16_t)((int16_t)(h) >> 15) >> 1)))
#define KEY_LOOP(T, KEY, W) \
    for (k = k0; k < k1; k++) { \
        T key_ = KEY(W[k]); \
        hi = (key_ > hi) ? key_ : hi; \
        lo = (key_ < lo) ? key_ : lo; \
    }
/* The rows are read four at a time, a chunk of KCHUNK bytes of each in turn, each row's stream
   prefetched KAHEAD bytes ahead of the fold, a line per line folded; past a row's end the
   prefetches run on into the row that follows it in the same lane (the next four rows, then
   the next call's `next` rows), so no row starts with a miss. Four streams, not eight: eight
   rows a partition apart read side by side came 1.1-1.5x slower than four in every variant
   tried. Cold caches, in a C harness, min of 21 rounds: 128 rows of 16,384 bf16 192 KiB apart
   (sunda), 0.18-0.19 -> 0.124-0.138 ms (memcpy of 2 MiB 0.12-0.13 ms); of 16,384 fp32 256 KiB
   apart (mariana), 0.38-0.39 -> 0.23 ms (memcpy of 4 MiB 0.21-0.22 ms). The old scheme: eight
   rows at once, each row's next 1 KiB requested in one burst per 1 KiB chunk (0.72 ms before
   it, one row after another). Folding the raw bits with fewer operations a line (a signed max
   and an unsigned max and min) was no faster than the keys: the loads are the limit. */
#define KSUB 4
#define KCHUNK 512
#define KAHEAD 2048
TPB_BLOCK void fold_key(const char *const *rows, int64_t lanes, const char *const *next,
                        int64_t nnext, int bf16, int64_t R, int is_min, float *reg) {
    int32_t his[LANES], los[LANES];
    const char *seq[2 * LANES];
    int64_t j, s0, k0, esz = bf16 ? 2 : 4, kc = KCHUNK / esz, bytes = R * esz;
    for (j = 0; j < lanes; j++) {
        seq[j] = rows[j];
        his[j] = bf16 ? INT16_MIN : INT32_MIN;
        los[j] = bf16 ? INT16_MAX : INT32_MAX;
    }
    for (j = 0; j < nnext; j++) seq[lanes + j] = next[j];
    for (s0 = 0; s0 < lanes; s0 += KSUB) {
        int64_t s1 = (lanes - s0 < KSUB) ? lanes : s0 + KSUB;
        for (k0 = 0; k0 < R; k0 += kc) {
            int64_t k1 = (R - k0 < kc) ? R : k0 + kc;
            for (j = s0; j < s1; j++) {
                int64_t k, pf;
                for (pf = k0 * esz + KAHEAD; pf < k1 * esz + KAHEAD; pf += 64) {
                    if (pf < bytes) TPB_PREFETCH(rows[j] + pf);
                    else if (j + KSUB < lanes + nnext && pf - bytes < bytes)
                        TPB_PREFETCH(seq[j + KSUB] + (pf - bytes));
                }
                if (bf16) {
                    const uint16_t *h = (const uint16_t *)(const void *)rows[j];
                    int16_t hi = (int16_t)his[j], lo = (int16_t)los[j];
                    KEY_LOOP(int16_t, KEY16, h)
                    his[j] = hi;
                    los[j] = lo;
                } else {
                    const uint32_t *w = (const uint32_t *)(const void *)rows[j];
                    int32_t hi = his[j], lo = los[j];
                    KEY_LOOP(int32_t, KEY32, w)
                    his[j] = hi;
                    los[j] = lo;
                }
            }
        }
    }
    for (j = 0; j < lanes; j++) {
        /* a NaN's key: above +Inf's (0x7F80, 0x7F800000) or below -Inf's */
        int nan = bf16 ? (his[j] > 0x7F80 || los[j] < KEY16((uint16_t)0xFF80u))
                       : (his[j] > 0x7F800000 || los[j] < KEY32(0xFF800000u));
        int32_t m = is_min ? los[j] : his[j];
        uint32_t u = bf16 ? (uint32_t)(uint16_t)KEY16((uint16_t)m) << 16
                          : (uint32_t)KEY32((uint32_t)m);
        reg[j] = nan ? qnan() : u2f(u);
    }
}

TPB_INLINE int tt_scan(const tpb_cfg *c, const tpb_fmt *f, const void *src0, int64_t rs0,
                       int64_t es0, const void *src1, int64_t rs1, int64_t es1, void *dst,
                       int64_t drs, int64_t des, int64_t n, int64_t N, const float *s,
                       float *lut0, float *lut1, uint32_t *obuf) {
    /* lanes interleaved (b0[k][j]: element k of lane j), so each step is one vector of lanes */
    float b0[BLK][LANES], b1[BLK][LANES], row[BLK];
    int isz0 = dsize(c->in_code), isz1 = dsize(c->in1_code), osz = dsize(c->out_code);
    int op0 = c->op0, op1 = c->op1, rev0 = c->rev0, rev1 = c->rev1;
    int64_t p0;
    if ((c->in_code == D_FP32 || c->in_code == D_FP32R) &&
        (c->in1_code == D_FP32 || c->in1_code == D_FP32R) && c->out_code == D_FP32 &&
        es0 == 1 && es1 == 1 && des == 1 && (op0 == OP_MULT || op0 == OP_ADD) && op1 == OP_ADD) {
        /* fp32 rows with unit steps, the recurrences of NKI's examples (mult or add, then add):
           the lanes read and write their rows in place */
        uint32_t *spare = NULL;
        p0 = 0;
#if defined(TPB_SCAN16_OK)
        if (TPB_SCAN16_OK()) {
            /* non-temporal stores for a destination larger than the caches keep for it; blocks
               of 16 partitions while more than eight remain (the rest run on eight lanes below,
               not on 16 lanes mostly spare) */
            int nt = (double)n * (double)N * 4.0 >= SCAN16_NT_BYTES;
            for (; n - p0 > LANES; p0 += 16) {
                int64_t lanes = (n - p0 < 16) ? n - p0 : 16, j;
                const float *x[16], *v[16];
                uint32_t *o[16];
                float reg[16];
                if (lanes < 16 && !spare) {
                    spare = (uint32_t *)malloc((size_t)N * sizeof(uint32_t));
                    if (!spare) { free(lut0); free(lut1); return -2; }
                }
                for (j = 0; j < 16; j++) {
                    int64_t q = p0 + (j < lanes ? j : lanes - 1);
                    x[j] = (const float *)src0 + q * rs0;
                    v[j] = (const float *)src1 + q * rs1;
                    o[j] = (j < lanes) ? (uint32_t *)dst + q * drs : spare;
                    reg[j] = s[q];
                }
                scan16_skewed(x, v, o, N, reg, op0 == OP_MULT, nt);
            }
        }
#endif
        for (; p0 < n; p0 += LANES) {
            int64_t lanes = (n - p0 < LANES) ? n - p0 : LANES, j, k;
            const float *x[LANES], *v[LANES];
            uint32_t *o[LANES];
            float reg[LANES];
            if (lanes < LANES && !spare) {
                spare = (uint32_t *)malloc((size_t)N * sizeof(uint32_t));
                if (!spare) { free(lut0); free(lut1); return -2; }
            }
            for (j = 0; j < LANES; j++) {
                int64_t q = p0 + (j < lanes ? j : lanes - 1);
                x[j] = (const float *)src0 + q * rs0;
                v[j] = (const float *)src1 + q * rs1;
                o[j] = (j < lanes) ? (uint32_t *)dst + q * drs : spare;
                reg[j] = s[q];
            }
            scan8_staged(x, v, o, N, reg, op0 == OP_MULT);
            (void)k;
        }
        free(spare);
        free(lut0);
        free(lut1);
        return 0;
    }
    for (p0 = 0; p0 < n; p0 += LANES) {
        int64_t lanes = (n - p0 < LANES) ? n - p0 : LANES, i0, j, k;
        float reg[LANES];
        for (j = 0; j < LANES; j++) reg[j] = s[p0 + (j < lanes ? j : lanes - 1)];
        for (i0 = 0; i0 < N; i0 += BLK) {
            int64_t cnt = (N - i0 < BLK) ? N - i0 : BLK;
            for (j = 0; j < LANES; j++) { /* lanes past the last partition repeat it, unused */
                int64_t q = p0 + (j < lanes ? j : lanes - 1);
                load_any(c->in_code, (const char *)src0 + q * rs0 * isz0, es0, i0, cnt, row,
                         lut0);
                to_lane(b0, row, cnt, j);
                load_any(c->in1_code, (const char *)src1 + q * rs1 * isz1, es1, i0, cnt, row,
                         lut1);
                to_lane(b1, row, cnt, j);
            }
            SCAN_LOOP(f_stage(op1, f_stage(op0, x_, r_, rev0), v_, rev1))
            for (j = 0; j < lanes; j++) {
                from_lane(row, b0, cnt, j);
                put_block(c, f, row, (char *)dst + (p0 + j) * drs * osz, des, osz, i0, cnt,
                          (uint64_t)((p0 + j) * N + i0), obuf);
            }
        }
    }
    free(lut0);
    free(lut1);
    return 0;
}

/* ScalarTensorTensor (and TensorTensor: op0 BYPASS): out = op1(op0(x0, s), x1) in the reverse
   forms of rev0/rev1; with `scan` (TensorTensorScan) the scalar is the running value, seeded with
   s[p] and replaced by every output. x0 is in_code, x1 in1_code. */
TPB_CLONES
int tpb_tt_arith(const tpb_cfg *c, const void *src0, int64_t rs0, int64_t es0,
                 const void *src1, int64_t rs1, int64_t es1, void *dst, int64_t drs, int64_t des,
                 int64_t n, int64_t N, const float *s, int32_t scan) {
    float *lut0, *lut1;
    float b0[BLK], b1[BLK];
    uint32_t obuf[BLK];
    tpb_fmt f = fmt_for(c->out_code, c);
    int isz0 = dsize(c->in_code), isz1 = dsize(c->in1_code), osz = dsize(c->out_code), kind;
    int64_t p;
    if (isz0 == 0 || isz1 == 0 || osz == 0) return -1;
    lut0 = make_lut(c->in_code, c);
    lut1 = make_lut(c->in1_code, c);
    if ((needs_lut(c->in_code) && !lut0) || (needs_lut(c->in1_code) && !lut1)) {
        free(lut0);
        free(lut1);
        return -2;
    }
    if (scan)
        return tt_scan(c, &f, src0, rs0, es0, src1, rs1, es1, dst, drs, des, n, N, s, lut0,
                       lut1, obuf);
    kind = tt_fusable(c, es0, es1, des);
    if (kind != TT_NONE) {
        for (p = 0; p < n; p++) {
            const char *x0 = (const char *)src0 + p * rs0 * isz0;
            const char *x1 = (const char *)src1 + p * rs1 * isz1;
            uint32_t *o = (uint32_t *)dst + p * drs;
            if (kind == TT_F32) tt_fused_f32(c, x0, x1, o, N, s[p]);
            else tt_fused_bf16(c, x0, x1, o, N, s[p]);
        }
        free(lut0);
        free(lut1);
        return 0;
    }
    for (p = 0; p < n; p++) {
        const char *r0 = (const char *)src0 + p * rs0 * isz0;
        const char *r1 = (const char *)src1 + p * rs1 * isz1;
        char *drow = (char *)dst + p * drs * osz;
        int64_t i0;
        for (i0 = 0; i0 < N; i0 += BLK) {
            int64_t cnt = (N - i0 < BLK) ? N - i0 : BLK;
            load_any(c->in_code, r0, es0, i0, cnt, b0, lut0);
            load_any(c->in1_code, r1, es1, i0, cnt, b1, lut1);
            arith_stage(c->op0, b0, cnt, s[p], c->rev0);
            arith_vstage(c->op1, b0, b1, cnt, c->rev1);
            put_block(c, &f, b0, drow, des, osz, i0, cnt, (uint64_t)(p * N + i0), obuf);
        }
    }
    free(lut0);
    free(lut1);
    return 0;
}

TPB_INLINE void bits_load(const char *row, int64_t es, int isz, int64_t i0, int64_t cnt,
                          uint32_t *buf) {
    int64_t k;
    for (k = 0; k < cnt; k++) {
        const char *q = row + (i0 + k) * es * isz;
        if (isz == 1) buf[k] = *(const uint8_t *)q;
        else if (isz == 2) { uint16_t v; memcpy(&v, q, 2); buf[k] = v; }
        else { uint32_t v; memcpy(&v, q, 4); buf[k] = v; }
    }
}

/* bitvec ScalarTensorTensor / TensorTensor at the dtype's width (in_code, the same for all).
   This kernel, tpb_reduce and tpb_int_wide are built once, not cloned per ISA: their loops are
   integer or chains of scalar operations, which the clones did not make faster, and the clones
   tripled the kernels' compile time (benchmarks/install.py). */
int tpb_tt_bitvec(const tpb_cfg *c, const void *src0, int64_t rs0, int64_t es0,
                  const void *src1, int64_t rs1, int64_t es1, void *dst, int64_t drs,
                  int64_t des, int64_t n, int64_t N, const uint32_t *s) {
    uint32_t b0[BLK], b1[BLK];
    int isz = dsize(c->in_code);
    int w = isz * 8;
    uint32_t mask = (w == 32) ? 0xFFFFFFFFu : ((1u << w) - 1u);
    int64_t p;
    if (isz == 0) return -1;
    for (p = 0; p < n; p++) {
        const char *r0 = (const char *)src0 + p * rs0 * isz;
        const char *r1 = (const char *)src1 + p * rs1 * isz;
        char *drow = (char *)dst + p * drs * isz;
        int64_t i0;
        for (i0 = 0; i0 < N; i0 += BLK) {
            int64_t cnt = (N - i0 < BLK) ? N - i0 : BLK;
            int64_t k;
            bits_load(r0, es0, isz, i0, cnt, b0);
            bits_load(r1, es1, isz, i0, cnt, b1);
            bitvec_stage(c->op0, b0, cnt, s[p] & mask, c->rev0, w, mask);
            if (c->op1 == OP_BITWISE_NOT) { for (k = 0; k < cnt; k++) b0[k] = ~b0[k] & mask; }
            else if (c->op1 != OP_BYPASS) {
                if (c->rev1) { for (k = 0; k < cnt; k++) b0[k] = bv(c->op1, b1[k] & mask, b0[k], w, mask); }
                else { for (k = 0; k < cnt; k++) b0[k] = bv(c->op1, b0[k], b1[k] & mask, w, mask); }
            }
            for (k = 0; k < cnt; k++) {
                char *q = drow + (i0 + k) * des * isz;
                if (isz == 1) *(uint8_t *)q = (uint8_t)b0[k];
                else if (isz == 2) { uint16_t v = (uint16_t)b0[k]; memcpy(q, &v, 2); }
                else memcpy(q, &b0[k], 4);
            }
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- reduce */
/* TensorReduce: every partition's N = G * R elements (walk order) are G groups of R; group g
   folds to one value, reg = op(x[i], reg) from reg = x[0] in element order, negated on request
   (arith: in fp32, then the one output conversion); bitvec folds the raw bits (and, or, xor).
   LANES partitions fold side by side: independent chains, so the fold runs at throughput, not at
   the latency of one add per element. */
#define REDUCE_ROWS(OP, LD) do { \
        const float *restrict x0 = x[0], *restrict x1 = x[1], *restrict x2 = x[2], \
                    *restrict x3 = x[3], *restrict x4 = x[4], *restrict x5 = x[5], \
                    *restrict x6 = x[6], *restrict x7 = x[7]; \
        float a0 = reg[0], a1 = reg[1], a2 = reg[2], a3 = reg[3], a4 = reg[4], a5 = reg[5], \
              a6 = reg[6], a7 = reg[7]; \
        for (k = 1; k < R; k++) { \
            a0 = OP(LD(x0, k), a0); a1 = OP(LD(x1, k), a1); a2 = OP(LD(x2, k), a2); \
            a3 = OP(LD(x3, k), a3); a4 = OP(LD(x4, k), a4); a5 = OP(LD(x5, k), a5); \
            a6 = OP(LD(x6, k), a6); a7 = OP(LD(x7, k), a7); \
        } \
        reg[0] = a0; reg[1] = a1; reg[2] = a2; reg[3] = a3; reg[4] = a4; reg[5] = a5; \
        reg[6] = a6; reg[7] = a7; \
    } while (0)
/* element k of a row: fp32, or bf16 widened exactly (the row pointer typed float, its bytes bf16) */
#define LD32(row, k) ((row)[k])
#define LD16(row, k) u2f((uint32_t)((const uint16_t *)(const void *)(row))[k] << 16)
#define R_ADD(x, r) ((x) + (r))
#define R_MULT(x, r) ((x) * (r))
/* TensorReduce's ADD or MULT fold on eight rows (fp32, or bf16 widened exactly), in element
   order, reg = op(x[k], reg) from reg = x[0]: eight elements of each row are loaded and
   transposed (8 x 8, data movement only), so each step of the eight chains is one vector
   operation, in the same order as the scalar chains (the same bits). The transposed vectors are
   named values, not an array, so they stay in registers (an array of them spilled: no faster
   than the scalar chains): 0.25 -> 0.13 ms for 128 rows of 16,384 fp32 in cache, in a C
   harness. */
#if defined(TPB_VEC)
#define FOLD8_LOOP(LV, OP) \
    for (; k + 8 <= R; k += 8) { \
        tpb_v8f r0, r1, r2, r3, r4, r5, r6, r7; \
        LV(rows[0], k, r0); LV(rows[1], k, r1); LV(rows[2], k, r2); LV(rows[3], k, r3); \
        LV(rows[4], k, r4); LV(rows[5], k, r5); LV(rows[6], k, r6); LV(rows[7], k, r7); \
        TR8(r0, r1, r2, r3, r4, r5, r6, r7, r0, r1, r2, r3, r4, r5, r6, r7); \
        r = OP(r0, r); r = OP(r1, r); r = OP(r2, r); r = OP(r3, r); \
        r = OP(r4, r); r = OP(r5, r); r = OP(r6, r); r = OP(r7, r); \
    }
TPB_BLOCK void fold8(int mult, int bf16, const char *const *rows, int64_t R, float *reg) {
    tpb_v8f r;
    int64_t k = 1;
    int j;
    const float *x[LANES];
    for (j = 0; j < LANES; j++) { x[j] = (const float *)(const void *)rows[j]; r[j] = reg[j]; }
    if (bf16) {
        if (mult) FOLD8_LOOP(LV_BF16, R_MULT)
        else FOLD8_LOOP(LV_BF16, R_ADD)
    } else {
        if (mult) FOLD8_LOOP(LV_F32, R_MULT)
        else FOLD8_LOOP(LV_F32, R_ADD)
    }
    for (; k < R; k++)
        for (j = 0; j < LANES; j++) {
            float v = bf16 ? LD16(x[j], k) : LD32(x[j], k);
            r[j] = mult ? v * r[j] : v + r[j];
        }
    memcpy(reg, &r, 32);
}
#endif

int tpb_reduce(const tpb_cfg *c, const void *src, int64_t rs, int64_t es, void *dst,
               int64_t drs, int64_t des, int64_t n, int64_t G, int64_t R, int32_t negate,
               int32_t bitvec) {
    float *lut;
    float buf[BLK][LANES], row[BLK];
    float ob[LANES][BLK];
    uint32_t obuf[BLK];
    tpb_fmt f = fmt_for(c->out_code, c);
    int isz = dsize(c->in_code), osz = dsize(c->out_code), fast;
    int64_t p0;
    if (isz == 0 || osz == 0 || R <= 0) return -1;
    if (bitvec) {
        uint32_t bb[BLK];
        uint32_t mask = (isz == 4) ? 0xFFFFFFFFu : ((1u << (isz * 8)) - 1u);
        int64_t p, g;
        for (p = 0; p < n; p++) {
            const char *row = (const char *)src + p * rs * isz;
            char *drow = (char *)dst + p * drs * osz;
            for (g = 0; g < G; g++) {
                uint32_t reg = 0;
                int64_t i0;
                for (i0 = 0; i0 < R; i0 += BLK) {
                    int64_t cnt = (R - i0 < BLK) ? R - i0 : BLK, k;
                    bits_load(row, es, isz, g * R + i0, cnt, bb);
                    k = 0;
                    if (i0 == 0) { reg = bb[0]; k = 1; }
                    for (; k < cnt; k++) {
                        uint32_t x = bb[k];
                        reg = (c->op0 == OP_BITWISE_AND) ? (x & reg) : (c->op0 == OP_BITWISE_OR) ? (x | reg) : (x ^ reg);
                    }
                }
                reg &= mask;
                {
                    char *q = drow + g * des * osz;
                    if (osz == 1) *(uint8_t *)q = (uint8_t)reg;
                    else if (osz == 2) { uint16_t v = (uint16_t)reg; memcpy(q, &v, 2); }
                    else memcpy(q, &reg, 4);
                }
            }
        }
        return 0;
    }
    lut = make_lut(c->in_code, c);
    if (needs_lut(c->in_code) && !lut) return -2;
    {
        int in32 = c->in_code == D_FP32 || c->in_code == D_FP32R, bf16 = c->in_code == D_BFLOAT16;
        fast = es == 1 && (in32 || bf16) &&
               (c->op0 == OP_ADD || c->op0 == OP_MULT || c->op0 == OP_MAX || c->op0 == OP_MIN);
    }
    if (fast) {
        /* fp32 or bf16 rows with unit steps: LANES rows folded in place */
        for (p0 = 0; p0 < n; p0 += LANES) {
            int64_t lanes = (n - p0 < LANES) ? n - p0 : LANES, g, j, k;
            for (g = 0; g < G; g++) {
                const float *x[LANES];
                const char *xr[LANES];
                float reg[LANES];
                for (j = 0; j < LANES; j++) {
                    xr[j] = (const char *)src +
                            ((p0 + (j < lanes ? j : lanes - 1)) * rs + g * R) * isz;
                    x[j] = (const float *)(const void *)xr[j];
                    reg[j] = 0.0f;
                }
                if (c->op0 == OP_MAX || c->op0 == OP_MIN) {
                    /* the rows of the next call, which the prefetches run on into */
                    const char *nx[LANES];
                    int64_t np0 = (g + 1 < G) ? p0 : p0 + LANES, ng = (g + 1 < G) ? g + 1 : 0;
                    int64_t nl = (np0 >= n) ? 0 : (n - np0 < LANES) ? n - np0 : LANES;
                    for (j = 0; j < nl; j++)
                        nx[j] = (const char *)src + ((np0 + j) * rs + ng * R) * isz;
                    fold_key(xr, lanes, nx, nl, isz == 2, R, c->op0 == OP_MIN, reg);
                } else {
                    for (j = 0; j < LANES; j++) reg[j] = (isz == 2) ? LD16(x[j], 0) : x[j][0];
#if defined(TPB_VEC)
                    fold8(c->op0 == OP_MULT, isz == 2, xr, R, reg);
                    (void)k;
#else
                    if (isz == 2 && c->op0 == OP_ADD) REDUCE_ROWS(R_ADD, LD16);
                    else if (isz == 2) REDUCE_ROWS(R_MULT, LD16);
                    else if (c->op0 == OP_ADD) REDUCE_ROWS(R_ADD, LD32);
                    else REDUCE_ROWS(R_MULT, LD32);
#endif
                }
                for (j = 0; j < lanes; j++) ob[j][g % BLK] = negate ? -reg[j] : reg[j];
                if (g % BLK == BLK - 1 || g == G - 1) {
                    int64_t g0 = g - g % BLK;
                    for (j = 0; j < lanes; j++)
                        put_block(c, &f, ob[j], (char *)dst + (p0 + j) * drs * osz, des, osz, g0,
                                  g - g0 + 1, (uint64_t)((p0 + j) * G + g0), obuf);
                }
            }
        }
        free(lut);
        return 0;
    }
    for (p0 = 0; p0 < n; p0 += LANES) {
        int64_t lanes = (n - p0 < LANES) ? n - p0 : LANES;
        int64_t g0;
        for (g0 = 0; g0 < G; g0 += BLK) {
            int64_t gcnt = (G - g0 < BLK) ? G - g0 : BLK, g, j;
            for (g = 0; g < gcnt; g++) {
                float reg[LANES];
                int64_t i0;
                for (i0 = 0; i0 < R; i0 += BLK) {
                    int64_t cnt = (R - i0 < BLK) ? R - i0 : BLK, k;
                    for (j = 0; j < LANES; j++) { /* lanes past the last partition: unused */
                        const char *r_ =
                            (const char *)src + (p0 + (j < lanes ? j : lanes - 1)) * rs * isz;
                        load_any(c->in_code, r_, es, (g0 + g) * R + i0, cnt, row, lut);
                        to_lane(buf, row, cnt, j);
                    }
                    k = 0;
                    if (i0 == 0) { for (j = 0; j < LANES; j++) reg[j] = buf[0][j]; k = 1; }
                    switch (c->op0) {
                    case OP_ADD:
                        for (; k < cnt; k++) for (j = 0; j < LANES; j++) reg[j] = buf[k][j] + reg[j];
                        break;
                    case OP_MULT:
                        for (; k < cnt; k++) for (j = 0; j < LANES; j++) reg[j] = buf[k][j] * reg[j];
                        break;
                    case OP_MAX:
                        for (; k < cnt; k++) for (j = 0; j < LANES; j++) reg[j] = f_max_sel(buf[k][j], reg[j]);
                        break;
                    case OP_MIN:
                        for (; k < cnt; k++) for (j = 0; j < LANES; j++) reg[j] = f_min_sel(buf[k][j], reg[j]);
                        break;
                    default:
                        for (; k < cnt; k++)
                            for (j = 0; j < LANES; j++) reg[j] = f_binary(c->op0, buf[k][j], reg[j]);
                        break;
                    }
                }
                for (j = 0; j < lanes; j++) ob[j][g] = negate ? -reg[j] : reg[j];
            }
            for (j = 0; j < lanes; j++) {
                char *drow = (char *)dst + (p0 + j) * drs * osz;
                put_block(c, &f, ob[j], drow, des, osz, g0, gcnt, (uint64_t)((p0 + j) * G + g0),
                          obuf);
            }
        }
    }
    free(lut);
    return 0;
}

/* ---------------------------------------------------------------- int wide */
/* TensorTensorIntWide (maverick 0xf3): each source extended to 64 bits by its dtype's
   signedness, the op computed on 64 bits (add, subtract, the product's low 64 bits, a left shift
   by src1 < 32), bits 31..0 to lo, 63..32 to hi. in_code/in1_code are the sources' dtypes. */
#define INT_LOOP(T) \
    do { if (es == 1) { for (k = 0; k < cnt; k++) { T v; memcpy(&v, row + (i0 + k) * \
                            (int64_t)sizeof(T), sizeof(T)); out[k] = (uint64_t)(int64_t)v; } } \
         else { for (k = 0; k < cnt; k++) { T v; memcpy(&v, row + (i0 + k) * es * \
                            (int64_t)sizeof(T), sizeof(T)); out[k] = (uint64_t)(int64_t)v; } } \
    } while (0)
TPB_INLINE void int_block(int code, const char *row, int64_t es, int64_t i0, int64_t cnt,
                          uint64_t *out) {
    int64_t k;
    switch (code) {
    case D_INT8: INT_LOOP(int8_t); break;
    case D_UINT8: INT_LOOP(uint8_t); break;
    case D_INT16: INT_LOOP(int16_t); break;
    case D_UINT16: INT_LOOP(uint16_t); break;
    case D_INT32: INT_LOOP(int32_t); break;
    default: INT_LOOP(uint32_t); break;
    }
}

#define WIDE_LOOP(EXPR) \
    if (les == 1 && hes == 1) { \
        uint32_t *l_ = lr + i0, *h_ = hr + i0; \
        for (k = 0; k < cnt; k++) { uint64_t a = A[k], b = B[k], r = (EXPR); \
                                    l_[k] = (uint32_t)r; h_[k] = (uint32_t)(r >> 32); } \
    } else { \
        for (k = 0; k < cnt; k++) { uint64_t a = A[k], b = B[k], r = (EXPR); \
                                    lr[(i0 + k) * les] = (uint32_t)r; \
                                    hr[(i0 + k) * hes] = (uint32_t)(r >> 32); } \
    }

/* the contiguous rows of 32-bit sources (int32 or uint32: sx0/sx1 all ones when signed) and
   destinations, add, subtract or multiply: each source extended without a branch, one loop per
   op, no staging blocks; built per ISA (a small function, unlike the kernel around it) */
#define WIDE_EXT(x, sx) ((uint64_t)(x) | ((uint64_t)((sx) & (0u - ((x) >> 31))) << 32))
#define WIDE_ROW(EXPR) \
    for (k = 0; k < N; k++) { \
        uint64_t a = WIDE_EXT(x0[k], sx0), b = WIDE_EXT(x1[k], sx1), r = (EXPR); \
        lo[k] = (uint32_t)r; \
        hi[k] = (uint32_t)(r >> 32); \
    }
TPB_BLOCK void wide_row32(int op, const uint32_t *restrict x0, uint32_t sx0,
                          const uint32_t *restrict x1, uint32_t sx1, uint32_t *restrict lo,
                          uint32_t *restrict hi, int64_t N) {
    int64_t k;
    switch (op) {
    case W_ADD_INT: WIDE_ROW(a + b); break;
    case W_SUBTRACT_INT: WIDE_ROW(a - b); break;
    default: WIDE_ROW(a * b); break;
    }
}

int tpb_int_wide(const tpb_cfg *c, const void *src0, int64_t rs0, int64_t es0,
                 const void *src1, int64_t rs1, int64_t es1, uint32_t *lo, int64_t lrs,
                 int64_t les, uint32_t *hi, int64_t hrs, int64_t hes, int64_t n, int64_t N) {
    uint64_t A[BLK], B[BLK];
    int isz0 = dsize(c->in_code), isz1 = dsize(c->in1_code);
    int64_t p, k;
    if (isz0 == 0 || isz1 == 0) return -1;
    if (isz0 == 4 && isz1 == 4 && es0 == 1 && es1 == 1 && les == 1 && hes == 1 &&
        (c->op0 == W_ADD_INT || c->op0 == W_SUBTRACT_INT || c->op0 == W_MULT_INT || c->op0 == W_MULT_UINT)) {
        uint32_t sx0 = (c->in_code == D_INT32) ? ~0u : 0u, sx1 = (c->in1_code == D_INT32) ? ~0u : 0u;
        for (p = 0; p < n; p++)
            wide_row32(c->op0, (const uint32_t *)src0 + p * rs0, sx0,
                       (const uint32_t *)src1 + p * rs1, sx1, lo + p * lrs, hi + p * hrs, N);
        return 0;
    }
    for (p = 0; p < n; p++) {
        const char *r0 = (const char *)src0 + p * rs0 * isz0;
        const char *r1 = (const char *)src1 + p * rs1 * isz1;
        uint32_t *lr = lo + p * lrs, *hr = hi + p * hrs;
        int64_t i0;
        for (i0 = 0; i0 < N; i0 += BLK) {
            int64_t cnt = (N - i0 < BLK) ? N - i0 : BLK;
            int_block(c->in_code, r0, es0, i0, cnt, A);
            int_block(c->in1_code, r1, es1, i0, cnt, B);
            switch (c->op0) {
            case W_ADD_INT: WIDE_LOOP(a + b); break;
            case W_SUBTRACT_INT: WIDE_LOOP(a - b); break;
            case W_MULT_INT: case W_MULT_UINT: WIDE_LOOP(a * b); break;
            default:
                for (k = 0; k < cnt; k++) if (B[k] >= 32u) return -3;
                WIDE_LOOP(a << b);
                break;
            }
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- bit moves */
/* Copy, Memset, the predicated copies and Iota move or store raw elements of `esize` bytes
 * without converting them; strides are in elements, as everywhere above. The caller has made
 * sure that a destination shares no memory with what is read (tpb_move, tpb_select). Each loop
 * has a unit-stride form (which the compiler vectorises) beside the strided one. */

TPB_CLONES
int tpb_move(const void *src, int64_t rs, int64_t es, void *dst, int64_t drs, int64_t des,
             int64_t n, int64_t N, int32_t esize) {
    int64_t p, k;
    if (esize != 1 && esize != 2 && esize != 4) return -1;
    for (p = 0; p < n; p++) {
        const char *s = (const char *)src + p * rs * esize;
        char *d = (char *)dst + p * drs * esize;
        if (es == 1 && des == 1) {
            memcpy(d, s, (size_t)(N * esize));
        } else {
            for (k = 0; k < N; k++) memcpy(d + k * des * esize, s + k * es * esize, (size_t)esize);
        }
    }
    return 0;
}

/* Streaming (non-temporal) stores, for an instruction that only writes and writes at least
 * TPB_STREAM_BYTES: a plain store first reads each line it writes into the cache (half again
 * the memory traffic of the write), and an output that large is not read back from the cache
 * before other lines evict it, so its lines go straight to memory. The bits stored are the
 * plain loop's; x86-64 (SSE2) only, the plain loop elsewhere and below the threshold. */
#define TPB_STREAM_BYTES ((int64_t)4 << 20)
#if defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
#include <emmintrin.h>
#define TPB_HAVE_STREAM 1
#else
#define TPB_HAVE_STREAM 0
#endif

#if TPB_HAVE_STREAM
/* `nbytes` bytes at `d` (a whole number of `esize`-byte elements, `d` element-aligned) filled
 * with the 32-bit pattern `pat` (the element repeated): element stores up to a 16-byte
 * boundary, 64-byte streamed blocks, element stores for the rest. */
TPB_INLINE void stream_fill_row(char *d, int64_t nbytes, int32_t esize, uint32_t pat) {
    const __m128i v = _mm_set1_epi32((int)pat);
    int64_t k = 0;
    while (((uintptr_t)(d + k) & 15u) && k < nbytes) {
        memcpy(d + k, &pat, (size_t)esize); /* the pattern's low element (little-endian) */
        k += esize;
    }
    for (; k + 64 <= nbytes; k += 64) {
        _mm_stream_si128((__m128i *)(void *)(d + k), v);
        _mm_stream_si128((__m128i *)(void *)(d + k + 16), v);
        _mm_stream_si128((__m128i *)(void *)(d + k + 32), v);
        _mm_stream_si128((__m128i *)(void *)(d + k + 48), v);
    }
    for (; k < nbytes; k += esize) memcpy(d + k, &pat, (size_t)esize);
}
#endif

#define TPB_FILL_ROW(T)                                                                      \
    {                                                                                        \
        T *restrict d = (T *)dst + p * drs;                                                  \
        if (des == 1) {                                                                      \
            for (k = 0; k < N; k++) d[k] = (T)bits;                                          \
        } else {                                                                             \
            for (k = 0; k < N; k++) d[k * des] = (T)bits;                                    \
        }                                                                                    \
    }

TPB_CLONES
int tpb_fill(void *dst, int64_t drs, int64_t des, int64_t n, int64_t N, int32_t esize,
             uint32_t bits) {
    int64_t p, k;
#if TPB_HAVE_STREAM
    if (des == 1 && n * N * esize >= TPB_STREAM_BYTES && (esize == 1 || esize == 2 || esize == 4)) {
        const uint32_t pat = esize == 1   ? (bits & 0xFFu) * 0x01010101u
                             : esize == 2 ? (bits & 0xFFFFu) * 0x00010001u
                                          : bits;
        for (p = 0; p < n; p++) stream_fill_row((char *)dst + p * drs * esize, N * esize, esize, pat);
        _mm_sfence(); /* the streamed lines are ordered before what follows */
        return 0;
    }
#endif
    for (p = 0; p < n; p++) {
        switch (esize) {
        case 1: TPB_FILL_ROW(uint8_t) break;
        case 2: TPB_FILL_ROW(uint16_t) break;
        case 4: TPB_FILL_ROW(uint32_t) break;
        default: return -1;
        }
    }
    return 0;
}

/* whether a row holds a nonzero even element: an OR of masks, without an early exit or a
 * widening counter (so that it vectorises); bit 0 of `acc` is set by such an element only */
#define TPB_UNDECIDED_ROW(T)                                                                 \
    {                                                                                        \
        const T *restrict s = (const T *)pred + p * rs;                                      \
        T acc = 0;                                                                           \
        if (es == 1) {                                                                       \
            for (k = 0; k < N; k++) acc |= (T)((T)(0 - (T)(s[k] != 0)) & (T)~s[k]);          \
        } else {                                                                             \
            for (k = 0; k < N; k++) acc |= (T)((T)(0 - (T)(s[k * es] != 0)) & (T)~s[k * es]); \
        }                                                                                    \
        bad = acc & 1u;                                                                      \
    }

TPB_CLONES
int64_t tpb_undecided(const void *pred, int64_t rs, int64_t es, int64_t n, int64_t N,
                      int32_t esize) {
    int64_t p, k;
    for (p = 0; p < n; p++) {
        uint64_t bad = 0;
        switch (esize) {
        case 1: TPB_UNDECIDED_ROW(uint8_t) break;
        case 2: TPB_UNDECIDED_ROW(uint16_t) break;
        case 4: TPB_UNDECIDED_ROW(uint32_t) break;
        default: return -2;
        }
        if (bad) {
            const char *row = (const char *)pred + p * rs * esize;
            for (k = 0; k < N; k++) {
                uint32_t v = 0;
                memcpy(&v, row + k * es * esize, (size_t)esize); /* little-endian hosts */
                if (v != 0 && (v & 1) == 0) return p * N + k;
            }
        }
    }
    return -1;
}

#define TPB_SELECT_ROW(P, T)                                                                 \
    {                                                                                        \
        const P *restrict q = (const P *)pred + p * prs;                                     \
        const T *restrict s = (const T *)src + p * rs;                                       \
        T *restrict d = (T *)dst + p * drs;                                                  \
        if (pes == 1 && es == 1 && des == 1) {                                               \
            for (k = 0; k < N; k++) {                                                        \
                T m = (T)(0 - (T)(q[k] != 0)); /* all ones where the predicate holds */      \
                d[k] = (T)((s[k] & m) | (d[k] & (T)~m));                                     \
            }                                                                                \
        } else {                                                                             \
            for (k = 0; k < N; k++) d[k * des] = q[k * pes] ? s[k * es] : d[k * des];        \
        }                                                                                    \
    }

#define TPB_SELECT_DATA(P)                                                                   \
    switch (esize) {                                                                         \
    case 1: TPB_SELECT_ROW(P, uint8_t) break;                                                \
    case 2: TPB_SELECT_ROW(P, uint16_t) break;                                               \
    case 4: TPB_SELECT_ROW(P, uint32_t) break;                                               \
    default: return -1;                                                                      \
    }

TPB_CLONES
int tpb_select(const void *pred, int64_t prs, int64_t pes, int32_t psize, const void *src,
               int64_t rs, int64_t es, void *dst, int64_t drs, int64_t des, int64_t n,
               int64_t N, int32_t esize) {
    int64_t p, k;
    for (p = 0; p < n; p++) {
        switch (psize) {
        case 1: TPB_SELECT_DATA(uint8_t) break;
        case 2: TPB_SELECT_DATA(uint16_t) break;
        case 4: TPB_SELECT_DATA(uint32_t) break;
        default: return -1;
        }
    }
    return 0;
}

TPB_CLONES
int tpb_outer_add(const void *rows, const void *cols, void *dst, int64_t drs, int64_t des,
                  int64_t n, int64_t N, int32_t fp32) {
    int64_t p, k;
#if TPB_HAVE_STREAM
    if (des == 1 && n * N * 4 >= TPB_STREAM_BYTES) { /* streamed: see TPB_STREAM_BYTES */
        for (p = 0; p < n; p++) {
            char *d = (char *)dst + p * drs * 4;
            k = 0;
            if (fp32) {
                const float r = ((const float *)rows)[p], *c = (const float *)cols;
                const __m128 rv = _mm_set1_ps(r);
                for (; ((uintptr_t)(d + 4 * k) & 15u) && k < N; k++) ((float *)(void *)d)[k] = r + c[k];
                for (; k + 4 <= N; k += 4) /* one IEEE binary32 add a lane, as r + c[k] */
                    _mm_stream_ps((float *)(void *)(d + 4 * k), _mm_add_ps(rv, _mm_loadu_ps(c + k)));
                for (; k < N; k++) ((float *)(void *)d)[k] = r + c[k];
            } else {
                const uint32_t r = ((const uint32_t *)rows)[p], *c = (const uint32_t *)cols;
                const __m128i rv = _mm_set1_epi32((int)r);
                for (; ((uintptr_t)(d + 4 * k) & 15u) && k < N; k++) ((uint32_t *)(void *)d)[k] = r + c[k];
                for (; k + 4 <= N; k += 4) /* wrapping 32-bit adds */
                    _mm_stream_si128((__m128i *)(void *)(d + 4 * k),
                                     _mm_add_epi32(rv, _mm_loadu_si128((const __m128i *)(const void *)(c + k))));
                for (; k < N; k++) ((uint32_t *)(void *)d)[k] = r + c[k];
            }
        }
        _mm_sfence();
        return 0;
    }
#endif
    for (p = 0; p < n; p++) {
        if (fp32) {
            const float r = ((const float *)rows)[p], *restrict c = (const float *)cols;
            float *restrict d = (float *)dst + p * drs;
            if (des == 1) {
                for (k = 0; k < N; k++) d[k] = r + c[k];
            } else {
                for (k = 0; k < N; k++) d[k * des] = r + c[k];
            }
        } else {
            const uint32_t r = ((const uint32_t *)rows)[p], *restrict c = (const uint32_t *)cols;
            uint32_t *restrict d = (uint32_t *)dst + p * drs;
            if (des == 1) {
                for (k = 0; k < N; k++) d[k] = r + c[k];
            } else {
                for (k = 0; k < N; k++) d[k * des] = r + c[k];
            }
        }
    }
    return 0;
}

/* CastPredicated's two stages a block at a time: the data converted through the fp32 hub by
 * tpb_ts_arith (both ops BYPASS) into a buffer that stays in cache, then selected into the
 * destination, so the converted tensor never goes to memory. Round-to-nearest only: a
 * stochastic rounding draws from the element's index in the whole tensor, which a block's call
 * would not see (the caller converts the whole tensor first then). */
TPB_CLONES
int tpb_cast_select(const tpb_cfg *c, const void *pred, int64_t prs, int64_t pes, int32_t psize,
                    const void *src, int64_t rs, int64_t es, void *dst, int64_t drs,
                    int64_t des, int64_t n, int64_t N) {
    uint32_t obuf[BLK];
    float zero = 0.0f;
    int isz = dsize(c->in_code), osz = dsize(c->out_code);
    int64_t p, i0;
    if (isz == 0 || osz == 0 || c->stochastic || c->op0 != OP_BYPASS || c->op1 != OP_BYPASS)
        return -1;
    for (p = 0; p < n; p++) {
        for (i0 = 0; i0 < N; i0 += BLK) {
            int64_t cnt = (N - i0 < BLK) ? N - i0 : BLK;
            int rc = tpb_ts_arith(c, (const char *)src + (p * rs + i0 * es) * isz, 0, es, obuf,
                                  0, 1, 1, cnt, 1, &zero, &zero);
            if (rc) return rc;
            rc = tpb_select((const char *)pred + (p * prs + i0 * pes) * psize, 0, pes, psize, obuf,
                            0, 1, (char *)dst + (p * drs + i0 * des) * osz, 0, des, 1, cnt, osz);
            if (rc) return rc;
        }
    }
    return 0;
}
