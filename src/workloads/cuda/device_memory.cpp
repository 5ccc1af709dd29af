#include <jetperf/cuda/cuda_device_memory.hpp>

#include <string>
#include <utility>

#include <jetperf/backend/detail/half_bits.hpp>

#include "cuda_check.hpp"

namespace jetperf::workloads::cuda {

device_memory::device_memory(device_memory&& o) noexcept
    : ptr_(std::exchange(o.ptr_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}

device_memory& device_memory::operator=(device_memory&& o) noexcept {
  if (this != &o) {
    reset();
    ptr_ = std::exchange(o.ptr_, nullptr);
    bytes_ = std::exchange(o.bytes_, 0);
  }
  return *this;
}

void device_memory::allocate(std::size_t bytes) {
  reset();
  if (bytes == 0) return;
  const cudaError_t err = cudaMalloc(&ptr_, bytes);
  if (err != cudaSuccess) {
    ptr_ = nullptr;
    cudaGetLastError();
    throw_cuda_error(__FILE__, __LINE__, "cudaMalloc", std::string(cudaGetErrorString(err)) + " (" +
                                                           std::to_string(bytes) + " bytes)");
  }
  bytes_ = bytes;
}

void device_memory::reset() noexcept {
  if (ptr_) cudaFree(ptr_);
  ptr_ = nullptr;
  bytes_ = 0;
}

void upload_floats(const std::vector<float>& values, bool half_elements, void* dst, cudaStream_t stream) {
  if (values.empty()) return;
  if (half_elements) {
    std::vector<std::uint16_t> h(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) h[i] = detail::float_to_half_bits(values[i]);
    JETPERF_CUDA_CALL(cudaMemcpyAsync(dst, h.data(), h.size() * 2, cudaMemcpyHostToDevice, stream));
    JETPERF_CUDA_CALL(cudaStreamSynchronize(stream));  // h dies at the end of this scope
  } else {
    JETPERF_CUDA_CALL(cudaMemcpyAsync(dst, values.data(), values.size() * 4, cudaMemcpyHostToDevice, stream));
    JETPERF_CUDA_CALL(cudaStreamSynchronize(stream));
  }
}

std::vector<float> download_floats(const void* src, std::size_t count, bool half_elements, cudaStream_t stream) {
  std::vector<float> out(count);
  if (count == 0) return out;
  if (half_elements) {
    std::vector<std::uint16_t> h(count);
    JETPERF_CUDA_CALL(cudaMemcpyAsync(h.data(), src, count * 2, cudaMemcpyDeviceToHost, stream));
    JETPERF_CUDA_CALL(cudaStreamSynchronize(stream));
    for (std::size_t i = 0; i < count; ++i) out[i] = detail::half_bits_to_float(h[i]);
  } else {
    JETPERF_CUDA_CALL(cudaMemcpyAsync(out.data(), src, count * 4, cudaMemcpyDeviceToHost, stream));
    JETPERF_CUDA_CALL(cudaStreamSynchronize(stream));
  }
  return out;
}

}  // namespace jetperf::workloads::cuda
