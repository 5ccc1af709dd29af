#pragma once
// Failed cuDNN calls throw cuda_error with the file, the line, the call and cuDNN's own text, like
// JETPERF_CUDA_CALL. Include only where JETPERF_HAS_CUDNN.
#include <cudnn.h>

#include "cuda_check.hpp"

#define JETPERF_CUDNN_CALL(call)                                                                    \
  do {                                                                                              \
    const cudnnStatus_t jetperf_dnn_st_ = (call);                                                   \
    if (jetperf_dnn_st_ != CUDNN_STATUS_SUCCESS)                                                    \
      ::jetperf::workloads::cuda::throw_cuda_error(__FILE__, __LINE__, #call,                       \
                                                   cudnnGetErrorString(jetperf_dnn_st_));           \
  } while (0)
