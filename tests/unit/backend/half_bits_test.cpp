#include <jetperf/backend/detail/half_bits.hpp>

#include <cmath>

#include <gtest/gtest.h>

TEST(half_bits, round_trips_and_rounds) {
  using namespace jetperf::workloads::detail;
  for (float f : {0.0f, 1.0f, -2.5f, 0.333251953125f, 65504.0f, 6.103515625e-05f, 5.960464477539063e-08f})
    EXPECT_EQ(half_bits_to_float(float_to_half_bits(f)), f) << f;
  EXPECT_EQ(float_to_half_bits(1.0f), 0x3c00);
  EXPECT_TRUE(std::isinf(half_bits_to_float(float_to_half_bits(1e6f))));
  EXPECT_EQ(float_to_half_bits(1.0f + 1.0f / 4096), 0x3c00);  // ties to even
}
