#include "kernel_name_recorder.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <mutex>

#include "cuda_check.hpp"

#if defined(JETPERF_HAS_CUPTI) && JETPERF_HAS_CUPTI
#include <cupti.h>
#endif

namespace jetperf::workloads::cuda {

#if defined(JETPERF_HAS_CUPTI) && JETPERF_HAS_CUPTI
namespace {

// The kernel record grows with CUPTI versions; each version's newest struct is used.
#if CUDART_VERSION >= 13000
using kernel_record = CUpti_ActivityKernel10;
#elif CUDART_VERSION >= 12000
using kernel_record = CUpti_ActivityKernel9;
#elif CUDART_VERSION >= 11000
using kernel_record = CUpti_ActivityKernel5;
#else
using kernel_record = CUpti_ActivityKernel4;
#endif

constexpr std::size_t k_buffer_bytes = 1 << 20;
std::mutex g_mutex;
std::vector<std::string> g_names;
bool g_registered = false;

void CUPTIAPI on_buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, k_buffer_bytes));
  *size = *buffer ? k_buffer_bytes : 0;
  *max_records = 0;
}

void CUPTIAPI on_buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  CUpti_Activity* record = nullptr;
  std::lock_guard<std::mutex> lock(g_mutex);
  while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL && record->kind != CUPTI_ACTIVITY_KIND_KERNEL)
      continue;
    const auto* k = reinterpret_cast<const kernel_record*>(record);
    const std::string name = k->name ? k->name : "unknown";
    if (std::find(g_names.begin(), g_names.end(), name) == g_names.end()) g_names.push_back(name);
  }
  std::free(buffer);
}

void cupti_call(CUptiResult r, const char* call) {
  if (r == CUPTI_SUCCESS) return;
  const char* text = nullptr;
  cuptiGetResultString(r, &text);
  throw_cuda_error(__FILE__, __LINE__, call, text ? text : "CUPTI error");
}

}  // namespace

bool kernel_name_recorder::available() { return true; }

void kernel_name_recorder::start() {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_names.clear();
    if (!g_registered) {
      cupti_call(cuptiActivityRegisterCallbacks(on_buffer_requested, on_buffer_completed),
                 "cuptiActivityRegisterCallbacks");
      g_registered = true;
    }
  }
  cupti_call(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), "cuptiActivityEnable");
}

std::vector<std::string> kernel_name_recorder::stop() {
  cupti_call(cuptiActivityFlushAll(0), "cuptiActivityFlushAll");
  cupti_call(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), "cuptiActivityDisable");
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_names.empty() ? std::vector<std::string>{"unknown"} : g_names;
}

#else

bool kernel_name_recorder::available() { return false; }
void kernel_name_recorder::start() {}
std::vector<std::string> kernel_name_recorder::stop() { return {"unknown"}; }

#endif

}  // namespace jetperf::workloads::cuda
