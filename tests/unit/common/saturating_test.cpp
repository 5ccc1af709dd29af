// Saturating sums and products: exact while they fit, the type's maximum once they do not.
#include <jetperf/common/saturating.hpp>

#include <cstdint>
#include <limits>

#include <gtest/gtest.h>

namespace jetperf {
namespace {

TEST(saturating, exact_while_it_fits_and_the_maximum_after) {
  constexpr auto max64 = std::numeric_limits<std::int64_t>::max();
  EXPECT_EQ(saturating_add<std::int64_t>(40, 2), 42);
  EXPECT_EQ(saturating_mul<std::int64_t>(std::int64_t{1} << 31, std::int64_t{1} << 31), std::int64_t{1} << 62);
  EXPECT_EQ(saturating_add<std::int64_t>(max64, 1), max64);
  EXPECT_EQ(saturating_mul<std::int64_t>(std::int64_t{1} << 32, std::int64_t{1} << 31), max64);  // 2^63
  EXPECT_EQ(saturating_mul<std::uint64_t>(std::uint64_t{1} << 32, std::uint64_t{1} << 32),
            std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(saturating_mul<std::uint64_t>(std::uint64_t{1} << 32, (std::uint64_t{1} << 32) - 1),
            (std::uint64_t{1} << 32) * ((std::uint64_t{1} << 32) - 1));
}

}  // namespace
}  // namespace jetperf
