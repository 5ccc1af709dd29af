#pragma once
// A snapshot journal kept in memory (tests, and a daemon run without a database).
#include <algorithm>
#include <vector>

#include <jetperf/platform/snapshot_journal.hpp>

namespace jetperf::platform {

class memory_snapshot_journal : public snapshot_journal {
 public:
  struct entry {
    std::int64_t job_id = 0;
    std::string reason;
    board_state state;
  };

  void open(std::int64_t job_id, const std::string& reason, const board_state& state) override {
    open_.push_back({job_id, reason, state});
  }
  std::optional<board_state> oldest_open() override {
    if (open_.empty()) return std::nullopt;
    return open_.front().state;
  }
  std::optional<board_state> open_of(std::int64_t job_id) override {
    for (auto it = open_.rbegin(); it != open_.rend(); ++it)
      if (it->job_id == job_id) return it->state;
    return std::nullopt;
  }
  void close(std::int64_t job_id) override {
    open_.erase(std::remove_if(open_.begin(), open_.end(), [&](const entry& e) { return e.job_id == job_id; }),
                open_.end());
  }
  void close_all() override { open_.clear(); }
  /// The open entries, oldest first.
  const std::vector<entry>& entries() const { return open_; }

 private:
  std::vector<entry> open_;
};

}  // namespace jetperf::platform
