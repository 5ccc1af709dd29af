#pragma once
// The byte layout of sample_chunk_seconds.data: for each record of a downsampled chunk (one per
// second), float64 min, float64 max and int64 count, little-endian (as sample_chunk.hpp).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include <jetperf/store/detail/sample_chunk.hpp>

namespace jetperf::store::detail {

constexpr std::size_t k_second_bytes = 24;

inline void append_second(std::vector<unsigned char>& out, double min, double max, std::int64_t count) {
  unsigned char rec[k_second_bytes];
  std::uint64_t bits = 0;
  std::memcpy(&bits, &min, sizeof bits);
  put_le64(bits, rec);
  std::memcpy(&bits, &max, sizeof bits);
  put_le64(bits, rec + 8);
  put_le64(static_cast<std::uint64_t>(count), rec + 16);
  out.insert(out.end(), rec, rec + k_second_bytes);
}

/// Calls fn(min, max, count) for each of the `count` records at `data` (count * 24 bytes).
template <class Fn>
void for_each_second(const unsigned char* data, std::size_t count, Fn&& fn) {
  for (std::size_t i = 0; i < count; ++i, data += k_second_bytes) {
    double min = 0, max = 0;
    std::uint64_t bits = get_le64(data);
    std::memcpy(&min, &bits, sizeof min);
    bits = get_le64(data + 8);
    std::memcpy(&max, &bits, sizeof max);
    fn(min, max, static_cast<std::int64_t>(get_le64(data + 16)));
  }
}

}  // namespace jetperf::store::detail
