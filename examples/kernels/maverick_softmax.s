; softmax on maverick: 5 instructions
; input  x fp32[128, 512] at sbuf[0]+0x0
; output y fp32[128, 512] at sbuf[0]+0x800
TENSOR_REDUCE_ARITH_OP src_mem_pattern={step_elem=[1,1,1,1] num_elem=[512,1,1,1]} in_dtype=FP32 out_dtype=FP32 num_active_channels=128 op=MAX op_dim=X dst_mem_pattern={start_addr=sbuf[0]+0x1000 step_elem=[1,1,1,1] num_elem=[1,1,1,1]}  ; max = max(x) per row
EXPONENTIAL src_mem_pattern={step_elem=[1,1,1] num_elem=[512,1,1]} in_dtype=FP32 out_dtype=FP32 num_active_channels=128 imm0_src=POINTER_IMMEDIATE imm0=sbuf[0]+0x1000 dst_mem_pattern={start_addr=sbuf[0]+0x1040 step_elem=[1,1,1] num_elem=[512,1,1]}  ; exp = exp(x - max)
TENSOR_REDUCE_ARITH_OP src_mem_pattern={start_addr=sbuf[0]+0x1040 step_elem=[1,1,1,1] num_elem=[512,1,1,1]} in_dtype=FP32 out_dtype=FP32 num_active_channels=128 op=ADD op_dim=X dst_mem_pattern={start_addr=sbuf[0]+0x1840 step_elem=[1,1,1,1] num_elem=[1,1,1,1]}  ; sum = sum(exp) per row
RECIPROCAL src_mem_pattern={start_addr=sbuf[0]+0x1840 step_elem=[1,1,1,1] num_elem=[1,1,1,1]} in_dtype=FP32 out_dtype=FP32 num_active_channels=128 op_dim=X dst_mem_pattern={start_addr=sbuf[0]+0x1880 step_elem=[1,1,1,1] num_elem=[1,1,1,1]}  ; inv_sum = 1 / sum
TENSOR_SCALAR_ARITH_OP src_mem_pattern={start_addr=sbuf[0]+0x1040 step_elem=[1,1,1] num_elem=[512,1,1]} in_dtype=FP32 out_dtype=FP32 num_active_channels=128 imm0_src=POINTER_IMMEDIATE op0=MULT imm0=sbuf[0]+0x1880 dst_mem_pattern={start_addr=sbuf[0]+0x800 step_elem=[1,1,1] num_elem=[512,1,1]}  ; y = exp * inv_sum
