// POST/GET /v1/jobs/{id}/traces through the router, without a network: a job with two marked
// phases and a power step stored; a trace whose events carry the phases' names 0.5 s earlier is
// aligned by the markers to exactly that offset and gets exact energies; the header-only admit
// check refuses what handle() would; size, per-job and alignment limits answer with the field.
#include <sys/stat.h>

#include <cstdio>
#include <fstream>

#include <jetperf/store/sample_store.hpp>
#include <jetperf/store/timeline_store.hpp>
#include <jetperf/store/trace_attachment_store.hpp>

#include <support/temp_dir.hpp>

#include "api_fixture.hpp"
#include "json_schema_check.hpp"

namespace jetperf::test {
namespace {

using nlohmann::json;

constexpr std::int64_t k_s = 1'000'000'000;

// busy [1 s, 2 s], sleep [2 s, 3 s] on the daemon's clock, 0.5 s after the trace's.
std::string phase_trace(const std::string& busy = "busy") {
  return json{{"traceEvents",
               {{{"ph", "X"}, {"cat", "user_annotation"}, {"name", busy}, {"pid", 1}, {"tid", 1}, {"ts", 500000}, {"dur", 1000000}},
                {{"ph", "X"}, {"cat", "cpu_op"}, {"name", "aten::mm"}, {"pid", 1}, {"tid", 1}, {"ts", 600000}, {"dur", 100000}},
                {{"ph", "X"}, {"cat", "user_annotation"}, {"name", "sleep"}, {"pid", 1}, {"tid", 1}, {"ts", 1500000}, {"dur", 1000000}}}}}
      .dump();
}

class trace_attach_routes : public api_fixture {
 protected:
  trace_attach_routes() {
    job_ = finished_job();
    store::job_store raw(db_);
    running_ = raw.insert("idle", json::object(), {}, 1, 1.0);
    raw.set_state(running_, store::job_state::running);
    // The program's run [0.4 s, 3.5 s] holds the two phases.
    timeline_.add({{job_, 0, "runs", "run", 4 * k_s / 10, 35 * k_s / 10, json::object()},
                   {job_, 0, "phases", "busy", 1 * k_s, 2 * k_s, json::object()},
                   {job_, 0, "phases", "sleep", 2 * k_s, 3 * k_s, json::object()}});
    // The total steps from 2 W to 6 W between the samples at 2.00 s and 2.01 s.
    const auto total = samples_.channel_id("power.total", "W", "test");
    const auto cpu = samples_.channel_id("rail.VDD_CPU", "W", "test");
    std::vector<store::sample_row> rows;
    for (std::int64_t t = 0; t <= 4 * k_s; t += k_s / 100) {
      rows.push_back({total, t, t <= 2 * k_s ? 2.0 : 6.0});
      rows.push_back({cpu, t, 1.0});
    }
    samples_.insert(job_, rows);
  }

  api::router& make(std::int64_t max_per_job = 8, std::int64_t max_bytes = 1 << 20) {
    auto s = base_services();
    s.samples = &samples_;
    s.timeline = &timeline_;
    s.attachments = &attachments_;
    s.attachment_dir = dir_.path();
    s.attachment_max_per_job = max_per_job;
    s.attachment_max_bytes = max_bytes;
    router_ = std::make_unique<api::router>(std::move(s));
    return *router_;
  }

  api::http_response upload(std::int64_t id, const std::string& body, const std::string& query = "") {
    return router_->handle(request("POST", "/v1/jobs/" + std::to_string(id) + "/traces" + query, body));
  }

  // The answer against proto/openapi.json's schema of the route.
  static void expect_conforms(const std::string& pattern, const std::string& method, const std::string& status,
                              const api::http_response& res) {
    const auto doc = contract();
    const auto& schema =
        doc["paths"].at(pattern).at(method)["responses"].at(status).at("content").at("application/json").at("schema");
    std::string all;
    for (const auto& v : schema_violations(doc, schema, json_of(res))) all += v + "\n";
    EXPECT_TRUE(all.empty()) << method << " " << pattern << " " << status << "\n" << all;
  }

  static const json& row(const json& rows, const std::string& name) {
    for (const auto& r : rows)
      if (r["name"] == name) return r;
    throw std::runtime_error("no row " + name);
  }

  store::sample_store samples_{db_};
  store::timeline_store timeline_{db_};
  store::trace_attachment_store attachments_{db_};
  temp_dir dir_;
  std::int64_t job_ = 0, running_ = 0;
};

TEST_F(trace_attach_routes, markers_align_the_trace_and_the_power_step_gives_exact_energies) {
  make();
  const auto res = upload(job_, phase_trace());
  ASSERT_EQ(res.status, 201) << res.body;
  EXPECT_EQ(header_of(res, "Location"), "/v1/jobs/" + std::to_string(job_) + "/traces/1");
  expect_conforms("/v1/jobs/{id}/traces", "post", "201", res);
  const auto body = json_of(res);
  const auto& a = body["alignment"];
  EXPECT_EQ(a["method"], "markers");
  EXPECT_EQ(a["offset_ns"], k_s / 2);
  EXPECT_EQ(a["uncertainty_ns"], 100000);  // the marker latency floor: the differences agree
  EXPECT_EQ(a["matched"], 2);
  const auto& e = body["energy"];
  EXPECT_EQ(e["channel"], "power.total");
  EXPECT_NEAR(e["sensor_period_s"].get<double>(), 0.01, 1e-12);
  const auto& busy = row(e["ops"], "busy");
  const auto& sleep = row(e["ops"], "sleep");
  EXPECT_NEAR(busy["energy_j"].get<double>(), 2.0, 1e-9);
  // 0.01 s ramping from 2 to 6 W (mean 4 W), then 0.99 s at 6 W.
  EXPECT_NEAR(sleep["energy_j"].get<double>(), 0.04 + 5.94, 1e-9);
  EXPECT_NEAR(sleep["power_w"].get<double>(), 5.98, 1e-9);
  EXPECT_NEAR(busy["rail_energy_j"]["VDD_CPU"].get<double>(), 1.0, 1e-9);
  EXPECT_NEAR(row(e["ops"], "aten::mm")["energy_j"].get<double>(), 0.2, 1e-9);
  // The step lies within a period of busy's end and sleep's start: both carry its swing.
  EXPECT_GT(busy["uncertainty_j"].get<double>(), 0.01);
  EXPECT_NEAR(row(e["ops"], "aten::mm")["uncertainty_j"].get<double>(), 0.0, 1e-12);
  EXPECT_EQ(e["top_level"].size(), 2u);  // busy (holding aten::mm) and sleep
  // Self figures: busy less the aten::mm it holds; the labels are marked as such.
  EXPECT_NEAR(busy["self_energy_j"].get<double>(), 2.0 - 0.2, 1e-9);
  EXPECT_NEAR(busy["self_time_s"].get<double>(), 0.9, 1e-9);
  EXPECT_EQ(busy["label"], true);
  EXPECT_FALSE(row(e["ops"], "aten::mm").contains("label"));
  // It belongs: verified, and it covers busy and sleep, 2 s of the 3.1 s run; of the run's
  // 3.2 + 0.04 + 8.94 J, busy's 2 J and sleep's 5.98 J.
  EXPECT_EQ(a["verified"], true);
  EXPECT_TRUE(a["unverified_reasons"].empty());
  const auto& c = e["coverage"];
  EXPECT_NEAR(c["run_s"].get<double>(), 3.1, 1e-9);
  EXPECT_NEAR(c["covered_s"].get<double>(), 2.0, 1e-9);
  EXPECT_NEAR(c["time_share"].get<double>(), 2.0 / 3.1, 1e-9);
  EXPECT_NEAR(c["run_energy_j"].get<double>(), 12.18, 1e-9);
  EXPECT_NEAR(c["covered_energy_j"].get<double>(), 7.98, 1e-9);
  EXPECT_NEAR(c["energy_share"].get<double>(), 7.98 / 12.18, 1e-9);
  EXPECT_EQ(c["point"], 0);

  expect_conforms("/v1/jobs/{id}/traces", "get", "200", call("GET", "/v1/jobs/" + std::to_string(job_) + "/traces"));
  expect_conforms("/v1/jobs/{id}/traces/{n}", "get", "200", call("GET", "/v1/jobs/" + std::to_string(job_) + "/traces/1"));
  const auto listed = json_of(call("GET", "/v1/jobs/" + std::to_string(job_) + "/traces"));
  ASSERT_EQ(listed["traces"].size(), 1u);
  EXPECT_EQ(listed["traces"][0]["alignment"]["offset_ns"], k_s / 2);
  EXPECT_GT(listed["traces"][0]["bytes"].get<std::int64_t>(), 100);
  const auto shown = json_of(call("GET", "/v1/jobs/" + std::to_string(job_) + "/traces/1"));
  EXPECT_NEAR(row(shown["energy"]["ops"], "busy")["energy_j"].get<double>(), 2.0, 1e-9);
  const auto csv = call("GET", "/v1/jobs/" + std::to_string(job_) + "/traces/1?format=csv");
  ASSERT_EQ(csv.status, 200) << csv.body;
  EXPECT_EQ(csv.body.substr(0, csv.body.find('\r')),
            "table,name,count,time_s,energy_j,power_w,uncertainty_j,short_intervals,outside_samples,self_time_s,"
            "self_energy_j,label,unverified,rail_VDD_CPU_j");
  EXPECT_NE(csv.body.find("\nops,busy,1,1.0,2.0,2.0,0.02,0,0,0.9,1.8,true,false,1.0\r\n"), std::string::npos) << csv.body;
  EXPECT_EQ(call("GET", "/v1/jobs/" + std::to_string(job_) + "/traces/2").status, 404);
  // The file is kept under a name of the daemon's.
  const auto stored = attachments_.get(job_, 1);
  ASSERT_TRUE(stored);
  EXPECT_EQ(stored->file.rfind(dir_.path() + "/job-" + std::to_string(job_) + "-", 0), 0u) << stored->file;
  struct stat st {};
  EXPECT_EQ(::stat(stored->file.c_str(), &st), 0);
}

TEST_F(trace_attach_routes, an_explicit_offset_overrides_and_no_method_is_refused_naming_offset_ns) {
  make();
  const auto given = upload(job_, phase_trace(), "?offset_ns=-250");
  ASSERT_EQ(given.status, 201) << given.body;
  EXPECT_EQ(json_of(given)["alignment"]["method"], "explicit");
  EXPECT_EQ(json_of(given)["alignment"]["offset_ns"], -250);
  const auto none = upload(job_, phase_trace("work"));
  // "sleep" still matches: rename both to leave no way.
  EXPECT_EQ(json_of(none)["alignment"]["matched"], 1);
  const std::string unnamed =
      R"({"traceEvents":[{"ph":"X","name":"x","pid":1,"tid":1,"ts":5,"dur":1}]})";
  const auto refused = upload(job_, unnamed);
  EXPECT_EQ(refused.status, 400);
  EXPECT_EQ(json_of(refused)["error"]["field"], "offset_ns");
  EXPECT_EQ(json_of(refused)["error"]["code"], "no_alignment");
  EXPECT_EQ(attachments_.count(job_), 2);
  const auto malformed = upload(job_, R"({"traceEvents":[{"ph":"X","name":"x","ts":5}]})");
  EXPECT_EQ(malformed.status, 400);
  EXPECT_EQ(attachments_.count(job_), 2);
}

TEST_F(trace_attach_routes, a_trace_outside_the_jobs_run_is_refused_unless_forced_and_then_marked_unverified) {
  make();
  // Placed 66 ms past the run's end: the trace ends at 3.566 s, the run at 3.5 s.
  const auto late = upload(job_, phase_trace(), "?offset_ns=" + std::to_string(k_s + 66'000'000));
  EXPECT_EQ(late.status, 400) << late.body;
  const auto error = json_of(late)["error"];
  EXPECT_EQ(error["code"], "foreign_trace");
  EXPECT_EQ(error["field"], "body");
  EXPECT_NE(error["message"].get<std::string>().find("66.0 ms past the end of the job's run (point 0)"), std::string::npos)
      << error["message"];
  EXPECT_EQ(attachments_.count(job_), 0);
  EXPECT_EQ(upload(job_, phase_trace(), "?offset_ns=1&force=maybe").status, 400);

  const auto forced = upload(job_, phase_trace(), "?offset_ns=" + std::to_string(k_s + 66'000'000) + "&force=true");
  ASSERT_EQ(forced.status, 201) << forced.body;
  expect_conforms("/v1/jobs/{id}/traces", "post", "201", forced);
  const auto body = json_of(forced);
  EXPECT_EQ(body["alignment"]["verified"], false);
  ASSERT_EQ(body["alignment"]["unverified_reasons"].size(), 1u);
  for (const char* table : {"ops", "top_level"})
    for (const auto& r : body["energy"][table]) EXPECT_EQ(r["unverified"], true) << table << " " << r.dump();
  EXPECT_EQ(json_of(call("GET", "/v1/jobs/" + std::to_string(job_) + "/traces"))["traces"][0]["alignment"]["verified"], false);
}

TEST_F(trace_attach_routes, a_trace_with_more_marked_steps_than_the_run_is_refused) {
  make();
  // Three "busy" ranges where the job's markers saw one: another run's, or another program's.
  const auto trace =
      json{{"traceEvents",
            {{{"ph", "X"}, {"cat", "user_annotation"}, {"name", "busy"}, {"pid", 1}, {"tid", 1}, {"ts", 500000}, {"dur", 1000000}},
             {{"ph", "X"}, {"cat", "user_annotation"}, {"name", "busy"}, {"pid", 1}, {"tid", 1}, {"ts", 1600000}, {"dur", 10000}},
             {{"ph", "X"}, {"cat", "user_annotation"}, {"name", "busy"}, {"pid", 1}, {"tid", 1}, {"ts", 1700000}, {"dur", 10000}}}}}
          .dump();
  const auto res = upload(job_, trace);
  EXPECT_EQ(res.status, 400) << res.body;
  EXPECT_EQ(json_of(res)["error"]["code"], "foreign_trace");
  EXPECT_NE(json_of(res)["error"]["message"].get<std::string>().find("2 of the trace's 3 events named like the job's phases"),
            std::string::npos)
      << res.body;
}

// Kineto stamps CLOCK_REALTIME: a trace whose phases match the markers' shape but whose own
// clock puts it 1.7 s away is another run's (the same program run again), and is refused.
TEST_F(trace_attach_routes, a_trace_whose_wall_clock_disagrees_with_its_markers_is_another_runs) {
  // The job's realtime - monotonic: 1.7e18 ns at its start.
  constexpr std::int64_t k_realtime = 1'700'000'000'000'000'000;
  timeline_.add({{job_, std::nullopt, "clocks", "realtime", 0, 0, {{"realtime_ns", k_realtime}, {"read_ns", 1000}}}});
  make();
  const auto stamped = [&](std::int64_t base_ns) {
    auto j = json::parse(phase_trace());
    j["baseTimeNanoseconds"] = base_ns;
    return j.dump();
  };
  // Its own clock agrees with the markers (offset 0.5 s): attached, verified.
  const auto own = upload(job_, stamped(k_realtime + k_s / 2));
  ASSERT_EQ(own.status, 201) << own.body;
  EXPECT_EQ(json_of(own)["alignment"]["method"], "markers");
  EXPECT_EQ(json_of(own)["alignment"]["verified"], true);
  // Recorded 1.7 s later: refused, saying by how much.
  const auto other = upload(job_, stamped(k_realtime + k_s / 2 + 1'700'000'000));
  EXPECT_EQ(other.status, 400) << other.body;
  EXPECT_NE(json_of(other)["error"]["message"].get<std::string>().find("own wall clock puts it 1700.0 ms from"),
            std::string::npos)
      << other.body;
}

TEST_F(trace_attach_routes, a_legacy_traces_ranges_named_like_the_phases_are_labels_not_ops) {
  make();
  // torch's legacy profiler: a bare array, no "cat" on any event.
  const auto legacy = json{{{"ph", "X"}, {"name", "busy"}, {"pid", 1}, {"tid", 1}, {"ts", 500000}, {"dur", 1000000}},
                           {{"ph", "X"}, {"name", "aten::mm"}, {"pid", 1}, {"tid", 1}, {"ts", 600000}, {"dur", 100000}},
                           {{"ph", "X"}, {"name", "sleep"}, {"pid", 1}, {"tid", 1}, {"ts", 1500000}, {"dur", 1000000}}}
                          .dump();
  const auto res = upload(job_, legacy);
  ASSERT_EQ(res.status, 201) << res.body;
  const auto body = json_of(res);
  const auto& ops = body["energy"]["ops"];
  ASSERT_EQ(ops.size(), 3u) << res.body;
  EXPECT_EQ(row(ops, "busy")["label"], true);
  EXPECT_EQ(row(ops, "sleep")["label"], true);
  EXPECT_FALSE(row(ops, "aten::mm").contains("label"));
}

// energy.iterations: a legacy trace's "## iteration N ##" ranges inside the phases are its
// iterations (found by default, or by the pattern given) and labels, never ops; "forward" too.
TEST_F(trace_attach_routes, iterations_by_their_labels_with_energy_and_legacy_labels_not_ops) {
  make();
  // busy [1 s, 2 s] at 2 W holds two steps of 0.2 s; sleep [2 s, 3 s] at 6 W holds one of 0.5 s.
  const auto legacy = json{{{"ph", "X"}, {"name", "busy"}, {"pid", 1}, {"tid", 1}, {"ts", 500000}, {"dur", 1000000}},
                           {{"ph", "X"}, {"name", "## iteration 0 ##"}, {"pid", 1}, {"tid", 1}, {"ts", 600000}, {"dur", 200000}},
                           {{"ph", "X"}, {"name", "forward"}, {"pid", 1}, {"tid", 1}, {"ts", 610000}, {"dur", 100000}},
                           {{"ph", "X"}, {"name", "aten::mm"}, {"pid", 1}, {"tid", 1}, {"ts", 620000}, {"dur", 50000}},
                           {{"ph", "X"}, {"name", "## iteration 1 ##"}, {"pid", 1}, {"tid", 1}, {"ts", 900000}, {"dur", 200000}},
                           {{"ph", "X"}, {"name", "sleep"}, {"pid", 1}, {"tid", 1}, {"ts", 1500000}, {"dur", 1000000}},
                           {{"ph", "X"}, {"name", "## iteration 2 ##"}, {"pid", 1}, {"tid", 1}, {"ts", 1700000}, {"dur", 500000}}}
                          .dump();
  const auto res = upload(job_, legacy);
  ASSERT_EQ(res.status, 201) << res.body;
  expect_conforms("/v1/jobs/{id}/traces", "post", "201", res);
  const auto e = json_of(res)["energy"];
  const auto& it = e["iterations"];
  EXPECT_EQ(it["source"], "## iteration * ##");
  EXPECT_EQ(it["count"], 3);
  EXPECT_NEAR(it["host_runtime_s"].get<double>(), 1.6, 1e-9);  // 0.6 s to 2.2 s on the trace's clock
  EXPECT_NEAR(it["mean_s"].get<double>(), 0.3, 1e-9);
  // Aligned 0.5 s later: two steps at 2 W (0.8 J) and one at 6 W (3 J).
  EXPECT_NEAR(it["energy_j"].get<double>(), 0.8 + 3.0, 1e-9);
  EXPECT_NEAR(it["energy_per_iteration_j"].get<double>(), 3.8 / 3, 1e-9);
  EXPECT_EQ(row(e["ops"], "forward")["label"], true);
  EXPECT_EQ(row(e["ops"], "## iteration 0 ##")["label"], true);
  EXPECT_FALSE(row(e["ops"], "aten::mm").contains("label"));
  // A pattern of one's own, or an op's exact name.
  const auto given = json_of(upload(job_, legacy, "?iteration_label=forw%2A"))["energy"]["iterations"];
  EXPECT_EQ(given["source"], "forw*");
  EXPECT_EQ(given["count"], 1);
  EXPECT_EQ(json_of(upload(job_, legacy, "?iteration_op=aten%3A%3Amm"))["energy"]["iterations"]["count"], 1);
  // Both, or an empty one: 400 naming the field, before the body is read.
  for (const std::string q : {"?iteration_label=a&iteration_op=b", "?iteration_label=", "?iteration_op="}) {
    const auto refused = upload(job_, legacy, q);
    EXPECT_EQ(refused.status, 400) << q;
    EXPECT_EQ(json_of(refused)["error"]["field"], q.find("iteration_op=") == 1 ? "iteration_op" : "iteration_label") << q;
  }
  EXPECT_EQ(attachments_.count(job_), 3);
}

TEST_F(trace_attach_routes, token_unknown_job_running_job_size_and_count_limits) {
  auto& router = make(/*max_per_job=*/1, /*max_bytes=*/4096);
  auto no_token = request("POST", "/v1/jobs/" + std::to_string(job_) + "/traces", phase_trace(), false);
  EXPECT_EQ(router.handle(no_token).status, 401);
  ASSERT_TRUE(router.admit(no_token));
  EXPECT_EQ(router.admit(no_token)->status, 401);
  EXPECT_TRUE(router.body_to_file(no_token));
  EXPECT_FALSE(router.body_to_file(request("GET", "/v1/jobs/1/traces")));
  EXPECT_FALSE(router.body_to_file(request("POST", "/v1/jobs")));

  EXPECT_EQ(upload(999, phase_trace()).status, 404);
  EXPECT_EQ(router.admit(request("POST", "/v1/jobs/999/traces"))->status, 404);
  const auto running = upload(running_, phase_trace());
  EXPECT_EQ(running.status, 409);
  EXPECT_EQ(json_of(running)["error"]["field"], "id");
  EXPECT_FALSE(router.admit(request("POST", "/v1/jobs/" + std::to_string(job_) + "/traces")));

  const auto big = upload(job_, std::string(5000, ' '));
  EXPECT_EQ(big.status, 413);
  EXPECT_EQ(json_of(big)["error"]["field"], "body");
  ASSERT_EQ(upload(job_, phase_trace()).status, 201);
  const auto full = upload(job_, phase_trace());
  EXPECT_EQ(full.status, 409);
  EXPECT_EQ(router.admit(request("POST", "/v1/jobs/" + std::to_string(job_) + "/traces"))->status, 409);
}

TEST_F(trace_attach_routes, a_body_file_is_taken_only_from_the_attachment_directory) {
  auto& router = make();
  temp_dir elsewhere;
  const auto outside = elsewhere.file("upload-1.part");
  write_file(outside, phase_trace());
  auto r = request("POST", "/v1/jobs/" + std::to_string(job_) + "/traces");
  r.body_file = outside;
  EXPECT_EQ(router.handle(r).status, 400);
  const auto inside = dir_.file("upload-7.part");
  write_file(inside, phase_trace());
  r.body_file = inside;
  ASSERT_EQ(router.handle(r).status, 201);
  struct stat st {};
  EXPECT_NE(::stat(inside.c_str(), &st), 0) << "the upload was moved under the daemon's own name";
}

}  // namespace
}  // namespace jetperf::test
