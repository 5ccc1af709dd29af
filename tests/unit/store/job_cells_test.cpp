// store/job_cells: where the runner's records, rows, events and spans become the JSON the store
// keeps, and the stored JSON becomes records again, value for value.
#include <jetperf/store/job_cells.hpp>

#include <gtest/gtest.h>

#include <jetperf/common/errors.hpp>

namespace jetperf::store {
namespace {

using nlohmann::json;

class job_cells_test : public ::testing::Test {
 protected:
  database db_{":memory:"};
  job_store jobs_{db_};
};

TEST_F(job_cells_test, a_spec_stored_from_a_record_reads_back_as_the_same_record) {
  const record spec{{"sizes", cell_list{64, 128}}, {"dtype", "float"}, {"window_s", 0.25}, {"tensor", false},
                    {"nested", record{{"a", nullptr}}}};
  const auto id = insert_job(jobs_, "gemm", spec, {"t"}, 2, 1.5, 3);
  const auto job = jobs_.get(id);
  ASSERT_TRUE(job);
  EXPECT_EQ(job->spec, (json{{"sizes", {64, 128}}, {"dtype", "float"}, {"window_s", 0.25}, {"tensor", false},
                             {"nested", {{"a", nullptr}}}}));
  EXPECT_EQ(job->spec_version, 3);
  EXPECT_EQ(job->points_total, 2);
  // Keys come back in the stored (sorted) order, the values the same.
  const auto back = spec_of(*job);
  EXPECT_EQ(back.size(), spec.size());
  for (const auto& [key, value] : spec) EXPECT_EQ(back.at(key), value) << key;
}

TEST_F(job_cells_test, a_spec_that_is_no_object_is_a_damaged_job_never_every_default) {
  job_record job;
  job.id = 7;
  job.spec = nullptr;
  EXPECT_TRUE(spec_of(job).empty());
  job.spec = json::array({1, 2});
  try {
    spec_of(job);
    FAIL() << "an array read as a spec";
  } catch (const corrupt_record& e) {
    EXPECT_EQ(e.field(), "spec");
    EXPECT_NE(std::string(e.what()).find("job 7"), std::string::npos) << e.what();
  }
}

TEST_F(job_cells_test, points_summaries_provenance_events_and_spans_are_stored_as_their_json) {
  const auto id = insert_job(jobs_, "gemm", {}, {}, 1, 0, 1);
  row metrics;
  metrics.put("gflops", 12.5);
  metrics.put("flags", cell_list{"contended"});
  jobs_.add_point(stored_point(id, 0, "ok", record{{"m", 64}}, metrics, 10, 20));
  const auto points = jobs_.points(id);
  ASSERT_EQ(points.size(), 1u);
  EXPECT_EQ(points[0].params, (json{{"m", 64}}));
  EXPECT_EQ(points[0].metrics, (json{{"gflops", 12.5}, {"flags", {"contended"}}}));
  EXPECT_EQ(points[0].t_start_ns, 10);
  EXPECT_EQ(points[0].t_end_ns, 20);
  EXPECT_EQ(params_of(points[0]), (record{{"m", 64}}));
  EXPECT_EQ(metrics_of(points[0]).find("gflops")->number(), 12.5);

  set_summary(jobs_, id, record{{"best", 3}});
  set_provenance(jobs_, id, record{{"board", "sim:orin-agx"}});
  add_event(jobs_, id, "reboot", {{"index", 2}, {"booted_in", cell()}});
  const auto job = jobs_.get(id);
  EXPECT_EQ(job->summary, (json{{"best", 3}}));
  EXPECT_EQ(job->provenance, (json{{"board", "sim:orin-agx"}}));
  const auto events = jobs_.events(id);
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.back().type, "reboot");
  EXPECT_EQ(events.back().data, (json{{"index", 2}, {"booted_in", nullptr}}));

  const auto span = stored_span(id, 0, "phases", "load", 5, 9, {{"bytes", 4096}});
  EXPECT_EQ(span.args, (json{{"bytes", 4096}}));
  EXPECT_EQ(stored_span(id, std::nullopt, "clocks", "realtime", 1, 1).args, json::object());
}

}  // namespace
}  // namespace jetperf::store
