; rmsnorm on mariana: 5 instructions
; input  x fp32[128, 512] at sbuf[0]+0x0
; output y fp32[128, 512] at sbuf[0]+0x800
TENSOR_TENSOR_ARITH_OP in0_in1_dtype={dtype_lo=FP32 dtype_hi=FP32} out_dtype=FP32 op=MULT num_active_channels=128 src0_mem_pattern={step_elem=[1,1,1] num_elem=[512,1,1]} src1_mem_pattern={step_elem=[1,1,1] num_elem=[512,1,1]} dst_mem_pattern={start_addr=sbuf[0]+0x1000 step_elem=[1,1,1] num_elem=[512,1,1]}  ; square = x * x
TENSOR_REDUCE_ARITH_OP src_mem_pattern={start_addr=sbuf[0]+0x1000 step_elem=[1,1,1,1] num_elem=[512,1,1,1]} in_dtype=FP32 out_dtype=FP32 num_active_channels=128 op=ADD op_dim=X dst_mem_pattern={start_addr=sbuf[0]+0x1800 step_elem=[1,1,1,1] num_elem=[1,1,1,1]}  ; sum = sum(square) per row
TENSOR_SCALAR_ARITH_OP src_mem_pattern={start_addr=sbuf[0]+0x1800 step_elem=[1,1,1] num_elem=[1,1,1]} in_dtype=FP32 out_dtype=FP32 num_active_channels=128 op0=MULT op1=ADD imm0=0.001953125 imm1=1e-06 dst_mem_pattern={start_addr=sbuf[0]+0x1840 step_elem=[1,1,1] num_elem=[1,1,1]}  ; var = sum * (1/512) + eps
TENSOR_SCALAR_ARITH_OP src_mem_pattern={start_addr=sbuf[0]+0x1840 step_elem=[1,1,1] num_elem=[1,1,1]} in_dtype=FP32 out_dtype=FP32 num_active_channels=128 op0=RSQRT dst_mem_pattern={start_addr=sbuf[0]+0x1880 step_elem=[1,1,1] num_elem=[1,1,1]}  ; rstd = 1 / sqrt(var)
TENSOR_SCALAR_ARITH_OP src_mem_pattern={step_elem=[1,1,1] num_elem=[512,1,1]} in_dtype=FP32 out_dtype=FP32 num_active_channels=128 imm0_src=POINTER_IMMEDIATE op0=MULT imm0=sbuf[0]+0x1880 dst_mem_pattern={start_addr=sbuf[0]+0x800 step_elem=[1,1,1] num_elem=[512,1,1]}  ; y = x * rstd
