#pragma once
// The byte layout of sample_chunks.data: `count` records of 16 bytes, each an int64 t_ns then an
// IEEE-754 float64 value, both little-endian. Bytes are assembled by shifts rather than memcpy'd,
// so a database written on an aarch64 board reads the same on any host; compilers turn the shifts
// into plain loads on little-endian machines.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace jetperf::store::detail {

/// Bytes per stored sample.
constexpr std::size_t k_sample_bytes = 16;

inline void put_le64(std::uint64_t v, unsigned char* out) noexcept {
  for (int i = 0; i < 8; ++i) out[i] = static_cast<unsigned char>(v >> (8 * i));
}

inline std::uint64_t get_le64(const unsigned char* in) noexcept {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= static_cast<std::uint64_t>(in[i]) << (8 * i);
  return v;
}

/// Appends one sample's 16 bytes to `out`.
inline void append_sample(std::vector<unsigned char>& out, std::int64_t t_ns, double value) {
  unsigned char rec[k_sample_bytes];
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  put_le64(static_cast<std::uint64_t>(t_ns), rec);
  put_le64(bits, rec + 8);
  out.insert(out.end(), rec, rec + k_sample_bytes);
}

/// Calls fn(t_ns, value) for each of the `count` samples at `data` (count * 16 bytes).
template <class Fn>
void for_each_sample(const unsigned char* data, std::size_t count, Fn&& fn) {
  for (std::size_t i = 0; i < count; ++i, data += k_sample_bytes) {
    const std::uint64_t bits = get_le64(data + 8);
    double value = 0;
    std::memcpy(&value, &bits, sizeof value);
    fn(static_cast<std::int64_t>(get_le64(data)), value);
  }
}

}  // namespace jetperf::store::detail
