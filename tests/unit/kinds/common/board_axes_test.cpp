// A clock value is refused in the same words when a job's spec names it and when a point (or
// PUT /v1/clocks) applies it: both go through platform::check_offered_clock, the one check.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <jetperf/store/cell_json.hpp>

#include <jetperf/common/errors.hpp>
#include <jetperf/kinds/common/sweep_axes.hpp>
#include <jetperf/platform/clock_control.hpp>

using namespace jetperf;
using nlohmann::json;

namespace {

// The refusal's field and message, or {"", ""} when nothing was refused.
template <class F>
std::pair<std::string, std::string> refusal(F f) {
  try {
    f();
  } catch (const validation_error& e) {
    return {e.field(), e.what()};
  }
  return {};
}

std::pair<std::string, std::string> at_submission(const char* axis, json values, const platform::board_offer& offer) {
  return refusal([&] {
    record out;
    kinds::common::normalize_board_axes(record{{axis, cell_of(values)}}, offer, out);
  });
}

std::pair<std::string, std::string> at_apply(long long value, const std::vector<std::int64_t>& offered,
                                             const char* setting) {
  return refusal([&] { platform::check_frequency(value, {offered.begin(), offered.end()}, setting); });
}

}  // namespace

TEST(board_axes, a_clock_no_board_offers_is_refused_in_the_same_words_at_submission_and_at_apply) {
  platform::board_offer offer;
  offer.gpu_freqs_hz = {300000000, 900000000};
  offer.cpu_freqs_khz = {1200000, 2201600};
  const auto gpu = at_submission("gpu_freqs", {1}, offer);
  EXPECT_EQ(gpu.first, "spec.gpu_freqs");
  EXPECT_EQ(gpu.second, "gpu_freq_hz 1 is not offered by this board; valid: 300000000, 900000000");
  EXPECT_EQ(gpu.second, at_apply(1, offer.gpu_freqs_hz, "gpu_freq_hz").second);
  const auto cpu = at_submission("cpu_freqs", {"max", 5}, offer);
  EXPECT_EQ(cpu.first, "spec.cpu_freqs");
  EXPECT_EQ(cpu.second, at_apply(5, offer.cpu_freqs_khz, "cpu_freq_khz").second);
  // A board without the control says so in the same words too.
  const auto emc = at_submission("emc_freqs", {2133000000}, offer);
  EXPECT_EQ(emc.second, "this board offers no emc_freq_hz control");
  EXPECT_EQ(emc.second, at_apply(2133000000, {}, "emc_freq_hz").second);
  // What the board offers passes both, in any order it lists them.
  EXPECT_EQ(at_submission("gpu_freqs", {900000000, 300000000}, offer).second, "");
  EXPECT_EQ(platform::check_offered_clock(900000000, {900000000, 300000000}, "f", "gpu_freq_hz"), 900000000);
}
