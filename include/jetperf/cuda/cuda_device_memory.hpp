#pragma once
// Device memory of the CUDA backends (and their device tests): an owning buffer and float <->
// element conversions on upload and download (half as IEEE bits, converted on the host).
#include <cstddef>
#include <cstdint>
#include <vector>

#include <cuda_runtime_api.h>

namespace jetperf::workloads::cuda {

class device_memory {
 public:
  device_memory() = default;
  explicit device_memory(std::size_t bytes) { allocate(bytes); }
  device_memory(const device_memory&) = delete;
  device_memory& operator=(const device_memory&) = delete;
  device_memory(device_memory&& o) noexcept;
  device_memory& operator=(device_memory&& o) noexcept;
  ~device_memory() { reset(); }

  /// Throws cuda_error when cudaMalloc fails (out of memory names the size).
  void allocate(std::size_t bytes);
  void reset() noexcept;
  void* get() const { return ptr_; }
  std::size_t bytes() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

/// Copies `values` to `dst` as float (half_elements = false) or half bits, on `stream`, and waits.
void upload_floats(const std::vector<float>& values, bool half_elements, void* dst, cudaStream_t stream);
/// Reads `count` elements at `src` (float or half) as floats, on `stream` (waits).
std::vector<float> download_floats(const void* src, std::size_t count, bool half_elements, cudaStream_t stream);

}  // namespace jetperf::workloads::cuda
