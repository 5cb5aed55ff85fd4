; cummax on maverick: 1 instructions
; input  x fp32[128, 512] at sbuf[0]+0x0
; output y fp32[128, 512] at sbuf[0]+0x800
TENSOR_SCALAR_CACHE_CUMULATIVE accumulator_cmd=ZERO_ACCUMULATE src_mem_pattern={step_elem=[1,1,1] num_elem=[512,1,1]} in_dtype=FP32 out_dtype=FP32 num_active_channels=128 op0=ADD op1=MAX dst_mem_pattern={start_addr=sbuf[0]+0x800 step_elem=[1,1,1] num_elem=[512,1,1]}  ; y[:, i] = max of x[:, :i+1], from the op's identity per row
