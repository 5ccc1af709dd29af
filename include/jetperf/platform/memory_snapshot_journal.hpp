#pragma once
// A snapshot journal kept in memory (tests, and a daemon run without a database).
#include <algorithm>
#include <vector>

#include <jetperf/platform/snapshot_journal.hpp>

namespace jetperf::platform {

class memory_snapshot_journal : public snapshot_journal {
 public:
  void open(std::int64_t job_id, const std::string& reason, const nlohmann::json& state) override {
    open_.push_back({{"job_id", job_id}, {"reason", reason}, {"state", state}});
  }
  std::optional<nlohmann::json> oldest_open() override {
    if (open_.empty()) return std::nullopt;
    return open_.front()["state"];
  }
  std::optional<nlohmann::json> open_of(std::int64_t job_id) override {
    for (auto it = open_.rbegin(); it != open_.rend(); ++it)
      if ((*it)["job_id"] == job_id) return (*it)["state"];
    return std::nullopt;
  }
  void close(std::int64_t job_id) override {
    open_.erase(std::remove_if(open_.begin(), open_.end(), [&](const nlohmann::json& e) { return e["job_id"] == job_id; }),
                open_.end());
  }
  void close_all() override { open_.clear(); }
  /// Open entries: {"job_id","reason","state"}.
  const std::vector<nlohmann::json>& entries() const { return open_; }

 private:
  std::vector<nlohmann::json> open_;
};

}  // namespace jetperf::platform
