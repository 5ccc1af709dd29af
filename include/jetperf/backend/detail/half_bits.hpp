#pragma once
// IEEE 754 binary16 <-> float on the host, without a compiler half type (gcc 9 on aarch64 and
// x86 differ), for filling and reading half matrices of any backend.
#include <cstdint>
#include <cstring>

namespace jetperf::workloads::detail {

/// Round-to-nearest-even float -> half bits.
inline std::uint16_t float_to_half_bits(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, 4);
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  const std::int32_t exp = static_cast<std::int32_t>((x >> 23) & 0xff) - 127 + 15;
  std::uint32_t mant = x & 0x7fffffu;
  if (((x >> 23) & 0xff) == 0xff) return static_cast<std::uint16_t>(sign | 0x7c00u | (mant ? 0x200u : 0u));
  if (exp >= 31) return static_cast<std::uint16_t>(sign | 0x7c00u);
  if (exp <= 0) {
    if (exp < -10) return static_cast<std::uint16_t>(sign);
    mant |= 0x800000u;
    const int shift = 14 - exp;
    std::uint32_t h = mant >> shift;
    const std::uint32_t rem = mant & ((1u << shift) - 1);
    const std::uint32_t half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1u))) ++h;
    return static_cast<std::uint16_t>(sign | h);
  }
  std::uint32_t h = (static_cast<std::uint32_t>(exp) << 10) | (mant >> 13);
  const std::uint32_t rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;  // may carry into the exponent: still correct
  return static_cast<std::uint16_t>(sign | h);
}

inline float half_bits_to_float(std::uint16_t h) {
  const std::uint32_t sign = (h & 0x8000u) << 16;
  std::uint32_t exp = (h >> 10) & 0x1fu;
  std::uint32_t mant = h & 0x3ffu;
  std::uint32_t x;
  if (exp == 0) {
    if (mant == 0) {
      x = sign;
    } else {
      exp = 127 - 15 + 1;
      while (!(mant & 0x400u)) {
        mant <<= 1;
        --exp;
      }
      x = sign | (exp << 23) | ((mant & 0x3ffu) << 13);
    }
  } else if (exp == 31) {
    x = sign | 0x7f800000u | (mant << 13);
  } else {
    x = sign | ((exp - 15 + 127) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

/// Deterministic values in [-1, 1] (a 64-bit LCG), the same on every backend and run.
inline double fill_value(std::uint64_t i, std::uint64_t seed) {
  std::uint64_t s = (i + 1) * 6364136223846793005ull + seed * 1442695040888963407ull;
  s ^= s >> 33;
  s *= 0xff51afd7ed558ccdull;
  s ^= s >> 33;
  return static_cast<double>(s >> 11) / static_cast<double>(1ull << 53) * 2.0 - 1.0;
}

}  // namespace jetperf::workloads::detail
