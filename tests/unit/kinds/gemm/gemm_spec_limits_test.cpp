// The gemm spec's size limits: the sweep is counted before any size is built, and three
// matrices must fit the memory the points run in (this host's on a board that reports none).
#include <jetperf/kinds/gemm/gemm_spec.hpp>

#include <limits>
#include <string>

#include <cmath>

#include <gtest/gtest.h>

#include <jetperf/common/errors.hpp>
#include <jetperf/kinds/common/memory_limit.hpp>

#include "../allocation_counter.hpp"
#include "../spec_json.hpp"

using nlohmann::json;
using namespace jetperf::kinds;

namespace {

json normalize_gemm_spec(const json& spec, const jetperf::platform::board_offer& off) {
  return jetperf::test::normalized_json<gemm_spec>("gemm", spec, off);
}

// A board that reports no memory, as the simulated ones do.
jetperf::platform::board_offer unreported(bool has_cuda) {
  jetperf::platform::board_offer o;
  o.has_cuda_device = has_cuda;
  return o;
}

jetperf::validation_error refusal(const json& spec, const jetperf::platform::board_offer& board) {
  try {
    normalize_gemm_spec(spec, board);
  } catch (const jetperf::validation_error& e) {
    return e;
  }
  ADD_FAILURE() << "accepted " << spec.dump();
  return jetperf::validation_error("", "accepted");
}

}  // namespace

TEST(gemm_spec_limits, sizes_are_counted_without_being_built) {
  json ten = json::array();
  for (int i = 0; i < 10; ++i) ten.push_back("1:100000:1");
  EXPECT_EQ(count_gemm_sizes(jetperf::cell_of(ten)), 1000000u);
  EXPECT_EQ(count_gemm_sizes("128:2048:128"), 16u);
  EXPECT_EQ(count_gemm_sizes("1:10:3"), 4u);  // 1, 4, 7, 10
  EXPECT_EQ(count_gemm_sizes("1:9:3"), 3u);   // 1, 4, 7: the end need not be a step
  EXPECT_EQ(count_gemm_sizes("512:128:128"), 0u);
  EXPECT_EQ(count_gemm_sizes(jetperf::cell_of(json::array({"1:10:3", 64, "8x16x32", {{"m", 1}, {"n", 2}, {"k", 3}}}))), 7u);
  EXPECT_EQ(count_gemm_sizes("1:1048576:1, 1:1048576:1"), 2u * 1048576u);
  // Each end is checked, without walking the range: 2^20 + 1 is beyond the largest dimension.
  EXPECT_THROW(count_gemm_sizes("1:1048577:1"), jetperf::validation_error);
  EXPECT_THROW(count_gemm_sizes("0:10:1"), jetperf::validation_error);
  EXPECT_THROW(count_gemm_sizes("1:10"), jetperf::validation_error);
}

TEST(gemm_spec_limits, the_point_count_multiplies_the_axes_and_saturates) {
  EXPECT_EQ(gemm_point_count({{"sizes", 16}, {"dtypes", 3}, {"tensor", 2}, {"repeats", 5}}), 480u);
  EXPECT_EQ(gemm_point_count({{"sizes", std::uint64_t{1} << 40}, {"repeats", std::uint64_t{1} << 30}}),
            std::numeric_limits<std::uint64_t>::max());
}

TEST(gemm_spec_limits, the_allocation_counter_sees_what_this_thread_allocates) {
  jetperf::test::allocation_counter counter;
  const json big = std::string(std::size_t{1} << 20, 'x');
  EXPECT_GE(counter.bytes(), std::size_t{1} << 20) << big.get_ref<const std::string&>().size();
}

TEST(gemm_spec_limits, ten_full_ranges_are_refused_before_a_size_is_built) {
  json ten = json::array();
  for (int i = 0; i < 10; ++i) ten.push_back("1:100000:1");
  const json spec = {{"device", "cuda"}, {"tensor", "off"}, {"sizes", ten}};
  jetperf::test::allocation_counter counter;
  const auto e = refusal(spec, unreported(true));
  const auto allocated = counter.bytes();
  EXPECT_EQ(e.field(), "spec.sizes");
  EXPECT_EQ(e.code(), "too_many_points");
  EXPECT_NE(std::string(e.what()).find("the sweep has 1000000 points"), std::string::npos) << e.what();
  // A million sizes are 24 MB as gemm_size structs (more as JSON): a refusal that allocated a
  // mebibyte built at least part of what it refuses.
  EXPECT_LT(allocated, std::size_t{1} << 20);
}

TEST(gemm_spec_limits, the_largest_axis_is_named_when_the_sweep_is_too_big) {
  // 1000 repeats x 101 sizes: repeats is the larger axis.
  const auto e = refusal({{"device", "cuda"}, {"tensor", "off"}, {"sizes", "1:101:1"}, {"repeats", 1000}}, unreported(true));
  EXPECT_EQ(e.field(), "spec.repeats");
  EXPECT_EQ(e.code(), "too_many_points");
}

// Issue 35, 11: a float GEMM whose A, B and C (3 x 4 n^2 bytes) exceed what this host has free
// was accepted because the check was against all of its memory; it is refused now, and one that
// needs a third of what is free is accepted.
TEST(gemm_spec_limits, cpu_sizes_must_fit_the_memory_this_host_has_available) {
  const auto board = unreported(false);
  const auto available = static_cast<double>(jetperf::kinds::common::host_available_memory_bytes());
  ASSERT_GT(available, 0);
  const auto side = [](double bytes) { return static_cast<std::int64_t>(std::ceil(std::sqrt(bytes / 12.0))); };
  const auto e = refusal({{"device", "cpu"}, {"sizes", {side(available * 1.2)}}}, board);
  EXPECT_EQ(e.field(), "spec.sizes");
  EXPECT_EQ(e.code(), "too_large");
  EXPECT_EQ(normalize_gemm_spec({{"device", "cpu"}, {"sizes", {side(available / 3)}}}, board)["sizes"].size(), 1u);
  // One that would leave the daemon and the board less than their headroom is refused too
  // (issue 58: 19 GB points were accepted against 22 GB available).
  const auto headroom = static_cast<double>(jetperf::kinds::common::cpu_headroom_bytes());
  const auto tight = refusal({{"device", "cpu"}, {"sizes", {side(available - headroom / 2)}}}, board);
  EXPECT_EQ(tight.field(), "spec.sizes");
  EXPECT_EQ(tight.code(), "too_large");
}

TEST(gemm_spec_limits, cpu_sizes_on_a_board_that_reports_no_memory_must_fit_this_host) {
  const auto board = unreported(false);
  // 3 x 2^40 floats = 12 TiB for A, B and C: no host has that.
  const auto e = refusal({{"device", "cpu"}, {"sizes", {1048576}}}, board);
  EXPECT_EQ(e.field(), "spec.sizes");
  EXPECT_EQ(e.code(), "too_large");
  EXPECT_NE(std::string(e.what()).find("over this host's available memory (MemAvailable, less its headroom) = "), std::string::npos)
      << e.what();
  // 3 x 256^2 floats fit any host.
  EXPECT_EQ(normalize_gemm_spec({{"device", "cpu"}, {"sizes", {256}}}, board)["sizes"].size(), 1u);
}

TEST(gemm_spec_limits, cuda_sizes_fall_back_to_the_shared_memory_and_say_so) {
  auto board = unreported(true);
  board.memory_bytes = 1LL << 30;  // a Jetson: the GPU shares the board's memory
  const auto e = refusal({{"device", "cuda"}, {"sizes", {16384}}, {"dtypes", {"double"}}}, board);
  EXPECT_EQ(e.field(), "spec.sizes");
  EXPECT_NE(std::string(e.what()).find("over memory_bytes = 1073741824"), std::string::npos) << e.what();
}
