#pragma once
// Integer sums and products that stop at the type's maximum instead of wrapping, for counts and
// sizes computed from user input (points in a sweep, bytes of a working set): a saturated value
// still compares as "more than any limit", where a wrapped one could look small.
#include <limits>
#include <type_traits>

namespace jetperf {

/// a + b for non-negative a and b, or the largest T when the sum does not fit.
template <typename T>
T saturating_add(T a, T b) {
  static_assert(std::is_integral<T>::value, "integers only");
  T r{};
  return __builtin_add_overflow(a, b, &r) ? std::numeric_limits<T>::max() : r;
}

/// a * b for non-negative a and b, or the largest T when the product does not fit.
template <typename T>
T saturating_mul(T a, T b) {
  static_assert(std::is_integral<T>::value, "integers only");
  T r{};
  return __builtin_mul_overflow(a, b, &r) ? std::numeric_limits<T>::max() : r;
}

}  // namespace jetperf
