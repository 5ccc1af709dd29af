#include <jetperf/backend/gemm_dtype.hpp>

#include <algorithm>
#include <cctype>

#include <jetperf/backend/gemm_backend.hpp>

namespace jetperf::workloads {

std::string to_string(gemm_dtype t) {
  switch (t) {
    case gemm_dtype::half: return "half";
    case gemm_dtype::single: return "float";
    case gemm_dtype::double_: return "double";
  }
  return "unknown";
}

std::optional<gemm_dtype> parse_gemm_dtype(const std::string& name) {
  if (name == "half") return gemm_dtype::half;
  if (name == "float") return gemm_dtype::single;
  if (name == "double") return gemm_dtype::double_;
  return std::nullopt;
}

std::size_t dtype_size(gemm_dtype t) {
  switch (t) {
    case gemm_dtype::half: return 2;
    case gemm_dtype::single: return 4;
    case gemm_dtype::double_: return 8;
  }
  return 8;
}

bool is_tensor_core_kernel(const std::string& name) {
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const char* marker : {"tensorop", "hmma", "xmma", "gmma", "imma", "dmma", "s16816", "h16816", "s1688",
                             "h1688", "h884", "s884", "d884", "sm80_xmma", "sm90_xmma", "16x8x16", "tf32"})
    if (lower.find(marker) != std::string::npos) return true;
  return false;
}

}  // namespace jetperf::workloads
