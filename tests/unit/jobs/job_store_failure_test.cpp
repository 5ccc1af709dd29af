// A database that stops taking writes in the middle of a job (a full disk): the job ends failed
// with the reason, the runner goes on serving, earlier points stay readable, and the job resumes
// from its last stored point once there is space again. A full disk is SQLite's SQLITE_FULL,
// made here with PRAGMA max_page_count; a database that refuses every write (query_only) stands
// for one where even the job's final state cannot be written.
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <thread>
#include <utility>

#include "support/json_workload.hpp"
#include "support/json_kind.hpp"
#include <jetperf/store/cell_json.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/common/spec_fields.hpp>
#include <jetperf/jobs/job_service.hpp>
#include <jetperf/jobs/job_state.hpp>
#include <jetperf/store/database.hpp>
#include <jetperf/store/job_store.hpp>
#include <jetperf/platform/board_settings.hpp>
#include <support/temp_dir.hpp>

using namespace jetperf;
using nlohmann::json;
using namespace std::chrono_literals;

namespace {

// Points whose metrics carry `pad` bytes (so that storing one needs new pages); before running
// point `break_at` it calls the test's hook once, which takes the database's space away.
class padded_workload final : public test::json_kind {
 public:
  /// Shared with the test, which sets it after the kind went into the registry.
  std::shared_ptr<std::function<void()>> hook = std::make_shared<std::function<void()>>();

  std::string kind() const { return "padded"; }
  json parse(const record& spec, const platform::board_offer&) const {
    reject_unknown_fields(spec, {"points", "pad", "break_at"});
    return {{"points", integer_field(spec, "points", 1, 100, 5)},
            {"pad", integer_field(spec, "pad", 0, 1 << 20, 0)},
            {"break_at", integer_field(spec, "break_at", -1, 100, -1)}};
  }
  std::vector<json> expand(const json& spec) const {
    std::vector<json> p;
    for (int i = 0; i < spec["points"].get<int>(); ++i) p.push_back({{"i", i}});
    return p;
  }
  std::vector<double> estimate_points_s(const json&, const std::vector<json>& points,
                                        const measure::estimate_context&) const {
    return std::vector<double>(points.size(), 0.001);
  }
  measure::point_result run_point(measure::point_context&, const json& spec, const json& point) {
    if (point["i"] == spec["break_at"] && *hook) std::exchange(*hook, nullptr)();
    measure::point_result r;
    r.metrics = row(record{{"value", point["i"].get<int>() * 10},
                           {"pad", std::string(static_cast<std::size_t>(spec["pad"].get<int>()), 'x')}});
    return r;
  }
  cell summarize(const std::vector<jobs::point_row>& points) const {
    return record{{"points_seen", points.size()}};
  }
};

// A board whose restore writes its snapshot's record to the job's database, as the board
// controller's journal does: on a full disk the board is back but the record fails.
class journaling_board final : public platform::board_settings {
 public:
  store::database** db = nullptr;
  platform::board_offer offered() const override { return {}; }
  void arm(std::int64_t) override {}
  platform::board_setting apply(const platform::board_setting& s) override { return s; }
  void restore() override {
    ++restores;
    (*db)->exec("CREATE TABLE IF NOT EXISTS test_snapshots(x BLOB)");
    (*db)->exec("INSERT INTO test_snapshots VALUES (zeroblob(40000))");
  }
  std::optional<std::int64_t> rearm(std::int64_t) override { return std::nullopt; }
  int restores = 0;
};

struct fixture {
  test::temp_dir dir;
  std::unique_ptr<store::database> db;
  jobs::workload_registry registry;
  std::shared_ptr<std::function<void()>> hook;
  event_hub hub;
  std::unique_ptr<jobs::job_service> service;
  store::database* db_view = nullptr;
  journaling_board board;
  bool with_board = false;

  explicit fixture(bool board_too = false) : with_board(board_too) {
    padded_workload w;
    hook = w.hook;
    registry.add(jobs::make_workload(std::move(w)));
    open();
  }
  void open() {
    service.reset();
    db.reset();
    db = std::make_unique<store::database>(dir.file("jetperf.db"));
    db_view = db.get();
    board.db = &db_view;
    service = std::make_unique<jobs::job_service>(*db, registry, hub, with_board ? &board : nullptr, nullptr);
    service->start();
  }
  std::int64_t pages() {
    store::statement st(db->handle(), "PRAGMA page_count");
    return st.step() ? st.column_int(0) : 0;
  }
  // What the database itself holds, past the service's view.
  store::job_record stored(std::int64_t id) { return *store::job_store(*db).get(id); }
  store::job_record wait_terminal(std::int64_t id) {
    const auto until = std::chrono::steady_clock::now() + 20s;
    for (;;) {
      auto j = service->get(id);
      if (jobs::is_terminal(j.state) || std::chrono::steady_clock::now() > until) return j;
      std::this_thread::sleep_for(5ms);
    }
  }
};

std::string conflict_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const conflict& e) {
    return e.what();
  }
  return "no conflict";
}

}  // namespace

TEST(job_store_failure, a_full_disk_fails_the_job_with_the_reason_and_it_resumes_once_there_is_space) {
  fixture f;
  // Before point 2 the database may not grow any more: storing point 2 fails with SQLITE_FULL.
  *f.hook = [&f] { f.db->exec("PRAGMA max_page_count = " + std::to_string(f.pages())); };
  const auto id = f.service->submit("padded", jetperf::test::spec_of({{"points", 5}, {"pad", 20000}, {"break_at", 2}}), {}).id;
  const auto job = f.wait_terminal(id);
  ASSERT_EQ(job.state, jobs::job_state::failed) << job.error;
  EXPECT_EQ(job.error.rfind("the database could not be written: ", 0), 0u) << job.error;
  EXPECT_NE(job.error.find("database or disk is full"), std::string::npos) << job.error;
  // Stored as failed: nothing is left `running` for a restart to find.
  EXPECT_EQ(f.stored(id).state, jobs::job_state::failed);
  EXPECT_EQ(f.stored(id).error, job.error);
  EXPECT_FALSE(f.service->running().has_value());

  // The daemon still answers, and what was stored before stays readable.
  auto points = f.service->points(id);
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[0].metrics["value"], 0);
  EXPECT_EQ(points[1].metrics["value"], 10);
  // Cancelling answers for a finished job, not "it is running" forever.
  EXPECT_EQ(conflict_of([&] { f.service->cancel(id); }), "job " + std::to_string(id) + " is already failed");

  // Space is back: the runner serves the next job, and the failed one goes on from point 2.
  f.db->exec("PRAGMA max_page_count = 1073741823");
  const auto next = f.service->submit("padded", jetperf::test::spec_of({{"points", 2}}), {}).id;
  EXPECT_EQ(f.wait_terminal(next).state, jobs::job_state::succeeded);
  EXPECT_EQ(f.service->resume(id).state, jobs::job_state::queued);
  const auto resumed = f.wait_terminal(id);
  EXPECT_EQ(resumed.state, jobs::job_state::succeeded) << resumed.error;
  EXPECT_EQ(resumed.error, "");
  points = f.service->points(id);
  ASSERT_EQ(points.size(), 5u);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(points[i].index, i);
    EXPECT_EQ(points[i].metrics["value"], i * 10);
  }
  EXPECT_EQ(resumed.summary["points_seen"], 5);
}

// On a full disk the board's snapshot record failed too, and its "restoring the board failed"
// replaced the cause: resume then answered 409 and the point was lost. The store's failure stays
// the cause (disk_full, the board restored), and the job resumes once there is room.
TEST(job_store_failure, a_full_disk_at_the_boards_restore_keeps_the_cause_and_the_job_resumes) {
  fixture f(true);
  *f.hook = [&f] { f.db->exec("PRAGMA max_page_count = " + std::to_string(f.pages())); };
  const auto id = f.service->submit("padded", jetperf::test::spec_of({{"points", 4}, {"pad", 20000}, {"break_at", 2}}), {}).id;
  const auto job = f.wait_terminal(id);
  ASSERT_EQ(job.state, jobs::job_state::failed) << job.error;
  EXPECT_EQ(job.error.rfind("the database could not be written: disk_full: the file system holding ", 0), 0u) << job.error;
  EXPECT_EQ(f.board.restores, 1) << "the board was put back once";
  ASSERT_EQ(f.service->points(id).size(), 2u);
  f.db->exec("PRAGMA max_page_count = 1073741823");
  EXPECT_EQ(f.service->resume(id).state, jobs::job_state::queued);
  const auto resumed = f.wait_terminal(id);
  EXPECT_EQ(resumed.state, jobs::job_state::succeeded) << resumed.error;
  const auto points = f.service->points(id);
  ASSERT_EQ(points.size(), 4u) << "every point once";
  for (int i = 0; i < 4; ++i) EXPECT_EQ(points[i].metrics["value"], i * 10);
}

// A submission on a full disk is refused as disk_full (507 at the API), nothing half stored.
TEST(job_store_failure, a_submission_on_a_full_disk_is_refused_as_disk_full) {
  fixture f;
  f.db->exec("PRAGMA max_page_count = " + std::to_string(f.pages()));
  const auto big = jetperf::test::spec_of({{"points", 3}, {"pad", 20000}});
  std::string what;
  for (int tries = 0; tries < 50 && what.empty(); ++tries) {
    try {
      f.service->submit("padded", big, {});
    } catch (const disk_full& e) {
      what = e.what();
    }
  }
  EXPECT_EQ(what.rfind("disk_full: the file system holding " + f.dir.file("jetperf.db") + " is full", 0), 0u) << what;
}

TEST(job_store_failure, a_final_state_the_database_refuses_is_kept_and_stored_once_it_can_be) {
  fixture f;
  // From point 1 on, every write fails: the point, the summary and the final state itself.
  *f.hook = [&f] { f.db->exec("PRAGMA query_only = 1"); };
  const auto id = f.service->submit("padded", jetperf::test::spec_of({{"points", 3}, {"break_at", 1}}), {}).id;
  const auto job = f.wait_terminal(id);
  ASSERT_EQ(job.state, jobs::job_state::failed) << job.error;
  EXPECT_EQ(job.error.rfind("the database could not be written: ", 0), 0u) << job.error;
  EXPECT_NE(job.error.find("readonly database"), std::string::npos) << job.error;
  EXPECT_EQ(f.stored(id).state, jobs::job_state::running) << "the store could not take the end";
  EXPECT_FALSE(f.service->running().has_value()) << "the runner left the job";
  // Reads, the list included, show the state the job really ended in.
  std::int64_t total = 0;
  const auto listed = f.service->list({}, &total);
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0].state, jobs::job_state::failed);
  EXPECT_EQ(conflict_of([&] { f.service->cancel(id); }), "job " + std::to_string(id) + " is already failed");
  EXPECT_THROW(f.service->resume(id), unavailable) << "its failure is not stored yet";

  // Writable again: the next request stores the kept state first.
  f.db->exec("PRAGMA query_only = 0");
  EXPECT_EQ(conflict_of([&] { f.service->cancel(id); }), "job " + std::to_string(id) + " is already failed");
  EXPECT_EQ(f.stored(id).state, jobs::job_state::failed);
  EXPECT_EQ(f.stored(id).error, job.error);
  f.service->resume(id);
  const auto resumed = f.wait_terminal(id);
  EXPECT_EQ(resumed.state, jobs::job_state::succeeded) << resumed.error;
  const auto points = f.service->points(id);
  ASSERT_EQ(points.size(), 3u);
  EXPECT_EQ(points[2].metrics["value"], 20);
}

TEST(job_store_failure, a_final_state_never_stored_becomes_interrupted_at_the_next_start) {
  fixture f;
  *f.hook = [&f] { f.db->exec("PRAGMA query_only = 1"); };
  const auto id = f.service->submit("padded", jetperf::test::spec_of({{"points", 3}, {"break_at", 1}}), {}).id;
  ASSERT_EQ(f.wait_terminal(id).state, jobs::job_state::failed);
  ASSERT_EQ(f.stored(id).state, jobs::job_state::running);
  f.open();  // the daemon restarts (a new connection writes again)
  const auto job = f.service->get(id);
  EXPECT_EQ(job.state, jobs::job_state::interrupted);
  f.service->resume(id);
  EXPECT_EQ(f.wait_terminal(id).state, jobs::job_state::succeeded);
  EXPECT_EQ(f.service->points(id).size(), 3u);
}

TEST(job_store_failure, only_jobs_failed_by_the_store_are_resumable_among_failed_ones) {
  fixture f;
  // A job that failed on its own (its only point failing) stays finished.
  *f.hook = [] { throw std::runtime_error("the board broke"); };
  const auto id = f.service->submit("padded", jetperf::test::spec_of({{"points", 1}, {"break_at", 0}}), {}).id;
  const auto job = f.wait_terminal(id);
  ASSERT_EQ(job.state, jobs::job_state::failed);
  EXPECT_EQ(job.error, "the board broke");
  EXPECT_EQ(conflict_of([&] { f.service->resume(id); }),
            "only an interrupted job (or one the database could not store) can be resumed; job " +
                std::to_string(id) + " is failed");
}
