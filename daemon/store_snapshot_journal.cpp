#include "store_snapshot_journal.hpp"

#include <jetperf/store/board_state_json.hpp>

namespace jetperf::daemon {

void store_snapshot_journal::open(std::int64_t job_id, const std::string& reason, const platform::board_state& state) {
  store_.open(job_id, reason, store::board_state_json(state));
}

std::optional<platform::board_state> store_snapshot_journal::oldest_open() {
  auto rec = store_.oldest_open();
  if (!rec) return std::nullopt;
  return store::board_state_from_json(rec->state);
}

std::optional<platform::board_state> store_snapshot_journal::open_of(std::int64_t job_id) {
  auto rec = store_.open_of(job_id);
  if (!rec) return std::nullopt;
  return store::board_state_from_json(rec->state);
}

void store_snapshot_journal::close(std::int64_t job_id) { store_.close(job_id); }

void store_snapshot_journal::close_all() { store_.close_all(); }

}  // namespace jetperf::daemon
