#include <jetperf/jobs/board_guard.hpp>

#include <exception>
#include <utility>

#include <spdlog/spdlog.h>

#include <jetperf/common/errors.hpp>
#include <jetperf/store/job_state.hpp>

namespace jetperf::jobs {

template <typename Arm>
void board_guard::arm_with(Arm arm) {
  if (!board_) return;
  try {
    arm();
  } catch (...) {
    // No destructor runs for a guard that was never made: what the arming changed goes back here.
    restore();
    throw;
  }
}

board_guard::board_guard(platform::board_settings* board, std::int64_t job_id) : board_(board), job_id_(job_id) {
  arm_with([this] { board_->arm(job_id_); });
}

board_guard::board_guard(platform::board_settings* board, std::int64_t job_id, rearm_tag)
    : board_(board), job_id_(job_id) {
  arm_with([this] { booted_in_ = board_->rearm(job_id_); });
}

board_guard board_guard::rearmed(platform::board_settings* board, std::int64_t job_id) {
  return board_guard(board, job_id, rearm_tag{});
}

board_guard::~board_guard() { restore(); }

std::string board_guard::restore() {
  if (!board_) return {};
  auto* board = std::exchange(board_, nullptr);
  try {
    board->restore();
    return {};
  } catch (const store_error& e) {
    // The board is back; only its snapshot's record could not be written (a full disk): a
    // failure of the store, which a resume once there is room gets past.
    spdlog::error("job {}: the board was restored but its snapshot could not be marked so: {}", job_id_, e.what());
    return store::k_store_failure_prefix + std::string(e.what()) + " (the board was restored)";
  } catch (const std::exception& e) {
    spdlog::error("job {}: restoring the board failed: {}", job_id_, e.what());
    return e.what();
  }
}

void board_guard::hand_off() { board_ = nullptr; }

}  // namespace jetperf::jobs
