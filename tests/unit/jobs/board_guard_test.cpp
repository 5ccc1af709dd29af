// The one place a job's board is armed and put back: restored when the guard goes (an exception
// too), once; not restored when a point's reboot handed it off; put back when arming fails.
#include <jetperf/jobs/board_guard.hpp>

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include <jetperf/common/errors.hpp>

using namespace jetperf;

namespace {

class counting_board final : public platform::board_settings {
 public:
  platform::board_offer offered() const override { return {}; }
  void arm(std::int64_t job_id) override {
    armed.push_back(job_id);
    if (fail_arm) throw platform_error("the clocks cannot be read");
  }
  platform::board_setting apply(const platform::board_setting& s) override { return s; }
  void restore() override {
    ++restores;
    if (fail_restore) throw platform_error("nvpmodel refused");
  }
  std::optional<std::int64_t> rearm(std::int64_t job_id) override {
    rearmed.push_back(job_id);
    return mode;
  }

  std::vector<std::int64_t> armed, rearmed;
  int restores = 0;
  bool fail_arm = false, fail_restore = false;
  std::optional<std::int64_t> mode = 3;
};

}  // namespace

TEST(board_guard, arms_on_construction_and_restores_once_on_destruction) {
  counting_board board;
  {
    jobs::board_guard guard(&board, 7);
    EXPECT_EQ(board.armed, (std::vector<std::int64_t>{7}));
    EXPECT_EQ(board.restores, 0);
  }
  EXPECT_EQ(board.restores, 1);
}

TEST(board_guard, restores_when_an_exception_leaves_the_scope) {
  counting_board board;
  try {
    jobs::board_guard guard(&board, 7);
    throw std::runtime_error("storing the point failed");
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(board.armed.size(), 1u);
  EXPECT_EQ(board.restores, 1);
}

TEST(board_guard, an_explicit_restore_is_the_only_one) {
  counting_board board;
  {
    jobs::board_guard guard(&board, 7);
    EXPECT_EQ(guard.restore(), "");
    EXPECT_EQ(board.restores, 1);
    EXPECT_EQ(guard.restore(), "");
  }
  EXPECT_EQ(board.restores, 1);
}

TEST(board_guard, a_point_that_rebooted_the_board_hands_it_off_without_restoring) {
  counting_board board;
  try {
    jobs::board_guard guard(&board, 7);
    guard.hand_off();
    EXPECT_EQ(guard.restore(), "");
    throw std::runtime_error("the process goes down with the board");
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(board.restores, 0);
}

TEST(board_guard, a_failed_restore_is_said_and_never_thrown) {
  counting_board board;
  board.fail_restore = true;
  {
    jobs::board_guard guard(&board, 7);
    EXPECT_EQ(guard.restore(), "nvpmodel refused");
  }
  EXPECT_EQ(board.restores, 1);
  // From the destructor too: logged, not thrown.
  EXPECT_NO_THROW({ jobs::board_guard guard(&board, 8); });
  EXPECT_EQ(board.restores, 2);
}

TEST(board_guard, a_failed_arming_puts_back_what_it_armed_and_throws) {
  counting_board board;
  board.fail_arm = true;
  EXPECT_THROW({ jobs::board_guard guard(&board, 7); }, platform_error);
  EXPECT_EQ(board.armed, (std::vector<std::int64_t>{7}));
  EXPECT_EQ(board.restores, 1);
}

TEST(board_guard, rearmed_after_a_boot_says_the_mode_and_restores_unless_the_job_goes_on) {
  counting_board board;
  {
    auto guard = jobs::board_guard::rearmed(&board, 9);
    EXPECT_EQ(guard.booted_in(), std::optional<std::int64_t>(3));
  }
  EXPECT_EQ(board.rearmed, (std::vector<std::int64_t>{9}));
  EXPECT_TRUE(board.armed.empty());
  EXPECT_EQ(board.restores, 1);
  {
    auto guard = jobs::board_guard::rearmed(&board, 9);
    guard.hand_off();
  }
  EXPECT_EQ(board.restores, 1);
}

TEST(board_guard, without_a_board_it_guards_nothing) {
  jobs::board_guard guard(nullptr, 7);
  EXPECT_EQ(guard.restore(), "");
  EXPECT_EQ(jobs::board_guard::rearmed(nullptr, 7).booted_in(), std::nullopt);
}
