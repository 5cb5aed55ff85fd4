/*
 * Copyright (c) 2019+ Amazon.com, Inc. or its affiliates. All Rights Reserved.
 * ISA header for NC-v4.
 */

#ifndef AWS_NEURON_ISA_TPB_ASSERT_H
#define AWS_NEURON_ISA_TPB_ASSERT_H
#include "aws_neuron_isa_tpb_util.h"
#include "aws_neuron_isa_tpb_enums.h"

#ifndef STATIC
#define STATIC static
#endif

#ifdef __cplusplus
extern "C" {
#endif

// C bodies of the validity predicates of NC-v4 whose Rust-style specifications are the
// `// fn` comments in aws_neuron_isa_tpb_common.h, _s3d3_ts.h, _s4d4_tsm.h, _s2_bn.h and the
// tensor-tensor / scalar-tensor-tensor / tensor-reduce operand headers.
// Every function is pure and defined for any 64-byte input; a function only calls functions
// defined above it. Instruction-level validators take the word as NEURON_ISA_TPB_INST_UNION.

//* common_assert.h

STATIC inline bool has_valid_inst_len(NEURON_ISA_TPB_HEADER h) {
    return( (uint32_t)h.inst_word_len == NEURON_ISA_TPB_INST_NBYTES / 4U );
}

STATIC inline bool has_valid_neuron_header(NEURON_ISA_TPB_INST_UNION i) {
    return( is_valid_enum_opcode((uint8_t)i.unknown.header.opcode)
            && has_valid_inst_len(i.unknown.header) );
}

STATIC inline bool has_valid_neuron_events(NEURON_ISA_TPB_INST_UNION i) {
    return( is_valid_enum_wait_mode((uint8_t)i.unknown.events.wait_mode)
            && is_valid_enum_update_mode((uint8_t)i.unknown.events.update_mode) );
}

STATIC inline bool dtype_invalid_check(NEURON_ISA_TPB_DTYPE dtype) {
    return( dtype != NEURON_ISA_TPB_DTYPE_INVALID );
}

STATIC inline bool dtype_fp32r_illegal_check(NEURON_ISA_TPB_DTYPE dtype, NEURON_ISA_TPB_DTYPE_ALLOW_FP32R allow) {
    return( (dtype != NEURON_ISA_TPB_DTYPE_FP32R)
            || (allow == ALLOW_FP32R_TRUE) );
}

STATIC inline bool dtype_uint64_illegal_check(NEURON_ISA_TPB_DTYPE dtype, NEURON_ISA_TPB_DTYPE_ALLOW_U64 allow) {
    return( (dtype != NEURON_ISA_TPB_DTYPE_UINT64)
            || (allow == ALLOW_U64_TRUE) );
}

STATIC inline bool dtype_int64_illegal_check(NEURON_ISA_TPB_DTYPE dtype, NEURON_ISA_TPB_DTYPE_ALLOW_I64 allow) {
    return( (dtype != NEURON_ISA_TPB_DTYPE_INT64)
            || (allow == ALLOW_I64_TRUE) );
}

STATIC inline bool is_valid_dtype(NEURON_ISA_TPB_DTYPE dtype, NEURON_ISA_TPB_DTYPE_ALLOW_FP32R allow_fp32r) {
    return( dtype_invalid_check(dtype)
            && dtype_fp32r_illegal_check(dtype, allow_fp32r)
            && dtype_uint64_illegal_check(dtype, ALLOW_U64_FALSE)
            && dtype_int64_illegal_check(dtype, ALLOW_I64_FALSE)
            && is_valid_enum_dtype((uint8_t)dtype) );
}

STATIC inline bool is_valid_dtype_64(NEURON_ISA_TPB_DTYPE dtype, NEURON_ISA_TPB_DTYPE_ALLOW_FP32R allow_fp32r, NEURON_ISA_TPB_DTYPE_ALLOW_U64 allow_u64, NEURON_ISA_TPB_DTYPE_ALLOW_I64 allow_i64) {
    return( dtype_invalid_check(dtype)
            && dtype_fp32r_illegal_check(dtype, allow_fp32r)
            && dtype_uint64_illegal_check(dtype, allow_u64)
            && dtype_int64_illegal_check(dtype, allow_i64)
            && is_valid_enum_dtype((uint8_t)dtype) );
}

STATIC inline bool is_valid_int_dtype(NEURON_ISA_TPB_DTYPE dtype) {
    return( (dtype == NEURON_ISA_TPB_DTYPE_INT8)
            || (dtype == NEURON_ISA_TPB_DTYPE_INT16)
            || (dtype == NEURON_ISA_TPB_DTYPE_INT32)
            || (dtype == NEURON_ISA_TPB_DTYPE_INT64)
            || (dtype == NEURON_ISA_TPB_DTYPE_UINT8)
            || (dtype == NEURON_ISA_TPB_DTYPE_UINT16)
            || (dtype == NEURON_ISA_TPB_DTYPE_UINT32)
            || (dtype == NEURON_ISA_TPB_DTYPE_UINT64) );
}

STATIC inline bool is_valid_32b_int_dtype(NEURON_ISA_TPB_DTYPE dtype) {
    return( (dtype == NEURON_ISA_TPB_DTYPE_INT32)
            || (dtype == NEURON_ISA_TPB_DTYPE_UINT32) );
}

STATIC inline bool is_valid_64b_int_dtype(NEURON_ISA_TPB_DTYPE dtype) {
    return( (dtype == NEURON_ISA_TPB_DTYPE_INT64)
            || (dtype == NEURON_ISA_TPB_DTYPE_UINT64) );
}

STATIC inline bool is_valid_int_dtype_datapath(NEURON_ISA_TPB_DTYPE dtype) {
    return( (dtype == NEURON_ISA_TPB_DTYPE_INT8)
            || (dtype == NEURON_ISA_TPB_DTYPE_INT16)
            || (dtype == NEURON_ISA_TPB_DTYPE_INT32)
            || (dtype == NEURON_ISA_TPB_DTYPE_UINT8)
            || (dtype == NEURON_ISA_TPB_DTYPE_UINT16)
            || (dtype == NEURON_ISA_TPB_DTYPE_UINT32) );
}

STATIC inline bool is_valid_fp_dtype_datapath(NEURON_ISA_TPB_DTYPE dtype, NEURON_ISA_TPB_DTYPE_ALLOW_FP32R allow_fp32r) {
    return( (dtype == NEURON_ISA_TPB_DTYPE_FP8_EXP3)
            || (dtype == NEURON_ISA_TPB_DTYPE_FP8_EXP4)
            || (dtype == NEURON_ISA_TPB_DTYPE_FP8_EXP5)
            || (dtype == NEURON_ISA_TPB_DTYPE_FP16)
            || (dtype == NEURON_ISA_TPB_DTYPE_BFLOAT16)
            || (dtype == NEURON_ISA_TPB_DTYPE_FP32)
            || ((allow_fp32r == ALLOW_FP32R_TRUE) && (dtype == NEURON_ISA_TPB_DTYPE_FP32R)) );
}

STATIC inline bool is_cptc(NEURON_ISA_TPB_DTYPE dtype) {
    return( (((uint32_t)dtype & 0xF8U) == 0x18U)
            && (((uint32_t)dtype & 0x7U) != 0U) );
}

STATIC inline bool is_valid_dtype_for_sdma(NEURON_ISA_TPB_DTYPE dtype, NEURON_ISA_TPB_DTYPE_ALLOW_FP32R allow_fp32r) {
    return( is_valid_dtype(dtype, allow_fp32r)
            && is_valid_enum_dtype_basic((uint8_t)dtype) );
}

// Element size in bytes; 0 for codes without a whole-byte size.
STATIC inline uint32_t type_size(NEURON_ISA_TPB_DTYPE dtype) {
    switch (dtype) {
    case NEURON_ISA_TPB_DTYPE_INT8:
    case NEURON_ISA_TPB_DTYPE_UINT8:
    case NEURON_ISA_TPB_DTYPE_FP8_EXP3:
    case NEURON_ISA_TPB_DTYPE_FP8_EXP4:
    case NEURON_ISA_TPB_DTYPE_FP8_EXP5:
        return( 1U );
    case NEURON_ISA_TPB_DTYPE_INT16:
    case NEURON_ISA_TPB_DTYPE_UINT16:
    case NEURON_ISA_TPB_DTYPE_BFLOAT16:
    case NEURON_ISA_TPB_DTYPE_FP16:
        return( 2U );
    case NEURON_ISA_TPB_DTYPE_INT32:
    case NEURON_ISA_TPB_DTYPE_UINT32:
    case NEURON_ISA_TPB_DTYPE_FP32:
    case NEURON_ISA_TPB_DTYPE_FP32R:
        return( 4U );
    case NEURON_ISA_TPB_DTYPE_UINT64:
    case NEURON_ISA_TPB_DTYPE_INT64:
        return( 8U );
    default:
        return( 0U );
    }
}

STATIC inline bool type_size_check(NEURON_ISA_TPB_DTYPE dtype, uint32_t size) {
    return( type_size(dtype) == size );
}

STATIC inline bool is_valid_aluop(NEURON_ISA_TPB_ALU_OP op) {
    return( is_valid_enum_alu_op((uint8_t)op) );
}

STATIC inline bool is_valid_int_aluop(NEURON_ISA_TPB_ALU_OP op) {
    return( (op == NEURON_ISA_TPB_ALU_OP_ADD_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_MULT_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_SUBTRACT_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_MOD)
            || (op == NEURON_ISA_TPB_ALU_OP_DIVIDE_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_MOD_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_DIVIDE_UINT)
            || (op == NEURON_ISA_TPB_ALU_OP_MOD_UINT)
            || (op == NEURON_ISA_TPB_ALU_OP_MULT_UINT)
            || (op == NEURON_ISA_TPB_ALU_OP_IS_EQUAL_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_IS_NE_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_ABS_DIFF_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_ABS_MAX_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_ABS_MIN_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_MAX_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_MIN_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_IS_GT_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_IS_GE_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_IS_LE_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_IS_LT_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_MAX_UINT)
            || (op == NEURON_ISA_TPB_ALU_OP_MIN_UINT)
            || (op == NEURON_ISA_TPB_ALU_OP_IS_GT_UINT)
            || (op == NEURON_ISA_TPB_ALU_OP_IS_GE_UINT)
            || (op == NEURON_ISA_TPB_ALU_OP_IS_LE_UINT)
            || (op == NEURON_ISA_TPB_ALU_OP_IS_LT_UINT) );
}

STATIC inline bool is_arith_op(NEURON_ISA_TPB_ALU_OP op) {
    return( (op == NEURON_ISA_TPB_ALU_OP_BYPASS)
            || (op == NEURON_ISA_TPB_ALU_OP_ADD)
            || (op == NEURON_ISA_TPB_ALU_OP_SUBTRACT)
            || (op == NEURON_ISA_TPB_ALU_OP_MULT)
            || (op == NEURON_ISA_TPB_ALU_OP_DIVIDE)
            || (op == NEURON_ISA_TPB_ALU_OP_MAX)
            || (op == NEURON_ISA_TPB_ALU_OP_MIN)
            || (op == NEURON_ISA_TPB_ALU_OP_LOGICAL_AND)
            || (op == NEURON_ISA_TPB_ALU_OP_LOGICAL_OR)
            || (op == NEURON_ISA_TPB_ALU_OP_LOGICAL_XOR)
            || (op == NEURON_ISA_TPB_ALU_OP_IS_EQ)
            || (op == NEURON_ISA_TPB_ALU_OP_IS_GT)
            || (op == NEURON_ISA_TPB_ALU_OP_IS_GE)
            || (op == NEURON_ISA_TPB_ALU_OP_IS_LE)
            || (op == NEURON_ISA_TPB_ALU_OP_IS_LT)
            || (op == NEURON_ISA_TPB_ALU_OP_IS_NE)
            || (op == NEURON_ISA_TPB_ALU_OP_ABSOLUTE_DIFF)
            || (op == NEURON_ISA_TPB_ALU_OP_ABSOLUTE_VALUE)
            || (op == NEURON_ISA_TPB_ALU_OP_POW)
            || (op == NEURON_ISA_TPB_ALU_OP_MOD)
            || (op == NEURON_ISA_TPB_ALU_OP_ADD_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_MULT_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_SUBTRACT_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_DIVIDE_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_MOD_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_RSQRT)
            || (op == NEURON_ISA_TPB_ALU_OP_ABS_MAX)
            || (op == NEURON_ISA_TPB_ALU_OP_ABS_MIN)
            || (op == NEURON_ISA_TPB_ALU_OP_RE_LU)
            || (op == NEURON_ISA_TPB_ALU_OP_SQUARE) );
}

STATIC inline bool is_bitvec_op(NEURON_ISA_TPB_ALU_OP op) {
    return( (op == NEURON_ISA_TPB_ALU_OP_BYPASS)
            || (op == NEURON_ISA_TPB_ALU_OP_BITWISE_NOT)
            || (op == NEURON_ISA_TPB_ALU_OP_ARITH_SHIFT_LEFT)
            || (op == NEURON_ISA_TPB_ALU_OP_ARITH_SHIFT_RIGHT)
            || (op == NEURON_ISA_TPB_ALU_OP_LOGICAL_SHIFT_LEFT)
            || (op == NEURON_ISA_TPB_ALU_OP_LOGICAL_SHIFT_RIGHT)
            || (op == NEURON_ISA_TPB_ALU_OP_BITWISE_AND)
            || (op == NEURON_ISA_TPB_ALU_OP_BITWISE_OR)
            || (op == NEURON_ISA_TPB_ALU_OP_BITWISE_XOR)
            || (op == NEURON_ISA_TPB_ALU_OP_CRC32) );
}

STATIC inline bool is_general_bitvec_op(NEURON_ISA_TPB_ALU_OP op) {
    return( is_bitvec_op(op)
            && (op != NEURON_ISA_TPB_ALU_OP_CRC32) );
}

STATIC inline bool is_general_arith_op(NEURON_ISA_TPB_ALU_OP op) {
    return( is_arith_op(op)
            && (op != NEURON_ISA_TPB_ALU_OP_DIVIDE)
            && (op != NEURON_ISA_TPB_ALU_OP_POW)
            && (op != NEURON_ISA_TPB_ALU_OP_MOD)
            && (op != NEURON_ISA_TPB_ALU_OP_RSQRT)
            && !is_valid_int_aluop(op) );
}

STATIC inline bool is_shift_op(NEURON_ISA_TPB_ALU_OP op) {
    return( (op == NEURON_ISA_TPB_ALU_OP_ARITH_SHIFT_LEFT)
            || (op == NEURON_ISA_TPB_ALU_OP_ARITH_SHIFT_RIGHT)
            || (op == NEURON_ISA_TPB_ALU_OP_LOGICAL_SHIFT_LEFT)
            || (op == NEURON_ISA_TPB_ALU_OP_LOGICAL_SHIFT_RIGHT) );
}

// A left shift paired with a right shift (in either order) needs a 4-byte dtype.
STATIC inline bool alu_shift_left_right_chk(NEURON_ISA_TPB_ALU_OP op0, NEURON_ISA_TPB_ALU_OP op1, NEURON_ISA_TPB_DTYPE dtype) {
    bool left0 = (op0 == NEURON_ISA_TPB_ALU_OP_ARITH_SHIFT_LEFT) || (op0 == NEURON_ISA_TPB_ALU_OP_LOGICAL_SHIFT_LEFT);
    bool right0 = (op0 == NEURON_ISA_TPB_ALU_OP_ARITH_SHIFT_RIGHT) || (op0 == NEURON_ISA_TPB_ALU_OP_LOGICAL_SHIFT_RIGHT);
    bool left1 = (op1 == NEURON_ISA_TPB_ALU_OP_ARITH_SHIFT_LEFT) || (op1 == NEURON_ISA_TPB_ALU_OP_LOGICAL_SHIFT_LEFT);
    bool right1 = (op1 == NEURON_ISA_TPB_ALU_OP_ARITH_SHIFT_RIGHT) || (op1 == NEURON_ISA_TPB_ALU_OP_LOGICAL_SHIFT_RIGHT);
    return( !((left0 && right1) || (right0 && left1))
            || type_size_check(dtype, 4U) );
}

STATIC inline bool alu_arith_shift_right_chk(NEURON_ISA_TPB_ALU_OP op0, NEURON_ISA_TPB_ALU_OP op1, NEURON_ISA_TPB_DTYPE dtype) {
    return( ((op0 != NEURON_ISA_TPB_ALU_OP_ARITH_SHIFT_RIGHT) && (op1 != NEURON_ISA_TPB_ALU_OP_ARITH_SHIFT_RIGHT))
            || type_size_check(dtype, 4U) );
}

STATIC inline bool alu_shift_check(NEURON_ISA_TPB_ALU_OP op0, NEURON_ISA_TPB_ALU_OP op1, NEURON_ISA_TPB_DTYPE dtype) {
    return( alu_shift_left_right_chk(op0, op1, dtype)
            && alu_arith_shift_right_chk(op0, op1, dtype) );
}

STATIC inline uint32_t addr_imm_mask(NEURON_ISA_TPB_PARTITION_OFFSET addr) {
    return( addr & NEURON_ISA_TPB_TPB_PARTITION_ADDR_MASK );
}

STATIC inline bool addr_in_sbuf(NEURON_ISA_TPB_PARTITION_OFFSET addr) {
    return( addr < NEURON_ISA_TPB_STATE_BUF_OFFSET + NEURON_ISA_TPB_STATE_BUF_SZ );
}

STATIC inline bool addr_in_psum(NEURON_ISA_TPB_PARTITION_OFFSET addr) {
    return( (addr >= NEURON_ISA_TPB_PSUM_BUF_OFFSET)
            && (addr < NEURON_ISA_TPB_PSUM_BUF_OFFSET + NEURON_ISA_TPB_PSUM_BUF_SZ) );
}

STATIC inline uint32_t get_sbuf_partition_id(NEURON_ISA_TPB_PARTITION_OFFSET addr) {
    return( (addr - NEURON_ISA_TPB_STATE_BUF_OFFSET) / NEURON_ISA_TPB_STATE_BUF_PARTITION_SIZE );
}

STATIC inline uint32_t get_sbuf_byte_offset_in_partition(NEURON_ISA_TPB_PARTITION_OFFSET addr) {
    return( (addr - NEURON_ISA_TPB_STATE_BUF_OFFSET) % NEURON_ISA_TPB_STATE_BUF_PARTITION_SIZE );
}

STATIC inline uint32_t get_sbuf_quadrant_id(NEURON_ISA_TPB_PARTITION_OFFSET addr) {
    return( (addr - NEURON_ISA_TPB_STATE_BUF_OFFSET) / (NEURON_ISA_TPB_STATE_BUF_PARTITION_SIZE * 32U) );
}

// Partition index of a (masked) SBUF or PSUM address.
STATIC inline uint32_t tpb_addr_partition(NEURON_ISA_TPB_PARTITION_OFFSET addr) {
    return( addr_in_psum(addr)
            ? (addr - NEURON_ISA_TPB_PSUM_BUF_OFFSET) / NEURON_ISA_TPB_PSUM_BUF_PARTITION_SIZE
            : get_sbuf_partition_id(addr) );
}

STATIC inline bool four_byte_aligned(NEURON_ISA_TPB_PARTITION_OFFSET addr) {
    return( (addr & 3U) == 0U );
}

STATIC inline bool addr_aligned_dtype(NEURON_ISA_TPB_PARTITION_OFFSET addr, NEURON_ISA_TPB_DTYPE dtype) {
    // Sub-byte and CPTC codes: FP4/INT4 data are byte-granular, CPTC data 32-bit aligned.
    if ((dtype == NEURON_ISA_TPB_DTYPE_FP4_EXP2)) {
        return( true );
    }
    if (is_cptc(dtype)) {
        return( four_byte_aligned(addr) );
    }
    switch (type_size(dtype)) {
    case 1U:
        return( true );
    case 2U:
        return( (addr & 1U) == 0U );
    case 4U:
        return( (addr & 3U) == 0U );
    case 8U:
        return( (addr & 7U) == 0U );
    default:
        return( false );
    }
}

// Marker & 0xA0 == 0x80: the address comes from a register (ADDR_REG or ADDR_SHAPE_REG).
STATIC inline bool addr_from_register(NEURON_ISA_TPB_ADDR4 a) {
    return( (a.addr_reg.marker & (NEURON_ISA_TPB_ADDR4_MARKER_ADDR_REG | NEURON_ISA_TPB_ADDR4_MARKER_INDIRECT_IMM))
            == NEURON_ISA_TPB_ADDR4_MARKER_ADDR_REG );
}

STATIC inline bool valid_addr_register(NEURON_ISA_TPB_ADDR4 a) {
    return( (a.addr_reg.reserved0[0] == 0U)
            && (a.addr_reg.reserved0[1] == 0U)
            && ((uint32_t)a.addr_reg.regnum < NEURON_ISA_TPB_NUM_ADDR_REGISTERS) );
}

STATIC inline bool shape_from_register(NEURON_ISA_TPB_ADDR4 a) {
    return( (a.addr_reg.marker == NEURON_ISA_TPB_ADDR4_MARKER_SHAPE_REG)
            || (a.addr_reg.marker == NEURON_ISA_TPB_ADDR4_MARKER_ADDR_SHAPE_REG) );
}

// Marker & 0x60 == 0x20: the pattern is an indirect (index-table) one (INDIRECT_IMM/_REG).
STATIC inline bool indirect_pattern(NEURON_ISA_TPB_ADDR4 a) {
    return( (a.addr_reg.marker & (NEURON_ISA_TPB_ADDR4_MARKER_SHAPE_REG | NEURON_ISA_TPB_ADDR4_MARKER_INDIRECT_IMM))
            == NEURON_ISA_TPB_ADDR4_MARKER_INDIRECT_IMM );
}

STATIC inline bool tensor_start_addr_valid(NEURON_ISA_TPB_ADDR4 a, NEURON_ISA_TPB_DTYPE dtype, NEURON_ISA_TPB_WRITE_TENSOR write, NEURON_ISA_TPB_ALLOWED_IN_PSUM allow_psum, NEURON_ISA_TPB_ALLOWED_IN_SBUF allow_sbuf) {
    if (addr_from_register(a)) {
        return( valid_addr_register(a) );
    }
    uint32_t addr = addr_imm_mask(a.addr_immediate);
    bool in_psum = addr_in_psum(addr);
    bool in_sbuf = addr_in_sbuf(addr);
    return( addr_aligned_dtype(addr, dtype)
            && (in_psum || in_sbuf)
            && ((allow_psum == ALLOWED_IN_PSUM_TRUE) || !in_psum)
            && ((allow_sbuf == ALLOWED_IN_SBUF_TRUE) || !in_sbuf)
            && (type_size_check(dtype, 4U) || !in_psum || (write == WRITE_TENSOR_FALSE)) );
}

// The n partitions starting at the partition of addr all exist (SBUF or PSUM).
STATIC inline bool tpb_addr_active_channels(NEURON_ISA_TPB_PARTITION_OFFSET addr, uint8_t num_active_channels) {
    uint32_t a = addr_imm_mask(addr);
    uint32_t num_partitions = addr_in_psum(a) ? NEURON_ISA_TPB_PSUM_BUF_NUM_PARTITIONS : NEURON_ISA_TPB_STATE_BUF_NUM_PARTITIONS;
    return( (addr_in_sbuf(a) || addr_in_psum(a))
            && ((uint32_t)num_active_channels >= 1U)
            && (tpb_addr_partition(a) + (uint32_t)num_active_channels <= num_partitions) );
}

STATIC inline bool start_addr_active_channels(NEURON_ISA_TPB_ADDR4 a, uint8_t num_active_channels) {
    return( addr_from_register(a)
            || tpb_addr_active_channels(a.addr_immediate, num_active_channels) );
}

STATIC inline bool is_valid_imm_reg(NEURON_ISA_TPB_IMM_REG r) {
    return( ((uint32_t)r.regnum < NEURON_ISA_TPB_NUM_ADDR_REGISTERS)
            && (r.reserved0[0] == 0U)
            && (r.reserved0[1] == 0U)
            && (r.reserved0[2] == 0U) );
}

STATIC inline bool has_valid_immediates(NEURON_ISA_TPB_IMM_VAL_INST_FIELD imm, NEURON_ISA_TPB_IMM_SRC src, uint8_t num_active_channels, NEURON_ISA_TPB_DTYPE dtype) {
    switch (src) {
    case NEURON_ISA_TPB_IMM_SRC_INSTRUCTION_IMMEDIATE:
        return( true );
    case NEURON_ISA_TPB_IMM_SRC_POINTER_IMMEDIATE:
        return( tpb_addr_active_channels(imm.imm_ptr, num_active_channels)
                && addr_aligned_dtype(imm.imm_ptr, dtype) );
    case NEURON_ISA_TPB_IMM_SRC_REG_PTR_IMMEDIATE:
        return( is_valid_imm_reg(imm.imm_reg) );
    default:
        return( false );
    }
}

STATIC inline bool check_active_channels(uint8_t n) {
    return( (n != 0U)
            && ((uint32_t)n <= NEURON_ISA_TPB_POOLING_NUM_CHANNELS) );
}

STATIC inline bool has_valid_active_channel_range(uint8_t n, uint32_t max_channels) {
    return( ((uint32_t)n >= 1U)
            && ((uint32_t)n <= max_channels) );
}

STATIC inline bool has_multiple_32_channels(uint8_t n) {
    return( ((uint32_t)n == 32U)
            || ((uint32_t)n == 64U)
            || ((uint32_t)n == 96U)
            || ((uint32_t)n == 128U) );
}

STATIC inline uint32_t t2d_element_count(NEURON_ISA_TPB_TENSOR2D t) {
    uint32_t count = 1U;
    for (uint32_t k = 0U; k < 2U; k++) {
        count = count * (uint32_t)t.num_elem[k];
    }
    return( count );
}

STATIC inline uint32_t t3d_element_count(NEURON_ISA_TPB_TENSOR3D t) {
    uint32_t count = 1U;
    for (uint32_t k = 0U; k < 3U; k++) {
        count = count * (uint32_t)t.num_elem[k];
    }
    return( count );
}

STATIC inline uint32_t t4d_element_count(NEURON_ISA_TPB_TENSOR4D t) {
    uint32_t count = 1U;
    for (uint32_t k = 0U; k < 4U; k++) {
        count = count * (uint32_t)t.num_elem[k];
    }
    return( count );
}

STATIC inline bool tensor2d_valid(NEURON_ISA_TPB_TENSOR2D t, NEURON_ISA_TPB_DTYPE dtype, NEURON_ISA_TPB_WRITE_TENSOR write, NEURON_ISA_TPB_ALLOWED_IN_PSUM allow_psum, NEURON_ISA_TPB_ALLOWED_IN_SBUF allow_sbuf) {
    return( tensor_start_addr_valid(t.start_addr, dtype, write, allow_psum, allow_sbuf) );
}

STATIC inline bool tensor3d_valid(NEURON_ISA_TPB_TENSOR3D t, NEURON_ISA_TPB_DTYPE dtype, NEURON_ISA_TPB_WRITE_TENSOR write, NEURON_ISA_TPB_ALLOWED_IN_PSUM allow_psum, NEURON_ISA_TPB_ALLOWED_IN_SBUF allow_sbuf) {
    return( tensor_start_addr_valid(t.start_addr, dtype, write, allow_psum, allow_sbuf) );
}

STATIC inline bool tensor4d_valid(NEURON_ISA_TPB_TENSOR4D t, NEURON_ISA_TPB_DTYPE dtype, NEURON_ISA_TPB_WRITE_TENSOR write, NEURON_ISA_TPB_ALLOWED_IN_PSUM allow_psum, NEURON_ISA_TPB_ALLOWED_IN_SBUF allow_sbuf) {
    return( tensor_start_addr_valid(t.start_addr, dtype, write, allow_psum, allow_sbuf) );
}

STATIC inline bool same_element_count_t3d(NEURON_ISA_TPB_TENSOR3D a, NEURON_ISA_TPB_TENSOR3D b) {
    return( shape_from_register(a.start_addr)
            || shape_from_register(b.start_addr)
            || (t3d_element_count(a) == t3d_element_count(b)) );
}

STATIC inline bool same_element_count_t4d(NEURON_ISA_TPB_TENSOR4D a, NEURON_ISA_TPB_TENSOR4D b) {
    return( shape_from_register(a.start_addr)
            || shape_from_register(b.start_addr)
            || (t4d_element_count(a) == t4d_element_count(b)) );
}

STATIC inline bool same_or_fewer_element_count_t4d(NEURON_ISA_TPB_TENSOR4D dst, NEURON_ISA_TPB_TENSOR4D src) {
    return( shape_from_register(dst.start_addr)
            || shape_from_register(src.start_addr)
            || (t4d_element_count(dst) <= t4d_element_count(src)) );
}

STATIC inline bool check_t3d_active_channels(NEURON_ISA_TPB_TENSOR3D t, uint8_t num_active_channels) {
    return( start_addr_active_channels(t.start_addr, num_active_channels) );
}

STATIC inline bool has_transpose_src_element_count_t3d(NEURON_ISA_TPB_TENSOR3D t) {
    return( (t3d_element_count(t) % 32U) == 0U );
}

STATIC inline bool has_transpose_src_element_count_t4d(NEURON_ISA_TPB_TENSOR4D t) {
    return( (t4d_element_count(t) % 32U) == 0U );
}

// Indirect pattern: index table (index_addr) in SBUF, data start checked like a tensor start.
STATIC inline bool indirect16b_valid(NEURON_ISA_TPB_INDIRECT16B ind, NEURON_ISA_TPB_DTYPE dtype, NEURON_ISA_TPB_WRITE_TENSOR write, NEURON_ISA_TPB_ALLOWED_IN_PSUM allow_psum, NEURON_ISA_TPB_ALLOWED_IN_SBUF allow_sbuf) {
    bool index_ok = (ind.index_addr.addr_reg.marker == NEURON_ISA_TPB_ADDR4_MARKER_INDIRECT_REG)
                    ? ((uint32_t)ind.index_addr.addr_reg.regnum < NEURON_ISA_TPB_NUM_ADDR_REGISTERS)
                    : (addr_in_sbuf(addr_imm_mask(ind.index_addr.addr_immediate))
                       && four_byte_aligned(ind.index_addr.addr_immediate));
    return( index_ok
            && tensor_start_addr_valid(ind.data_addr, dtype, write, allow_psum, allow_sbuf) );
}

STATIC inline bool mem3d_valid(NEURON_ISA_TPB_MEM_PATTERN3D m, NEURON_ISA_TPB_DTYPE dtype, NEURON_ISA_TPB_WRITE_TENSOR write, NEURON_ISA_TPB_ALLOWED_IN_PSUM allow_psum, NEURON_ISA_TPB_ALLOWED_IN_SBUF allow_sbuf) {
    return( indirect_pattern(m.t.start_addr)
            ? indirect16b_valid(m.i, dtype, write, allow_psum, allow_sbuf)
            : tensor3d_valid(m.t, dtype, write, allow_psum, allow_sbuf) );
}

STATIC inline bool check_m3d_active_channels(NEURON_ISA_TPB_MEM_PATTERN3D m, uint8_t num_active_channels) {
    return( indirect_pattern(m.t.start_addr)
            ? start_addr_active_channels(m.i.data_addr, num_active_channels)
            : check_t3d_active_channels(m.t, num_active_channels) );
}

STATIC inline bool same_element_count_m3d(NEURON_ISA_TPB_MEM_PATTERN3D a, NEURON_ISA_TPB_MEM_PATTERN3D b) {
    return( indirect_pattern(a.t.start_addr)
            || indirect_pattern(b.t.start_addr)
            || same_element_count_t3d(a.t, b.t) );
}

STATIC inline bool indirect_dst_size_limit_m3d(NEURON_ISA_TPB_MEM_PATTERN3D m) {
    return( !indirect_pattern(m.t.start_addr)
            || (m.i.num_elem != 0U) );
}

STATIC inline bool has_transpose_src_element_count_m3d(NEURON_ISA_TPB_MEM_PATTERN3D m) {
    return( !indirect_pattern(m.t.start_addr)
            && has_transpose_src_element_count_t3d(m.t) );
}

STATIC inline uint32_t tpb_addr_quadrant(NEURON_ISA_TPB_PARTITION_OFFSET addr) {
    return( tpb_addr_partition(addr_imm_mask(addr)) / 32U );
}

STATIC inline bool index_from_register(NEURON_ISA_TPB_INDIRECT16B ind) {
    return( ind.index_addr.addr_reg.marker == NEURON_ISA_TPB_ADDR4_MARKER_INDIRECT_REG );
}

// An indirect source keeps its index table in the quadrant of its data.
STATIC inline bool indirect_quadrant_check_src3d(NEURON_ISA_TPB_MEM_PATTERN3D src) {
    if (!indirect_pattern(src.t.start_addr)) {
        return( true );
    }
    if (index_from_register(src.i) || addr_from_register(src.i.data_addr)) {
        return( true );
    }
    return( tpb_addr_quadrant(src.i.index_addr.addr_immediate) == tpb_addr_quadrant(src.i.data_addr.addr_immediate) );
}

// Indirect source and indirect destination use index tables in the same quadrant.
STATIC inline bool indirect_quadrant_check_src3d_dst3d(NEURON_ISA_TPB_MEM_PATTERN3D src, NEURON_ISA_TPB_MEM_PATTERN3D dst) {
    return( !indirect_pattern(src.t.start_addr)
            || !indirect_pattern(dst.t.start_addr)
            || index_from_register(src.i)
            || index_from_register(dst.i)
            || (tpb_addr_quadrant(src.i.index_addr.addr_immediate) == tpb_addr_quadrant(dst.i.index_addr.addr_immediate)) );
}

//* s3d3_ts_assert.h

STATIC inline bool has_tensor_scalar_opcode(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s3d3_ts.header.opcode == NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_ARITH_OP)
            || (i.s3d3_ts.header.opcode == NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_BITVEC_OP)
            || (i.s3d3_ts.header.opcode == NEURON_ISA_TPB_OPCODE_TRANSPOSE_TENSOR_SCALAR_ARITH_OP) );
}

STATIC inline bool has_tensor_scalar_ptr_opcode(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s3d3_ts.header.opcode == NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_ARITH_OP)
            || (i.s3d3_ts.header.opcode == NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_BITVEC_OP) );
}

STATIC inline bool has_tensor_cache_reduce_opcode(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s3d3_ts.header.opcode == NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_CACHE_REDUCE) );
}

STATIC inline bool has_tensor_cache_cumulative_opcode(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s3d3_ts.header.opcode == NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_CACHE_CUMULATIVE) );
}

STATIC inline bool has_exponential_opcode(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s3d3_ts.header.opcode == NEURON_ISA_TPB_OPCODE_EXPONENTIAL) );
}

STATIC inline bool tensor_scalar_arith(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s3d3_ts.header.opcode == NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_ARITH_OP)
            || (i.s3d3_ts.header.opcode == NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_ARITH_OP)
            || (i.s3d3_ts.header.opcode == NEURON_ISA_TPB_OPCODE_TRANSPOSE_TENSOR_SCALAR_ARITH_OP)
            || (i.s3d3_ts.header.opcode == NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_CACHE_REDUCE)
            || (i.s3d3_ts.header.opcode == NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_CACHE_CUMULATIVE)
            || (i.s3d3_ts.header.opcode == NEURON_ISA_TPB_OPCODE_EXPONENTIAL) );
}

STATIC inline bool tensor_scalar_bitvec(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s3d3_ts.header.opcode == NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_BITVEC_OP)
            || (i.s3d3_ts.header.opcode == NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_BITVEC_OP) );
}

STATIC inline bool has_zero_accum_cmd_field(NEURON_ISA_TPB_INST_UNION i) {
    return( i.s3d3_ts.accumulator_cmd == NEURON_ISA_TPB_ACCUM_CMD_IDLE );
}

STATIC inline bool s3d3_ts_reserved_zero(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s3d3_ts.reserved0[0] == 0U)
            && (i.s3d3_ts.reserved0[1] == 0U)
            && (i.s3d3_ts.reserved0[2] == 0U) );
}

STATIC inline bool tensor_scalar_valid_ops(NEURON_ISA_TPB_INST_UNION i) {
    return( is_valid_enum_alu_op((uint8_t)i.s3d3_ts.op0)
            && is_valid_enum_alu_op((uint8_t)i.s3d3_ts.op1)
            && (i.s3d3_ts.op0 != NEURON_ISA_TPB_ALU_OP_DIVIDE) && (i.s3d3_ts.op0 != NEURON_ISA_TPB_ALU_OP_POW) && (i.s3d3_ts.op0 != NEURON_ISA_TPB_ALU_OP_MOD)
            && (i.s3d3_ts.op1 != NEURON_ISA_TPB_ALU_OP_DIVIDE) && (i.s3d3_ts.op1 != NEURON_ISA_TPB_ALU_OP_POW) && (i.s3d3_ts.op1 != NEURON_ISA_TPB_ALU_OP_MOD)
            && (!tensor_scalar_bitvec(i)
                || (is_bitvec_op(i.s3d3_ts.op0) && is_bitvec_op(i.s3d3_ts.op1)))
            && (!tensor_scalar_arith(i)
                || (is_general_arith_op(i.s3d3_ts.op0) && is_general_arith_op(i.s3d3_ts.op1))
                || ((i.s3d3_ts.op0 == NEURON_ISA_TPB_ALU_OP_RSQRT) && (i.s3d3_ts.op1 == NEURON_ISA_TPB_ALU_OP_BYPASS)
                    && (i.s3d3_ts.imm0.imm_bitvec_uint32 == 0U) && (i.s3d3_ts.imm0_src == NEURON_ISA_TPB_IMM_SRC_INSTRUCTION_IMMEDIATE)
                    && (i.s3d3_ts.imm1.imm_bitvec_uint32 == 0U) && (i.s3d3_ts.imm1_src == NEURON_ISA_TPB_IMM_SRC_INSTRUCTION_IMMEDIATE)))
            && ((i.s3d3_ts.op0 != NEURON_ISA_TPB_ALU_OP_BYPASS) || (i.s3d3_ts.op1 == NEURON_ISA_TPB_ALU_OP_BYPASS)) );
}

STATIC inline bool tensor_scalar_valid_types(NEURON_ISA_TPB_INST_UNION i) {
    return( tensor_scalar_arith(i)
            || (tensor_scalar_bitvec(i)
                && (i.s3d3_ts.in_dtype == i.s3d3_ts.out_dtype)
                && ((i.s3d3_ts.in_dtype == NEURON_ISA_TPB_DTYPE_INT8) || (i.s3d3_ts.in_dtype == NEURON_ISA_TPB_DTYPE_UINT8) || (i.s3d3_ts.in_dtype == NEURON_ISA_TPB_DTYPE_INT16)
                    || (i.s3d3_ts.in_dtype == NEURON_ISA_TPB_DTYPE_UINT16) || (i.s3d3_ts.in_dtype == NEURON_ISA_TPB_DTYPE_UINT32) || (i.s3d3_ts.in_dtype == NEURON_ISA_TPB_DTYPE_INT32))) );
}

STATIC inline bool ts_imm_32_chk(NEURON_ISA_TPB_INST_UNION i) {
    return( tensor_scalar_arith(i)
            || (tensor_scalar_bitvec(i)
                && ((i.s3d3_ts.in_dtype == NEURON_ISA_TPB_DTYPE_UINT32) || (i.s3d3_ts.in_dtype == NEURON_ISA_TPB_DTYPE_INT32) || (i.s3d3_ts.in_dtype == NEURON_ISA_TPB_DTYPE_FP32))) );
}

STATIC inline bool ts_imm_16_chk(NEURON_ISA_TPB_INST_UNION i, NEURON_ISA_TPB_IMM_VAL_INST_FIELD imm) {
    return( tensor_scalar_bitvec(i)
            && type_size_check(i.s3d3_ts.in_dtype, 2U)
            && ((imm.imm_bitvec_uint32 & 0xFFFF0000U) == 0U) );
}

STATIC inline bool ts_imm_8_chk(NEURON_ISA_TPB_INST_UNION i, NEURON_ISA_TPB_IMM_VAL_INST_FIELD imm) {
    return( tensor_scalar_bitvec(i)
            && type_size_check(i.s3d3_ts.in_dtype, 1U)
            && ((imm.imm_bitvec_uint32 & 0xFFFFFF00U) == 0U) );
}

STATIC inline bool ts_imm_chk(NEURON_ISA_TPB_INST_UNION i, NEURON_ISA_TPB_IMM_VAL_INST_FIELD imm) {
    return( ts_imm_32_chk(i)
            || ts_imm_16_chk(i, imm)
            || ts_imm_8_chk(i, imm) );
}

STATIC inline bool ts_ptr_imm_chk(NEURON_ISA_TPB_INST_UNION i, NEURON_ISA_TPB_IMM_VAL_INST_FIELD imm) {
    return( tpb_addr_active_channels(imm.imm_ptr, i.s3d3_ts.num_active_channels)
            && ((tensor_scalar_arith(i) && four_byte_aligned(imm.imm_ptr))
                || (tensor_scalar_bitvec(i) && addr_aligned_dtype(imm.imm_ptr, i.s3d3_ts.in_dtype))) );
}

STATIC inline bool tensor_scalar_immediates_check(NEURON_ISA_TPB_INST_UNION i) {
    return( (   ((i.s3d3_ts.imm0_src == NEURON_ISA_TPB_IMM_SRC_INSTRUCTION_IMMEDIATE) && ts_imm_chk(i, i.s3d3_ts.imm0))
                 || ((i.s3d3_ts.imm0_src == NEURON_ISA_TPB_IMM_SRC_POINTER_IMMEDIATE) && ts_ptr_imm_chk(i, i.s3d3_ts.imm0))
                 || ((i.s3d3_ts.imm0_src == NEURON_ISA_TPB_IMM_SRC_REG_PTR_IMMEDIATE) && is_valid_imm_reg(i.s3d3_ts.imm0.imm_reg)))
            && (   ((i.s3d3_ts.imm1_src == NEURON_ISA_TPB_IMM_SRC_INSTRUCTION_IMMEDIATE) && ts_imm_chk(i, i.s3d3_ts.imm1))
                 || ((i.s3d3_ts.imm1_src == NEURON_ISA_TPB_IMM_SRC_POINTER_IMMEDIATE) && ts_ptr_imm_chk(i, i.s3d3_ts.imm1))
                 || ((i.s3d3_ts.imm1_src == NEURON_ISA_TPB_IMM_SRC_REG_PTR_IMMEDIATE) && is_valid_imm_reg(i.s3d3_ts.imm1.imm_reg))) );
}

STATIC inline bool tensor_scalar_ptr_immediates(NEURON_ISA_TPB_INST_UNION i) {
    return( ts_ptr_imm_chk(i, i.s3d3_ts.imm0)
            && ts_ptr_imm_chk(i, i.s3d3_ts.imm1) );
}

STATIC inline bool tensor_scalar_ptr_imm_src(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s3d3_ts.imm0_src == NEURON_ISA_TPB_IMM_SRC_INSTRUCTION_IMMEDIATE)
            && (i.s3d3_ts.imm1_src == NEURON_ISA_TPB_IMM_SRC_INSTRUCTION_IMMEDIATE) );
}

STATIC inline bool tensor_scalar_shift_chk(NEURON_ISA_TPB_INST_UNION i) {
    return( alu_shift_check(i.s3d3_ts.op0, i.s3d3_ts.op1, i.s3d3_ts.in_dtype) );
}

STATIC inline bool tensor_scalar_tensor_chk(NEURON_ISA_TPB_INST_UNION i) {
    return( mem3d_valid(i.s3d3_ts.src_mem_pattern, i.s3d3_ts.in_dtype, WRITE_TENSOR_FALSE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && mem3d_valid(i.s3d3_ts.dst_mem_pattern, i.s3d3_ts.out_dtype, WRITE_TENSOR_TRUE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && indirect_dst_size_limit_m3d(i.s3d3_ts.dst_mem_pattern)
            && same_element_count_m3d(i.s3d3_ts.src_mem_pattern, i.s3d3_ts.dst_mem_pattern) );
}

STATIC inline bool tensor_scalar_reverse_chk(NEURON_ISA_TPB_INST_UNION i) {
    return( is_valid_enum_tens_scalar_rev_ops((uint8_t)i.s3d3_ts.reverse_operands) );
}

STATIC inline bool s3d3_transpose_check(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s3d3_ts.header.opcode != NEURON_ISA_TPB_OPCODE_TRANSPOSE_TENSOR_SCALAR_ARITH_OP)
            || (has_transpose_src_element_count_m3d(i.s3d3_ts.src_mem_pattern)
                && has_multiple_32_channels(i.s3d3_ts.num_active_channels)) );
}

STATIC inline bool is_valid_tensor_scalar_op(NEURON_ISA_TPB_INST_UNION i) {
    return( has_valid_neuron_header(i)
            && has_valid_neuron_events(i)
            && has_tensor_scalar_opcode(i)
            && tensor_scalar_valid_ops(i)
            && tensor_scalar_valid_types(i)
            && tensor_scalar_immediates_check(i)
            && tensor_scalar_shift_chk(i)
            && tensor_scalar_tensor_chk(i)
            && tensor_scalar_reverse_chk(i)
            && s3d3_ts_reserved_zero(i)
            && s3d3_transpose_check(i)
            && is_valid_dtype(i.s3d3_ts.in_dtype, ALLOW_FP32R_FALSE)
            && is_valid_dtype(i.s3d3_ts.out_dtype, ALLOW_FP32R_TRUE)
            && is_valid_aluop(i.s3d3_ts.op0)
            && is_valid_aluop(i.s3d3_ts.op1)
            && has_zero_accum_cmd_field(i)
            && has_valid_active_channel_range(i.s3d3_ts.num_active_channels, NEURON_ISA_TPB_POOLING_NUM_CHANNELS)
            && check_m3d_active_channels(i.s3d3_ts.src_mem_pattern, i.s3d3_ts.num_active_channels)
            && check_m3d_active_channels(i.s3d3_ts.dst_mem_pattern, i.s3d3_ts.num_active_channels)
            && mem3d_valid(i.s3d3_ts.src_mem_pattern, i.s3d3_ts.in_dtype, WRITE_TENSOR_FALSE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && mem3d_valid(i.s3d3_ts.dst_mem_pattern, i.s3d3_ts.out_dtype, WRITE_TENSOR_TRUE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && indirect_quadrant_check_src3d(i.s3d3_ts.src_mem_pattern)
            && indirect_quadrant_check_src3d_dst3d(i.s3d3_ts.src_mem_pattern, i.s3d3_ts.dst_mem_pattern) );
}

STATIC inline bool is_valid_tensor_scalar_ptr_op(NEURON_ISA_TPB_INST_UNION i) {
    return( has_valid_neuron_header(i)
            && has_valid_neuron_events(i)
            && has_tensor_scalar_ptr_opcode(i)
            && tensor_scalar_valid_ops(i)
            && tensor_scalar_valid_types(i)
            && tensor_scalar_ptr_immediates(i)
            && tensor_scalar_ptr_imm_src(i)
            && tensor_scalar_shift_chk(i)
            && tensor_scalar_tensor_chk(i)
            && tensor_scalar_reverse_chk(i)
            && s3d3_ts_reserved_zero(i)
            && has_zero_accum_cmd_field(i)
            && is_valid_dtype(i.s3d3_ts.in_dtype, ALLOW_FP32R_FALSE)
            && is_valid_dtype(i.s3d3_ts.out_dtype, ALLOW_FP32R_TRUE) );
}

STATIC inline bool has_valid_tensor_scalar_cache_reduce_accum_cmd(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s3d3_ts.accumulator_cmd == NEURON_ISA_TPB_ACCUM_CMD_ZERO_ACCUMULATE)
            || (i.s3d3_ts.accumulator_cmd == NEURON_ISA_TPB_ACCUM_CMD_ACCUMULATE)
            || (i.s3d3_ts.accumulator_cmd == NEURON_ISA_TPB_ACCUM_CMD_LOAD_ACCUMULATE) );
}

STATIC inline bool is_valid_cache_reduce_op(NEURON_ISA_TPB_ALU_OP op) {
    return( (op == NEURON_ISA_TPB_ALU_OP_ADD)
            || (op == NEURON_ISA_TPB_ALU_OP_SUBTRACT)
            || (op == NEURON_ISA_TPB_ALU_OP_MULT)
            || (op == NEURON_ISA_TPB_ALU_OP_MAX)
            || (op == NEURON_ISA_TPB_ALU_OP_MIN) );
}

STATIC inline bool tensor_scalar_cache_reduce_valid_ops(NEURON_ISA_TPB_INST_UNION i) {
    return( is_valid_enum_alu_op((uint8_t)i.s3d3_ts.op0)
            && is_valid_enum_alu_op((uint8_t)i.s3d3_ts.op1)
            && is_general_arith_op(i.s3d3_ts.op0)
            && is_valid_cache_reduce_op(i.s3d3_ts.op1) );
}

STATIC inline bool tensor_scalar_cache_reduce_valid_types(NEURON_ISA_TPB_INST_UNION i) {
    return( is_valid_fp_dtype_datapath(i.s3d3_ts.in_dtype, ALLOW_FP32R_FALSE)
            || (is_valid_int_dtype_datapath(i.s3d3_ts.in_dtype)
                && (i.s3d3_ts.in_dtype != NEURON_ISA_TPB_DTYPE_UINT32)
                && (i.s3d3_ts.in_dtype != NEURON_ISA_TPB_DTYPE_INT32)) );
}

STATIC inline bool tensor_scalar_cache_reduce_immediates_check(NEURON_ISA_TPB_INST_UNION i) {
    bool load_accumulate = (i.s3d3_ts.accumulator_cmd == NEURON_ISA_TPB_ACCUM_CMD_LOAD_ACCUMULATE);
    return( (   ((i.s3d3_ts.imm0_src == NEURON_ISA_TPB_IMM_SRC_INSTRUCTION_IMMEDIATE) && ts_imm_chk(i, i.s3d3_ts.imm0))
                 || ((i.s3d3_ts.imm0_src == NEURON_ISA_TPB_IMM_SRC_POINTER_IMMEDIATE) && ts_ptr_imm_chk(i, i.s3d3_ts.imm0))
                 || ((i.s3d3_ts.imm0_src == NEURON_ISA_TPB_IMM_SRC_REG_PTR_IMMEDIATE) && is_valid_imm_reg(i.s3d3_ts.imm0.imm_reg)))
            && (   (load_accumulate
                     && (   ((i.s3d3_ts.imm1_src == NEURON_ISA_TPB_IMM_SRC_INSTRUCTION_IMMEDIATE) && ts_imm_chk(i, i.s3d3_ts.imm1))
                         || ((i.s3d3_ts.imm1_src == NEURON_ISA_TPB_IMM_SRC_POINTER_IMMEDIATE) && ts_ptr_imm_chk(i, i.s3d3_ts.imm1))
                         || ((i.s3d3_ts.imm1_src == NEURON_ISA_TPB_IMM_SRC_REG_PTR_IMMEDIATE) && is_valid_imm_reg(i.s3d3_ts.imm1.imm_reg))))
                 || ((i.s3d3_ts.imm1_src == NEURON_ISA_TPB_IMM_SRC_INSTRUCTION_IMMEDIATE) && (i.s3d3_ts.imm1.imm_bitvec_uint32 == 0U))) );
}

STATIC inline bool tensor_scalar_cache_reduce_reverse_chk(NEURON_ISA_TPB_INST_UNION i) {
    return( is_valid_enum_tens_scalar_rev_ops((uint8_t)i.s3d3_ts.reverse_operands)
            && (i.s3d3_ts.reverse_operands == NEURON_ISA_TPB_TENS_SCALAR_REV_OPS_NONE) );
}

STATIC inline bool is_valid_tensor_scalar_cache_reduce(NEURON_ISA_TPB_INST_UNION i) {
    return( has_valid_neuron_header(i)
            && has_valid_neuron_events(i)
            && has_tensor_cache_reduce_opcode(i)
            && tensor_scalar_cache_reduce_valid_ops(i)
            && tensor_scalar_cache_reduce_valid_types(i)
            && tensor_scalar_cache_reduce_immediates_check(i)
            && tensor_scalar_tensor_chk(i)
            && tensor_scalar_cache_reduce_reverse_chk(i)
            && s3d3_ts_reserved_zero(i)
            && has_valid_tensor_scalar_cache_reduce_accum_cmd(i)
            && is_valid_dtype(i.s3d3_ts.in_dtype, ALLOW_FP32R_FALSE)
            && is_valid_dtype(i.s3d3_ts.out_dtype, ALLOW_FP32R_TRUE)
            && is_valid_aluop(i.s3d3_ts.op0)
            && is_valid_aluop(i.s3d3_ts.op1)
            && has_valid_active_channel_range(i.s3d3_ts.num_active_channels, NEURON_ISA_TPB_POOLING_NUM_CHANNELS)
            && check_m3d_active_channels(i.s3d3_ts.src_mem_pattern, i.s3d3_ts.num_active_channels)
            && check_m3d_active_channels(i.s3d3_ts.dst_mem_pattern, i.s3d3_ts.num_active_channels)
            && mem3d_valid(i.s3d3_ts.src_mem_pattern, i.s3d3_ts.in_dtype, WRITE_TENSOR_FALSE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && mem3d_valid(i.s3d3_ts.dst_mem_pattern, i.s3d3_ts.out_dtype, WRITE_TENSOR_TRUE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE) );
}

STATIC inline bool is_valid_tensor_scalar_cache_cumulative(NEURON_ISA_TPB_INST_UNION i) {
    return( has_valid_neuron_header(i)
            && has_valid_neuron_events(i)
            && has_tensor_cache_cumulative_opcode(i)
            && tensor_scalar_cache_reduce_valid_ops(i)
            && tensor_scalar_cache_reduce_valid_types(i)
            && tensor_scalar_cache_reduce_immediates_check(i)
            && tensor_scalar_tensor_chk(i)
            && tensor_scalar_cache_reduce_reverse_chk(i)
            && s3d3_ts_reserved_zero(i)
            && has_valid_tensor_scalar_cache_reduce_accum_cmd(i)
            && is_valid_dtype(i.s3d3_ts.in_dtype, ALLOW_FP32R_FALSE)
            && is_valid_dtype(i.s3d3_ts.out_dtype, ALLOW_FP32R_TRUE)
            && is_valid_aluop(i.s3d3_ts.op0)
            && is_valid_aluop(i.s3d3_ts.op1)
            && has_valid_active_channel_range(i.s3d3_ts.num_active_channels, NEURON_ISA_TPB_POOLING_NUM_CHANNELS)
            && check_m3d_active_channels(i.s3d3_ts.src_mem_pattern, i.s3d3_ts.num_active_channels)
            && check_m3d_active_channels(i.s3d3_ts.dst_mem_pattern, i.s3d3_ts.num_active_channels)
            && mem3d_valid(i.s3d3_ts.src_mem_pattern, i.s3d3_ts.in_dtype, WRITE_TENSOR_FALSE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && mem3d_valid(i.s3d3_ts.dst_mem_pattern, i.s3d3_ts.out_dtype, WRITE_TENSOR_TRUE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE) );
}

STATIC inline bool has_valid_exponential_accum_cmd(NEURON_ISA_TPB_INST_UNION i) {
    return( (((i.s3d3_ts.accumulator_cmd == NEURON_ISA_TPB_ACCUM_CMD_ZERO_ACCUMULATE)
               || (i.s3d3_ts.accumulator_cmd == NEURON_ISA_TPB_ACCUM_CMD_IDLE)
               || (i.s3d3_ts.accumulator_cmd == NEURON_ISA_TPB_ACCUM_CMD_ACCUMULATE))
              && (i.s3d3_ts.imm1_src == NEURON_ISA_TPB_IMM_SRC_INSTRUCTION_IMMEDIATE)
              && (i.s3d3_ts.imm1.imm_bitvec_uint32 == 0U))
            || (i.s3d3_ts.accumulator_cmd == NEURON_ISA_TPB_ACCUM_CMD_LOAD_ACCUMULATE) );
}

STATIC inline bool exp_x_even_or_unpacked(NEURON_ISA_TPB_INST_UNION i) {
    NEURON_ISA_TPB_TENSOR3D src = i.s3d3_ts.src_mem_pattern.t;
    return( (i.s3d3_ts.in_dtype == NEURON_ISA_TPB_DTYPE_FP32) || (i.s3d3_ts.in_dtype == NEURON_ISA_TPB_DTYPE_UINT32) || (i.s3d3_ts.in_dtype == NEURON_ISA_TPB_DTYPE_INT32)
            || (src.step_elem[0] != 1)
            || ((src.num_elem[0] % 2U) == 0U) );
}

STATIC inline bool exp_upper_src_dim_even(NEURON_ISA_TPB_INST_UNION i) {
    NEURON_ISA_TPB_TENSOR3D src = i.s3d3_ts.src_mem_pattern.t;
    return( ((src.num_elem[1] == 1U) || ((src.num_elem[1] % 2U) == 0U))
            && ((src.num_elem[2] == 1U) || ((src.num_elem[2] % 2U) == 0U)) );
}

STATIC inline bool has_valid_exponential_num_elements(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s3d3_ts.accumulator_cmd == NEURON_ISA_TPB_ACCUM_CMD_IDLE)
            || indirect_pattern(i.s3d3_ts.src_mem_pattern.t.start_addr)
            || indirect_pattern(i.s3d3_ts.dst_mem_pattern.t.start_addr)
            || (exp_x_even_or_unpacked(i) && exp_upper_src_dim_even(i)) );
}

STATIC inline bool has_valid_exponential_ops(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s3d3_ts.op0 == NEURON_ISA_TPB_ALU_OP_BYPASS)
            && (i.s3d3_ts.op1 == NEURON_ISA_TPB_ALU_OP_BYPASS)
            && (i.s3d3_ts.reverse_operands == NEURON_ISA_TPB_TENS_SCALAR_REV_OPS_NONE) );
}

STATIC inline bool s3d3_ts_exponential_unused_fields(NEURON_ISA_TPB_INST_UNION i) {
    return( s3d3_ts_reserved_zero(i) );
}

STATIC inline bool is_valid_exponential(NEURON_ISA_TPB_INST_UNION i) {
    return( has_valid_neuron_header(i)
            && has_valid_neuron_events(i)
            && has_exponential_opcode(i)
            && is_valid_dtype(i.s3d3_ts.in_dtype, ALLOW_FP32R_FALSE)
            && is_valid_dtype(i.s3d3_ts.out_dtype, ALLOW_FP32R_TRUE)
            && tensor_scalar_immediates_check(i)
            && has_valid_exponential_accum_cmd(i)
            && has_valid_exponential_num_elements(i)
            && has_valid_exponential_ops(i)
            && s3d3_ts_exponential_unused_fields(i)
            && tensor_scalar_tensor_chk(i)
            && has_valid_active_channel_range(i.s3d3_ts.num_active_channels, NEURON_ISA_TPB_POOLING_NUM_CHANNELS)
            && check_m3d_active_channels(i.s3d3_ts.src_mem_pattern, i.s3d3_ts.num_active_channels)
            && check_m3d_active_channels(i.s3d3_ts.dst_mem_pattern, i.s3d3_ts.num_active_channels)
            && mem3d_valid(i.s3d3_ts.src_mem_pattern, i.s3d3_ts.in_dtype, WRITE_TENSOR_FALSE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && mem3d_valid(i.s3d3_ts.dst_mem_pattern, i.s3d3_ts.out_dtype, WRITE_TENSOR_TRUE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && indirect_quadrant_check_src3d(i.s3d3_ts.src_mem_pattern)
            && indirect_quadrant_check_src3d_dst3d(i.s3d3_ts.src_mem_pattern, i.s3d3_ts.dst_mem_pattern) );
}

//* s4d4_tsm_assert.h

STATIC inline bool has_tensor_scalar_ptr_multi_opcode(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s4d4_tsm.header.opcode == NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_MULTI_ARITH)
            || (i.s4d4_tsm.header.opcode == NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_MULTI_BITVEC) );
}

STATIC inline bool tensor_scalar_ptr_multi_arith(NEURON_ISA_TPB_INST_UNION i) {
    return( i.s4d4_tsm.header.opcode == NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_MULTI_ARITH );
}

STATIC inline bool tensor_scalar_ptr_multi_bitvec(NEURON_ISA_TPB_INST_UNION i) {
    return( i.s4d4_tsm.header.opcode == NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_MULTI_BITVEC );
}

STATIC inline bool tensor_scalar_ptr_multi_valid_ops(NEURON_ISA_TPB_INST_UNION i) {
    return( is_valid_enum_alu_op((uint8_t)i.s4d4_tsm.op)
            && (i.s4d4_tsm.op != NEURON_ISA_TPB_ALU_OP_DIVIDE)
            && (i.s4d4_tsm.op != NEURON_ISA_TPB_ALU_OP_POW)
            && (i.s4d4_tsm.op != NEURON_ISA_TPB_ALU_OP_MOD)
            && (!tensor_scalar_ptr_multi_bitvec(i) || is_bitvec_op(i.s4d4_tsm.op))
            && (!tensor_scalar_ptr_multi_arith(i) || is_general_arith_op(i.s4d4_tsm.op)) );
}

STATIC inline bool tensor_scalar_ptr_multi_valid_types(NEURON_ISA_TPB_INST_UNION i) {
    return( tensor_scalar_ptr_multi_arith(i)
            || (tensor_scalar_ptr_multi_bitvec(i)
                && (i.s4d4_tsm.in_dtype == i.s4d4_tsm.out_dtype)
                && ((i.s4d4_tsm.in_dtype == NEURON_ISA_TPB_DTYPE_INT32) || (i.s4d4_tsm.in_dtype == NEURON_ISA_TPB_DTYPE_UINT32) || (i.s4d4_tsm.in_dtype == NEURON_ISA_TPB_DTYPE_UINT16) || (i.s4d4_tsm.in_dtype == NEURON_ISA_TPB_DTYPE_UINT8))) );
}

STATIC inline bool is_valid_tsm_subdim(NEURON_ISA_TPB_INST_UNION i) {
    return( i.s4d4_tsm.op_dim == NEURON_ISA_TPB_TENSOR_SUBDIM_XYZ );
}

STATIC inline bool has_valid_src_slices_tsm_singular(NEURON_ISA_TPB_INST_UNION i) {
    uint32_t w = (uint32_t)i.s4d4_tsm.src_mem_pattern.num_elem[3];
    return( (w >= 1U) && (w <= 8U) );
}

STATIC inline bool tensor_scalar_ptr_multi_reverse_chk(NEURON_ISA_TPB_INST_UNION i) {
    return( is_valid_enum_tens_scalar_rev_ops((uint8_t)i.s4d4_tsm.reverse_operands)
            && has_tensor_scalar_ptr_multi_opcode(i)
            && ((i.s4d4_tsm.reverse_operands == NEURON_ISA_TPB_TENS_SCALAR_REV_OPS_NONE) || (i.s4d4_tsm.reverse_operands == NEURON_ISA_TPB_TENS_SCALAR_REV_OPS_BOTH)) );
}

STATIC inline bool s4d4_tsm_reserved_zero(NEURON_ISA_TPB_INST_UNION i) {
    if (i.s4d4_tsm.reserved0[0] != 0U) {
        return( false );
    }
    for (uint32_t k = 0U; k < 5U; k++) {
        if (i.s4d4_tsm.reserved1[k] != 0U) {
            return( false );
        }
    }
    return( true );
}

STATIC inline bool is_valid_tensor_scalar_ptr_multi_common(NEURON_ISA_TPB_INST_UNION i) {
    return( tensor_scalar_ptr_multi_valid_ops(i)
            && tensor_scalar_ptr_multi_valid_types(i)
            && tensor_scalar_ptr_multi_reverse_chk(i)
            && s4d4_tsm_reserved_zero(i)
            && is_valid_dtype(i.s4d4_tsm.in_dtype, ALLOW_FP32R_FALSE)
            && is_valid_dtype(i.s4d4_tsm.out_dtype, ALLOW_FP32R_TRUE)
            && is_valid_aluop(i.s4d4_tsm.op)
            && is_valid_tsm_subdim(i)
            && has_valid_active_channel_range(i.s4d4_tsm.num_active_channels, NEURON_ISA_TPB_POOLING_NUM_CHANNELS)
            && start_addr_active_channels(i.s4d4_tsm.src_mem_pattern.start_addr, i.s4d4_tsm.num_active_channels)
            && start_addr_active_channels(i.s4d4_tsm.dst_mem_pattern.start_addr, i.s4d4_tsm.num_active_channels)
            && tensor4d_valid(i.s4d4_tsm.src_mem_pattern, i.s4d4_tsm.in_dtype, WRITE_TENSOR_FALSE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && tensor4d_valid(i.s4d4_tsm.dst_mem_pattern, i.s4d4_tsm.out_dtype, WRITE_TENSOR_TRUE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && same_element_count_t4d(i.s4d4_tsm.src_mem_pattern, i.s4d4_tsm.dst_mem_pattern) );
}

STATIC inline bool is_valid_tensor_scalar_ptr_multi(NEURON_ISA_TPB_INST_UNION i) {
    return( has_valid_neuron_header(i)
            && has_valid_neuron_events(i)
            && has_tensor_scalar_ptr_multi_opcode(i)
            && has_valid_src_slices_tsm_singular(i)
            && is_valid_tensor_scalar_ptr_multi_common(i) );
}

//* s2_bn_assert.h

STATIC inline bool has_tsm_immediates_load_opcode(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s2_bn.header.opcode == NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_IMM_LD_ARITH)
            || (i.s2_bn.header.opcode == NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_IMM_LD_BITVEC) );
}

STATIC inline bool has_tsm_immediates_load_src_element_cnt(NEURON_ISA_TPB_INST_UNION i) {
    uint32_t w = (uint32_t)i.s2_bn.src_mem_pattern.num_elem[0] * (uint32_t)i.s2_bn.src_mem_pattern.num_elem[1];
    return( ((w >= 1U) && (w <= 8U))
            || shape_from_register(i.s2_bn.src_mem_pattern.start_addr) );
}

STATIC inline bool has_s2_bn_zero_immediates(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s2_bn.imm0_ptr.imm_arith_fp32 == 0.0f)
            && (i.s2_bn.imm0_src == NEURON_ISA_TPB_IMM_SRC_INSTRUCTION_IMMEDIATE)
            && (i.s2_bn.imm1.imm_arith_fp32 == 0.0f) );
}

STATIC inline bool tsm_immld_dtypes(NEURON_ISA_TPB_INST_UNION i) {
    return( ((i.s2_bn.header.opcode == NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_IMM_LD_ARITH)
              && (
                  (i.s2_bn.dtype == NEURON_ISA_TPB_DTYPE_FP32)
                  || (i.s2_bn.dtype == NEURON_ISA_TPB_DTYPE_FP16)
                  || (i.s2_bn.dtype == NEURON_ISA_TPB_DTYPE_BFLOAT16)
                  || (i.s2_bn.dtype == NEURON_ISA_TPB_DTYPE_FP8_EXP3)
                  || (i.s2_bn.dtype == NEURON_ISA_TPB_DTYPE_FP8_EXP4)
                  || (i.s2_bn.dtype == NEURON_ISA_TPB_DTYPE_FP8_EXP5)
                  || (i.s2_bn.dtype == NEURON_ISA_TPB_DTYPE_UINT32)
                  || (i.s2_bn.dtype == NEURON_ISA_TPB_DTYPE_UINT16)
                  || (i.s2_bn.dtype == NEURON_ISA_TPB_DTYPE_UINT8)
                  || (i.s2_bn.dtype == NEURON_ISA_TPB_DTYPE_INT32)
                  || (i.s2_bn.dtype == NEURON_ISA_TPB_DTYPE_INT16)
                  || (i.s2_bn.dtype == NEURON_ISA_TPB_DTYPE_INT8)
                 ))
            || ((i.s2_bn.header.opcode == NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_IMM_LD_BITVEC)
                && (
                  (i.s2_bn.dtype == NEURON_ISA_TPB_DTYPE_UINT32)
                  || (i.s2_bn.dtype == NEURON_ISA_TPB_DTYPE_UINT16)
                  || (i.s2_bn.dtype == NEURON_ISA_TPB_DTYPE_UINT8)
                  || (i.s2_bn.dtype == NEURON_ISA_TPB_DTYPE_INT32)
                   )) );
}

STATIC inline bool s2_bn_reserved_zero(NEURON_ISA_TPB_INST_UNION i) {
    bool zero = (i.s2_bn.reserved1[0] == 0U);
    for (uint32_t k = 0U; k < 4U; k++) {
        zero = zero && (i.s2_bn.reserved0[k] == 0U);
    }
    for (uint32_t k = 0U; k < 9U; k++) {
        zero = zero && (i.s2_bn.reserved2[k] == 0U);
    }
    for (uint32_t k = 0U; k < 15U; k++) {
        zero = zero && (i.s2_bn.reserved3[k] == 0U);
    }
    return( zero );
}

STATIC inline bool is_valid_tsm_immediates_load(NEURON_ISA_TPB_INST_UNION i) {
    return( has_valid_neuron_header(i)
            && has_valid_neuron_events(i)
            && has_tsm_immediates_load_opcode(i)
            && has_tsm_immediates_load_src_element_cnt(i)
            && has_s2_bn_zero_immediates(i)
            && tsm_immld_dtypes(i)
            && is_valid_dtype(i.s2_bn.dtype, ALLOW_FP32R_FALSE)
            && check_active_channels(i.s2_bn.num_active_channels)
            && tensor2d_valid(i.s2_bn.src_mem_pattern, i.s2_bn.dtype, WRITE_TENSOR_FALSE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && s2_bn_reserved_zero(i) );
}

//* s3s3d3_tt_assert.h

// A nibble of a DTYPE_PAIR read as a full element-type code.
STATIC inline NEURON_ISA_TPB_DTYPE get_dtype_from_pair(uint8_t nibble) {
    return( (NEURON_ISA_TPB_DTYPE)nibble );
}

STATIC inline bool is_signed_int(NEURON_ISA_TPB_DTYPE dtype) {
    return( (dtype == NEURON_ISA_TPB_DTYPE_INT8)
            || (dtype == NEURON_ISA_TPB_DTYPE_INT16)
            || (dtype == NEURON_ISA_TPB_DTYPE_INT32)
            || (dtype == NEURON_ISA_TPB_DTYPE_INT64) );
}

STATIC inline bool is_unsigned_int(NEURON_ISA_TPB_DTYPE dtype) {
    return( (dtype == NEURON_ISA_TPB_DTYPE_UINT8)
            || (dtype == NEURON_ISA_TPB_DTYPE_UINT16)
            || (dtype == NEURON_ISA_TPB_DTYPE_UINT32)
            || (dtype == NEURON_ISA_TPB_DTYPE_UINT64) );
}

STATIC inline bool is_signed_alu_op(NEURON_ISA_TPB_ALU_OP op) {
    return( (op == NEURON_ISA_TPB_ALU_OP_ADD_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_MULT_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_SUBTRACT_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_DIVIDE_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_MOD_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_MOD)
            || (op == NEURON_ISA_TPB_ALU_OP_IS_EQUAL_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_IS_NE_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_ABS_DIFF_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_ABS_MAX_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_ABS_MIN_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_MAX_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_MIN_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_IS_GT_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_IS_GE_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_IS_LE_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_IS_LT_INT) );
}

STATIC inline bool is_unsigned_alu_op(NEURON_ISA_TPB_ALU_OP op) {
    return( (op == NEURON_ISA_TPB_ALU_OP_ADD_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_MULT_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_SUBTRACT_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_DIVIDE_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_MOD_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_MOD)
            || (op == NEURON_ISA_TPB_ALU_OP_DIVIDE_UINT)
            || (op == NEURON_ISA_TPB_ALU_OP_MOD_UINT)
            || (op == NEURON_ISA_TPB_ALU_OP_MULT_UINT)
            || (op == NEURON_ISA_TPB_ALU_OP_IS_EQUAL_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_IS_NE_INT)
            || (op == NEURON_ISA_TPB_ALU_OP_MAX_UINT)
            || (op == NEURON_ISA_TPB_ALU_OP_MIN_UINT)
            || (op == NEURON_ISA_TPB_ALU_OP_IS_GT_UINT)
            || (op == NEURON_ISA_TPB_ALU_OP_IS_GE_UINT)
            || (op == NEURON_ISA_TPB_ALU_OP_IS_LE_UINT)
            || (op == NEURON_ISA_TPB_ALU_OP_IS_LT_UINT) );
}

STATIC inline bool addresses_in_same_sbuf_quadrant(NEURON_ISA_TPB_PARTITION_OFFSET a, NEURON_ISA_TPB_PARTITION_OFFSET b) {
    return( get_sbuf_quadrant_id(a) == get_sbuf_quadrant_id(b) );
}

// At most one source in PSUM; two SBUF sources share an SBUF quadrant.
STATIC inline bool tt_valid_partitions(NEURON_ISA_TPB_ADDR4 a0, NEURON_ISA_TPB_ADDR4 a1) {
    if (addr_from_register(a0) || addr_from_register(a1)) {
        return( true );
    }
    uint32_t x = addr_imm_mask(a0.addr_immediate);
    uint32_t y = addr_imm_mask(a1.addr_immediate);
    return( (addr_in_psum(x) && addr_in_sbuf(y))
            || (addr_in_sbuf(x) && addr_in_psum(y))
            || (addr_in_sbuf(x) && addr_in_sbuf(y) && addresses_in_same_sbuf_quadrant(x, y)) );
}

STATIC inline bool tensor_tensor_arith(NEURON_ISA_TPB_INST_UNION i) {
    return( i.s3s3d3_tt.header.opcode == NEURON_ISA_TPB_OPCODE_TENSOR_TENSOR_ARITH_OP );
}

STATIC inline bool tensor_tensor_bitvec(NEURON_ISA_TPB_INST_UNION i) {
    return( i.s3s3d3_tt.header.opcode == NEURON_ISA_TPB_OPCODE_TENSOR_TENSOR_BITVEC_OP );
}

STATIC inline bool has_tensor_tensor_opcode(NEURON_ISA_TPB_INST_UNION i) {
    return( tensor_tensor_arith(i)
            || tensor_tensor_bitvec(i) );
}

STATIC inline bool has_copy_cast_predicated_opcode(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s3s3d3_tt.header.opcode == NEURON_ISA_TPB_OPCODE_COPY_PREDICATED)
            || (i.s3s3d3_tt.header.opcode == NEURON_ISA_TPB_OPCODE_CAST_PREDICATED) );
}

STATIC inline bool has_batchnorm_backprop_opcode(NEURON_ISA_TPB_INST_UNION i) {
    return( i.s3s3d3_tt.header.opcode == NEURON_ISA_TPB_OPCODE_BATCH_NORM_BACK_PROP );
}

STATIC inline bool s3s3d3_tt_is_zero_op(NEURON_ISA_TPB_INST_UNION i) {
    return( i.s3s3d3_tt.op == NEURON_ISA_TPB_ALU_OP_BYPASS );
}

STATIC inline bool s3s3d3_tt_valid_op(NEURON_ISA_TPB_INST_UNION i) {
    return( (tensor_tensor_bitvec(i) && is_general_bitvec_op(i.s3s3d3_tt.op))
            || (tensor_tensor_arith(i)
                && (is_general_arith_op(i.s3s3d3_tt.op) || (i.s3s3d3_tt.op == NEURON_ISA_TPB_ALU_OP_POW) || is_valid_int_aluop(i.s3s3d3_tt.op))) );
}

STATIC inline bool s3s3d3_tt_dtype(NEURON_ISA_TPB_INST_UNION i) {
    return( !tensor_tensor_bitvec(i)
            || is_valid_int_dtype(i.s3s3d3_tt.out_dtype) );
}

STATIC inline bool s3s3d3_tt_valid_int_signness(NEURON_ISA_TPB_INST_UNION i) {
    return( !is_valid_int_aluop(i.s3s3d3_tt.op)
            || (is_signed_alu_op(i.s3s3d3_tt.op) && is_signed_int(i.s3s3d3_tt.out_dtype) && is_signed_int(get_dtype_from_pair((uint8_t)i.s3s3d3_tt.in0_in1_dtype.dtype_lo)) && is_signed_int(get_dtype_from_pair((uint8_t)i.s3s3d3_tt.in0_in1_dtype.dtype_hi)))
            || (is_unsigned_alu_op(i.s3s3d3_tt.op) && is_unsigned_int(i.s3s3d3_tt.out_dtype) && is_unsigned_int(get_dtype_from_pair((uint8_t)i.s3s3d3_tt.in0_in1_dtype.dtype_lo)) && is_unsigned_int(get_dtype_from_pair((uint8_t)i.s3s3d3_tt.in0_in1_dtype.dtype_hi))) );
}

STATIC inline bool s3s3d3_tt_src_dst_dtype(NEURON_ISA_TPB_INST_UNION i) {
    return( !tensor_tensor_bitvec(i)
            || ((get_dtype_from_pair((uint8_t)i.s3s3d3_tt.in0_in1_dtype.dtype_lo) == i.s3s3d3_tt.out_dtype) && (get_dtype_from_pair((uint8_t)i.s3s3d3_tt.in0_in1_dtype.dtype_hi) == i.s3s3d3_tt.out_dtype))
            || (is_shift_op(i.s3s3d3_tt.op) && is_valid_64b_int_dtype(get_dtype_from_pair((uint8_t)i.s3s3d3_tt.in0_in1_dtype.dtype_lo)) && (get_dtype_from_pair((uint8_t)i.s3s3d3_tt.in0_in1_dtype.dtype_hi) == NEURON_ISA_TPB_DTYPE_UINT32)) );
}

STATIC inline bool s3s3d3_copy_pred_src0_dtype(NEURON_ISA_TPB_INST_UNION i) {
    return( is_valid_int_dtype_datapath(get_dtype_from_pair((uint8_t)i.s3s3d3_tt.in0_in1_dtype.dtype_lo)) );
}

STATIC inline bool s3s3d3_copy_cast_pred_src1_dst_dtype(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s3s3d3_tt.header.opcode == NEURON_ISA_TPB_OPCODE_CAST_PREDICATED)
            || (get_dtype_from_pair((uint8_t)i.s3s3d3_tt.in0_in1_dtype.dtype_hi) == i.s3s3d3_tt.out_dtype) );
}

STATIC inline bool s3s3d3_tt_src_element_cnt_check(NEURON_ISA_TPB_INST_UNION i) {
    return( shape_from_register(i.s3s3d3_tt.src0_mem_pattern.start_addr)
            || shape_from_register(i.s3s3d3_tt.src1_mem_pattern.start_addr)
            || (t3d_element_count(i.s3s3d3_tt.src0_mem_pattern) == t3d_element_count(i.s3s3d3_tt.src1_mem_pattern)) );
}

STATIC inline bool s3s3d3_tt_dst_element_cnt_check(NEURON_ISA_TPB_INST_UNION i) {
    return( shape_from_register(i.s3s3d3_tt.src0_mem_pattern.start_addr)
            || shape_from_register(i.s3s3d3_tt.dst_mem_pattern.start_addr)
            || (t3d_element_count(i.s3s3d3_tt.src0_mem_pattern) == t3d_element_count(i.s3s3d3_tt.dst_mem_pattern)) );
}

STATIC inline bool is_valid_tensor_tensor(NEURON_ISA_TPB_INST_UNION i) {
    return( has_valid_neuron_header(i)
            && has_valid_neuron_events(i)
            && has_tensor_tensor_opcode(i)
            && is_valid_dtype_64(i.s3s3d3_tt.out_dtype, ALLOW_FP32R_TRUE, ALLOW_U64_TRUE, ALLOW_I64_TRUE)
            && is_valid_dtype_64(get_dtype_from_pair((uint8_t)i.s3s3d3_tt.in0_in1_dtype.dtype_lo), ALLOW_FP32R_FALSE, ALLOW_U64_TRUE, ALLOW_I64_TRUE)
            && is_valid_dtype_64(get_dtype_from_pair((uint8_t)i.s3s3d3_tt.in0_in1_dtype.dtype_hi), ALLOW_FP32R_FALSE, ALLOW_U64_TRUE, ALLOW_I64_TRUE)
            && is_valid_aluop(i.s3s3d3_tt.op)
            && s3s3d3_tt_valid_op(i)
            && s3s3d3_tt_dtype(i)
            && s3s3d3_tt_valid_int_signness(i)
            && s3s3d3_tt_src_dst_dtype(i)
            && check_active_channels(i.s3s3d3_tt.num_active_channels)
            && start_addr_active_channels(i.s3s3d3_tt.src0_mem_pattern.start_addr, i.s3s3d3_tt.num_active_channels)
            && start_addr_active_channels(i.s3s3d3_tt.src1_mem_pattern.start_addr, i.s3s3d3_tt.num_active_channels)
            && start_addr_active_channels(i.s3s3d3_tt.dst_mem_pattern.start_addr, i.s3s3d3_tt.num_active_channels)
            && tensor3d_valid(i.s3s3d3_tt.src0_mem_pattern, get_dtype_from_pair((uint8_t)i.s3s3d3_tt.in0_in1_dtype.dtype_lo), WRITE_TENSOR_FALSE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && tensor3d_valid(i.s3s3d3_tt.src1_mem_pattern, get_dtype_from_pair((uint8_t)i.s3s3d3_tt.in0_in1_dtype.dtype_hi), WRITE_TENSOR_FALSE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && tensor3d_valid(i.s3s3d3_tt.dst_mem_pattern, i.s3s3d3_tt.out_dtype, WRITE_TENSOR_TRUE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && s3s3d3_tt_src_element_cnt_check(i)
            && s3s3d3_tt_dst_element_cnt_check(i)
            && tt_valid_partitions(i.s3s3d3_tt.src0_mem_pattern.start_addr, i.s3s3d3_tt.src1_mem_pattern.start_addr) );
}

STATIC inline bool is_valid_copy_cast_predicated(NEURON_ISA_TPB_INST_UNION i) {
    return( has_valid_neuron_header(i)
            && has_valid_neuron_events(i)
            && has_copy_cast_predicated_opcode(i)
            && is_valid_dtype(i.s3s3d3_tt.out_dtype, ALLOW_FP32R_FALSE)
            && is_valid_dtype(get_dtype_from_pair((uint8_t)i.s3s3d3_tt.in0_in1_dtype.dtype_lo), ALLOW_FP32R_FALSE)
            && is_valid_dtype(get_dtype_from_pair((uint8_t)i.s3s3d3_tt.in0_in1_dtype.dtype_hi), ALLOW_FP32R_FALSE)
            && s3s3d3_copy_pred_src0_dtype(i)
            && s3s3d3_copy_cast_pred_src1_dst_dtype(i)
            && s3s3d3_tt_is_zero_op(i)
            && check_active_channels(i.s3s3d3_tt.num_active_channels)
            && start_addr_active_channels(i.s3s3d3_tt.src0_mem_pattern.start_addr, i.s3s3d3_tt.num_active_channels)
            && start_addr_active_channels(i.s3s3d3_tt.src1_mem_pattern.start_addr, i.s3s3d3_tt.num_active_channels)
            && start_addr_active_channels(i.s3s3d3_tt.dst_mem_pattern.start_addr, i.s3s3d3_tt.num_active_channels)
            && tensor3d_valid(i.s3s3d3_tt.src0_mem_pattern, get_dtype_from_pair((uint8_t)i.s3s3d3_tt.in0_in1_dtype.dtype_lo), WRITE_TENSOR_FALSE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && tensor3d_valid(i.s3s3d3_tt.src1_mem_pattern, get_dtype_from_pair((uint8_t)i.s3s3d3_tt.in0_in1_dtype.dtype_hi), WRITE_TENSOR_FALSE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && tensor3d_valid(i.s3s3d3_tt.dst_mem_pattern, i.s3s3d3_tt.out_dtype, WRITE_TENSOR_TRUE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && s3s3d3_tt_src_element_cnt_check(i)
            && s3s3d3_tt_dst_element_cnt_check(i)
            && tt_valid_partitions(i.s3s3d3_tt.src0_mem_pattern.start_addr, i.s3s3d3_tt.src1_mem_pattern.start_addr) );
}

STATIC inline bool is_valid_batchnorm_backprop(NEURON_ISA_TPB_INST_UNION i) {
    return( has_valid_neuron_header(i)
            && has_valid_neuron_events(i)
            && has_batchnorm_backprop_opcode(i)
            && is_valid_dtype(i.s3s3d3_tt.out_dtype, ALLOW_FP32R_TRUE)
            && is_valid_dtype(get_dtype_from_pair((uint8_t)i.s3s3d3_tt.in0_in1_dtype.dtype_lo), ALLOW_FP32R_FALSE)
            && is_valid_dtype(get_dtype_from_pair((uint8_t)i.s3s3d3_tt.in0_in1_dtype.dtype_hi), ALLOW_FP32R_FALSE)
            && s3s3d3_tt_is_zero_op(i)
            && check_active_channels(i.s3s3d3_tt.num_active_channels)
            && start_addr_active_channels(i.s3s3d3_tt.src0_mem_pattern.start_addr, i.s3s3d3_tt.num_active_channels)
            && start_addr_active_channels(i.s3s3d3_tt.src1_mem_pattern.start_addr, i.s3s3d3_tt.num_active_channels)
            && start_addr_active_channels(i.s3s3d3_tt.dst_mem_pattern.start_addr, i.s3s3d3_tt.num_active_channels)
            && tensor3d_valid(i.s3s3d3_tt.src0_mem_pattern, get_dtype_from_pair((uint8_t)i.s3s3d3_tt.in0_in1_dtype.dtype_lo), WRITE_TENSOR_FALSE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && tensor3d_valid(i.s3s3d3_tt.src1_mem_pattern, get_dtype_from_pair((uint8_t)i.s3s3d3_tt.in0_in1_dtype.dtype_hi), WRITE_TENSOR_FALSE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && tensor3d_valid(i.s3s3d3_tt.dst_mem_pattern, i.s3s3d3_tt.out_dtype, WRITE_TENSOR_TRUE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && s3s3d3_tt_src_element_cnt_check(i)
            && s3s3d3_tt_dst_element_cnt_check(i)
            && tt_valid_partitions(i.s3s3d3_tt.src0_mem_pattern.start_addr, i.s3s3d3_tt.src1_mem_pattern.start_addr) );
}

STATIC inline bool is_valid_s3s3d3_tt(NEURON_ISA_TPB_INST_UNION i) {
    return( is_valid_tensor_tensor(i)
            || is_valid_batchnorm_backprop(i)
            || is_valid_copy_cast_predicated(i) );
}

//* s2s2d2_stt_assert.h

STATIC inline bool has_scalar_tensor_tensor_opcode(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s2s2d2_stt.header.opcode == NEURON_ISA_TPB_OPCODE_SCALAR_TENSOR_TENSOR_ARITH)
            || (i.s2s2d2_stt.header.opcode == NEURON_ISA_TPB_OPCODE_SCALAR_TENSOR_TENSOR_BITVEC) );
}

STATIC inline bool has_s2s2d2_stt_bitvec_op(NEURON_ISA_TPB_INST_UNION i) {
    return( i.s2s2d2_stt.header.opcode == NEURON_ISA_TPB_OPCODE_SCALAR_TENSOR_TENSOR_BITVEC );
}

STATIC inline bool has_tensor_tensor_scan_opcode(NEURON_ISA_TPB_INST_UNION i) {
    return( i.s2s2d2_stt.header.opcode == NEURON_ISA_TPB_OPCODE_TENSOR_TENSOR_SCAN_ARITH );
}

STATIC inline bool is_const_ptr_dve(NEURON_ISA_TPB_IMM_SRC src) {
    return( (src == NEURON_ISA_TPB_IMM_SRC_POINTER_IMMEDIATE)
            || (src == NEURON_ISA_TPB_IMM_SRC_REG_PTR_IMMEDIATE) );
}

STATIC inline bool has_valid_scalar_tensor_tensor_op(NEURON_ISA_TPB_INST_UNION i) {
    return( (!has_s2s2d2_stt_bitvec_op(i) && is_general_arith_op(i.s2s2d2_stt.op0) && is_general_arith_op(i.s2s2d2_stt.op1))
            || (has_s2s2d2_stt_bitvec_op(i) && is_general_bitvec_op(i.s2s2d2_stt.op0) && is_general_bitvec_op(i.s2s2d2_stt.op1)) );
}

STATIC inline bool has_valid_tensor_tensor_scan_op(NEURON_ISA_TPB_INST_UNION i) {
    return( is_general_arith_op(i.s2s2d2_stt.op0)
            && is_general_arith_op(i.s2s2d2_stt.op1) );
}

STATIC inline bool has_valid_s2s2d2_stt_immediate(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s2s2d2_stt.imm0_src == NEURON_ISA_TPB_IMM_SRC_INSTRUCTION_IMMEDIATE)
            || ((i.s2s2d2_stt.imm0_src == NEURON_ISA_TPB_IMM_SRC_POINTER_IMMEDIATE)
                && tpb_addr_active_channels(i.s2s2d2_stt.imm0.imm_ptr, i.s2s2d2_stt.num_active_channels)
                && addr_aligned_dtype(i.s2s2d2_stt.imm0.imm_ptr, i.s2s2d2_stt.imm0_dtype))
            || ((i.s2s2d2_stt.imm0_src == NEURON_ISA_TPB_IMM_SRC_REG_PTR_IMMEDIATE) && is_valid_imm_reg(i.s2s2d2_stt.imm0.imm_reg)) );
}

STATIC inline bool s2s2d2_stt_imm0_dtype(NEURON_ISA_TPB_INST_UNION i) {
    return( has_s2s2d2_stt_bitvec_op(i)
            || is_const_ptr_dve(i.s2s2d2_stt.imm0_src)
            || (i.s2s2d2_stt.imm0_dtype == NEURON_ISA_TPB_DTYPE_FP32) );
}

STATIC inline bool has_valid_scalar_tensor_tensor_dtypes(NEURON_ISA_TPB_INST_UNION i) {
    return( !has_s2s2d2_stt_bitvec_op(i)
            || (is_valid_int_dtype_datapath(get_dtype_from_pair((uint8_t)i.s2s2d2_stt.in0_in1_dtype.dtype_lo))
                && is_valid_int_dtype_datapath(get_dtype_from_pair((uint8_t)i.s2s2d2_stt.in0_in1_dtype.dtype_hi))
                && is_valid_int_dtype_datapath(i.s2s2d2_stt.imm0_dtype)
                && is_valid_int_dtype_datapath(i.s2s2d2_stt.out_dtype)) );
}

STATIC inline bool s2s2d2_stt_src_dst_dtype(NEURON_ISA_TPB_INST_UNION i) {
    return( !has_s2s2d2_stt_bitvec_op(i)
            || ((get_dtype_from_pair((uint8_t)i.s2s2d2_stt.in0_in1_dtype.dtype_lo) == i.s2s2d2_stt.out_dtype) && (get_dtype_from_pair((uint8_t)i.s2s2d2_stt.in0_in1_dtype.dtype_hi) == i.s2s2d2_stt.out_dtype) && (i.s2s2d2_stt.imm0_dtype == i.s2s2d2_stt.out_dtype)) );
}

STATIC inline bool has_valid_s2s2d2_stt_accum_cmd(NEURON_ISA_TPB_INST_UNION i) {
    return( (has_s2s2d2_stt_bitvec_op(i) && (i.s2s2d2_stt.accumulator_cmd == NEURON_ISA_TPB_ACCUM_CMD_IDLE))
            || (!has_s2s2d2_stt_bitvec_op(i)
                && ((i.s2s2d2_stt.accumulator_cmd == NEURON_ISA_TPB_ACCUM_CMD_IDLE) || (i.s2s2d2_stt.accumulator_cmd == NEURON_ISA_TPB_ACCUM_CMD_ACCUMULATE) || (i.s2s2d2_stt.accumulator_cmd == NEURON_ISA_TPB_ACCUM_CMD_ZERO_ACCUMULATE))) );
}

STATIC inline bool has_zero_accum_cmd(NEURON_ISA_TPB_INST_UNION i) {
    return( i.s2s2d2_stt.accumulator_cmd == NEURON_ISA_TPB_ACCUM_CMD_IDLE );
}

STATIC inline bool has_s2s2d2_stt_reserved_zero(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s2s2d2_stt.reserved[0] == 0U)
            && (i.s2s2d2_stt.reserved[1] == 0U)
            && (i.s2s2d2_stt.reserved[2] == 0U) );
}

STATIC inline bool s2s2d2_stt_src_element_cnt_check(NEURON_ISA_TPB_INST_UNION i) {
    return( shape_from_register(i.s2s2d2_stt.src0_mem_pattern.start_addr)
            || shape_from_register(i.s2s2d2_stt.src1_mem_pattern.start_addr)
            || (t2d_element_count(i.s2s2d2_stt.src0_mem_pattern) == t2d_element_count(i.s2s2d2_stt.src1_mem_pattern)) );
}

STATIC inline bool s2s2d2_stt_dst_element_cnt_check(NEURON_ISA_TPB_INST_UNION i) {
    return( shape_from_register(i.s2s2d2_stt.src0_mem_pattern.start_addr)
            || shape_from_register(i.s2s2d2_stt.dst_mem_pattern.start_addr)
            || (t2d_element_count(i.s2s2d2_stt.src0_mem_pattern) == t2d_element_count(i.s2s2d2_stt.dst_mem_pattern)) );
}

// Erratum gate: an SBUF destination stays in the SBUF quadrant of an SBUF src0.
STATIC inline bool s2s2d2_stt_quadrant_check(NEURON_ISA_TPB_INST_UNION i) {
    if (addr_from_register(i.s2s2d2_stt.src0_mem_pattern.start_addr) || addr_from_register(i.s2s2d2_stt.dst_mem_pattern.start_addr)) {
        return( true );
    }
    uint32_t s = addr_imm_mask(i.s2s2d2_stt.src0_mem_pattern.start_addr.addr_immediate);
    uint32_t d = addr_imm_mask(i.s2s2d2_stt.dst_mem_pattern.start_addr.addr_immediate);
    return( !addr_in_sbuf(s)
            || !addr_in_sbuf(d)
            || addresses_in_same_sbuf_quadrant(s, d) );
}

STATIC inline bool is_valid_scalar_tensor_tensor(NEURON_ISA_TPB_INST_UNION i) {
    return( has_valid_neuron_header(i)
            && has_valid_neuron_events(i)
            && has_scalar_tensor_tensor_opcode(i)
            && is_valid_dtype(get_dtype_from_pair((uint8_t)i.s2s2d2_stt.in0_in1_dtype.dtype_lo), ALLOW_FP32R_FALSE)
            && is_valid_dtype(get_dtype_from_pair((uint8_t)i.s2s2d2_stt.in0_in1_dtype.dtype_hi), ALLOW_FP32R_FALSE)
            && is_valid_dtype(i.s2s2d2_stt.imm0_dtype, ALLOW_FP32R_FALSE)
            && is_valid_dtype(i.s2s2d2_stt.out_dtype, ALLOW_FP32R_TRUE)
            && has_valid_scalar_tensor_tensor_dtypes(i)
            && s2s2d2_stt_src_dst_dtype(i)
            && s2s2d2_stt_imm0_dtype(i)
            && is_valid_aluop(i.s2s2d2_stt.op0)
            && is_valid_aluop(i.s2s2d2_stt.op1)
            && has_valid_scalar_tensor_tensor_op(i)
            && has_valid_s2s2d2_stt_immediate(i)
            && has_valid_s2s2d2_stt_accum_cmd(i)
            && start_addr_active_channels(i.s2s2d2_stt.src0_mem_pattern.start_addr, i.s2s2d2_stt.num_active_channels)
            && start_addr_active_channels(i.s2s2d2_stt.src1_mem_pattern.start_addr, i.s2s2d2_stt.num_active_channels)
            && start_addr_active_channels(i.s2s2d2_stt.dst_mem_pattern.start_addr, i.s2s2d2_stt.num_active_channels)
            && tensor2d_valid(i.s2s2d2_stt.src0_mem_pattern, get_dtype_from_pair((uint8_t)i.s2s2d2_stt.in0_in1_dtype.dtype_lo), WRITE_TENSOR_FALSE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && tensor2d_valid(i.s2s2d2_stt.src1_mem_pattern, get_dtype_from_pair((uint8_t)i.s2s2d2_stt.in0_in1_dtype.dtype_hi), WRITE_TENSOR_FALSE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && tensor2d_valid(i.s2s2d2_stt.dst_mem_pattern, i.s2s2d2_stt.out_dtype, WRITE_TENSOR_TRUE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && check_active_channels(i.s2s2d2_stt.num_active_channels)
            && s2s2d2_stt_src_element_cnt_check(i)
            && s2s2d2_stt_dst_element_cnt_check(i)
            && tt_valid_partitions(i.s2s2d2_stt.src0_mem_pattern.start_addr, i.s2s2d2_stt.src1_mem_pattern.start_addr)
            && s2s2d2_stt_quadrant_check(i)
            && is_valid_enum_tens_scalar_rev_ops((uint8_t)i.s2s2d2_stt.reverse_operands)
            && has_s2s2d2_stt_reserved_zero(i) );
}

STATIC inline bool is_valid_tensor_tensor_scan(NEURON_ISA_TPB_INST_UNION i) {
    return( has_valid_neuron_header(i)
            && has_valid_neuron_events(i)
            && has_tensor_tensor_scan_opcode(i)
            && is_valid_dtype(get_dtype_from_pair((uint8_t)i.s2s2d2_stt.in0_in1_dtype.dtype_lo), ALLOW_FP32R_FALSE)
            && is_valid_dtype(get_dtype_from_pair((uint8_t)i.s2s2d2_stt.in0_in1_dtype.dtype_hi), ALLOW_FP32R_FALSE)
            && is_valid_dtype(i.s2s2d2_stt.imm0_dtype, ALLOW_FP32R_FALSE)
            && is_valid_dtype(i.s2s2d2_stt.out_dtype, ALLOW_FP32R_TRUE)
            && s2s2d2_stt_imm0_dtype(i)
            && is_valid_aluop(i.s2s2d2_stt.op0)
            && is_valid_aluop(i.s2s2d2_stt.op1)
            && has_valid_tensor_tensor_scan_op(i)
            && has_valid_s2s2d2_stt_immediate(i)
            && start_addr_active_channels(i.s2s2d2_stt.src0_mem_pattern.start_addr, i.s2s2d2_stt.num_active_channels)
            && start_addr_active_channels(i.s2s2d2_stt.src1_mem_pattern.start_addr, i.s2s2d2_stt.num_active_channels)
            && start_addr_active_channels(i.s2s2d2_stt.dst_mem_pattern.start_addr, i.s2s2d2_stt.num_active_channels)
            && tensor2d_valid(i.s2s2d2_stt.src0_mem_pattern, get_dtype_from_pair((uint8_t)i.s2s2d2_stt.in0_in1_dtype.dtype_lo), WRITE_TENSOR_FALSE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && tensor2d_valid(i.s2s2d2_stt.src1_mem_pattern, get_dtype_from_pair((uint8_t)i.s2s2d2_stt.in0_in1_dtype.dtype_hi), WRITE_TENSOR_FALSE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && tensor2d_valid(i.s2s2d2_stt.dst_mem_pattern, i.s2s2d2_stt.out_dtype, WRITE_TENSOR_TRUE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && check_active_channels(i.s2s2d2_stt.num_active_channels)
            && s2s2d2_stt_src_element_cnt_check(i)
            && s2s2d2_stt_dst_element_cnt_check(i)
            && tt_valid_partitions(i.s2s2d2_stt.src0_mem_pattern.start_addr, i.s2s2d2_stt.src1_mem_pattern.start_addr)
            && has_zero_accum_cmd(i)
            && is_valid_enum_tens_scalar_rev_ops((uint8_t)i.s2s2d2_stt.reverse_operands)
            && has_s2s2d2_stt_reserved_zero(i) );
}

// SelectReduce (0xea, the device's CopyPredicatedReduce): src0 the predicate, src1 the data.

STATIC inline bool has_select_reduce_opcode(NEURON_ISA_TPB_INST_UNION i) {
    return( i.s2s2d2_stt.header.opcode == NEURON_ISA_TPB_OPCODE_SELECT_REDUCE );
}

STATIC inline bool has_valid_select_reduce_dtypes(NEURON_ISA_TPB_INST_UNION i) {
    return( is_valid_int_dtype_datapath(get_dtype_from_pair((uint8_t)i.s2s2d2_stt.in0_in1_dtype.dtype_lo))
            && !is_valid_32b_int_dtype(get_dtype_from_pair((uint8_t)i.s2s2d2_stt.in0_in1_dtype.dtype_hi)) );
}

STATIC inline bool has_valid_select_reduce_op(NEURON_ISA_TPB_INST_UNION i) {
    return( is_general_arith_op(i.s2s2d2_stt.op0)
            && is_general_arith_op(i.s2s2d2_stt.op1)
            && (i.s2s2d2_stt.op0 == NEURON_ISA_TPB_ALU_OP_BYPASS)
            && (i.s2s2d2_stt.op1 == NEURON_ISA_TPB_ALU_OP_MAX) );
}

STATIC inline bool has_valid_s2s2d2_cpr_accum_cmd(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s2s2d2_stt.accumulator_cmd == NEURON_ISA_TPB_ACCUM_CMD_IDLE)
            || (i.s2s2d2_stt.accumulator_cmd == NEURON_ISA_TPB_ACCUM_CMD_ZERO_ACCUMULATE)
            || (i.s2s2d2_stt.accumulator_cmd == NEURON_ISA_TPB_ACCUM_CMD_ACCUMULATE) );
}

STATIC inline bool has_valid_select_reduce_rev_ops(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s2s2d2_stt.reverse_operands == NEURON_ISA_TPB_TENS_SCALAR_REV_OPS_NONE)
            || (i.s2s2d2_stt.reverse_operands == NEURON_ISA_TPB_TENS_SCALAR_REV_OPS_FIRST) );
}

STATIC inline bool is_valid_select_reduce(NEURON_ISA_TPB_INST_UNION i) {
    return( has_valid_neuron_header(i)
            && has_valid_neuron_events(i)
            && has_select_reduce_opcode(i)
            && is_valid_dtype(get_dtype_from_pair((uint8_t)i.s2s2d2_stt.in0_in1_dtype.dtype_lo), ALLOW_FP32R_FALSE)
            && is_valid_dtype(get_dtype_from_pair((uint8_t)i.s2s2d2_stt.in0_in1_dtype.dtype_hi), ALLOW_FP32R_FALSE)
            && is_valid_dtype(i.s2s2d2_stt.imm0_dtype, ALLOW_FP32R_FALSE)
            && is_valid_dtype(i.s2s2d2_stt.out_dtype, ALLOW_FP32R_TRUE)
            && has_valid_select_reduce_dtypes(i)
            && s2s2d2_stt_imm0_dtype(i)
            && is_valid_aluop(i.s2s2d2_stt.op0)
            && is_valid_aluop(i.s2s2d2_stt.op1)
            && has_valid_select_reduce_op(i)
            && has_valid_s2s2d2_stt_immediate(i)
            && start_addr_active_channels(i.s2s2d2_stt.src0_mem_pattern.start_addr, i.s2s2d2_stt.num_active_channels)
            && start_addr_active_channels(i.s2s2d2_stt.src1_mem_pattern.start_addr, i.s2s2d2_stt.num_active_channels)
            && start_addr_active_channels(i.s2s2d2_stt.dst_mem_pattern.start_addr, i.s2s2d2_stt.num_active_channels)
            && tensor2d_valid(i.s2s2d2_stt.src0_mem_pattern, get_dtype_from_pair((uint8_t)i.s2s2d2_stt.in0_in1_dtype.dtype_lo), WRITE_TENSOR_FALSE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && tensor2d_valid(i.s2s2d2_stt.src1_mem_pattern, get_dtype_from_pair((uint8_t)i.s2s2d2_stt.in0_in1_dtype.dtype_hi), WRITE_TENSOR_FALSE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && tensor2d_valid(i.s2s2d2_stt.dst_mem_pattern, i.s2s2d2_stt.out_dtype, WRITE_TENSOR_TRUE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && check_active_channels(i.s2s2d2_stt.num_active_channels)
            && s2s2d2_stt_src_element_cnt_check(i)
            && s2s2d2_stt_dst_element_cnt_check(i)
            && tt_valid_partitions(i.s2s2d2_stt.src0_mem_pattern.start_addr, i.s2s2d2_stt.src1_mem_pattern.start_addr)
            && has_valid_s2s2d2_cpr_accum_cmd(i)
            && is_valid_enum_tens_scalar_rev_ops((uint8_t)i.s2s2d2_stt.reverse_operands)
            && has_s2s2d2_stt_reserved_zero(i)
            && has_valid_select_reduce_rev_ops(i) );
}

//* s4d4_tr_assert.h

STATIC inline bool check_t4d_active_channels(NEURON_ISA_TPB_TENSOR4D t, uint8_t num_active_channels) {
    return( start_addr_active_channels(t.start_addr, num_active_channels) );
}

// Elements one output element folds: the innermost dims op_dim names (X = num_elem[0] ...).
STATIC inline uint32_t t4d_reduced_count(NEURON_ISA_TPB_TENSOR4D t, NEURON_ISA_TPB_TENSOR_SUBDIM dim) {
    switch (dim) {
    case NEURON_ISA_TPB_TENSOR_SUBDIM_X:
        return( (uint32_t)t.num_elem[0] );
    case NEURON_ISA_TPB_TENSOR_SUBDIM_XY:
        return( (uint32_t)t.num_elem[0] * (uint32_t)t.num_elem[1] );
    case NEURON_ISA_TPB_TENSOR_SUBDIM_XYZ:
        return( (uint32_t)t.num_elem[0] * (uint32_t)t.num_elem[1] * (uint32_t)t.num_elem[2] );
    case NEURON_ISA_TPB_TENSOR_SUBDIM_XYZW:
        return( t4d_element_count(t) );
    default:
        return( 0U );
    }
}

STATIC inline bool mem4d_valid(NEURON_ISA_TPB_MEM_PATTERN4D m, NEURON_ISA_TPB_DTYPE dtype, NEURON_ISA_TPB_WRITE_TENSOR write, NEURON_ISA_TPB_ALLOWED_IN_PSUM allow_psum, NEURON_ISA_TPB_ALLOWED_IN_SBUF allow_sbuf) {
    if (indirect_pattern(m.t.start_addr)) {
        bool index_ok = (m.i.index_addr.addr_reg.marker == NEURON_ISA_TPB_ADDR4_MARKER_INDIRECT_REG)
                        ? ((uint32_t)m.i.index_addr.addr_reg.regnum < NEURON_ISA_TPB_NUM_ADDR_REGISTERS)
                        : (addr_in_sbuf(addr_imm_mask(m.i.index_addr.addr_immediate))
                           && four_byte_aligned(m.i.index_addr.addr_immediate));
        return( index_ok
                && tensor_start_addr_valid(m.i.data_addr, dtype, write, allow_psum, allow_sbuf) );
    }
    return( tensor4d_valid(m.t, dtype, write, allow_psum, allow_sbuf) );
}

STATIC inline bool check_m4d_active_channels(NEURON_ISA_TPB_MEM_PATTERN4D m, uint8_t num_active_channels) {
    return( indirect_pattern(m.t.start_addr)
            ? start_addr_active_channels(m.i.data_addr, num_active_channels)
            : check_t4d_active_channels(m.t, num_active_channels) );
}

STATIC inline bool indirect_quadrant_check_src4d(NEURON_ISA_TPB_MEM_PATTERN4D src) {
    if (!indirect_pattern(src.t.start_addr)) {
        return( true );
    }
    if ((src.i.index_addr.addr_reg.marker == NEURON_ISA_TPB_ADDR4_MARKER_INDIRECT_REG) || addr_from_register(src.i.data_addr)) {
        return( true );
    }
    return( tpb_addr_quadrant(src.i.index_addr.addr_immediate) == tpb_addr_quadrant(src.i.data_addr.addr_immediate) );
}

STATIC inline bool indirect_quadrant_check_src4d_dst4d(NEURON_ISA_TPB_MEM_PATTERN4D src, NEURON_ISA_TPB_MEM_PATTERN4D dst) {
    return( !indirect_pattern(src.t.start_addr)
            || !indirect_pattern(dst.t.start_addr)
            || (src.i.index_addr.addr_reg.marker == NEURON_ISA_TPB_ADDR4_MARKER_INDIRECT_REG)
            || (dst.i.index_addr.addr_reg.marker == NEURON_ISA_TPB_ADDR4_MARKER_INDIRECT_REG)
            || (tpb_addr_quadrant(src.i.index_addr.addr_immediate) == tpb_addr_quadrant(dst.i.index_addr.addr_immediate)) );
}

STATIC inline bool tensor_reduce_arith(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s4d4_tr.header.opcode == NEURON_ISA_TPB_OPCODE_TENSOR_REDUCE_ARITH_OP)
            || (i.s4d4_tr.header.opcode == NEURON_ISA_TPB_OPCODE_TRANSPOSE_TENSOR_REDUCE_ARITH_OP) );
}

STATIC inline bool tensor_reduce_bitvec(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s4d4_tr.header.opcode == NEURON_ISA_TPB_OPCODE_TENSOR_REDUCE_BITVEC_OP)
            || (i.s4d4_tr.header.opcode == NEURON_ISA_TPB_OPCODE_TRANSPOSE_TENSOR_REDUCE_BITVEC_OP) );
}

STATIC inline bool tensor_reduce_transpose(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s4d4_tr.header.opcode == NEURON_ISA_TPB_OPCODE_TRANSPOSE_TENSOR_REDUCE_ARITH_OP)
            || (i.s4d4_tr.header.opcode == NEURON_ISA_TPB_OPCODE_TRANSPOSE_TENSOR_REDUCE_BITVEC_OP) );
}

STATIC inline bool has_tensor_reduce_opcode(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s4d4_tr.header.opcode == NEURON_ISA_TPB_OPCODE_TENSOR_REDUCE_ARITH_OP)
            || (i.s4d4_tr.header.opcode == NEURON_ISA_TPB_OPCODE_TRANSPOSE_TENSOR_REDUCE_ARITH_OP)
            || tensor_reduce_bitvec(i) );
}

STATIC inline bool s4d4_tr_reserved_zero(NEURON_ISA_TPB_INST_UNION i) {
    for (uint32_t k = 0U; k < 5U; k++) {
        if (i.s4d4_tr.reserved1[k] != 0U) {
            return( false );
        }
    }
    return( true );
}

STATIC inline bool mask_enable_zero(NEURON_ISA_TPB_INST_UNION i) {
    return( i.s4d4_tr.mask_enable == 0U );
}

STATIC inline bool is_valid_tensor_reduce_common(NEURON_ISA_TPB_INST_UNION i) {
    return( s4d4_tr_reserved_zero(i)
            && mask_enable_zero(i)
            && has_valid_active_channel_range(i.s4d4_tr.num_active_channels, NEURON_ISA_TPB_POOLING_NUM_CHANNELS)
            && is_valid_dtype_64(i.s4d4_tr.in_dtype, ALLOW_FP32R_FALSE, ALLOW_U64_TRUE, ALLOW_I64_TRUE)
            && is_valid_dtype_64(i.s4d4_tr.out_dtype, ALLOW_FP32R_TRUE, ALLOW_U64_TRUE, ALLOW_I64_TRUE) );
}

STATIC inline bool is_valid_tensor_reduce_int_op(NEURON_ISA_TPB_ALU_OP op) {
    return( is_valid_int_aluop(op) );
}

STATIC inline bool tensor_reduce_valid_alu_op(NEURON_ISA_TPB_INST_UNION i) {
    return( (tensor_reduce_arith(i) && (is_general_arith_op(i.s4d4_tr.op) || is_valid_tensor_reduce_int_op(i.s4d4_tr.op)))
            || (tensor_reduce_bitvec(i) && is_general_bitvec_op(i.s4d4_tr.op)) );
}

STATIC inline bool tensor_reduce_valid_dtype(NEURON_ISA_TPB_INST_UNION i) {
    return( !tensor_reduce_bitvec(i)
            || ((i.s4d4_tr.in_dtype == i.s4d4_tr.out_dtype)
                && ((i.s4d4_tr.in_dtype == NEURON_ISA_TPB_DTYPE_UINT8) || (i.s4d4_tr.in_dtype == NEURON_ISA_TPB_DTYPE_UINT16) || (i.s4d4_tr.in_dtype == NEURON_ISA_TPB_DTYPE_UINT32) || (i.s4d4_tr.in_dtype == NEURON_ISA_TPB_DTYPE_INT32))
                && ((i.s4d4_tr.op != NEURON_ISA_TPB_ALU_OP_LOGICAL_SHIFT_RIGHT) || (i.s4d4_tr.in_dtype == NEURON_ISA_TPB_DTYPE_INT32))) );
}

STATIC inline bool has_valid_reduce_negated(NEURON_ISA_TPB_INST_UNION i) {
    return( (tensor_reduce_arith(i) && (i.s4d4_tr.negated <= 1U))
            || (i.s4d4_tr.negated == 0U) );
}

STATIC inline bool has_valid_tensor_reduce_op_dim(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s4d4_tr.op_dim == NEURON_ISA_TPB_TENSOR_SUBDIM_X)
            || (i.s4d4_tr.op_dim == NEURON_ISA_TPB_TENSOR_SUBDIM_XY)
            || (i.s4d4_tr.op_dim == NEURON_ISA_TPB_TENSOR_SUBDIM_XYZ)
            || (i.s4d4_tr.op_dim == NEURON_ISA_TPB_TENSOR_SUBDIM_XYZW) );
}

// Each output element folds the op_dim inner dims of the source.
STATIC inline bool tensor_reduce_dst_element_cnt_check(NEURON_ISA_TPB_INST_UNION i) {
    return( indirect_pattern(i.s4d4_tr.src_mem_pattern.t.start_addr)
            || indirect_pattern(i.s4d4_tr.dst_mem_pattern.t.start_addr)
            || shape_from_register(i.s4d4_tr.src_mem_pattern.t.start_addr)
            || shape_from_register(i.s4d4_tr.dst_mem_pattern.t.start_addr)
            || (t4d_element_count(i.s4d4_tr.dst_mem_pattern.t) * t4d_reduced_count(i.s4d4_tr.src_mem_pattern.t, i.s4d4_tr.op_dim) == t4d_element_count(i.s4d4_tr.src_mem_pattern.t)) );
}

// The transposing forms work on 32 x 32 blocks.
STATIC inline bool tensor_reduce_transpose_check(NEURON_ISA_TPB_INST_UNION i) {
    return( !tensor_reduce_transpose(i)
            || ((!indirect_pattern(i.s4d4_tr.src_mem_pattern.t.start_addr) && has_transpose_src_element_count_t4d(i.s4d4_tr.src_mem_pattern.t)) && has_multiple_32_channels(i.s4d4_tr.num_active_channels)) );
}

STATIC inline bool is_valid_tensor_reduce(NEURON_ISA_TPB_INST_UNION i) {
    return( has_valid_neuron_header(i)
            && has_valid_neuron_events(i)
            && has_tensor_reduce_opcode(i)
            && is_valid_tensor_reduce_common(i)
            && is_valid_aluop(i.s4d4_tr.op)
            && tensor_reduce_valid_alu_op(i)
            && tensor_reduce_valid_dtype(i)
            && has_valid_reduce_negated(i)
            && has_valid_tensor_reduce_op_dim(i)
            && check_m4d_active_channels(i.s4d4_tr.src_mem_pattern, i.s4d4_tr.num_active_channels)
            && check_m4d_active_channels(i.s4d4_tr.dst_mem_pattern, i.s4d4_tr.num_active_channels)
            && mem4d_valid(i.s4d4_tr.src_mem_pattern, i.s4d4_tr.in_dtype, WRITE_TENSOR_FALSE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && mem4d_valid(i.s4d4_tr.dst_mem_pattern, i.s4d4_tr.out_dtype, WRITE_TENSOR_TRUE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && indirect_quadrant_check_src4d(i.s4d4_tr.src_mem_pattern)
            && indirect_quadrant_check_src4d_dst4d(i.s4d4_tr.src_mem_pattern, i.s4d4_tr.dst_mem_pattern)
            && tensor_reduce_dst_element_cnt_check(i)
            && tensor_reduce_transpose_check(i) );
}

// The other users of S4D4_TR: TensorCumulative (0x4E/0x5E), Copy (0x46), Cast (0x47),
// Reciprocal (0x48). StreamShuffle/StreamTranspose have no validator here.
STATIC inline bool is_zero_subdim(NEURON_ISA_TPB_TENSOR_SUBDIM subdim) {
    return( (subdim == NEURON_ISA_TPB_TENSOR_SUBDIM_UNUSED)
            || (subdim == NEURON_ISA_TPB_TENSOR_SUBDIM_X) );
}

STATIC inline bool is_valid_subdim(NEURON_ISA_TPB_TENSOR_SUBDIM subdim) {
    return( (subdim == NEURON_ISA_TPB_TENSOR_SUBDIM_X)
            || (subdim == NEURON_ISA_TPB_TENSOR_SUBDIM_XY)
            || (subdim == NEURON_ISA_TPB_TENSOR_SUBDIM_XYZ)
            || (subdim == NEURON_ISA_TPB_TENSOR_SUBDIM_XYZW) );
}

STATIC inline bool has_zero_negated_field(NEURON_ISA_TPB_INST_UNION i) {
    return( i.s4d4_tr.negated == 0U );
}

STATIC inline bool s4d4_tr_op_bypass(NEURON_ISA_TPB_INST_UNION i) {
    return( i.s4d4_tr.op == NEURON_ISA_TPB_ALU_OP_BYPASS );
}

STATIC inline bool s4d4_tr_same_src_dst_type(NEURON_ISA_TPB_INST_UNION i) {
    return( i.s4d4_tr.out_dtype == i.s4d4_tr.in_dtype );
}

STATIC inline bool same_element_count_m4d(NEURON_ISA_TPB_MEM_PATTERN4D a, NEURON_ISA_TPB_MEM_PATTERN4D b) {
    return( indirect_pattern(a.t.start_addr)
            || indirect_pattern(b.t.start_addr)
            || same_element_count_t4d(a.t, b.t) );
}

STATIC inline bool s4d4_tr_same_src_dst_count(NEURON_ISA_TPB_INST_UNION i) {
    return( same_element_count_m4d(i.s4d4_tr.src_mem_pattern, i.s4d4_tr.dst_mem_pattern) );
}

STATIC inline bool has_copy_opcode(NEURON_ISA_TPB_INST_UNION i) {
    return( i.s4d4_tr.header.opcode == NEURON_ISA_TPB_OPCODE_COPY );
}

STATIC inline bool has_cast_opcode(NEURON_ISA_TPB_INST_UNION i) {
    return( i.s4d4_tr.header.opcode == NEURON_ISA_TPB_OPCODE_CAST );
}

STATIC inline bool has_reciprocal_opcode(NEURON_ISA_TPB_INST_UNION i) {
    return( i.s4d4_tr.header.opcode == NEURON_ISA_TPB_OPCODE_RECIPROCAL );
}

STATIC inline bool tensor_cumulative_bitvec(NEURON_ISA_TPB_INST_UNION i) {
    return( i.s4d4_tr.header.opcode == NEURON_ISA_TPB_OPCODE_TENSOR_CUMULATIVE_BITVEC_OP );
}

STATIC inline bool tensor_cumulative_arith(NEURON_ISA_TPB_INST_UNION i) {
    return( i.s4d4_tr.header.opcode == NEURON_ISA_TPB_OPCODE_TENSOR_CUMULATIVE_ARITH_OP );
}

STATIC inline bool has_tensor_cumulative_opcode(NEURON_ISA_TPB_INST_UNION i) {
    return( tensor_cumulative_arith(i)
            || tensor_cumulative_bitvec(i) );
}

STATIC inline bool tensor_cumulative_valid_alu_op(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s4d4_tr.op != NEURON_ISA_TPB_ALU_OP_DIVIDE)
            && (i.s4d4_tr.op != NEURON_ISA_TPB_ALU_OP_POW)
            && (i.s4d4_tr.op != NEURON_ISA_TPB_ALU_OP_MOD)
            && (!tensor_cumulative_bitvec(i) || is_bitvec_op(i.s4d4_tr.op))
            && (!tensor_cumulative_arith(i) || is_arith_op(i.s4d4_tr.op)) );
}

STATIC inline bool tensor_cumulative_valid_dtype(NEURON_ISA_TPB_INST_UNION i) {
    return( !tensor_cumulative_bitvec(i)
            || ((i.s4d4_tr.in_dtype == i.s4d4_tr.out_dtype)
                && ((i.s4d4_tr.in_dtype == NEURON_ISA_TPB_DTYPE_UINT8) || (i.s4d4_tr.in_dtype == NEURON_ISA_TPB_DTYPE_UINT16) || (i.s4d4_tr.in_dtype == NEURON_ISA_TPB_DTYPE_UINT32) || (i.s4d4_tr.in_dtype == NEURON_ISA_TPB_DTYPE_INT32))
                && ((i.s4d4_tr.op != NEURON_ISA_TPB_ALU_OP_LOGICAL_SHIFT_RIGHT) || (i.s4d4_tr.in_dtype == NEURON_ISA_TPB_DTYPE_INT32))) );
}

STATIC inline bool is_valid_tensor_cumulative(NEURON_ISA_TPB_INST_UNION i) {
    return( has_valid_neuron_header(i)
            && has_valid_neuron_events(i)
            && has_tensor_cumulative_opcode(i)
            && s4d4_tr_reserved_zero(i)
            && mask_enable_zero(i)
            && is_valid_dtype(i.s4d4_tr.in_dtype, ALLOW_FP32R_FALSE)
            && is_valid_dtype(i.s4d4_tr.out_dtype, ALLOW_FP32R_TRUE)
            && is_valid_aluop(i.s4d4_tr.op)
            && is_valid_subdim(i.s4d4_tr.op_dim)
            && has_valid_active_channel_range(i.s4d4_tr.num_active_channels, NEURON_ISA_TPB_POOLING_NUM_CHANNELS)
            && check_m4d_active_channels(i.s4d4_tr.src_mem_pattern, i.s4d4_tr.num_active_channels)
            && check_m4d_active_channels(i.s4d4_tr.dst_mem_pattern, i.s4d4_tr.num_active_channels)
            && mem4d_valid(i.s4d4_tr.src_mem_pattern, i.s4d4_tr.in_dtype, WRITE_TENSOR_FALSE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && mem4d_valid(i.s4d4_tr.dst_mem_pattern, i.s4d4_tr.out_dtype, WRITE_TENSOR_TRUE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && indirect_quadrant_check_src4d(i.s4d4_tr.src_mem_pattern)
            && indirect_quadrant_check_src4d_dst4d(i.s4d4_tr.src_mem_pattern, i.s4d4_tr.dst_mem_pattern)
            && s4d4_tr_same_src_dst_count(i)
            && tensor_cumulative_valid_alu_op(i)
            && tensor_cumulative_valid_dtype(i)
            && has_zero_negated_field(i) );
}

STATIC inline bool is_valid_copy(NEURON_ISA_TPB_INST_UNION i) {
    return( has_valid_neuron_header(i)
            && has_valid_neuron_events(i)
            && has_copy_opcode(i)
            && s4d4_tr_reserved_zero(i)
            && mask_enable_zero(i)
            && is_valid_dtype(i.s4d4_tr.in_dtype, ALLOW_FP32R_FALSE)
            && is_valid_dtype(i.s4d4_tr.out_dtype, ALLOW_FP32R_TRUE)
            && is_valid_aluop(i.s4d4_tr.op)
            && is_zero_subdim(i.s4d4_tr.op_dim)
            && has_valid_active_channel_range(i.s4d4_tr.num_active_channels, NEURON_ISA_TPB_POOLING_NUM_CHANNELS)
            && check_m4d_active_channels(i.s4d4_tr.src_mem_pattern, i.s4d4_tr.num_active_channels)
            && check_m4d_active_channels(i.s4d4_tr.dst_mem_pattern, i.s4d4_tr.num_active_channels)
            && mem4d_valid(i.s4d4_tr.src_mem_pattern, i.s4d4_tr.in_dtype, WRITE_TENSOR_FALSE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && mem4d_valid(i.s4d4_tr.dst_mem_pattern, i.s4d4_tr.out_dtype, WRITE_TENSOR_TRUE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && indirect_quadrant_check_src4d(i.s4d4_tr.src_mem_pattern)
            && indirect_quadrant_check_src4d_dst4d(i.s4d4_tr.src_mem_pattern, i.s4d4_tr.dst_mem_pattern)
            && s4d4_tr_same_src_dst_count(i)
            && s4d4_tr_op_bypass(i)
            && s4d4_tr_same_src_dst_type(i)
            && has_zero_negated_field(i) );
}

STATIC inline bool is_valid_cast(NEURON_ISA_TPB_INST_UNION i) {
    return( has_valid_neuron_header(i)
            && has_valid_neuron_events(i)
            && has_cast_opcode(i)
            && s4d4_tr_reserved_zero(i)
            && mask_enable_zero(i)
            && is_valid_dtype(i.s4d4_tr.in_dtype, ALLOW_FP32R_FALSE)
            && is_valid_dtype(i.s4d4_tr.out_dtype, ALLOW_FP32R_TRUE)
            && is_valid_aluop(i.s4d4_tr.op)
            && is_zero_subdim(i.s4d4_tr.op_dim)
            && has_valid_active_channel_range(i.s4d4_tr.num_active_channels, NEURON_ISA_TPB_POOLING_NUM_CHANNELS)
            && check_m4d_active_channels(i.s4d4_tr.src_mem_pattern, i.s4d4_tr.num_active_channels)
            && check_m4d_active_channels(i.s4d4_tr.dst_mem_pattern, i.s4d4_tr.num_active_channels)
            && mem4d_valid(i.s4d4_tr.src_mem_pattern, i.s4d4_tr.in_dtype, WRITE_TENSOR_FALSE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && mem4d_valid(i.s4d4_tr.dst_mem_pattern, i.s4d4_tr.out_dtype, WRITE_TENSOR_TRUE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && indirect_quadrant_check_src4d(i.s4d4_tr.src_mem_pattern)
            && indirect_quadrant_check_src4d_dst4d(i.s4d4_tr.src_mem_pattern, i.s4d4_tr.dst_mem_pattern)
            && s4d4_tr_same_src_dst_count(i)
            && s4d4_tr_op_bypass(i)
            && has_zero_negated_field(i) );
}

STATIC inline bool is_valid_reciprocal(NEURON_ISA_TPB_INST_UNION i) {
    return( has_valid_neuron_header(i)
            && has_valid_neuron_events(i)
            && has_reciprocal_opcode(i)
            && s4d4_tr_reserved_zero(i)
            && mask_enable_zero(i)
            && is_valid_dtype(i.s4d4_tr.in_dtype, ALLOW_FP32R_FALSE)
            && is_valid_dtype(i.s4d4_tr.out_dtype, ALLOW_FP32R_TRUE)
            && is_valid_aluop(i.s4d4_tr.op)
            && is_zero_subdim(i.s4d4_tr.op_dim)
            && has_valid_active_channel_range(i.s4d4_tr.num_active_channels, NEURON_ISA_TPB_DVE_NUM_CHANNELS)
            && check_m4d_active_channels(i.s4d4_tr.src_mem_pattern, i.s4d4_tr.num_active_channels)
            && check_m4d_active_channels(i.s4d4_tr.dst_mem_pattern, i.s4d4_tr.num_active_channels)
            && mem4d_valid(i.s4d4_tr.src_mem_pattern, i.s4d4_tr.in_dtype, WRITE_TENSOR_FALSE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && mem4d_valid(i.s4d4_tr.dst_mem_pattern, i.s4d4_tr.out_dtype, WRITE_TENSOR_TRUE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && indirect_quadrant_check_src4d(i.s4d4_tr.src_mem_pattern)
            && indirect_quadrant_check_src4d_dst4d(i.s4d4_tr.src_mem_pattern, i.s4d4_tr.dst_mem_pattern)
            && s4d4_tr_same_src_dst_count(i)
            && s4d4_tr_op_bypass(i)
            && has_zero_negated_field(i) );
}

//* s4d2_bn_assert.h

STATIC inline bool has_max8_opcode(NEURON_ISA_TPB_INST_UNION i) {
    return( i.s4d2_bn.header.opcode == NEURON_ISA_TPB_OPCODE_MAX8 );
}

STATIC inline bool has_find_index8_opcode(NEURON_ISA_TPB_INST_UNION i) {
    return( i.s4d2_bn.header.opcode == NEURON_ISA_TPB_OPCODE_FIND_INDEX8 );
}

STATIC inline bool has_batch_norm_stats2_opcode(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s4d2_bn.header.opcode == NEURON_ISA_TPB_OPCODE_BATCH_NORM_STATS2)
            || (i.s4d2_bn.header.opcode == NEURON_ISA_TPB_OPCODE_TRANSPOSE_BATCH_NORM_STATS2) );
}

STATIC inline bool has_batch_norm_aggregate_opcode(NEURON_ISA_TPB_INST_UNION i) {
    return( i.s4d2_bn.header.opcode == NEURON_ISA_TPB_OPCODE_BATCH_NORM_AGGREGATE );
}

STATIC inline bool s4d2_bn_reserved_zero(NEURON_ISA_TPB_INST_UNION i) {
    for (uint32_t k = 0U; k < 5U; k++) {
        if (i.s4d2_bn.reserved0[k] != 0U) {
            return( false );
        }
    }
    for (uint32_t k = 0U; k < 4U; k++) {
        if (i.s4d2_bn.reserved1[k] != 0U) {
            return( false );
        }
    }
    return( true );
}

STATIC inline bool s4d2_bn_zero_counts(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s4d2_bn.even_count == 0.0F)
            && (i.s4d2_bn.odd_count == 0.0F) );
}

// Finite: neither infinite nor NaN (x - x is 0 exactly for the finite values).
STATIC inline bool has_bns_finite_even_count(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s4d2_bn.even_count - i.s4d2_bn.even_count) == 0.0F );
}

STATIC inline bool has_bns_finite_odd_count(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s4d2_bn.odd_count - i.s4d2_bn.odd_count) == 0.0F );
}

// The counts spelled with every dimension non-zero and at most the bound first: the same
// test (a product with a zero factor is zero; with none, no factor exceeds the product), in
// conjuncts a search can satisfy one at a time.
STATIC inline bool has_max8_src_element_cnt(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s4d2_bn.src_mem_pattern.num_elem[0] != 0U)
            && (i.s4d2_bn.src_mem_pattern.num_elem[1] != 0U)
            && (i.s4d2_bn.src_mem_pattern.num_elem[2] != 0U)
            && (i.s4d2_bn.src_mem_pattern.num_elem[3] != 0U)
            && (i.s4d2_bn.src_mem_pattern.num_elem[0] <= 16384U)
            && (i.s4d2_bn.src_mem_pattern.num_elem[1] <= 16384U)
            && (i.s4d2_bn.src_mem_pattern.num_elem[2] <= 16384U)
            && (i.s4d2_bn.src_mem_pattern.num_elem[3] <= 16384U)
            && (t4d_element_count(i.s4d2_bn.src_mem_pattern) >= 8U)
            && (t4d_element_count(i.s4d2_bn.src_mem_pattern) <= 16384U) );
}

STATIC inline bool has_max8_dst_element_cnt(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s4d2_bn.dst_mem_pattern.num_elem[0] != 0U)
            && (i.s4d2_bn.dst_mem_pattern.num_elem[1] != 0U)
            && (i.s4d2_bn.dst_mem_pattern.num_elem[0] <= 8U)
            && (i.s4d2_bn.dst_mem_pattern.num_elem[1] <= 8U)
            && (t2d_element_count(i.s4d2_bn.dst_mem_pattern) == 8U) );
}

STATIC inline bool has_find_index8_dst_type(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s4d2_bn.out_dtype == NEURON_ISA_TPB_DTYPE_UINT16)
            || (i.s4d2_bn.out_dtype == NEURON_ISA_TPB_DTYPE_UINT32) );
}

STATIC inline bool has_bnstats2_src_element_cnt(NEURON_ISA_TPB_INST_UNION i) {
    return( t4d_element_count(i.s4d2_bn.src_mem_pattern) <= 512U );
}

STATIC inline bool has_bnstats2_dst_element_cnt(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s4d2_bn.dst_mem_pattern.num_elem[0] != 0U)
            && (i.s4d2_bn.dst_mem_pattern.num_elem[1] != 0U)
            && (i.s4d2_bn.dst_mem_pattern.num_elem[0] <= 6U)
            && (i.s4d2_bn.dst_mem_pattern.num_elem[1] <= 6U)
            && (t2d_element_count(i.s4d2_bn.dst_mem_pattern) == 6U) );
}

STATIC inline bool has_bnstats2_out_dtype(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s4d2_bn.out_dtype == NEURON_ISA_TPB_DTYPE_FP32)
            || (i.s4d2_bn.out_dtype == NEURON_ISA_TPB_DTYPE_BFLOAT16)
            || (i.s4d2_bn.out_dtype == NEURON_ISA_TPB_DTYPE_FP16) );
}

STATIC inline bool bn_stats2_transpose_check(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s4d2_bn.header.opcode != NEURON_ISA_TPB_OPCODE_TRANSPOSE_BATCH_NORM_STATS2)
            || (((i.s4d2_bn.num_active_channels % 32U) == 0U) && ((t4d_element_count(i.s4d2_bn.src_mem_pattern) % 32U) == 0U)) );
}

STATIC inline bool has_bnstats_agg_src_element_cnt(NEURON_ISA_TPB_INST_UNION i) {
    return( (t4d_element_count(i.s4d2_bn.src_mem_pattern) % 3U) == 0U );
}

STATIC inline bool has_bnstats_agg_dst_element_cnt(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s4d2_bn.dst_mem_pattern.num_elem[0] != 0U)
            && (i.s4d2_bn.dst_mem_pattern.num_elem[1] != 0U)
            && (i.s4d2_bn.dst_mem_pattern.num_elem[0] <= 2U)
            && (i.s4d2_bn.dst_mem_pattern.num_elem[1] <= 2U)
            && (t2d_element_count(i.s4d2_bn.dst_mem_pattern) == 2U) );
}

STATIC inline bool is_valid_max8(NEURON_ISA_TPB_INST_UNION i) {
    return( has_valid_neuron_header(i)
            && has_valid_neuron_events(i)
            && has_max8_opcode(i)
            && s4d2_bn_reserved_zero(i)
            && is_valid_dtype(i.s4d2_bn.in_dtype, ALLOW_FP32R_FALSE)
            && is_valid_dtype(i.s4d2_bn.out_dtype, ALLOW_FP32R_TRUE)
            && has_valid_active_channel_range(i.s4d2_bn.num_active_channels, NEURON_ISA_TPB_DVE_NUM_CHANNELS)
            && start_addr_active_channels(i.s4d2_bn.src_mem_pattern.start_addr, i.s4d2_bn.num_active_channels)
            && start_addr_active_channels(i.s4d2_bn.dst_mem_pattern.start_addr, i.s4d2_bn.num_active_channels)
            && tensor4d_valid(i.s4d2_bn.src_mem_pattern, i.s4d2_bn.in_dtype, WRITE_TENSOR_FALSE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && tensor2d_valid(i.s4d2_bn.dst_mem_pattern, i.s4d2_bn.out_dtype, WRITE_TENSOR_TRUE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && has_max8_src_element_cnt(i)
            && has_max8_dst_element_cnt(i)
            && s4d2_bn_zero_counts(i) );
}

STATIC inline bool is_valid_find_index8(NEURON_ISA_TPB_INST_UNION i) {
    return( has_valid_neuron_header(i)
            && has_valid_neuron_events(i)
            && has_find_index8_opcode(i)
            && s4d2_bn_reserved_zero(i)
            && is_valid_dtype(i.s4d2_bn.in_dtype, ALLOW_FP32R_FALSE)
            && is_valid_dtype(i.s4d2_bn.out_dtype, ALLOW_FP32R_TRUE)
            && has_find_index8_dst_type(i)
            && has_valid_active_channel_range(i.s4d2_bn.num_active_channels, NEURON_ISA_TPB_DVE_NUM_CHANNELS)
            && start_addr_active_channels(i.s4d2_bn.src_mem_pattern.start_addr, i.s4d2_bn.num_active_channels)
            && start_addr_active_channels(i.s4d2_bn.dst_mem_pattern.start_addr, i.s4d2_bn.num_active_channels)
            && tensor4d_valid(i.s4d2_bn.src_mem_pattern, i.s4d2_bn.in_dtype, WRITE_TENSOR_FALSE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && tensor2d_valid(i.s4d2_bn.dst_mem_pattern, i.s4d2_bn.out_dtype, WRITE_TENSOR_TRUE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && has_max8_src_element_cnt(i)
            && has_max8_dst_element_cnt(i)
            && s4d2_bn_zero_counts(i) );
}

STATIC inline bool is_valid_batch_norm_stats2(NEURON_ISA_TPB_INST_UNION i) {
    return( has_valid_neuron_header(i)
            && has_valid_neuron_events(i)
            && has_batch_norm_stats2_opcode(i)
            && s4d2_bn_reserved_zero(i)
            && is_valid_dtype(i.s4d2_bn.in_dtype, ALLOW_FP32R_FALSE)
            && has_bnstats2_out_dtype(i)
            && has_valid_active_channel_range(i.s4d2_bn.num_active_channels, NEURON_ISA_TPB_DVE_NUM_CHANNELS)
            && start_addr_active_channels(i.s4d2_bn.src_mem_pattern.start_addr, i.s4d2_bn.num_active_channels)
            && start_addr_active_channels(i.s4d2_bn.dst_mem_pattern.start_addr, i.s4d2_bn.num_active_channels)
            && tensor4d_valid(i.s4d2_bn.src_mem_pattern, i.s4d2_bn.in_dtype, WRITE_TENSOR_FALSE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && tensor2d_valid(i.s4d2_bn.dst_mem_pattern, i.s4d2_bn.out_dtype, WRITE_TENSOR_TRUE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && has_bnstats2_src_element_cnt(i)
            && has_bnstats2_dst_element_cnt(i)
            && has_bns_finite_even_count(i)
            && has_bns_finite_odd_count(i)
            && bn_stats2_transpose_check(i) );
}

STATIC inline bool is_valid_batch_norm_aggregate(NEURON_ISA_TPB_INST_UNION i) {
    return( has_valid_neuron_header(i)
            && has_valid_neuron_events(i)
            && has_batch_norm_aggregate_opcode(i)
            && s4d2_bn_reserved_zero(i)
            && is_valid_dtype(i.s4d2_bn.in_dtype, ALLOW_FP32R_FALSE)
            && is_valid_dtype(i.s4d2_bn.out_dtype, ALLOW_FP32R_TRUE)
            && has_valid_active_channel_range(i.s4d2_bn.num_active_channels, NEURON_ISA_TPB_DVE_NUM_CHANNELS)
            && start_addr_active_channels(i.s4d2_bn.src_mem_pattern.start_addr, i.s4d2_bn.num_active_channels)
            && start_addr_active_channels(i.s4d2_bn.dst_mem_pattern.start_addr, i.s4d2_bn.num_active_channels)
            && tensor4d_valid(i.s4d2_bn.src_mem_pattern, i.s4d2_bn.in_dtype, WRITE_TENSOR_FALSE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && tensor2d_valid(i.s4d2_bn.dst_mem_pattern, i.s4d2_bn.out_dtype, WRITE_TENSOR_TRUE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && has_bnstats_agg_src_element_cnt(i)
            && has_bnstats_agg_dst_element_cnt(i)
            && s4d2_bn_zero_counts(i) );
}

//* d4_iota_assert.h

STATIC inline uint32_t d4d_element_count(NEURON_ISA_TPB_DATA4D d) {
    uint32_t n = 1U;
    for (uint32_t k = 0U; k < 4U; k++) {
        n *= (uint32_t)d.num_elem[k];
    }
    return( n );
}

STATIC inline bool has_iota_opcode(NEURON_ISA_TPB_INST_UNION i) {
    return( i.d4_iota.header.opcode == NEURON_ISA_TPB_OPCODE_IOTA );
}

STATIC inline bool d4_iota_reserved_zero(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.d4_iota.reserved0[0] == 0U)
            && (i.d4_iota.reserved1[0] == 0U)
            && (i.d4_iota.reserved2[0] == 0U)
            && (i.d4_iota.reserved2[1] == 0U)
            && (i.d4_iota.reserved2[2] == 0U)
            && (i.d4_iota.reserved2[3] == 0U) );
}

STATIC inline bool d4_iota_same_src_dst_count(NEURON_ISA_TPB_INST_UNION i) {
    return( d4d_element_count(i.d4_iota.src_data_pattern) == t4d_element_count(i.d4_iota.dst_mem_pattern) );
}

STATIC inline bool is_valid_iota(NEURON_ISA_TPB_INST_UNION i) {
    return( has_valid_neuron_header(i)
            && has_valid_neuron_events(i)
            && has_iota_opcode(i)
            && d4_iota_reserved_zero(i)
            && is_valid_dtype(i.d4_iota.out_dtype, ALLOW_FP32R_TRUE)
            && has_valid_active_channel_range(i.d4_iota.num_active_channels, NEURON_ISA_TPB_POOLING_NUM_CHANNELS)
            && start_addr_active_channels(i.d4_iota.dst_mem_pattern.start_addr, i.d4_iota.num_active_channels)
            && tensor4d_valid(i.d4_iota.dst_mem_pattern, i.d4_iota.out_dtype, WRITE_TENSOR_TRUE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && d4_iota_same_src_dst_count(i) );
}

//* s2d2_rs_assert.h

STATIC inline bool has_valid_nc_rs(NEURON_ISA_TPB_NEURON_CORE_VERSION nc) {
    return( nc >= NEURON_ISA_TPB_NEURON_CORE_VERSION_V3 );
}

STATIC inline bool has_range_select_opcode(NEURON_ISA_TPB_INST_UNION i) {
    return( i.s2d2_rs.header.opcode == NEURON_ISA_TPB_OPCODE_RANGE_SELECT );
}

STATIC inline bool has_same_elem_count_rs_src_dst(NEURON_ISA_TPB_INST_UNION i) {
    return( shape_from_register(i.s2d2_rs.src_mem_pattern.start_addr)
            || shape_from_register(i.s2d2_rs.dst_mem_pattern.start_addr)
            || (t2d_element_count(i.s2d2_rs.src_mem_pattern) == t2d_element_count(i.s2d2_rs.dst_mem_pattern)) );
}

STATIC inline bool has_valid_total_index_range(NEURON_ISA_TPB_TENSOR2D src, uint32_t base) {
    return( (base <= 16777216U)
            && (shape_from_register(src.start_addr)
                || ((uint64_t)base + (uint64_t)t2d_element_count(src) <= 16777216U)) );
}

// base as an unsigned index; a negative, NaN or too large base maps to 0xFFFFFFFF (rejected).
STATIC inline uint32_t rs_base_index(NEURON_ISA_TPB_INST_UNION i) {
    return( ((i.s2d2_rs.base >= 0.0F) && (i.s2d2_rs.base <= 16777216.0F))
            ? (uint32_t)i.s2d2_rs.base
            : 0xFFFFFFFFU );
}

// fill_val must be -FLT_MAX, whose only bit pattern is 0xff7fffff (bytes 20..23, little-endian): the two
// conjuncts say the same, once as a float and once as bits.
STATIC inline bool is_valid_fill_val(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s2d2_rs.fill_val == -3.40282346638528859812e+38F)
            && ((((uint32_t)i.raw[23] << 24) | ((uint32_t)i.raw[22] << 16) | ((uint32_t)i.raw[21] << 8) | (uint32_t)i.raw[20])
                == 0xff7fffffU) );
}

STATIC inline bool is_valid_rs_comp_op(NEURON_ISA_TPB_ALU_OP op) {
    return( (op == NEURON_ISA_TPB_ALU_OP_IS_EQ)
            || (op == NEURON_ISA_TPB_ALU_OP_IS_GT)
            || (op == NEURON_ISA_TPB_ALU_OP_IS_GE)
            || (op == NEURON_ISA_TPB_ALU_OP_IS_LE)
            || (op == NEURON_ISA_TPB_ALU_OP_IS_LT) );
}

STATIC inline bool has_valid_range_select_reduce_cmd(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s2d2_rs.reduce_cmd == NEURON_ISA_TPB_ACCUM_CMD_IDLE)
            || (i.s2d2_rs.reduce_cmd == NEURON_ISA_TPB_ACCUM_CMD_ACCUMULATE)
            || (i.s2d2_rs.reduce_cmd == NEURON_ISA_TPB_ACCUM_CMD_ZERO_ACCUMULATE) );
}

STATIC inline bool has_valid_range_select_reduce_op(NEURON_ISA_TPB_INST_UNION i) {
    return( i.s2d2_rs.reduce_op == NEURON_ISA_TPB_ALU_OP_MAX );
}

// R8's signature: the word, and nc the core version it is checked for.
STATIC inline bool is_valid_range_select(NEURON_ISA_TPB_INST_UNION i, NEURON_ISA_TPB_NEURON_CORE_VERSION nc) {
    return( has_valid_neuron_header(i)
            && has_valid_neuron_events(i)
            && has_valid_nc_rs(nc)
            && has_range_select_opcode(i)
            && start_addr_active_channels(i.s2d2_rs.src_mem_pattern.start_addr, i.s2d2_rs.num_active_channels)
            && start_addr_active_channels(i.s2d2_rs.dst_mem_pattern.start_addr, i.s2d2_rs.num_active_channels)
            && tensor2d_valid(i.s2d2_rs.src_mem_pattern, get_dtype_from_pair((uint8_t)i.s2d2_rs.in_out_dtype.dtype_lo), WRITE_TENSOR_FALSE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && tensor2d_valid(i.s2d2_rs.dst_mem_pattern, get_dtype_from_pair((uint8_t)i.s2d2_rs.in_out_dtype.dtype_hi), WRITE_TENSOR_TRUE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && has_same_elem_count_rs_src_dst(i)
            && has_valid_total_index_range(i.s2d2_rs.src_mem_pattern, rs_base_index(i))
            && is_valid_fp_dtype_datapath(get_dtype_from_pair((uint8_t)i.s2d2_rs.in_out_dtype.dtype_lo), ALLOW_FP32R_FALSE)
            && is_valid_fp_dtype_datapath(get_dtype_from_pair((uint8_t)i.s2d2_rs.in_out_dtype.dtype_hi), ALLOW_FP32R_TRUE)
            && is_valid_fill_val(i)
            && is_valid_rs_comp_op(i.s2d2_rs.comp_op0)
            && is_valid_rs_comp_op(i.s2d2_rs.comp_op1)
            && has_valid_immediates(i.s2d2_rs.bound0, i.s2d2_rs.bound0_src, i.s2d2_rs.num_active_channels, NEURON_ISA_TPB_DTYPE_FP32)
            && has_valid_immediates(i.s2d2_rs.bound1, i.s2d2_rs.bound1_src, i.s2d2_rs.num_active_channels, NEURON_ISA_TPB_DTYPE_FP32)
            && check_active_channels(i.s2d2_rs.num_active_channels)
            && has_valid_range_select_reduce_cmd(i)
            && has_valid_range_select_reduce_op(i) );
}


//* d4_mr_assert.h

STATIC inline bool has_memset_opcode(NEURON_ISA_TPB_INST_UNION i) {
    return( i.d4_mr.header.opcode == NEURON_ISA_TPB_OPCODE_MEMSET );
}

STATIC inline bool d4_mr_zero_serialization(NEURON_ISA_TPB_INST_UNION i) {
    return( i.d4_mr.serialization_mode == NEURON_ISA_TPB_REG_SERIAL_MODE_SERIAL );
}

STATIC inline bool d4_mr_reserved_zero(NEURON_ISA_TPB_INST_UNION i) {
    for (uint32_t k = 0U; k < 16U; k++) {
        if (i.d4_mr.reserved0[k] != 0U) {
            return( false );
        }
    }
    return( (i.d4_mr.reserved1[0] == 0U)
            && (i.d4_mr.reserved2[0] == 0U)
            && (i.d4_mr.reserved3[0] == 0U)
            && (i.d4_mr.reserved3[1] == 0U)
            && (i.d4_mr.reserved3[2] == 0U) );
}

STATIC inline bool memset_set_value_type(NEURON_ISA_TPB_INST_UNION i) {
    switch (i.d4_mr.dtype) {
    case NEURON_ISA_TPB_DTYPE_FP32:
    case NEURON_ISA_TPB_DTYPE_UINT32:
    case NEURON_ISA_TPB_DTYPE_INT32:
        return( true );
    case NEURON_ISA_TPB_DTYPE_UINT16:
    case NEURON_ISA_TPB_DTYPE_INT16:
    case NEURON_ISA_TPB_DTYPE_BFLOAT16:
    case NEURON_ISA_TPB_DTYPE_FP16:
        return( (i.d4_mr.set_value & 0xffff0000U) == 0U );
    case NEURON_ISA_TPB_DTYPE_UINT8:
    case NEURON_ISA_TPB_DTYPE_INT8:
    case NEURON_ISA_TPB_DTYPE_FP8_EXP3:
    case NEURON_ISA_TPB_DTYPE_FP8_EXP4:
    case NEURON_ISA_TPB_DTYPE_FP8_EXP5:
        return( (i.d4_mr.set_value & 0xffffff00U) == 0U );
    default:
        return( false );
    }
}

STATIC inline bool is_valid_memset(NEURON_ISA_TPB_INST_UNION i) {
    return( has_valid_neuron_header(i)
            && has_valid_neuron_events(i)
            && has_memset_opcode(i)
            && d4_mr_reserved_zero(i)
            && is_valid_dtype(i.d4_mr.dtype, ALLOW_FP32R_TRUE)
            && memset_set_value_type(i)
            && d4_mr_zero_serialization(i)
            && has_valid_active_channel_range(i.d4_mr.num_active_channels, NEURON_ISA_TPB_POOLING_NUM_CHANNELS)
            && start_addr_active_channels(i.d4_mr.dst_mem_pattern.start_addr, i.d4_mr.num_active_channels)
            && tensor4d_valid(i.d4_mr.dst_mem_pattern, i.d4_mr.dtype, WRITE_TENSOR_TRUE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE) );
}

//* s2d2_ts_as_assert.h

STATIC inline bool is_valid_enum_affine_select_cmp(uint8_t v) {
    return( v <= (uint8_t)NEURON_ISA_TPB_AFFINE_SELECT_CMP_NOT_EQ );
}

STATIC inline bool is_valid_register_read(uint8_t reg) {
    return( (uint32_t)reg < NEURON_ISA_TPB_NUM_ADDR_REGISTERS );
}

STATIC inline bool same_element_count_t2d(NEURON_ISA_TPB_TENSOR2D a, NEURON_ISA_TPB_TENSOR2D b) {
    return( t2d_element_count(a) == t2d_element_count(b) );
}

STATIC inline bool same_element_count_ts_as(NEURON_ISA_TPB_DATA4D mask, NEURON_ISA_TPB_TENSOR2D src) {
    return( d4d_element_count(mask) == t2d_element_count(src) );
}

STATIC inline bool has_s2d2_ts_as_opcode(NEURON_ISA_TPB_INST_UNION i) {
    return( i.s2d2_ts_as.header.opcode == NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_AFFINE_SELECT );
}

STATIC inline bool s2d2_ts_as_valid_elem_count(NEURON_ISA_TPB_INST_UNION i) {
    return( shape_from_register(i.s2d2_ts_as.src_mem_pattern.start_addr)
            || shape_from_register(i.s2d2_ts_as.dst_mem_pattern.start_addr)
            || (same_element_count_t2d(i.s2d2_ts_as.src_mem_pattern, i.s2d2_ts_as.dst_mem_pattern)
                && same_element_count_ts_as(i.s2d2_ts_as.mask_pattern, i.s2d2_ts_as.src_mem_pattern)) );
}

STATIC inline bool s2d2_ts_as_valid_dtypes(NEURON_ISA_TPB_INST_UNION i) {
    return( is_valid_dtype(get_dtype_from_pair((uint8_t)i.s2d2_ts_as.in_out_dtype.dtype_hi), ALLOW_FP32R_TRUE)
            && is_valid_dtype(get_dtype_from_pair((uint8_t)i.s2d2_ts_as.in_out_dtype.dtype_lo), ALLOW_FP32R_FALSE) );
}

STATIC inline bool is_valid_s2d2_ts_as(NEURON_ISA_TPB_INST_UNION i) {
    return( has_valid_neuron_header(i)
            && has_valid_neuron_events(i)
            && has_s2d2_ts_as_opcode(i)
            && has_valid_active_channel_range(i.s2d2_ts_as.num_active_channels, NEURON_ISA_TPB_POOLING_NUM_CHANNELS)
            && tensor2d_valid(i.s2d2_ts_as.src_mem_pattern, get_dtype_from_pair((uint8_t)i.s2d2_ts_as.in_out_dtype.dtype_lo), WRITE_TENSOR_FALSE, ALLOWED_IN_PSUM_FALSE, ALLOWED_IN_SBUF_TRUE)
            && tensor2d_valid(i.s2d2_ts_as.dst_mem_pattern, get_dtype_from_pair((uint8_t)i.s2d2_ts_as.in_out_dtype.dtype_hi), WRITE_TENSOR_TRUE, ALLOWED_IN_PSUM_FALSE, ALLOWED_IN_SBUF_TRUE)
            && start_addr_active_channels(i.s2d2_ts_as.src_mem_pattern.start_addr, i.s2d2_ts_as.num_active_channels)
            && start_addr_active_channels(i.s2d2_ts_as.dst_mem_pattern.start_addr, i.s2d2_ts_as.num_active_channels)
            && s2d2_ts_as_valid_elem_count(i)
            && s2d2_ts_as_valid_dtypes(i)
            && is_valid_enum_affine_select_cmp((uint8_t)i.s2d2_ts_as.fill_mode)
            && is_valid_register_read(i.s2d2_ts_as.fill_reg) );
}

//* s4d4_mr_assert.h

STATIC inline bool has_match_replace8_opcode(NEURON_ISA_TPB_INST_UNION i) {
    return( i.s4d4_mr.header.opcode == NEURON_ISA_TPB_OPCODE_MATCH_REPLACE8 );
}

STATIC inline bool s4d4_mr_reserved_zero(NEURON_ISA_TPB_INST_UNION i) {
    return( (i.s4d4_mr.reserved0[0] == 0U) && (i.s4d4_mr.reserved0[1] == 0U) && (i.s4d4_mr.reserved0[2] == 0U) && (i.s4d4_mr.reserved0[3] == 0U) && (i.s4d4_mr.reserved0[4] == 0U) );
}

STATIC inline bool has_match_replace8_src_element_cnt(NEURON_ISA_TPB_INST_UNION i) {
    return( t4d_element_count(i.s4d4_mr.src_mem_pattern) <= 16384U );
}

STATIC inline bool s4d4_mr_same_src_dst_count(NEURON_ISA_TPB_INST_UNION i) {
    return( t4d_element_count(i.s4d4_mr.src_mem_pattern) == t4d_element_count(i.s4d4_mr.dst_mem_pattern) );
}

STATIC inline bool match_replace_dtypes(NEURON_ISA_TPB_INST_UNION i) {
    return( ((i.s4d4_mr.in_dtype == NEURON_ISA_TPB_DTYPE_FP16) || (i.s4d4_mr.in_dtype == NEURON_ISA_TPB_DTYPE_BFLOAT16) || (i.s4d4_mr.in_dtype == NEURON_ISA_TPB_DTYPE_UINT8) || (i.s4d4_mr.in_dtype == NEURON_ISA_TPB_DTYPE_UINT16) || (i.s4d4_mr.in_dtype == NEURON_ISA_TPB_DTYPE_UINT32) || (i.s4d4_mr.in_dtype == NEURON_ISA_TPB_DTYPE_FP32) || (i.s4d4_mr.in_dtype == NEURON_ISA_TPB_DTYPE_INT32))
            && ((i.s4d4_mr.out_dtype == NEURON_ISA_TPB_DTYPE_FP16) || (i.s4d4_mr.out_dtype == NEURON_ISA_TPB_DTYPE_BFLOAT16) || (i.s4d4_mr.out_dtype == NEURON_ISA_TPB_DTYPE_UINT8) || (i.s4d4_mr.out_dtype == NEURON_ISA_TPB_DTYPE_UINT16) || (i.s4d4_mr.out_dtype == NEURON_ISA_TPB_DTYPE_UINT32) || (i.s4d4_mr.out_dtype == NEURON_ISA_TPB_DTYPE_FP32) || (i.s4d4_mr.out_dtype == NEURON_ISA_TPB_DTYPE_INT32)) );
}

STATIC inline bool is_valid_match_replace8(NEURON_ISA_TPB_INST_UNION i) {
    return( has_valid_neuron_header(i)
            && has_valid_neuron_events(i)
            && has_match_replace8_opcode(i)
            && s4d4_mr_reserved_zero(i)
            && is_valid_dtype(i.s4d4_mr.in_dtype, ALLOW_FP32R_FALSE)
            && is_valid_dtype(i.s4d4_mr.out_dtype, ALLOW_FP32R_TRUE)
            && match_replace_dtypes(i)
            && has_valid_active_channel_range(i.s4d4_mr.num_active_channels, NEURON_ISA_TPB_POOLING_NUM_CHANNELS)
            && start_addr_active_channels(i.s4d4_mr.src_mem_pattern.start_addr, i.s4d4_mr.num_active_channels)
            && start_addr_active_channels(i.s4d4_mr.dst_mem_pattern.start_addr, i.s4d4_mr.num_active_channels)
            && tensor4d_valid(i.s4d4_mr.src_mem_pattern, i.s4d4_mr.in_dtype, WRITE_TENSOR_FALSE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && tensor4d_valid(i.s4d4_mr.dst_mem_pattern, i.s4d4_mr.out_dtype, WRITE_TENSOR_TRUE, ALLOWED_IN_PSUM_TRUE, ALLOWED_IN_SBUF_TRUE)
            && has_match_replace8_src_element_cnt(i)
            && s4d4_mr_same_src_dst_count(i) );
}

#ifdef __cplusplus
}
#endif

#endif // AWS_NEURON_ISA_TPB_ASSERT_H
