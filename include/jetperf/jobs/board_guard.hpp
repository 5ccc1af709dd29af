#pragma once
// The one place a job's board settings are armed and put back. A guard arms the board when it is
// made and restores it when it goes, on every way out of the job (an exception too), unless it
// handed the board off: a point that rebooted the board leaves the snapshot to the reboot
// journal (store::reboot_journal), and the start-up after the boot arms it again.
#include <cstdint>
#include <optional>
#include <string>

#include <jetperf/platform/board_settings.hpp>

namespace jetperf::jobs {

class board_guard {
 public:
  /// Arms `board` for job `job_id` (board_settings::arm). A null board guards nothing. When
  /// arming throws, what it armed is put back and the error goes on.
  board_guard(platform::board_settings* board, std::int64_t job_id);
  /// After the boot a job's reboot asked for: arms the journaled snapshot again
  /// (board_settings::rearm); booted_in() says the power mode the board came up in.
  static board_guard rearmed(platform::board_settings* board, std::int64_t job_id);
  /// Restores the board unless that was done or the board was handed off; a failure is logged.
  ~board_guard();
  board_guard(const board_guard&) = delete;
  board_guard& operator=(const board_guard&) = delete;

  /// Puts the board back now (at most once): "" or what failed (logged).
  std::string restore();
  /// Leaves the board armed and stops guarding it: the reboot journal holds the job's snapshot
  /// (its point rebooted the board), or the job's next run restores it.
  void hand_off();
  /// The power mode in effect after rearmed(); nullopt otherwise or when it cannot be read.
  std::optional<std::int64_t> booted_in() const { return booted_in_; }

 private:
  struct rearm_tag {};
  board_guard(platform::board_settings* board, std::int64_t job_id, rearm_tag);
  /// Runs `arm` (arm or rearm); when it throws, restores and rethrows.
  template <typename Arm>
  void arm_with(Arm arm);

  platform::board_settings* board_;  ///< null once restored or handed off
  std::int64_t job_id_;
  std::optional<std::int64_t> booted_in_;
};

}  // namespace jetperf::jobs
