// What the runner records about a job besides its points: a final state the database refuses is
// kept (reads see it) and stored once it can be; one the state machine refuses is dropped; the
// provenance is stored only when there is a source of it.
#include <jetperf/jobs/job_journal.hpp>

#include <gtest/gtest.h>

#include <jetperf/store/database.hpp>

using namespace jetperf;
using nlohmann::json;

namespace {

struct fixture {
  store::database db{":memory:"};
  store::job_store jobs{db};
  std::int64_t running_job() {
    const auto id = jobs.insert("k", json::object(), {}, 1, 0.0);
    jobs.set_state(id, jobs::job_state::running);
    return id;
  }
};

}  // namespace

TEST(job_journal, a_final_state_the_database_refuses_is_kept_seen_and_stored_once_it_can_be) {
  fixture f;
  jobs::job_journal journal(f.db, f.jobs, nullptr);
  const auto id = f.running_job();
  f.db.exec("PRAGMA query_only = 1");
  journal.save_final_state(id, jobs::job_state::failed, "no space");
  EXPECT_TRUE(journal.is_unsaved(id));
  auto seen = *f.jobs.get(id);
  EXPECT_EQ(seen.state, jobs::job_state::running);
  journal.overlay_unsaved(seen);
  EXPECT_EQ(seen.state, jobs::job_state::failed);
  EXPECT_EQ(seen.error, "no space");
  // Still refused: still kept.
  journal.save_unsaved_states();
  EXPECT_TRUE(journal.is_unsaved(id));
  f.db.exec("PRAGMA query_only = 0");
  journal.save_unsaved_states();
  EXPECT_FALSE(journal.is_unsaved(id));
  const auto stored = *f.jobs.get(id);
  EXPECT_EQ(stored.state, jobs::job_state::failed);
  EXPECT_EQ(stored.error, "no space");
}

TEST(job_journal, a_final_state_the_state_machine_refuses_is_dropped) {
  fixture f;
  jobs::job_journal journal(f.db, f.jobs, nullptr);
  const auto id = f.running_job();
  f.jobs.set_state(id, jobs::job_state::cancelled, "cancelled while running");
  journal.save_final_state(id, jobs::job_state::succeeded, "");
  EXPECT_FALSE(journal.is_unsaved(id));
  std::vector<store::job_record> listed{*f.jobs.get(id)};
  journal.overlay_unsaved(listed);
  EXPECT_EQ(listed[0].state, jobs::job_state::cancelled);
}

TEST(job_journal, stores_the_provenance_only_with_a_source) {
  fixture f;
  const auto id = f.running_job();
  jobs::job_journal without(f.db, f.jobs, nullptr);
  without.record_provenance(id);
  EXPECT_EQ(f.jobs.get(id)->provenance, json::object());
  jobs::job_journal with(f.db, f.jobs, [] { return jetperf::cell(jetperf::record{{"board", "sim:test"}}); });
  with.record_provenance(id);
  EXPECT_EQ(f.jobs.get(id)->provenance, (json{{"board", "sim:test"}}));
}
