#include <jetperf/platform/reboot_plan.hpp>

#include <gtest/gtest.h>

using namespace jetperf::platform;

namespace {

// AGX Orin's masks: MAXN 0, MODE_15W 248, MODE_30W 240, MODE_50W 0; the board in MODE_30W.
board_offer orin() {
  board_offer o;
  o.power_modes = {{0, "MAXN", {1, 2}}, {1, "MODE_15W", {0, 2, 3}}, {2, "MODE_30W", {0, 1, 3}}, {3, "MODE_50W", {1, 2}}};
  o.power_mode = 2;
  return o;
}

std::string steps_text(const std::vector<reboot_step>& steps) {
  std::string s;
  for (const auto& st : steps)
    s += std::to_string(st.from) + ">" + std::to_string(st.to) + (st.restore ? "r" : "") + " ";
  return s;
}

}  // namespace

TEST(reboot_plan, walks_the_sweep_from_the_current_mode_and_back) {
  const auto o = orin();
  EXPECT_EQ(steps_text(reboot_steps(o, {0, 1, 2, 3})), "2>0 0>1 1>2 2>3 3>2r ");
  // 0 -> 3 keeps gating at 0: only the way in and the way back reboot.
  EXPECT_EQ(steps_text(reboot_steps(o, {0, 3})), "2>0 3>2r ");
  EXPECT_EQ(steps_text(reboot_steps(o, {2, 2})), "");
  EXPECT_EQ(describe(o, reboot_steps(o, {0, 3})), "2 (MODE_30W) -> 0 (MAXN), 3 (MODE_50W) -> 2 (MODE_30W) when the job ends");
}

TEST(reboot_plan, unknown_current_mode_checks_only_the_sweep) {
  auto o = orin();
  o.power_mode.reset();
  EXPECT_EQ(steps_text(reboot_steps(o, {0, 3})), "");
  EXPECT_EQ(steps_text(reboot_steps(o, {3, 1})), "3>1 ");
  // A board that says nothing about reboots (no gating params) never needs one.
  board_offer plain;
  plain.power_modes = {{0, "MAXN", {}}, {1, "5W", {}}};
  plain.power_mode = 0;
  EXPECT_TRUE(reboot_steps(plain, {1, 0, 1}).empty());
}
