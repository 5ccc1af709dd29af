#pragma once
// The board snapshot journal (platform::snapshot_journal) on the SQLite store
// (store::snapshot_store), each snapshot in store/board_state_json.hpp's form. Here in the
// daemon, which wires the two: platform does not know the store.
#include <jetperf/platform/snapshot_journal.hpp>
#include <jetperf/store/snapshot_store.hpp>

namespace jetperf::daemon {

class store_snapshot_journal : public platform::snapshot_journal {
 public:
  explicit store_snapshot_journal(store::snapshot_store& store) : store_(store) {}
  void open(std::int64_t job_id, const std::string& reason, const platform::board_state& state) override;
  std::optional<platform::board_state> oldest_open() override;
  std::optional<platform::board_state> open_of(std::int64_t job_id) override;
  void close(std::int64_t job_id) override;
  void close_all() override;

 private:
  store::snapshot_store& store_;
};

}  // namespace jetperf::daemon
