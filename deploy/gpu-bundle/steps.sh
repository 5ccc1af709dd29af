# The GPU bundle's steps, sourced by run.sh once it has found a GPU (run.sh defines step_begin,
# step_end, cmd, job, py and start_daemon). Each step's share of the budget is its second
# argument to step_begin, in percent; together they leave about 5% for starting and reporting.
# shellcheck shell=bash

gemm_sizes=1024,4096,8192
gemm_columns=dtype,m,tensor,tensor_used,math_mode,gpu_freq_hz,gflops,power_w,gflops_per_w,time_median_s,status,reason,error
layer_columns=network,layer_index,layer_name,dtype,latency_median_s,latency_count,power_w,energy_j,kernels,status,reason,error
gemm_job=""

step_gpu_tests() {
  step_begin 01-gpu_tests 15
  # The multi_dnn checks run in their own step (07).
  cmd tests/device_tests --gtest_filter=-multi_dnn_gpu.* --gtest_output="json:$step_dir/figures/gtest.json"
  step_end
}

# cuBLAS through the gemm kind: half, float and double, tensor cores on and off (float with
# tensor cores on is TF32); bf16 is not a gemm dtype, so only torch measures it.
step_gemm_tflops() {
  step_begin 02-gemm_tflops 13
  job cublas "$gemm_columns" gemm --device cuda --dtype half,float,double --tensor both --sizes "$gemm_sizes" \
    --warmup-s 0.2 --min-time-s 0.3 --max-time-s 1.5 --cooldown-s 0
  gemm_job=$last_job
  if [ -n "$python" ]; then
    cmd ">torch_matmul" $(py) python/torch_gemm.py --sizes "$gemm_sizes" --jetperf "$step_dir/figures/cublas.json"
  fi
  step_end
}

# Block latency on cuDNN, 50 runs a block (median), and the same blocks in PyTorch eager with the
# same input shapes, dtype and number of runs.
step_layers_cudnn() {
  step_begin 03-layers_cudnn 14
  job cudnn "$layer_columns" layers --model resnet50,mobilenet_v2 --device cuda --granularity block \
    --latency-samples 50 --min-time-s 0.2 --max-time-s 0.5 --no-end-to-end --cooldown-s 0
  if [ -n "$python" ]; then
    cmd ">torch_eager" $(py) python/torch_layers.py --jetperf "$step_dir/figures/cudnn.json"
  fi
  step_end
}

step_layers_end_to_end() {
  step_begin 04-layers_end_to_end 10
  job layers "$layer_columns" layers --model resnet50 --device cuda --granularity block --latency-samples 50 \
    --max-time-s 1 --cooldown-s 0
  step_end
}

# The GPU clocks the board offers (NVML's supported graphics clocks), six of them spread over the
# range; where NVML refuses to lock them (a container), the rows say so.
step_gemm_clocks() {
  step_begin 05-gemm_clocks 10
  local clocks=min,max
  cmd ">board" bin/jetperf --json board
  if [ -n "$python" ]; then
    clocks=$($(py) python/pick_clocks.py "$step_dir/figures/board.json" 6 2>>"$step_dir/log.txt") || clocks=min,max
  fi
  job clocks "$gemm_columns,flags" gemm --device cuda --dtype half --tensor on --sizes 4096 --gpu-freq "$clocks" \
    --warmup-s 0.2 --min-time-s 0.3 --max-time-s 1.5 --cooldown-s 0
  step_end
}

# CUPTI's kernel records of the first GEMM point (step 02's job): the runs traced after its
# window and the kernels inside them.
step_kernel_trace() {
  step_begin 06-kernel_trace 3
  if [ -z "$gemm_job" ]; then
    step_rc=1
  elif cmd bin/jetperf trace "$gemm_job" --point 0 --counters none -o "$step_dir/trace.json"; then
    local kernels runs names=""
    kernels=$(grep -o '"cat":"kernels"' "$step_dir/trace.json" | wc -l)
    runs=$(grep -o '"kernel_trace":true' "$step_dir/trace.json" | wc -l)
    if [ -n "$python" ]; then names=$($(py) python/kernel_names.py "$step_dir/trace.json" 2>>"$step_dir/log.txt"); fi
    printf '{"job": %s, "point": 0, "traced_runs": %s, "kernels": %s, "kernel_names": %s}\n' \
      "$gemm_job" "$runs" "$kernels" "${names:-null}" >"$step_dir/figures/trace_summary.json"
    echo "grep -o '\"cat\":\"kernels\"' trace.json | wc -l" >>"$step_dir/commands"
  fi
  step_end
}

# The multi_dnn GPU checks (a CPU/GPU split through pinned memory, two GPU networks overlapping on
# their streams), then the 2-4-network CPU-only mappings per hour on this machine's cores.
step_multi_dnn() {
  step_begin 07-multi_dnn 30
  cmd tests/device_tests --gtest_filter=multi_dnn_gpu.* --gtest_output="json:$step_dir/figures/gtest.json"
  # samples=1 fixed_samples=1 target_rse=0.01 window_s=10 boundary_s=1 networks=2:4: three
  # mappings each way (on 2 loaded cores the adaptive ones took their 30 s each; 16 take less).
  cmd ">cpu_rate" bench/bench_multi_dnn_rate 1 1 0.01 10 1 2:4
  step_end
}

run_steps() {
  step_gpu_tests
  if start_daemon; then
    step_gemm_tflops
    step_layers_cudnn
    step_layers_end_to_end
    step_gemm_clocks
    step_kernel_trace
    stop_daemon
    daemon_pid=""
  else
    local s
    for s in 02-gemm_tflops 03-layers_cudnn 04-layers_end_to_end 05-gemm_clocks 06-kernel_trace; do
      step_skip "$s" "not run: jetperfd --board $board did not start ($(tail -n 1 "$out/daemon/jetperfd.log"))"
    done
  fi
  step_multi_dnn
}
