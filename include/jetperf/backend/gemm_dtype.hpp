#pragma once
// The element types a GEMM sweep covers, by their spec names ("half", "float", "double").
#include <cstddef>
#include <optional>
#include <string>

namespace jetperf::workloads {

enum class gemm_dtype { half, single, double_ };

/// "half", "float", "double".
std::string to_string(gemm_dtype t);
/// Parses a spec name; nullopt when unknown.
std::optional<gemm_dtype> parse_gemm_dtype(const std::string& name);
/// Bytes per element: 2, 4, 8.
std::size_t dtype_size(gemm_dtype t);

}  // namespace jetperf::workloads
