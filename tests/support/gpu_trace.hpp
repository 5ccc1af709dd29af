#pragma once
// A small GPU-style Kineto trace written by hand, with every gap chosen so that each of seed
// 004's T1..T5 has one exact expected value (worked out in tests/unit/traces/overheads_test.cpp;
// tests/sim/client_trace_test.cpp runs the client on it too).
//   thread (1, 1): ProfilerStep#1 [0, 1000] holds
//     aten::linear [100, 200]: aten::t [105, 110], aten::addmm [112, 192] with
//         cudaLaunchKernel [120, 130] (corr 1), cudaEventRecord [135, 137], cudaLaunchKernel [150, 160] (corr 2)
//     aten::relu [210, 240]: cudaLaunchKernel [220, 228] (corr 3)
//     aten::zeros [250, 270]: aten::empty [252, 255], aten::zero_ [258, 263]
//     aten::to [280, 284]
//     aten::copy_ [300, 340]: cudaMemcpyAsync [310, 322] (corr 4), cudaStreamSynchronize [325, 335]
//     aten::add [600, 610]
//   thread (1, 2): aten::mul [205, 215]
//   device (0, 7): gemm_kernel [140, 160] (corr 1), [165, 195] (corr 2); relu_kernel [230, 236]
//     (corr 3); Memcpy HtoD [315, 319] (corr 4); orphan_kernel [400, 401] (corr 99, no launch)
namespace jetperf::traces::test {

inline const char* gpu_trace_json() {
  return R"json({
  "schemaVersion": 1,
  "deviceProperties": [{"id": 0, "name": "Orin", "totalGlobalMem": 65536}],
  "baseTimeNanoseconds": 1700000000000000000,
  "traceEvents": [
    {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 1000, "args": {"External id": 1}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::linear", "pid": 1, "tid": 1, "ts": 100, "dur": 100, "args": {"External id": 2, "Input Dims": [[8, 4], [2, 4], [2]]}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::t", "pid": 1, "tid": 1, "ts": 105, "dur": 5, "args": {"External id": 3}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::addmm", "pid": 1, "tid": 1, "ts": 112, "dur": 80, "args": {"External id": 4}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 120, "dur": 10, "args": {"External id": 4, "correlation": 1}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaEventRecord", "pid": 1, "tid": 1, "ts": 135, "dur": 2, "args": {"correlation": 5}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 150, "dur": 10, "args": {"External id": 4, "correlation": 2}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::relu", "pid": 1, "tid": 1, "ts": 210, "dur": 30, "args": {"External id": 5}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 220, "dur": 8, "args": {"External id": 5, "correlation": 3}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::zeros", "pid": 1, "tid": 1, "ts": 250, "dur": 20, "args": {}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::empty", "pid": 1, "tid": 1, "ts": 252, "dur": 3},
    {"ph": "X", "cat": "cpu_op", "name": "aten::zero_", "pid": 1, "tid": 1, "ts": 258, "dur": 5},
    {"ph": "X", "cat": "cpu_op", "name": "aten::to", "pid": 1, "tid": 1, "ts": 280, "dur": 4},
    {"ph": "X", "cat": "cpu_op", "name": "aten::copy_", "pid": 1, "tid": 1, "ts": 300, "dur": 40, "args": {"External id": 8}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 1, "tid": 1, "ts": 310, "dur": 12, "args": {"External id": 8, "correlation": 4}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaStreamSynchronize", "pid": 1, "tid": 1, "ts": 325, "dur": 10, "args": {"correlation": 6}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 600, "dur": 10},
    {"ph": "X", "cat": "cpu_op", "name": "aten::mul", "pid": 1, "tid": 2, "ts": 205, "dur": 10},
    {"ph": "X", "cat": "kernel", "name": "gemm_kernel", "pid": 0, "tid": 7, "ts": 140, "dur": 20, "args": {"correlation": 1, "stream": 7, "External id": 4}},
    {"ph": "X", "cat": "kernel", "name": "gemm_kernel", "pid": 0, "tid": 7, "ts": 165, "dur": 30, "args": {"correlation": 2, "stream": 7}},
    {"ph": "X", "cat": "kernel", "name": "relu_kernel", "pid": 0, "tid": 7, "ts": 230, "dur": 6, "args": {"correlation": 3, "stream": 7}},
    {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "tid": 7, "ts": 315, "dur": 4, "args": {"correlation": 4, "stream": 7}},
    {"ph": "X", "cat": "kernel", "name": "orphan_kernel", "pid": 0, "tid": 7, "ts": 400, "dur": 1, "args": {"correlation": 99, "stream": 7}},
    {"ph": "s", "cat": "ac2g", "name": "launch", "id": 1, "pid": 1, "tid": 1, "ts": 120},
    {"ph": "f", "cat": "ac2g", "name": "launch", "id": 1, "pid": 0, "tid": 7, "ts": 140, "bp": "e"},
    {"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": "python"}}
  ],
  "traceName": "hand-made.json"
})json";
}

}  // namespace jetperf::traces::test
