// job_store: CRUD, filters, pagination and totals, state timestamps, interrupt_running, points and
// events.
#include <jetperf/store/job_store.hpp>

#include <gtest/gtest.h>

#include <jetperf/common/clock.hpp>
#include <jetperf/common/errors.hpp>

namespace jetperf::store {
namespace {

using nlohmann::json;

class job_store_test : public ::testing::Test {
 protected:
  database db_{":memory:"};
  job_store jobs_{db_};
};

std::vector<std::int64_t> ids_of(const std::vector<job_record>& v) {
  std::vector<std::int64_t> out;
  for (const auto& r : v) out.push_back(r.id);
  return out;
}

TEST_F(job_store_test, insert_and_get_round_trip) {
  const std::int64_t before = wall_ns();
  const json spec = {{"kind", "gemm_sweep"}, {"dtypes", {"fp16", "fp32"}}, {"m", 1024}};
  const std::int64_t id = jobs_.insert("gemm_sweep", spec, {"nightly", "orin", "nightly"}, 12, 34.5);
  ASSERT_GT(id, 0);
  const auto r = jobs_.get(id);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->id, id);
  EXPECT_EQ(r->kind, "gemm_sweep");
  EXPECT_EQ(r->state, job_state::queued);
  EXPECT_EQ(r->spec, spec);
  EXPECT_EQ(r->tags, (std::vector<std::string>{"nightly", "orin"}));
  EXPECT_GE(r->created_ns, before);
  EXPECT_LE(r->created_ns, wall_ns());
  EXPECT_EQ(r->started_ns, 0);
  EXPECT_EQ(r->finished_ns, 0);
  EXPECT_EQ(r->points_total, 12);
  EXPECT_EQ(r->points_done, 0);
  EXPECT_DOUBLE_EQ(r->estimate_s, 34.5);
  EXPECT_EQ(r->error, "");
  EXPECT_EQ(r->summary, json::object());
  EXPECT_FALSE(jobs_.get(id + 100));
}

TEST_F(job_store_test, empty_kind_is_a_validation_error) {
  EXPECT_THROW(jobs_.insert("", json::object(), {}, 0, 0), validation_error);
}

TEST_F(job_store_test, list_is_newest_first_with_filters_pagination_and_total) {
  std::vector<std::int64_t> ids;
  for (int i = 0; i < 7; ++i) {
    const std::string kind = i % 2 ? "idle" : "gemm_sweep";
    std::vector<std::string> tags = {"all"};
    if (i % 3 == 0) tags.push_back("three");
    ids.push_back(jobs_.insert(kind, {{"i", i}}, tags, 1, 1));
  }
  jobs_.set_state(ids[2], job_state::running);
  jobs_.set_state(ids[4], job_state::running);

  std::int64_t total = -1;
  auto all = jobs_.list(job_filter{}, &total);
  EXPECT_EQ(total, 7);
  EXPECT_EQ(ids_of(all), (std::vector<std::int64_t>{ids[6], ids[5], ids[4], ids[3], ids[2], ids[1], ids[0]}));
  EXPECT_EQ(all[0].spec, json({{"i", 6}}));

  job_filter page;
  page.limit = 2;
  page.offset = 2;
  EXPECT_EQ(ids_of(jobs_.list(page, &total)), (std::vector<std::int64_t>{ids[4], ids[3]}));
  EXPECT_EQ(total, 7);
  page.offset = 6;
  EXPECT_EQ(ids_of(jobs_.list(page, &total)), (std::vector<std::int64_t>{ids[0]}));
  page.offset = 7;
  EXPECT_TRUE(jobs_.list(page, &total).empty());
  EXPECT_EQ(total, 7);

  job_filter by_kind;
  by_kind.kind = "idle";
  EXPECT_EQ(ids_of(jobs_.list(by_kind, &total)), (std::vector<std::int64_t>{ids[5], ids[3], ids[1]}));
  EXPECT_EQ(total, 3);

  job_filter by_state;
  by_state.state = job_state::running;
  EXPECT_EQ(ids_of(jobs_.list(by_state, &total)), (std::vector<std::int64_t>{ids[4], ids[2]}));
  EXPECT_EQ(total, 2);

  job_filter by_tag;
  by_tag.tag = "three";
  const auto tagged = jobs_.list(by_tag, &total);
  EXPECT_EQ(ids_of(tagged), (std::vector<std::int64_t>{ids[6], ids[3], ids[0]}));
  EXPECT_EQ(total, 3);
  EXPECT_EQ(tagged[0].tags, (std::vector<std::string>{"all", "three"}));

  job_filter combined;
  combined.tag = "three";
  combined.kind = "gemm_sweep";
  combined.limit = 1;
  EXPECT_EQ(ids_of(jobs_.list(combined, &total)), (std::vector<std::int64_t>{ids[6]}));
  EXPECT_EQ(total, 2);

  job_filter none;
  none.tag = "no-such-tag";
  EXPECT_TRUE(jobs_.list(none, &total).empty());
  EXPECT_EQ(total, 0);
  // total is optional.
  EXPECT_EQ(jobs_.list(by_kind).size(), 3u);
}

TEST_F(job_store_test, negative_limit_or_offset_is_rejected) {
  job_filter f;
  f.limit = -1;
  EXPECT_THROW(jobs_.list(f), validation_error);
  f.limit = 1;
  f.offset = -1;
  EXPECT_THROW(jobs_.list(f), validation_error);
}

TEST_F(job_store_test, state_changes_stamp_start_and_finish) {
  const std::int64_t id = jobs_.insert("idle", json::object(), {}, 1, 1);
  const std::int64_t t0 = wall_ns();
  jobs_.set_state(id, job_state::running);
  auto r = jobs_.get(id);
  EXPECT_EQ(r->state, job_state::running);
  EXPECT_GE(r->started_ns, t0);
  EXPECT_EQ(r->finished_ns, 0);
  const std::int64_t started = r->started_ns;

  jobs_.set_state(id, job_state::failed, "GPU clock write refused");
  r = jobs_.get(id);
  EXPECT_EQ(r->state, job_state::failed);
  EXPECT_EQ(r->started_ns, started);
  EXPECT_GE(r->finished_ns, started);
  EXPECT_EQ(r->error, "GPU clock write refused");

  for (auto s : {job_state::succeeded, job_state::cancelled, job_state::interrupted}) {
    const std::int64_t j = jobs_.insert("idle", json::object(), {}, 1, 1);
    jobs_.set_state(j, job_state::running);
    jobs_.set_state(j, s);
    EXPECT_GT(jobs_.get(j)->finished_ns, 0);
    EXPECT_GT(jobs_.get(j)->started_ns, 0);
  }
  // Cancelled before it started: finished, never started.
  const std::int64_t never = jobs_.insert("idle", json::object(), {}, 1, 1);
  jobs_.set_state(never, job_state::cancelled);
  EXPECT_GT(jobs_.get(never)->finished_ns, 0);
  EXPECT_EQ(jobs_.get(never)->started_ns, 0);
  EXPECT_THROW(jobs_.set_state(9999, job_state::running), not_found);
}

TEST_F(job_store_test, every_state_change_is_checked_against_the_state_machine_in_the_store) {
  const std::int64_t id = jobs_.insert("idle", json::object(), {}, 1, 1);
  EXPECT_THROW(jobs_.set_state(id, job_state::succeeded), conflict) << "queued cannot finish without running";
  EXPECT_EQ(jobs_.set_state(id, job_state::cancelled), job_state::queued);
  // Whoever comes second loses: a cancelled job is never started, a finished one never cancelled.
  EXPECT_THROW(jobs_.set_state(id, job_state::running), conflict);
  EXPECT_EQ(jobs_.get(id)->state, job_state::cancelled);
  const std::int64_t done = jobs_.insert("idle", json::object(), {}, 1, 1);
  jobs_.set_state(done, job_state::running);
  jobs_.set_state(done, job_state::succeeded);
  EXPECT_THROW(jobs_.set_state(done, job_state::cancelled), conflict);
  // A job that failed for the database's sake may be queued again; one the board failed may not.
  const std::int64_t full = jobs_.insert("idle", json::object(), {}, 1, 1);
  jobs_.set_state(full, job_state::running);
  jobs_.set_state(full, job_state::failed, std::string(store::k_store_failure_prefix) + "database or disk is full");
  EXPECT_EQ(jobs_.set_state(full, job_state::queued), job_state::failed);
  const std::int64_t broke = jobs_.insert("idle", json::object(), {}, 1, 1);
  jobs_.set_state(broke, job_state::running);
  jobs_.set_state(broke, job_state::failed, "GPU clock write refused");
  EXPECT_THROW(jobs_.set_state(broke, job_state::queued), conflict);
}

TEST_F(job_store_test, requeued_job_is_no_longer_finished) {
  const std::int64_t id = jobs_.insert("idle", json::object(), {}, 1, 1);
  jobs_.set_state(id, job_state::running);
  jobs_.set_state(id, job_state::interrupted, "daemon restarted");
  ASSERT_GT(jobs_.get(id)->finished_ns, 0);
  jobs_.set_state(id, job_state::queued);
  const auto r = jobs_.get(id);
  EXPECT_EQ(r->state, job_state::queued);
  EXPECT_EQ(r->finished_ns, 0);
  EXPECT_EQ(r->error, "");
}

TEST_F(job_store_test, progress_and_summary) {
  const std::int64_t id = jobs_.insert("gemm_sweep", json::object(), {}, 10, 1);
  jobs_.set_progress(id, 3, 11);
  const json summary = {{"best", {{"gpu_freq_hz", 918000000}, {"gflops_per_w", 41.5}}}};
  jobs_.set_summary(id, summary);
  const auto r = jobs_.get(id);
  EXPECT_EQ(r->points_done, 3);
  EXPECT_EQ(r->points_total, 11);
  EXPECT_EQ(r->summary, summary);
  EXPECT_THROW(jobs_.set_progress(id + 1, 1, 1), not_found);
  EXPECT_THROW(jobs_.set_summary(id + 1, summary), not_found);
}

TEST_F(job_store_test, each_estimate_keeps_what_it_was_made_from) {
  const std::int64_t id = jobs_.insert("gemm", json::object(), {}, 10, 30, 2, {"cost_model", 12});
  auto r = jobs_.get(id);
  EXPECT_EQ(r->estimate_basis, (store::estimate_basis{"cost_model", 12}));
  EXPECT_EQ(r->estimate_now_basis, store::estimate_basis{}) << "not refreshed yet";
  jobs_.set_progress(id, 3, 10, 95, {"pace", 3});
  r = jobs_.get(id);
  EXPECT_DOUBLE_EQ(r->estimate_now_s, 95);
  EXPECT_EQ(r->estimate_now_basis, (store::estimate_basis{"pace", 3}));
  EXPECT_EQ(r->estimate_basis, (store::estimate_basis{"cost_model", 12})) << "the submission's stays";
  // The listing reads them too.
  job_filter f;
  f.documents = false;
  const auto listed = jobs_.list(f);
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0].estimate_now_basis, (store::estimate_basis{"pace", 3}));
  // A job inserted without one: not known.
  EXPECT_EQ(jobs_.get(jobs_.insert("idle", json::object(), {}, 1, 1))->estimate_basis, store::estimate_basis{});
}

TEST_F(job_store_test, queued_ids_are_oldest_first) {
  const auto a = jobs_.insert("idle", json::object(), {}, 1, 1);
  const auto b = jobs_.insert("idle", json::object(), {}, 1, 1);
  const auto c = jobs_.insert("idle", json::object(), {}, 1, 1);
  jobs_.set_state(b, job_state::running);
  EXPECT_EQ(jobs_.queued_ids(), (std::vector<std::int64_t>{a, c}));
}

TEST_F(job_store_test, interrupt_running_marks_only_running_jobs) {
  const auto a = jobs_.insert("idle", json::object(), {}, 1, 1);
  const auto b = jobs_.insert("idle", json::object(), {}, 1, 1);
  const auto c = jobs_.insert("idle", json::object(), {}, 1, 1);
  const auto d = jobs_.insert("idle", json::object(), {}, 1, 1);
  jobs_.set_state(b, job_state::running);
  jobs_.set_state(d, job_state::running);
  jobs_.set_state(c, job_state::running);
  jobs_.set_state(c, job_state::succeeded);
  EXPECT_EQ(jobs_.interrupt_running("jetperfd restarted"), (std::vector<std::int64_t>{b, d}));
  for (auto id : {b, d}) {
    const auto r = jobs_.get(id);
    EXPECT_EQ(r->state, job_state::interrupted);
    EXPECT_EQ(r->error, "jetperfd restarted");
    EXPECT_GT(r->finished_ns, 0);
  }
  EXPECT_EQ(jobs_.get(a)->state, job_state::queued);
  EXPECT_EQ(jobs_.get(c)->state, job_state::succeeded);
  EXPECT_EQ(jobs_.get(c)->error, "");
  EXPECT_TRUE(jobs_.interrupt_running("again").empty());
}

TEST_F(job_store_test, points_round_trip_in_index_order) {
  const auto id = jobs_.insert("gemm_sweep", json::object(), {}, 3, 1);
  point_record p1{id, 1, {{"dtype", "fp16"}, {"m", 512}, {"gpu_freq_hz", 1300500000}},
                  {{"time_mean_s", 0.00125}, {"power_w", 7.25}, {"ok", true}}, "ok", 100, 200};
  point_record p0{id, 0, {{"dtype", "int8"}}, {{"skipped", "no int8 tensor cores"}}, "skipped", 50, 60};
  jobs_.add_point(p1);
  jobs_.add_point(p0);
  EXPECT_EQ(jobs_.count_points(id), 2);
  auto pts = jobs_.points(id);
  ASSERT_EQ(pts.size(), 2u);
  EXPECT_EQ(pts[0].index, 0);
  EXPECT_EQ(pts[0].status, "skipped");
  EXPECT_EQ(pts[0].metrics, p0.metrics);
  EXPECT_EQ(pts[1].job_id, id);
  EXPECT_EQ(pts[1].params, p1.params);
  EXPECT_EQ(pts[1].metrics, p1.metrics);
  EXPECT_EQ(pts[1].t_start_ns, 100);
  EXPECT_EQ(pts[1].t_end_ns, 200);

  // Measuring a point again (a resumed job) replaces it.
  p1.metrics = {{"power_w", 8.0}};
  jobs_.add_point(p1);
  EXPECT_EQ(jobs_.count_points(id), 2);
  EXPECT_EQ(jobs_.points(id)[1].metrics, p1.metrics);
  EXPECT_TRUE(jobs_.points(id + 1).empty());
  EXPECT_EQ(jobs_.count_points(id + 1), 0);
  // A point of a job that does not exist breaks the foreign key.
  p1.job_id = id + 1;
  EXPECT_THROW(jobs_.add_point(p1), store_error);
}

TEST_F(job_store_test, events_in_order_with_monotonic_time) {
  const auto id = jobs_.insert("idle", json::object(), {}, 1, 1);
  const auto other = jobs_.insert("idle", json::object(), {}, 1, 1);
  const std::int64_t t0 = monotonic_ns();
  jobs_.add_event(id, "state", {{"state", "running"}});
  jobs_.add_event(other, "log", {{"msg", "x"}});
  jobs_.add_event(id, "progress", {{"done", 1}, {"total", 3}});
  const std::int64_t t1 = monotonic_ns();
  const auto ev = jobs_.events(id);
  ASSERT_EQ(ev.size(), 2u);
  EXPECT_EQ(ev[0].type, "state");
  EXPECT_EQ(ev[0].data, json({{"state", "running"}}));
  EXPECT_EQ(ev[1].type, "progress");
  EXPECT_EQ(ev[1].data["total"], 3);
  EXPECT_EQ(ev[1].job_id, id);
  EXPECT_LT(ev[0].id, ev[1].id);
  EXPECT_GE(ev[0].t_ns, t0);
  EXPECT_LE(ev[0].t_ns, ev[1].t_ns);
  EXPECT_LE(ev[1].t_ns, t1);
  EXPECT_EQ(jobs_.events(other).size(), 1u);
  EXPECT_THROW(jobs_.add_event(other + 10, "log", json::object()), store_error);
}

TEST_F(job_store_test, stores_can_be_used_inside_a_callers_transaction) {
  std::int64_t id = 0;
  EXPECT_THROW(db_.transaction([&] {
    id = jobs_.insert("idle", json::object(), {"t"}, 1, 1);
    jobs_.add_event(id, "state", json::object());
    throw std::runtime_error("abort");
  }),
               std::runtime_error);
  EXPECT_FALSE(jobs_.get(id));
  EXPECT_TRUE(jobs_.events(id).empty());
}

// A command run whose output tail was not valid UTF-8 was never stored (the JSON write threw):
// the store keeps every point, with the odd bytes as U+FFFD, and its JSON reads back.
TEST_F(job_store_test, a_point_with_bytes_that_are_not_utf8_is_kept_with_replacement_characters) {
  const auto id = jobs_.insert("command", json::object(), {}, 1, 1.0);
  point_record p;
  p.job_id = id;
  p.index = 0;
  p.status = "ok";
  p.params = {{"repeat", 0}};
  p.metrics = {{"stdout_tail", std::string("caf\xC3\xA9 \xFF\xFE end")}, {"marks", {{"k\x80", 1}}}};
  jobs_.add_point(p);
  const auto back = jobs_.points(id);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].metrics["stdout_tail"], "caf\xC3\xA9 \xEF\xBF\xBD\xEF\xBF\xBD end");
  EXPECT_EQ(back[0].metrics["marks"]["k\xEF\xBF\xBD"], 1);
  EXPECT_NO_THROW(back[0].metrics.dump());
}

}  // namespace
}  // namespace jetperf::store
