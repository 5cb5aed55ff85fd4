/* The executor's C kernels: the configuration block and the entry points.
 *
 * This file is both the C header that tpb_kernels.c includes and the declaration cffi reads
 * (cbackend.py passes it to ffi.cdef), so it holds only what cdef accepts: no preprocessor
 * lines, no includes (the fixed-width types are cffi built-ins; tpb_kernels.c includes
 * <stdint.h> first).
 */

typedef struct {
    int32_t in_code;
    int32_t out_code;
    int32_t op0;
    int32_t op1;
    int32_t rev0;
    int32_t rev1;
    int32_t stochastic;
    int32_t e4m3_ocp;
    int32_t fp8_saturate;
    int32_t f2i_truncate;
    int32_t fp32r_bits;
    int32_t in1_code;
    uint64_t key;
} tpb_cfg;

int tpb_ts_arith(const tpb_cfg *c, const void *src, int64_t src_rs, int64_t src_es,
                 void *dst, int64_t dst_rs, int64_t dst_es, int64_t n, int64_t N, int64_t W,
                 const float *s0, const float *s1);
int tpb_ts_bitvec(const tpb_cfg *c, const void *src, int64_t src_rs, int64_t src_es,
                  void *dst, int64_t dst_rs, int64_t dst_es, int64_t n, int64_t N, int64_t W,
                  const uint32_t *s0, const uint32_t *s1);
int tpb_accumulate(const tpb_cfg *c, const void *src, int64_t src_rs, int64_t src_es,
                   void *dst, int64_t dst_rs, int64_t dst_es, int64_t n, int64_t N,
                   const float *s0, float *acc, int32_t cumulative, int32_t use_acc);
int tpb_exp(const tpb_cfg *c, const void *src, int64_t src_rs, int64_t src_es,
            void *dst, int64_t dst_rs, int64_t dst_es, int64_t n, int64_t N,
            const float *s0, float *acc, int32_t use_acc);
int64_t tpb_run_ts(const tpb_cfg *arith, const tpb_cfg *bitvec, char *sbuf, char *psum,
                   const int64_t *recs, int64_t count, uint64_t key_base, uint64_t stream0,
                   int32_t *rc);
int tpb_tt_arith(const tpb_cfg *c, const void *src0, int64_t rs0, int64_t es0,
                 const void *src1, int64_t rs1, int64_t es1, void *dst, int64_t drs, int64_t des,
                 int64_t n, int64_t N, const float *s, int32_t scan);
int tpb_tt_bitvec(const tpb_cfg *c, const void *src0, int64_t rs0, int64_t es0,
                  const void *src1, int64_t rs1, int64_t es1, void *dst, int64_t drs,
                  int64_t des, int64_t n, int64_t N, const uint32_t *s);
int tpb_reduce(const tpb_cfg *c, const void *src, int64_t rs, int64_t es, void *dst,
               int64_t drs, int64_t des, int64_t n, int64_t G, int64_t R, int32_t negate,
               int32_t bitvec);
int tpb_int_wide(const tpb_cfg *c, const void *src0, int64_t rs0, int64_t es0,
                 const void *src1, int64_t rs1, int64_t es1, uint32_t *lo, int64_t lrs,
                 int64_t les, uint32_t *hi, int64_t hrs, int64_t hes, int64_t n, int64_t N);
int tpb_move(const void *src, int64_t rs, int64_t es, void *dst, int64_t drs, int64_t des,
             int64_t n, int64_t N, int32_t esize);
int tpb_fill(void *dst, int64_t drs, int64_t des, int64_t n, int64_t N, int32_t esize,
             uint32_t bits);
int64_t tpb_undecided(const void *pred, int64_t rs, int64_t es, int64_t n, int64_t N,
                      int32_t esize);
int tpb_select(const void *pred, int64_t prs, int64_t pes, int32_t psize, const void *src,
               int64_t rs, int64_t es, void *dst, int64_t drs, int64_t des, int64_t n,
               int64_t N, int32_t esize);
int tpb_outer_add(const void *rows, const void *cols, void *dst, int64_t drs, int64_t des,
                  int64_t n, int64_t N, int32_t fp32);
int tpb_cast_select(const tpb_cfg *c, const void *pred, int64_t prs, int64_t pes, int32_t psize,
                    const void *src, int64_t rs, int64_t es, void *dst, int64_t drs,
                    int64_t des, int64_t n, int64_t N);
