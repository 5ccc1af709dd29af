#pragma once
// Owning wrappers of cuDNN's legacy descriptors (created on construction, destroyed once), so a
// failed prepare() leaks nothing. Include only where JETPERF_HAS_CUDNN.
#include <utility>

#include <cudnn.h>

#include "cudnn_check.hpp"

namespace jetperf::workloads::cuda {

/// One descriptor of type D with its create/destroy pair.
template <typename D, cudnnStatus_t (*Create)(D*), cudnnStatus_t (*Destroy)(D)>
class cudnn_descriptor {
 public:
  cudnn_descriptor() { JETPERF_CUDNN_CALL(Create(&d_)); }
  cudnn_descriptor(const cudnn_descriptor&) = delete;
  cudnn_descriptor& operator=(const cudnn_descriptor&) = delete;
  cudnn_descriptor(cudnn_descriptor&& o) noexcept : d_(std::exchange(o.d_, nullptr)) {}
  cudnn_descriptor& operator=(cudnn_descriptor&& o) noexcept {
    if (this != &o) {
      if (d_) Destroy(d_);
      d_ = std::exchange(o.d_, nullptr);
    }
    return *this;
  }
  ~cudnn_descriptor() {
    if (d_) Destroy(d_);
  }
  D get() const { return d_; }
  operator D() const { return d_; }  // NOLINT: passed straight to cuDNN calls

 private:
  D d_ = nullptr;
};

using tensor_desc = cudnn_descriptor<cudnnTensorDescriptor_t, cudnnCreateTensorDescriptor, cudnnDestroyTensorDescriptor>;
using filter_desc = cudnn_descriptor<cudnnFilterDescriptor_t, cudnnCreateFilterDescriptor, cudnnDestroyFilterDescriptor>;
using conv_desc = cudnn_descriptor<cudnnConvolutionDescriptor_t, cudnnCreateConvolutionDescriptor,
                                   cudnnDestroyConvolutionDescriptor>;
using activation_desc = cudnn_descriptor<cudnnActivationDescriptor_t, cudnnCreateActivationDescriptor,
                                         cudnnDestroyActivationDescriptor>;
using pooling_desc =
    cudnn_descriptor<cudnnPoolingDescriptor_t, cudnnCreatePoolingDescriptor, cudnnDestroyPoolingDescriptor>;
using op_tensor_desc =
    cudnn_descriptor<cudnnOpTensorDescriptor_t, cudnnCreateOpTensorDescriptor, cudnnDestroyOpTensorDescriptor>;

}  // namespace jetperf::workloads::cuda
