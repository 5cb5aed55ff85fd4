/*
 * Copyright (c) 2019+ Amazon.com, Inc. or its affiliates. All Rights Reserved.
 * ISA header for NC-v2.
 */
#ifndef AWS_NEURON_ISA_TPB_COMMON_H
#define AWS_NEURON_ISA_TPB_COMMON_H

#include <stdint.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef NEURON_ISA_PACKED
#define NEURON_ISA_PACKED __attribute__((__packed__))
#endif

#ifdef __cplusplus
#define ISA_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#else
#define ISA_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#endif

// Every TPB instruction is one fixed-size record.
// All operand structs static-assert this size.
static const uint32_t NEURON_ISA_TPB_INST_NBYTES = 64U;

// Address registers and the immediate-address mask
static const uint32_t NEURON_ISA_TPB_NUM_ADDR_REGISTERS = 64U;
static const uint32_t NEURON_ISA_TPB_TPB_PARTITION_ADDR_MASK = 0x1fffffffU;

// DGE shape registers; POOL and DVE lane counts
static const uint32_t NEURON_ISA_TPB_NUM_DGE_SHAPE_REGISTERS = 4U;
static const uint32_t NEURON_ISA_TPB_POOLING_NUM_CHANNELS = 128U; // const POOLING_NUM_CHANNELS = 128
static const uint32_t NEURON_ISA_TPB_DVE_NUM_CHANNELS = 128U;

// Machine model (per-generation geometry)
static const uint32_t NEURON_ISA_TPB_STATE_BUF_NUM_PARTITIONS = 128U;
static const uint32_t NEURON_ISA_TPB_STATE_BUF_WORD_SIZE = 8U;
static const uint32_t NEURON_ISA_TPB_STATE_BUF_PARTITION_SIZE = 262144U;
static const uint32_t NEURON_ISA_TPB_STATE_BUF_PARTITION_ACTIVE_SIZE = 196608U;

// Partial-sum buffer (PSUM): partitions, banks per partition
static const uint32_t NEURON_ISA_TPB_PSUM_BUF_NUM_PARTITIONS = 128U;
static const uint32_t NEURON_ISA_TPB_PSUM_BUF_PARTITION_SIZE = 32768U;
static const uint32_t NEURON_ISA_TPB_PSUM_BUF_PARTITION_ACTIVE_SIZE = 16384U;
static const uint32_t NEURON_ISA_TPB_PSUM_BUF_NUM_BANKS = 16U;
static const uint32_t NEURON_ISA_TPB_PSUM_BUF_BANK_SIZE = 1024U;

// Placement of SBUF and PSUM in the partition address space (byte offsets and sizes)
static const uint32_t NEURON_ISA_TPB_STATE_BUF_OFFSET = 0x0U;
static const uint32_t NEURON_ISA_TPB_PSUM_BUF_OFFSET = 0x2000000U;
static const uint32_t NEURON_ISA_TPB_STATE_BUF_SZ = 0x2000000U;
static const uint32_t NEURON_ISA_TPB_PSUM_BUF_SZ = 0x400000U;

// Processing-element (PE) array
static const uint32_t NEURON_ISA_TPB_PE_ARRAY_NUM_ROWS = 128U;
static const uint32_t NEURON_ISA_TPB_PE_ARRAY_NUM_COLS = 128U;
static const uint32_t NEURON_ISA_TPB_PE_ARRAY_NUM_ROW_GROUPS = 4U;
static const uint32_t NEURON_ISA_TPB_PE_ARRAY_NUM_COL_GROUPS = 4U;

// DMA engines attached to one TPB:
//   DMA_ENGINE_DATA_WIDTH_BYTES - bytes moved per engine beat
//   DMA_ENGINE_COUNT_PER_TPB    - number of engines serving the TPB
// (the values below are this generation's)
//
static const uint32_t NEURON_ISA_TPB_DMA_ENGINE_DATA_WIDTH_BYTES = 32U;
static const uint32_t NEURON_ISA_TPB_DMA_ENGINE_COUNT_PER_TPB = 16U;

// Matmul PSUM accumulation modes (plain constants, not an enum)
static const uint32_t NEURON_ISA_TPB_MATMUL_PSUM_ACCUMULATE_MODE_MULTI_MID = 0U;
static const uint32_t NEURON_ISA_TPB_MATMUL_PSUM_ACCUMULATE_MODE_MULTI_START = 1U;
static const uint32_t NEURON_ISA_TPB_MATMUL_PSUM_ACCUMULATE_MODE_MULTI_END = 2U;
static const uint32_t NEURON_ISA_TPB_MATMUL_PSUM_ACCUMULATE_MODE_SINGLE = 3U;

// Permission flags taken by the dtype / address predicates below
typedef enum NEURON_ISA_TPB_DTYPE_ALLOW_FP32R {
    ALLOW_FP32R_FALSE = 0,
    ALLOW_FP32R_TRUE = 1,
} NEURON_ISA_PACKED NEURON_ISA_TPB_DTYPE_ALLOW_FP32R;

typedef enum NEURON_ISA_TPB_DTYPE_ALLOW_U64 {
    ALLOW_U64_FALSE = 0,
    ALLOW_U64_TRUE = 1,
} NEURON_ISA_PACKED NEURON_ISA_TPB_DTYPE_ALLOW_U64;

typedef enum NEURON_ISA_TPB_DTYPE_ALLOW_I64 {
    ALLOW_I64_FALSE = 0,
    ALLOW_I64_TRUE = 1,
} NEURON_ISA_PACKED NEURON_ISA_TPB_DTYPE_ALLOW_I64;

typedef enum NEURON_ISA_TPB_WRITE_TENSOR {
    WRITE_TENSOR_FALSE = 0,
    WRITE_TENSOR_TRUE = 1,
} NEURON_ISA_PACKED NEURON_ISA_TPB_WRITE_TENSOR;

typedef enum NEURON_ISA_TPB_ALLOWED_IN_PSUM {
    ALLOWED_IN_PSUM_FALSE = 0,
    ALLOWED_IN_PSUM_TRUE = 1,
} NEURON_ISA_PACKED NEURON_ISA_TPB_ALLOWED_IN_PSUM;

typedef enum NEURON_ISA_TPB_ALLOWED_IN_SBUF {
    ALLOWED_IN_SBUF_FALSE = 0,
    ALLOWED_IN_SBUF_TRUE = 1,
} NEURON_ISA_PACKED NEURON_ISA_TPB_ALLOWED_IN_SBUF;
























typedef enum NEURON_ISA_TPB_NEURON_CORE_VERSION {
    NEURON_ISA_TPB_NEURON_CORE_VERSION_V2 = 2, // V1 ISA is maintained in separate package
} NEURON_ISA_PACKED NEURON_ISA_TPB_NEURON_CORE_VERSION;




typedef enum NEURON_ISA_TPB_NEURON_ENGINE {
    NEURON_ISA_TPB_NEURON_ENGINE_PE = 0,
    NEURON_ISA_TPB_NEURON_ENGINE_ACT = 1,
    NEURON_ISA_TPB_NEURON_ENGINE_POOL = 2,
    NEURON_ISA_TPB_NEURON_ENGINE_DVE = 3,
    NEURON_ISA_TPB_NEURON_ENGINE_TPB_SP = 4,
    NEURON_ISA_TPB_NEURON_ENGINE_TOP_SP = 5,
} NEURON_ISA_PACKED NEURON_ISA_TPB_NEURON_ENGINE;

// Opcode byte (HEADER byte 0). Trailing comments record the maintenance state of each
// instruction: `// Y` = maintained; `// n, ...` = kept for compatibility, see the note.
// Declaration order groups arith/bitvec pairs; it is not sorted by value.



typedef enum NEURON_ISA_TPB_OPCODE {
    NEURON_ISA_TPB_OPCODE_LDWEIGHTS = 0x01, // Y
    NEURON_ISA_TPB_OPCODE_MATMUL = 0x02, // Y
    NEURON_ISA_TPB_OPCODE_PE_REG_WRITE = 0x03, // Y
    NEURON_ISA_TPB_OPCODE_WEIGHT_MASK = 0x04, // Y
    NEURON_ISA_TPB_OPCODE_WEIGHT_SHIFT = 0x05, // Y
    NEURON_ISA_TPB_OPCODE_ACTIVATE = 0x21, // Y
    NEURON_ISA_TPB_OPCODE_ACTIVATE_QUANTIZE = 0x22, // Y
    NEURON_ISA_TPB_OPCODE_ACTIVATION_TABLE_LOAD = 0x23, // Y
    NEURON_ISA_TPB_OPCODE_ACTIVATION_READ_ACCUMULATOR = 0x24, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_TENSOR_ARITH_OP = 0x41, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_TENSOR_BITVEC_OP = 0x51, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_REDUCE_ARITH_OP = 0x42, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_REDUCE_BITVEC_OP = 0x52, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_ARITH_OP = 0x43, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_BITVEC_OP = 0x53, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_ARITH_OP = 0x44, // n, use TensorScalarArithOp instead
    NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_BITVEC_OP = 0x54, // n, use TensorScalarBitvecOp instead
    NEURON_ISA_TPB_OPCODE_POOL = 0x45, // Y
    NEURON_ISA_TPB_OPCODE_COPY = 0x46, // Y
    NEURON_ISA_TPB_OPCODE_CAST = 0x47, // Y
    NEURON_ISA_TPB_OPCODE_RECIPROCAL = 0x48, // Y
    NEURON_ISA_TPB_OPCODE_MEMSET = 0x49, // Y
    NEURON_ISA_TPB_OPCODE_REG_LOAD = 0x4a, // Y
    NEURON_ISA_TPB_OPCODE_REG_STORE = 0x4b, // Y
    NEURON_ISA_TPB_OPCODE_REG_SHUFFLE = 0x4c, // Y
    NEURON_ISA_TPB_OPCODE_RNG = 0x4d, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_CUMULATIVE_ARITH_OP = 0x4E, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_CUMULATIVE_BITVEC_OP = 0x5E, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_MULTI_ARITH = 0x4F, // n, ucode/kaenadve exists, not maintained/used
    NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_MULTI_BITVEC = 0x5F, // n, ucode/kaenadve exists, not maintained/used
    NEURON_ISA_TPB_OPCODE_MAX_POOL_SELECT = 0x58, // Y
    NEURON_ISA_TPB_OPCODE_BATCH_NORM_STATS = 0x60, // Y
    NEURON_ISA_TPB_OPCODE_BATCH_NORM_STATS2 = 0x61, // Y
    NEURON_ISA_TPB_OPCODE_BATCH_NORM_AGGREGATE = 0x62, // Y
    NEURON_ISA_TPB_OPCODE_BATCH_NORM_GRAD_ACCUMULATE = 0x63, // Y
    NEURON_ISA_TPB_OPCODE_BATCH_NORM_PARAM_LOAD = 0x64, // Y
    NEURON_ISA_TPB_OPCODE_BATCH_NORM_BACK_PROP = 0x65, // Y
    NEURON_ISA_TPB_OPCODE_LOAD_PARAMETER_RAM = 0x66, // Y
    NEURON_ISA_TPB_OPCODE_POOL_BUFFER_LOAD = 0x67, // Y
    NEURON_ISA_TPB_OPCODE_GATHER = 0x68, // Y
    NEURON_ISA_TPB_OPCODE_LOAD_MASK_SELECT = 0x69, // Y
    NEURON_ISA_TPB_OPCODE_STREAM_SHUFFLE = 0x6a, // Y
    NEURON_ISA_TPB_OPCODE_STREAM_TRANSPOSE = 0x6b, // Y
    NEURON_ISA_TPB_OPCODE_MAX8 = 0x6c, // Y
    NEURON_ISA_TPB_OPCODE_MATCH_VALUE_LOAD = 0x6d, // Y
    NEURON_ISA_TPB_OPCODE_FIND_INDEX8 = 0x6e, // Y
    NEURON_ISA_TPB_OPCODE_MATCH_REPLACE8 = 0x6f, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_IMM_LD_ARITH = 0x70, // n, ucode/kaenadve exists, not maintained/used
    NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_IMM_LD_BITVEC = 0x71, // n, ucode/kaenadve exists, not maintained/used
    NEURON_ISA_TPB_OPCODE_COPY_PREDICATED = 0x72, // Y
    NEURON_ISA_TPB_OPCODE_ROI_ALIGN = 0x73, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_ADDR = 0x74, // Y
    NEURON_ISA_TPB_OPCODE_RAND = 0x76, // n, ucode exists, not maintained/used
    NEURON_ISA_TPB_OPCODE_RAND_GET_STATE = 0x77, // Y
    NEURON_ISA_TPB_OPCODE_RAND_SET_STATE = 0x78, // Y
    NEURON_ISA_TPB_OPCODE_EMBEDDING_UPDATE = 0x79, // Y
    NEURON_ISA_TPB_OPCODE_LOAD_POOL_ARGUMENT = 0x7a, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_DEQUANTIZE = 0x7b, // Y
    NEURON_ISA_TPB_OPCODE_CROSS_LANE_REDUCE_ARITH = 0x7c, // Y
    NEURON_ISA_TPB_OPCODE_CROSS_LANE_REDUCE_BITVEC = 0x7d, // Y
    NEURON_ISA_TPB_OPCODE_IOTA = 0x7e, // Y
    NEURON_ISA_TPB_OPCODE_DROPOUT = 0x7f, // Y
    NEURON_ISA_TPB_OPCODE_TRANSPOSE_BATCH_NORM_STATS2 = 0x82, // Y
    NEURON_ISA_TPB_OPCODE_TRANSPOSE_TENSOR_REDUCE_ARITH_OP = 0x83, // Y
    NEURON_ISA_TPB_OPCODE_TRANSPOSE_TENSOR_REDUCE_BITVEC_OP = 0x84, // Y
    NEURON_ISA_TPB_OPCODE_CUSTOM_OP_HEADER = 0x85, // Y
    NEURON_ISA_TPB_OPCODE_CUSTOM_OP_PAYLOAD = 0x86, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_MULTI_DUAL_ARITH = 0x87, // n, ucode/kaenadve exists, not maintained/used
    NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_MULTI_DUAL_BITVEC = 0x88, // n, ucode/kaenadve exists, not maintained/used
    NEURON_ISA_TPB_OPCODE_TENSOR_TENSOR_ADD_BF16 = 0x8a, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_TENSOR_MULT_BF16 = 0x8b, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_REDUCE_ADD_BF16 = 0x8c, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_REDUCE_MAX_BF16 = 0x8d, // Y
    NEURON_ISA_TPB_OPCODE_BATCH_NORM_PARAM_LOAD2 = 0x8e, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_TENSOR_SUB_BF16 = 0x8f, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_AFFINE_SELECT = 0x92, // Y
    NEURON_ISA_TPB_OPCODE_TRANSPOSE_TENSOR_SCALAR_ARITH_OP = 0x93, // Y
    NEURON_ISA_TPB_OPCODE_BATCH_NORM_GRAD_ACCUMULATE2 = 0x94, // Y
    NEURON_ISA_TPB_OPCODE_MODIFY_POOL_CONFIG = 0x95, // Y
    NEURON_ISA_TPB_OPCODE_SORT = 0x96, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_SELECT = 0x98, // SortMerge wip 0x97 // Y
    NEURON_ISA_TPB_OPCODE_CAST_PREDICATED = 0x99, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_CACHE_REDUCE = 0x9a, // Y
    NEURON_ISA_TPB_OPCODE_DVE_READ_ACCUMULATOR = 0x9b, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_REDUCE_RANGE_CHECK = 0x9c, // n, workaround with other instructions, to be removed
    NEURON_ISA_TPB_OPCODE_SCALAR_TENSOR_TENSOR_ARITH = 0x9d, // Y
    NEURON_ISA_TPB_OPCODE_SCALAR_TENSOR_TENSOR_BITVEC = 0x9e, // Y
    NEURON_ISA_TPB_OPCODE_ENGINE_NOP = 0x9f, // Y
    NEURON_ISA_TPB_OPCODE_EXPONENTIAL = 0x30,
    NEURON_ISA_TPB_OPCODE_EVENT_SEMAPHORE = 0xa0, // Y
    NEURON_ISA_TPB_OPCODE_HALT = 0xa1, // Y
    NEURON_ISA_TPB_OPCODE_DRAIN = 0xa2, // Y
    NEURON_ISA_TPB_OPCODE_INSTRUCTION_FLUSH = 0xa3, // Y
    NEURON_ISA_TPB_OPCODE_NOP = 0xa4, // Y
    NEURON_ISA_TPB_OPCODE_WRITE = 0xa5, // Y
    NEURON_ISA_TPB_OPCODE_NOTIFY = 0xa6, // Y
    NEURON_ISA_TPB_OPCODE_MOVE = 0xa7, // Y
    NEURON_ISA_TPB_OPCODE_ALU_OP = 0xa8, // Y
    NEURON_ISA_TPB_OPCODE_COMPARE_BRANCH = 0xa9, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_LOAD = 0xaa, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_STORE = 0xab, // Y
    NEURON_ISA_TPB_OPCODE_EVENT_SEMAPHORE_RANGE_CLEAR = 0xb0, // Y
    NEURON_ISA_TPB_OPCODE_SET_ORDERING_MODE = 0xb1, // Y
    NEURON_ISA_TPB_OPCODE_MOVE_SHAPE = 0xb2, // Y
    NEURON_ISA_TPB_OPCODE_POLL_SEM = 0xb3, // Y
    NEURON_ISA_TPB_OPCODE_BRANCH_PREFETCH_HINT = 0xb5, // Y
    NEURON_ISA_TPB_OPCODE_DMAMEMCPY = 0xb8, // Y
    NEURON_ISA_TPB_OPCODE_DMA_INDIRECT = 0xbb, // Y
    NEURON_ISA_TPB_OPCODE_PSEUDO_DMATRIGGER = 0xc1, // FIXME: currently NRT relies on the fact that all pseudo instructions have upper three bits of the opcode equal to 0b110. Pseudo instructions are generated by compiler and translated into non-pseudo HW instructions by NRT. // Y
    NEURON_ISA_TPB_OPCODE_PSEUDO_DMAREARM = 0xc2, // Y
    NEURON_ISA_TPB_OPCODE_PSEUDO_DMABARRIER = 0xc3, // Y
    NEURON_ISA_TPB_OPCODE_PSEUDO_DMAMEMCPY_FULL_IND = 0xc4, // Y
    NEURON_ISA_TPB_OPCODE_PSEUDO_SEMAPHORE_SET = 0xc5, // Y
    NEURON_ISA_TPB_OPCODE_PSEUDO_LOAD_ACT_FUNC_SET = 0xc6, // Y
    NEURON_ISA_TPB_OPCODE_PSEUDO_TRIGGER_ALL_REDUCE = 0xc7, // Y
    NEURON_ISA_TPB_OPCODE_PSEUDO_TRIGGER_COLLECTIVE = 0xc8, // Y
    NEURON_ISA_TPB_OPCODE_PSEUDO_READ_VAR_ADDR = 0xc9, // Y
    NEURON_ISA_TPB_OPCODE_PSEUDO_EMBEDDING_UPDATE = 0xca, // Y
    NEURON_ISA_TPB_OPCODE_PSEUDO_SEND_RECV = 0xcb, // Y
    NEURON_ISA_TPB_OPCODE_PSEUDO_BRANCH_LABEL = 0xcc, // Y
    NEURON_ISA_TPB_OPCODE_PSEUDO_TENSOR_STORE = 0xcd, // Y
    NEURON_ISA_TPB_OPCODE_PSEUDO_TENSOR_LOAD = 0xce, // Y
    NEURON_ISA_TPB_OPCODE_PSEUDO_DMASWAP_QUEUE_SET = 0xcf, // Y
    NEURON_ISA_TPB_OPCODE_PSEUDO_SET_RNG_SEED = 0xd0, // Y
    NEURON_ISA_TPB_OPCODE_PSEUDO_FUNCTION_BEGIN = 0xd1, // Y
    NEURON_ISA_TPB_OPCODE_PSEUDO_FUNCTION_RETURN = 0xd2, // Y
    NEURON_ISA_TPB_OPCODE_PSEUDO_FUNCTION_CALL = 0xd3, // Y
    NEURON_ISA_TPB_OPCODE_PSEUDO_DMA_DIRECT2D = 0xd4, // Y
    NEURON_ISA_TPB_OPCODE_PSEUDO_SYNC_BARRIER = 0xd5, // Y
    NEURON_ISA_TPB_OPCODE_PSEUDO_RANGE_CHECK = 0xd6, // Y
    NEURON_ISA_TPB_OPCODE_PSEUDO_CORE_BARRIER = 0xd8, // Y
    NEURON_ISA_TPB_OPCODE_PSEUDO_TRIGGER_COLLECTIVE2 = 0xd9, // Y
    NEURON_ISA_TPB_OPCODE_PSEUDO_EXTENSION = 0xda, // Y
    NEURON_ISA_TPB_OPCODE_PSEUDO_CUR_PROCESSING_RANK_ID = 0xdb, // Y
    NEURON_ISA_TPB_OPCODE_PSEUDO_GID_LOAD = 0xdc, // Y
    NEURON_ISA_TPB_OPCODE_PSEUDO_BRANCH_PREFETCH_HINT = 0xdd, // Y
    NEURON_ISA_TPB_OPCODE_PSEUDO_TENSOR_COMPLETION = 0xde, // Y
    NEURON_ISA_TPB_OPCODE_PSEUDO_INST = 0xdf, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_TENSOR_SCAN_ARITH = 0xe5, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_CACHE_CUMULATIVE = 0xe6, // Y
    NEURON_ISA_TPB_OPCODE_INDIRECT_COPY = 0xe7, // Y
    NEURON_ISA_TPB_OPCODE_COPY_PREDICATED_SCALAR = 0xe8, // Y
    NEURON_ISA_TPB_OPCODE_SELECT_REDUCE = 0xea, // Y
    NEURON_ISA_TPB_OPCODE_EXTENDED_INST = 0xf0, // Y
    NEURON_ISA_TPB_OPCODE_INVALID = 0xff, // Y
} NEURON_ISA_PACKED NEURON_ISA_TPB_OPCODE;







typedef enum NEURON_ISA_TPB_WAIT_MODE {
    NEURON_ISA_TPB_WAIT_MODE_NONE = 0x00,
    NEURON_ISA_TPB_WAIT_MODE_WAIT_FOR_SEM_EQ_IMM = 0x01,
    NEURON_ISA_TPB_WAIT_MODE_WAIT_FOR_SEM_LT_IMM = 0x02,
    NEURON_ISA_TPB_WAIT_MODE_WAIT_FOR_SEM_LE_IMM = 0x03,
    NEURON_ISA_TPB_WAIT_MODE_WAIT_FOR_SEM_GT_IMM = 0x04,
    NEURON_ISA_TPB_WAIT_MODE_WAIT_FOR_SEM_GE_IMM = 0x05,
    NEURON_ISA_TPB_WAIT_MODE_WAIT_FOR_EVT_SET = 0x06,
    NEURON_ISA_TPB_WAIT_MODE_WAIT_FOR_EVT_SET_THEN_CLEAR = 0x07,
    NEURON_ISA_TPB_WAIT_MODE_WAIT_FOR_EVT_CLEAR = 0x0e,
    NEURON_ISA_TPB_WAIT_MODE_WAIT_FOR_EVT_CLEAR_THEN_SET = 0x0f,
    NEURON_ISA_TPB_WAIT_MODE_WAIT_FOR_SEM_EQ_REG = 0x81,
    NEURON_ISA_TPB_WAIT_MODE_WAIT_FOR_SEM_LT_REG = 0x82,
    NEURON_ISA_TPB_WAIT_MODE_WAIT_FOR_SEM_LE_REG = 0x83,
    NEURON_ISA_TPB_WAIT_MODE_WAIT_FOR_SEM_GT_REG = 0x84,
    NEURON_ISA_TPB_WAIT_MODE_WAIT_FOR_SEM_GE_REG = 0x85,
    NEURON_ISA_TPB_WAIT_MODE_INVALID = 0xff,
} NEURON_ISA_PACKED NEURON_ISA_TPB_WAIT_MODE;

// Semaphore/event update performed by an instruction. *_READ variants fire once the
// instruction's reads are done; *_COMPLETE variants fire when it has fully completed.













typedef enum NEURON_ISA_TPB_UPDATE_MODE {
    NEURON_ISA_TPB_UPDATE_MODE_NONE = 0x00,
    NEURON_ISA_TPB_UPDATE_MODE_EVT_SET_READ = 0x01,
    NEURON_ISA_TPB_UPDATE_MODE_EVT_CLR_READ = 0x02,
    NEURON_ISA_TPB_UPDATE_MODE_SEM_INC_READ = 0x03,
    NEURON_ISA_TPB_UPDATE_MODE_SEM_DEC_READ = 0x04,
    NEURON_ISA_TPB_UPDATE_MODE_SEM_ADD_IMM_READ = 0x05,
    NEURON_ISA_TPB_UPDATE_MODE_SEM_ADD_REG_READ = 0x85,
    NEURON_ISA_TPB_UPDATE_MODE_SEM_SUB_IMM_READ = 0x07,
    NEURON_ISA_TPB_UPDATE_MODE_SEM_SUB_REG_READ = 0x87,
    NEURON_ISA_TPB_UPDATE_MODE_SEM_WR_IMM_READ = 0x09,
    NEURON_ISA_TPB_UPDATE_MODE_SEM_WR_REG_READ = 0x89,
    NEURON_ISA_TPB_UPDATE_MODE_EVT_SET_COMPLETE = 0x11,
    NEURON_ISA_TPB_UPDATE_MODE_EVT_CLR_COMPLETE = 0x12,
    NEURON_ISA_TPB_UPDATE_MODE_SEM_INC_COMPLETE = 0x13,
    NEURON_ISA_TPB_UPDATE_MODE_SEM_DEC_COMPLETE = 0x14,
    NEURON_ISA_TPB_UPDATE_MODE_SEM_ADD_IMM_COMPLETE = 0x15,
    NEURON_ISA_TPB_UPDATE_MODE_SEM_ADD_REG_COMPLETE = 0x95,
    NEURON_ISA_TPB_UPDATE_MODE_SEM_SUB_IMM_COMPLETE = 0x17,
    NEURON_ISA_TPB_UPDATE_MODE_SEM_SUB_REG_COMPLETE = 0x97,
    NEURON_ISA_TPB_UPDATE_MODE_SEM_WR_IMM_COMPLETE = 0x19,
    NEURON_ISA_TPB_UPDATE_MODE_SEM_WR_REG_COMPLETE = 0x99,
    NEURON_ISA_TPB_UPDATE_MODE_INVALID = 0xff,
} NEURON_ISA_PACKED NEURON_ISA_TPB_UPDATE_MODE;

// HEADER.debug_cmd values
typedef enum NEURON_ISA_TPB_DEBUG_CMD_LEVELS {
    NEURON_ISA_TPB_DEBUG_CMD_LEVELS_NONE = 0,
    NEURON_ISA_TPB_DEBUG_CMD_LEVELS_NOTIFY = 1,
    NEURON_ISA_TPB_DEBUG_CMD_LEVELS_START = 3,
    NEURON_ISA_TPB_DEBUG_CMD_LEVELS_END = 5,
    NEURON_ISA_TPB_DEBUG_CMD_LEVELS_START_END = 7,
    NEURON_ISA_TPB_DEBUG_CMD_LEVELS_INS_FIELD = 9,
} NEURON_ISA_PACKED NEURON_ISA_TPB_DEBUG_CMD_LEVELS;

// Sub-opcodes of the generic pseudo instruction
typedef enum NEURON_ISA_TPB_PSEUDO_OPCODE {
    NEURON_ISA_TPB_PSEUDO_OPCODE_INVALID = 0,
    NEURON_ISA_TPB_PSEUDO_OPCODE_PSEUDO_EXIT_EXECUTION = 1,
    NEURON_ISA_TPB_PSEUDO_OPCODE_PSEUDO_LIBRARY_RELOAD_INDEX = 2,
} NEURON_ISA_PACKED NEURON_ISA_TPB_PSEUDO_OPCODE;





















typedef struct NEURON_ISA_TPB_HEADER {
    NEURON_ISA_TPB_OPCODE opcode;
    uint8_t inst_word_len;
    uint8_t debug_cmd;
    uint8_t debug_hint;
} NEURON_ISA_TPB_HEADER;

typedef struct NEURON_ISA_TPB_EVENTS {
    NEURON_ISA_TPB_WAIT_MODE wait_mode;
    uint8_t wait_idx;
    NEURON_ISA_TPB_UPDATE_MODE update_mode;
    uint8_t update_idx;
    uint32_t semaphore_value;
} NEURON_ISA_TPB_EVENTS;

ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_HEADER) == 4, "Error: NEURON_ISA_TPB_HEADER is NOT 4B.");
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_EVENTS) == 8, "Error: NEURON_ISA_TPB_EVENTS is NOT 8B.");



typedef struct NEURON_ISA_TPB_EVENTS_EXTENDED {
    NEURON_ISA_TPB_WAIT_MODE wait_mode;
    uint8_t wait_idx;
    NEURON_ISA_TPB_UPDATE_MODE update_mode;
    uint8_t update_idx;
    uint32_t sem_wait_value;
    uint32_t sem_update_value;
} NEURON_ISA_TPB_EVENTS_EXTENDED;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_EVENTS_EXTENDED) == 12, "Error: NEURON_ISA_TPB_EVENTS_EXTENDED is NOT 12B.");





// Byte address inside one partition of the TPB address space (SBUF or PSUM).
typedef uint32_t NEURON_ISA_TPB_PARTITION_OFFSET;














// Address-space layout of a PARTITION_OFFSET:
//   SBUF occupies [STATE_BUF_OFFSET, STATE_BUF_OFFSET + STATE_BUF_SZ);
//   PSUM occupies [PSUM_BUF_OFFSET, PSUM_BUF_OFFSET + PSUM_BUF_SZ);
//   bit 25 (0x2000000) therefore separates SBUF from PSUM addresses.
//   Only the low 29 bits (TPB_PARTITION_ADDR_MASK) carry the address.

















// ADDR4 byte 3 (marker) values
static const uint8_t NEURON_ISA_TPB_ADDR4_MARKER_IMM = 0x00;
static const uint8_t NEURON_ISA_TPB_ADDR4_MARKER_SHAPE_REG = 0x40;
static const uint8_t NEURON_ISA_TPB_ADDR4_MARKER_ADDR_REG = 0x80;
static const uint8_t NEURON_ISA_TPB_ADDR4_MARKER_ADDR_SHAPE_REG = 0xC0;
static const uint8_t NEURON_ISA_TPB_ADDR4_MARKER_INDIRECT_IMM = 0x20;
static const uint8_t NEURON_ISA_TPB_ADDR4_MARKER_INDIRECT_REG = 0xA0;

typedef struct NEURON_ISA_TPB_ADDR_REG4 {
    uint8_t regnum;
    uint8_t reserved0[2];
    uint8_t marker;
} NEURON_ISA_TPB_ADDR_REG4;

typedef union NEURON_ISA_TPB_ADDR4 {
    NEURON_ISA_TPB_PARTITION_OFFSET addr_immediate;
    NEURON_ISA_TPB_ADDR_REG4 addr_reg;
} NEURON_ISA_TPB_ADDR4;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_ADDR4) == 4, "Error: NEURON_ISA_TPB_ADDR4 is NOT 4B.");

typedef struct NEURON_ISA_TPB_IMM_REG {
    uint8_t regnum;
    uint8_t reserved0[3];
} NEURON_ISA_TPB_IMM_REG;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_IMM_REG) == 4, "Error: NEURON_ISA_TPB_IMM_REG is NOT 4B.");

// ADDR8 byte 7 (marker) bits
static const uint8_t NEURON_ISA_TPB_ADDR8_MARKER_OFFSET_WIDE = 0x04;
static const uint8_t NEURON_ISA_TPB_ADDR8_MARKER_OFFSET_REG = 0x08;
static const uint8_t NEURON_ISA_TPB_ADDR8_MARKER_ADDR_TBL = 0x20;
static const uint8_t NEURON_ISA_TPB_ADDR8_MARKER_SHAPE_REG = 0x40;
static const uint8_t NEURON_ISA_TPB_ADDR8_MARKER_ADDR_REG = 0x80;
static const uint8_t NEURON_ISA_TPB_ADDR8_MARKER_MASK = 0xFC;

typedef struct NEURON_ISA_TPB_ADDR_REG8 {
    uint8_t reg_lo;
    uint8_t reg_hi;
    uint8_t reserved0[5];
    uint8_t marker;
} NEURON_ISA_TPB_ADDR_REG8;











































typedef union NEURON_ISA_TPB_ADDR8 {
    uint64_t addr_immediate;
    NEURON_ISA_TPB_ADDR_REG8 addr_reg;
} NEURON_ISA_TPB_ADDR8;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_ADDR8) == 8, "Error: NEURON_ISA_TPB_ADDR8 is NOT 8B.");

typedef struct NEURON_ISA_TPB_TENSOR1D {
    NEURON_ISA_TPB_ADDR4 start_addr;
    int16_t step_elem[1];
    uint16_t num_elem[1];
} NEURON_ISA_TPB_TENSOR1D;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_TENSOR1D) == 8, "Error: NEURON_ISA_TPB_TENSOR1D is NOT 8B.");

typedef struct NEURON_ISA_TPB_TENSOR2D {
    NEURON_ISA_TPB_ADDR4 start_addr;
    int16_t step_elem[2];
    uint16_t num_elem[2];
} NEURON_ISA_TPB_TENSOR2D;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_TENSOR2D) == 12, "Error: NEURON_ISA_TPB_TENSOR2D is NOT 12B.");


























































typedef struct NEURON_ISA_TPB_TENSOR3D {
    NEURON_ISA_TPB_ADDR4 start_addr;
    int16_t step_elem[3];
    uint16_t num_elem[3];
} NEURON_ISA_TPB_TENSOR3D;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_TENSOR3D) == 16, "Error: NEURON_ISA_TPB_TENSOR3D is NOT 16B.");




typedef struct NEURON_ISA_TPB_TENSOR4D {
    NEURON_ISA_TPB_ADDR4 start_addr;
    int16_t step_elem[4];
    uint16_t num_elem[4];
} NEURON_ISA_TPB_TENSOR4D;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_TENSOR4D) == 20, "Error: NEURON_ISA_TPB_TENSOR4D is NOT 20B.");
// A 4-D ramp of values computed, not read: base plus step_elem[d] per index of dim d (no start_addr).
typedef struct NEURON_ISA_TPB_DATA4D {
    int32_t base;
    int16_t step_elem[4];
    uint16_t num_elem[4];
} NEURON_ISA_TPB_DATA4D;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_DATA4D) == 20, "Error: NEURON_ISA_TPB_DATA4D is NOT 20B.");




















typedef struct NEURON_ISA_TPB_BOUND_CHECK_REG {
    uint8_t bc_reg : 6;
    uint8_t bc_disable_oob_error_notif : 1;
    uint8_t bc_enabled : 1;
} NEURON_ISA_PACKED NEURON_ISA_TPB_BOUND_CHECK_REG;














typedef struct NEURON_ISA_TPB_DMA_CONFIGS {
    uint8_t priority_class : 3;
    uint8_t reserved_bitfield : 5;
} NEURON_ISA_PACKED NEURON_ISA_TPB_DMA_CONFIGS;

ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_BOUND_CHECK_REG) == 1, "Error: NEURON_ISA_TPB_BOUND_CHECK_REG is NOT 1B.");
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_DMA_CONFIGS) == 1, "Error: NEURON_ISA_TPB_DMA_CONFIGS is NOT 1B.");


typedef enum NEURON_ISA_TPB_DTYPE {
    NEURON_ISA_TPB_DTYPE_INVALID = 0x00, // used in RTL for bitvec
    NEURON_ISA_TPB_DTYPE_FP8_EXP3 = 0x0D,
    NEURON_ISA_TPB_DTYPE_FP8_EXP4 = 0x0E,
    NEURON_ISA_TPB_DTYPE_FP8_EXP5 = 0x0F,
    NEURON_ISA_TPB_DTYPE_FP16 = 0x07,
    NEURON_ISA_TPB_DTYPE_BFLOAT16 = 0x06,
    NEURON_ISA_TPB_DTYPE_FP32 = 0x0A, // RTL will used 0xB for FP22 partial fp32 type
    NEURON_ISA_TPB_DTYPE_FP32R = 0x0B,
    NEURON_ISA_TPB_DTYPE_UINT8 = 0x03,
    NEURON_ISA_TPB_DTYPE_UINT16 = 0x05,
    NEURON_ISA_TPB_DTYPE_UINT32 = 0x09,
    NEURON_ISA_TPB_DTYPE_UINT64 = 0x01,
    NEURON_ISA_TPB_DTYPE_INT8 = 0x02,
    NEURON_ISA_TPB_DTYPE_INT16 = 0x04,
    NEURON_ISA_TPB_DTYPE_INT32 = 0x08,
    NEURON_ISA_TPB_DTYPE_INT64 = 0x0C,
} NEURON_ISA_PACKED NEURON_ISA_TPB_DTYPE;













typedef enum NEURON_ISA_TPB_DATA_SRC {
    NEURON_ISA_TPB_DATA_SRC_REGISTER = 0,
    NEURON_ISA_TPB_DATA_SRC_IMMEDIATE = 1,
} NEURON_ISA_PACKED NEURON_ISA_TPB_DATA_SRC;





// Two 4-bit element types packed in one byte (lo: input / src0, hi: output / src1)
typedef struct NEURON_ISA_TPB_DTYPE_PAIR {
    NEURON_ISA_TPB_DTYPE dtype_lo : 4;
    NEURON_ISA_TPB_DTYPE dtype_hi : 4;
} NEURON_ISA_PACKED NEURON_ISA_TPB_DTYPE_PAIR;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_DTYPE_PAIR) == 1, "Error: NEURON_ISA_TPB_DTYPE_PAIR is NOT 1B.");

typedef enum NEURON_ISA_TPB_REDUCE_AXIS {
    NEURON_ISA_TPB_REDUCE_AXIS_ALL = 0,
    NEURON_ISA_TPB_REDUCE_AXIS_PARTITIONS = 1,
} NEURON_ISA_PACKED NEURON_ISA_TPB_REDUCE_AXIS;


typedef enum NEURON_ISA_TPB_ACCUM_CMD {
    NEURON_ISA_TPB_ACCUM_CMD_IDLE = 0,
    NEURON_ISA_TPB_ACCUM_CMD_ZERO = 1,
    NEURON_ISA_TPB_ACCUM_CMD_ACCUMULATE = 2,
    NEURON_ISA_TPB_ACCUM_CMD_ZERO_ACCUMULATE = 3,
    NEURON_ISA_TPB_ACCUM_CMD_LOAD_ACCUMULATE = 4,
} NEURON_ISA_PACKED NEURON_ISA_TPB_ACCUM_CMD;








typedef enum NEURON_ISA_TPB_COLLECTIVE_TYPE {
    NEURON_ISA_TPB_COLLECTIVE_TYPE_ALL_REDUCE = 0x1,
} NEURON_ISA_PACKED NEURON_ISA_TPB_COLLECTIVE_TYPE;

typedef enum NEURON_ISA_TPB_CCE_OP {
    NEURON_ISA_TPB_CCE_OP_ADD = 0,
    NEURON_ISA_TPB_CCE_OP_MAX = 1,
    NEURON_ISA_TPB_CCE_OP_MIN = 2,
} NEURON_ISA_PACKED NEURON_ISA_TPB_CCE_OP;




















typedef enum NEURON_ISA_TPB_DGE_COMPUTE_OP {
    NEURON_ISA_TPB_DGE_COMPUTE_OP_NONE = 0,
    NEURON_ISA_TPB_DGE_COMPUTE_OP_ADD = 1,
    NEURON_ISA_TPB_DGE_COMPUTE_OP_MULTIPLY = 2,
    NEURON_ISA_TPB_DGE_COMPUTE_OP_MAX = 3,
    NEURON_ISA_TPB_DGE_COMPUTE_OP_MIN = 4,
} NEURON_ISA_PACKED NEURON_ISA_TPB_DGE_COMPUTE_OP;

typedef enum NEURON_ISA_TPB_INDIRECT_DIM {
    NEURON_ISA_TPB_INDIRECT_DIM_X = 0,
    NEURON_ISA_TPB_INDIRECT_DIM_Y = 1,
    NEURON_ISA_TPB_INDIRECT_DIM_Z = 2,
    NEURON_ISA_TPB_INDIRECT_DIM_W = 3,
} NEURON_ISA_PACKED NEURON_ISA_TPB_INDIRECT_DIM;

typedef enum NEURON_ISA_TPB_DGE_OPCODE {
    NEURON_ISA_TPB_DGE_OPCODE_DMA_DIRECT2D = 0,
    NEURON_ISA_TPB_DGE_OPCODE_DMA_INDIRECT1D = 1,
    NEURON_ISA_TPB_DGE_OPCODE_DMA_TRANSPOSE = 2,
    NEURON_ISA_TPB_DGE_OPCODE_DMA_GATHER_TRANSPOSE = 3,
} NEURON_ISA_PACKED NEURON_ISA_TPB_DGE_OPCODE;




















// 4-byte immediate operand: an inline value, a pointer to per-partition values,
// or a register holding such a pointer (selected by an IMM_SRC field).
typedef union NEURON_ISA_TPB_IMM_VAL_INST_FIELD {
    NEURON_ISA_TPB_PARTITION_OFFSET imm_ptr;
    NEURON_ISA_TPB_IMM_REG imm_reg;
    float imm_arith_fp32;
    int32_t imm_bitvec_int32;
    uint32_t imm_bitvec_uint32;
    uint16_t imm_bitvec_uint16[2];
    uint8_t imm_bitvec_uint8[4];
} NEURON_ISA_TPB_IMM_VAL_INST_FIELD;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_IMM_VAL_INST_FIELD) == 4, "Error: NEURON_ISA_TPB_IMM_VAL_INST_FIELD is NOT 4B.");


















typedef enum NEURON_ISA_TPB_RAND_ALGORITHM {
    NEURON_ISA_TPB_RAND_ALGORITHM_LFSR = 0,
    NEURON_ISA_TPB_RAND_ALGORITHM_PCG32 = 1,
    NEURON_ISA_TPB_RAND_ALGORITHM_PHILOX = 2,
} NEURON_ISA_PACKED NEURON_ISA_TPB_RAND_ALGORITHM;








typedef enum NEURON_ISA_TPB_RAND_SRC {
    NEURON_ISA_TPB_RAND_SRC_RNG_LFSR = 0,
    NEURON_ISA_TPB_RAND_SRC_RNG_PHILOX = 2,
} NEURON_ISA_PACKED NEURON_ISA_TPB_RAND_SRC;

// ALU operation of the DVE/POOL datapath. Codes with bits 7:6 == 0b11 select
// the integer engine.























typedef enum NEURON_ISA_TPB_ALU_OP {
    NEURON_ISA_TPB_ALU_OP_BYPASS = 0x00, // bitvec
    NEURON_ISA_TPB_ALU_OP_BITWISE_NOT = 0x01, // bitvec
    NEURON_ISA_TPB_ALU_OP_ARITH_SHIFT_LEFT = 0x02,
    NEURON_ISA_TPB_ALU_OP_ARITH_SHIFT_RIGHT = 0x03,
    NEURON_ISA_TPB_ALU_OP_ADD = 0x04,
    NEURON_ISA_TPB_ALU_OP_SUBTRACT = 0x05,
    NEURON_ISA_TPB_ALU_OP_MULT = 0x06,
    NEURON_ISA_TPB_ALU_OP_DIVIDE = 0x07,
    NEURON_ISA_TPB_ALU_OP_MAX = 0x08,
    NEURON_ISA_TPB_ALU_OP_MIN = 0x09,
    NEURON_ISA_TPB_ALU_OP_BITWISE_AND = 0x0A,
    NEURON_ISA_TPB_ALU_OP_BITWISE_OR = 0x0B,
    NEURON_ISA_TPB_ALU_OP_BITWISE_XOR = 0x0C,
    NEURON_ISA_TPB_ALU_OP_LOGICAL_AND = 0x0D,
    NEURON_ISA_TPB_ALU_OP_LOGICAL_OR = 0x0E,
    NEURON_ISA_TPB_ALU_OP_LOGICAL_XOR = 0x0F,
    NEURON_ISA_TPB_ALU_OP_LOGICAL_SHIFT_LEFT = 0x10,
    NEURON_ISA_TPB_ALU_OP_LOGICAL_SHIFT_RIGHT = 0x11,
    NEURON_ISA_TPB_ALU_OP_IS_EQ = 0x12,
    NEURON_ISA_TPB_ALU_OP_IS_GT = 0x13,
    NEURON_ISA_TPB_ALU_OP_IS_GE = 0x14,
    NEURON_ISA_TPB_ALU_OP_IS_LE = 0x15,
    NEURON_ISA_TPB_ALU_OP_IS_LT = 0x16,
    NEURON_ISA_TPB_ALU_OP_ABSOLUTE_DIFF = 0x17, // abs(src0-src1)
    NEURON_ISA_TPB_ALU_OP_IS_NE = 0x18,
    NEURON_ISA_TPB_ALU_OP_ABSOLUTE_VALUE = 0x19,
    NEURON_ISA_TPB_ALU_OP_POW = 0x1A, // Pool only
    NEURON_ISA_TPB_ALU_OP_MOD = 0x1B,
    NEURON_ISA_TPB_ALU_OP_CRC32 = 0x1C, // Pool only
    NEURON_ISA_TPB_ALU_OP_RSQRT = 0x1D, // Pool only
    NEURON_ISA_TPB_ALU_OP_ADD_INT = 0xC4, // bit 7:6 == 0x3 -> integer engine; shared s/u
    NEURON_ISA_TPB_ALU_OP_MULT_INT = 0xC5,
    NEURON_ISA_TPB_ALU_OP_SUBTRACT_INT = 0xC6,
} NEURON_ISA_PACKED NEURON_ISA_TPB_ALU_OP;


















































































typedef enum NEURON_ISA_TPB_TENSOR_SUBDIM {
    NEURON_ISA_TPB_TENSOR_SUBDIM_UNUSED = 0x00,
    NEURON_ISA_TPB_TENSOR_SUBDIM_X = 0x02,
    NEURON_ISA_TPB_TENSOR_SUBDIM_XY = 0x03,
    NEURON_ISA_TPB_TENSOR_SUBDIM_XYZ = 0x04,
    NEURON_ISA_TPB_TENSOR_SUBDIM_XYZW = 0x05,
} NEURON_ISA_PACKED NEURON_ISA_TPB_TENSOR_SUBDIM;
















































































































































typedef enum NEURON_ISA_TPB_IMM_SRC {
    NEURON_ISA_TPB_IMM_SRC_INSTRUCTION_IMMEDIATE = 0, // value held inline in the instruction
    NEURON_ISA_TPB_IMM_SRC_POINTER_IMMEDIATE = 1, // PartitionOffset pointer to per-partition immediates
    NEURON_ISA_TPB_IMM_SRC_REG_PTR_IMMEDIATE = 2, // PartitionOffset pointer held in a register
} NEURON_ISA_PACKED NEURON_ISA_TPB_IMM_SRC;

// Same three sources with a different encoding (pointer first).
typedef enum NEURON_ISA_TPB_IMM_SRC_N {
    NEURON_ISA_TPB_IMM_SRC_N_POINTER_IMMEDIATE = 0,
    NEURON_ISA_TPB_IMM_SRC_N_INSTRUCTION_IMMEDIATE = 1,
    NEURON_ISA_TPB_IMM_SRC_N_REG_PTR_IMMEDIATE = 2,
} NEURON_ISA_PACKED NEURON_ISA_TPB_IMM_SRC_N;

// tensor_scalar reverse operands options:
//   NONE:   result = (tensor op0 scalar[0]) op1 scalar[1]
//   FIRST:  result = (scalar[0] op0 tensor) op1 scalar[1]
//   SECOND: result = scalar[1] op1 (tensor op0 scalar[0])
//   BOTH:   result = scalar[1] op1 (scalar[0] op0 tensor)





















typedef enum NEURON_ISA_TPB_TENS_SCALAR_REV_OPS {
    NEURON_ISA_TPB_TENS_SCALAR_REV_OPS_NONE = 0x00,
    NEURON_ISA_TPB_TENS_SCALAR_REV_OPS_FIRST = 0x01,
    NEURON_ISA_TPB_TENS_SCALAR_REV_OPS_SECOND = 0x02,
    NEURON_ISA_TPB_TENS_SCALAR_REV_OPS_BOTH = 0x03,
} NEURON_ISA_PACKED NEURON_ISA_TPB_TENS_SCALAR_REV_OPS;

// ---------------------------------------------------------------------------------------
// Validity predicates, written as specification pseudocode. The C bodies that implement
// them live in aws_neuron_isa_tpb_assert.h (and enums.h for is_valid_enum).
// ---------------------------------------------------------------------------------------























































// fn is_valid_dtype(dtype: Dtype, allow_fp32r: DtypeAllowFP32R) -> bool {
//     dtype_invalid_check(dtype)
//         && dtype_fp32r_illegal_check(dtype, allow_fp32r)
//         && dtype_uint64_illegal_check(dtype, DtypeAllowU64::False)
//         && dtype_int64_illegal_check(dtype, DtypeAllowI64::False)
//         && is_valid_enum(EnumList::Dtype, dtype)
// }





// fn is_valid_dtype_64(dtype: Dtype, allow_fp32r: DtypeAllowFP32R, allow_u64: DtypeAllowU64, allow_i64: DtypeAllowI64) -> bool {
//     dtype_invalid_check(dtype)
//         && dtype_fp32r_illegal_check(dtype, allow_fp32r)
//         && dtype_uint64_illegal_check(dtype, allow_u64)
//         && dtype_int64_illegal_check(dtype, allow_i64)
//         && is_valid_enum(EnumList::Dtype, dtype)
// }

// fn dtype_invalid_check(dtype: Dtype) -> bool {
//     dtype != Dtype::INVALID
// }

// fn dtype_fp32r_illegal_check(dtype: Dtype, allow: DtypeAllowFP32R) -> bool {
//     dtype != Dtype::FP32R || allow == DtypeAllowFP32R::True
// }

// fn dtype_uint64_illegal_check(dtype: Dtype, allow: DtypeAllowU64) -> bool {
//     dtype != Dtype::UINT64 || allow == DtypeAllowU64::True
// }

// fn dtype_int64_illegal_check(dtype: Dtype, allow: DtypeAllowI64) -> bool {
//     dtype != Dtype::INT64 || allow == DtypeAllowI64::True
// }









// fn has_valid_immediates(imm: ImmValInstField, src: ImmSrc, num_active_channels: u8, dtype: Dtype) -> bool {
//     match src {
//         ImmSrc::InstructionImmediate => true,
//         ImmSrc::PointerImmediate => tpb_addr_active_channels(imm.imm_ptr, num_active_channels)
//             && addr_aligned_dtype(imm.imm_ptr, dtype),
//         ImmSrc::RegPtrImmediate => is_valid_imm_reg(imm.imm_reg),
//     }
// }

// fn is_valid_int_dtype(dtype: Dtype) -> bool {
//     dtype == Dtype::INT8
//         || dtype == Dtype::INT16
//         || dtype == Dtype::INT32
//         || dtype == Dtype::INT64
//         || dtype == Dtype::UINT8
//         || dtype == Dtype::UINT16
//         || dtype == Dtype::UINT32
//         || dtype == Dtype::UINT64
// }

// fn is_signed_int(dtype: Dtype) -> bool {
//     dtype == Dtype::INT8
//         || dtype == Dtype::INT16
//         || dtype == Dtype::INT32
//         || dtype == Dtype::INT64
// }

// fn is_unsigned_int(dtype: Dtype) -> bool {
//     dtype == Dtype::UINT8
//         || dtype == Dtype::UINT16
//         || dtype == Dtype::UINT32
//         || dtype == Dtype::UINT64
// }

// fn is_valid_32b_int_dtype(dtype: Dtype) -> bool {
//     dtype == Dtype::INT32
//         || dtype == Dtype::UINT32
// }

// fn is_valid_fp_dtype_datapath(dtype: Dtype, allow_fp32r: DtypeAllowFP32R) -> bool {
//     dtype == Dtype::FP8_EXP3
//         || dtype == Dtype::FP8_EXP4
//         || dtype == Dtype::FP8_EXP5
//         || dtype == Dtype::FP16
//         || dtype == Dtype::BFLOAT16
//         || dtype == Dtype::FP32
//         || (allow_fp32r == DtypeAllowFP32R::True && dtype == Dtype::FP32R)
// }















// fn is_valid_int_aluop(op: AluOp) -> bool {
//     op == AluOp::AddInt
//         || op == AluOp::MultInt
//         || op == AluOp::SubtractInt
//         || op == AluOp::Mod
// }







































































































































































































// fn is_arith_op(op: AluOp) -> bool {
//     op == AluOp::Bypass
//         || op == AluOp::Add
//         || op == AluOp::Subtract
//         || op == AluOp::Mult
//         || op == AluOp::Divide
//         || op == AluOp::Max
//         || op == AluOp::Min
//         || op == AluOp::LogicalAnd
//         || op == AluOp::LogicalOr
//         || op == AluOp::LogicalXor
//         || op == AluOp::IsEQ
//         || op == AluOp::IsGT
//         || op == AluOp::IsGE
//         || op == AluOp::IsLE
//         || op == AluOp::IsLT
//         || op == AluOp::IsNE
//         || op == AluOp::AbsoluteDiff
//         || op == AluOp::AbsoluteValue
//         || op == AluOp::Pow
//         || op == AluOp::Mod
//         || op == AluOp::AddInt
//         || op == AluOp::MultInt
//         || op == AluOp::SubtractInt
//         || op == AluOp::Rsqrt
// }



// fn is_bitvec_op(op: AluOp) -> bool {
//     op == AluOp::Bypass
//         || op == AluOp::BitwiseNot
//         || op == AluOp::ArithShiftLeft
//         || op == AluOp::ArithShiftRight
//         || op == AluOp::LogicalShiftLeft
//         || op == AluOp::LogicalShiftRight
//         || op == AluOp::BitwiseAnd
//         || op == AluOp::BitwiseOr
//         || op == AluOp::BitwiseXor
//         || op == AluOp::Crc32
// }

// fn is_general_bitvec_op(op: AluOp) -> bool {
//     is_bitvec_op(op) && op != AluOp::Crc32
// }


// fn is_general_arith_op(op: AluOp) -> bool {
//     is_arith_op(op)
//         && op != AluOp::Divide
//         && op != AluOp::Pow
//         && op != AluOp::Mod
//         && op != AluOp::Rsqrt
//         && !is_valid_int_aluop(op)
// }

// fn alu_shift_check(op0: AluOp, op1: AluOp, dtype: Dtype) -> bool {
//     alu_shift_left_right_chk(op0, op1, dtype)
//         && alu_arith_shift_right_chk(op0, op1, dtype)
// }

// fn is_shift_op(op: AluOp) -> bool {
//     op == AluOp::ArithShiftLeft
//         || op == AluOp::ArithShiftRight
//         || op == AluOp::LogicalShiftLeft
//         || op == AluOp::LogicalShiftRight
// }

// fn alu_shift_left_right_chk(op0: AluOp, op1: AluOp, dtype: Dtype) -> bool {
//     // a left shift paired with a right shift needs a 4-byte dtype
//     let left0 = op0 == AluOp::ArithShiftLeft || op0 == AluOp::LogicalShiftLeft;
//     let right0 = op0 == AluOp::ArithShiftRight || op0 == AluOp::LogicalShiftRight;
//     let left1 = op1 == AluOp::ArithShiftLeft || op1 == AluOp::LogicalShiftLeft;
//     let right1 = op1 == AluOp::ArithShiftRight || op1 == AluOp::LogicalShiftRight;
//     !((left0 && right1) || (right0 && left1))
//         || type_size_check(dtype, 4)
// }

// fn alu_arith_shift_right_chk(op0: AluOp, op1: AluOp, dtype: Dtype) -> bool {
//     // any arithmetic right shift needs a 4-byte dtype
//     (op0 != AluOp::ArithShiftRight && op1 != AluOp::ArithShiftRight)
//         || type_size_check(dtype, 4)
// }

// fn shape_from_register(addr: Addr4) -> bool {
//     addr.addr_reg.marker == ADDR4_MARKER_SHAPE_REG
//         || addr.addr_reg.marker == ADDR4_MARKER_ADDR_SHAPE_REG
// }






















































































































































// fn same_or_fewer_element_count_t4d(dst: Tensor4D, src: Tensor4D) -> bool {
//     shape_from_register(dst.start_addr)
//         || shape_from_register(src.start_addr)
//         || t4d_element_count(dst) <= t4d_element_count(src)
// }

// fn addr_imm_mask(addr: PartitionOffset) -> u32 {
//     addr & TPB_PARTITION_ADDR_MASK
// }

// fn addr_in_sbuf(addr: PartitionOffset) -> bool {
//     addr < STATE_BUF_OFFSET + STATE_BUF_SZ
// }

// fn addr_in_psum(addr: PartitionOffset) -> bool {
//     addr >= PSUM_BUF_OFFSET && addr < PSUM_BUF_OFFSET + PSUM_BUF_SZ
// }

// fn get_sbuf_partition_id(addr: PartitionOffset) -> u32 {
//     (addr - STATE_BUF_OFFSET) / STATE_BUF_PARTITION_SIZE
// }

// fn get_sbuf_byte_offset_in_partition(addr: PartitionOffset) -> u32 {
//     (addr - STATE_BUF_OFFSET) % STATE_BUF_PARTITION_SIZE
// }

// fn get_sbuf_quadrant_id(addr: PartitionOffset) -> u32 {
//     (addr - STATE_BUF_OFFSET) / (STATE_BUF_PARTITION_SIZE * 32)
// }

// fn addr_aligned_dtype(addr: PartitionOffset, dtype: Dtype) -> bool {
//     match type_size(dtype) {
//         1 => true,
//         2 => (addr & 1) == 0,
//         4 => (addr & 3) == 0,
//         8 => (addr & 7) == 0,
//         _ => false,
//     }
// }

// fn tensor_start_addr_valid(addr: Addr4, dtype: Dtype, write: WriteTensor, allow_psum: AllowedInPSUM, allow_sbuf: AllowedInSBUF) -> bool {
//     if addr.addr_reg.marker == ADDR4_MARKER_ADDR_REG {
//         addr.addr_reg.reserved0 == [0, 0] && addr.addr_reg.regnum < NUM_ADDR_REGISTERS
//     } else {
//         let a = addr.addr_immediate;
//         addr_aligned_dtype(a, dtype)
//             && (addr_in_psum(a) || addr_in_sbuf(a))
//             && (allow_psum == AllowedInPSUM::True || !addr_in_psum(a))
//             && (allow_sbuf == AllowedInSBUF::True || !addr_in_sbuf(a))
//             && (type_size_check(dtype, 4) || !addr_in_psum(a) || write == WriteTensor::False)
//     }
// }

// fn has_valid_neuron_header(i: Inst) -> bool {
//     is_valid_enum(EnumList::Opcode, i.header.opcode)
//         && i.header.inst_word_len == 16
// }

// fn has_valid_neuron_events(i: Inst) -> bool {
//     is_valid_enum(EnumList::WaitMode, i.events.wait_mode)
//         && is_valid_enum(EnumList::UpdateMode, i.events.update_mode)
// }

















































































































































// fn is_valid_dma_configs(c: DmaConfigs) -> bool {
//     c.priority_class <= 4
//         && c.reserved_bitfield == 0
// }


// fn is_valid_dge_shape_reg(start_addr: Addr4, reg_num: u8) -> bool {
//     !shape_from_register(start_addr)
//         || reg_num < NUM_DGE_SHAPE_REGISTERS
// }








































































































































































































































































// fn check_active_channels(n: u8) -> bool {
//     n != 0 && n <= POOLING_NUM_CHANNELS
// }









































































































// fn is_valid_64b_int_dtype(dtype: Dtype) -> bool {
//     dtype == Dtype::INT64
//         || dtype == Dtype::UINT64
// }






















// fn is_signed_alu_op(op: AluOp) -> bool {
//     op == AluOp::AddInt
//         || op == AluOp::MultInt
//         || op == AluOp::SubtractInt
//         || op == AluOp::Mod
// }














// fn is_unsigned_alu_op(op: AluOp) -> bool {
//     op == AluOp::AddInt
//         || op == AluOp::MultInt
//         || op == AluOp::SubtractInt
//         || op == AluOp::Mod
// }














// fn is_valid_int_dtype_datapath(dtype: Dtype) -> bool {
//     dtype == Dtype::INT8
//         || dtype == Dtype::INT16
//         || dtype == Dtype::INT32
//         || dtype == Dtype::UINT8
//         || dtype == Dtype::UINT16
//         || dtype == Dtype::UINT32
// }

#ifdef __cplusplus
}
#endif

#endif // AWS_NEURON_ISA_TPB_COMMON_H
