// The host half of the GPU kernel trace: CUPTI's clock onto CLOCK_MONOTONIC, a kernel record
// read field by field, the distinct names cuBLAS points report.
#include <jetperf/backend/kernel_trace.hpp>

#include <cstdint>
#include <stdexcept>

#include <gtest/gtest.h>

using namespace jetperf::workloads;

namespace {

// The fields kernel_from_record reads, named and typed as in CUpti_ActivityKernel4..10 (the
// CUDA half instantiates it with the real record; this checks what it does with the values).
struct record {
  std::uint64_t start, end;
  std::uint32_t deviceId, correlationId, streamId;
  std::int32_t gridX, gridY, gridZ, blockX, blockY, blockZ;
  const char* name;
};

}  // namespace

TEST(kernel_trace, the_narrowest_bracket_gives_the_offset_and_its_uncertainty) {
  // Monotonic reads around a realtime read 1e18 ahead; the second bracket was preempted.
  const std::vector<clock_bracket> brackets{{1000, 1'000'000'000'000'001'400, 1800},
                                            {5000, 1'000'000'000'000'009'000, 9000},
                                            {10000, 1'000'000'000'000'010'150, 10300}};
  const auto c = offset_from_brackets(brackets);
  EXPECT_EQ(c.uncertainty_ns, 150);  // (10300 - 10000) / 2
  EXPECT_EQ(c.offset_ns, 10150 - 1'000'000'000'000'010'150);
  EXPECT_EQ(1'000'000'000'000'010'150 + c.offset_ns, 10150);
  EXPECT_THROW(offset_from_brackets({}), std::invalid_argument);
}

TEST(kernel_trace, a_record_becomes_a_kernel_on_the_monotonic_clock) {
  const record r{5'000'000'123, 5'000'050'123, 1, 77, 13, 64, 2, 1, 256, 1, 1, "volta_sgemm_128x64_nn"};
  const auto k = kernel_from_record(r, -4'000'000'000);
  EXPECT_EQ(k.name, "volta_sgemm_128x64_nn");
  EXPECT_EQ(k.start_ns, 1'000'000'123);
  EXPECT_EQ(k.end_ns, 1'000'050'123);
  EXPECT_EQ(k.launch_ns, -1);  // the launch comes from the API record of the same correlation id
  EXPECT_EQ(k.correlation, 77u);
  EXPECT_EQ(k.stream, 13u);
  EXPECT_EQ(k.device, 1u);
  EXPECT_EQ(k.grid, (std::array<std::int32_t, 3>{64, 2, 1}));
  EXPECT_EQ(k.block, (std::array<std::int32_t, 3>{256, 1, 1}));
  record unnamed = r;
  unnamed.name = nullptr;
  EXPECT_EQ(kernel_from_record(unnamed, 0).name, "unknown");
}

TEST(kernel_trace, distinct_names_keep_launch_order) {
  kernel_trace t;
  for (const char* n : {"b", "a", "b", "c", "a"}) {
    gpu_kernel k;
    k.name = n;
    t.kernels.push_back(k);
  }
  EXPECT_EQ(distinct_kernel_names(t), (std::vector<std::string>{"b", "a", "c"}));
  EXPECT_EQ(distinct_kernel_names(kernel_trace{}), (std::vector<std::string>{"unknown"}));
}
