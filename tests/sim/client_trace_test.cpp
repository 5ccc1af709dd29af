// `jetperf trace analyze`: the offline trace breakdown as a user runs it (the real client binary,
// no daemon), on the hand-made GPU trace (every value known, see tests/unit/traces) and on a
// real profile, in each output format; and its errors.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include <map>
#include <string>

#include <support/fixtures.hpp>
#include <support/gpu_trace.hpp>
#include <support/run_client.hpp>
#include <support/temp_dir.hpp>

namespace jetperf::test {
namespace {

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(client_trace, csv_of_a_gpu_trace_has_the_overheads_and_qps) {
  temp_dir tmp;
  const std::string path = tmp.file("gpu.json");
  write_file(path, traces::test::gpu_trace_json());
  const auto r = run_client({"trace", "analyze", path, "--format", "csv", "--batch-size", "10"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "\nsummary,qps,,,,,,,10000.000\n")) << r.out;
  EXPECT_TRUE(has(r.out, "\nop,aten::linear,1,100.000,15.000,50.000,100.000,,\n")) << r.out;
  EXPECT_TRUE(has(r.out, "\nt1,,3,30.000,,,10.000,2.828,\n")) << r.out;
  EXPECT_TRUE(has(r.out, "\nt2,aten::linear,1,16.000,,,16.000,0.000,\n")) << r.out;
  EXPECT_TRUE(has(r.out, "\nt3,aten::linear,1,40.000,,,40.000,0.000,\n")) << r.out;
  EXPECT_TRUE(has(r.out, "\nt4,cudaMemcpyAsync,1,4.000,,,4.000,0.000,\n")) << r.out;
  EXPECT_TRUE(has(r.out, "\nt5,aten::linear,1,18.000,,,18.000,0.000,\n")) << r.out;
}

TEST(client_trace, constants_from_the_command_line_change_the_overheads) {
  temp_dir tmp;
  const std::string path = tmp.file("gpu.json");
  write_file(path, traces::test::gpu_trace_json());
  const auto r = run_client({"trace", "analyze", path, "--format", "json", "--cpu-event-overhead", "3",
                             "--gpu-event-overhead", "1", "--kernel-launch-length", "6"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  // Gaps of 10, 10 and 16 us, each less one event overhead.
  EXPECT_DOUBLE_EQ(j["overheads"]["t1"]["mean_us"].get<double>(), (10.0 + 10 + 16) / 3 - 3);
  EXPECT_DOUBLE_EQ(j["overheads"]["t4"][0]["mean_us"].get<double>(), 6.0 - 3 - 1);
  EXPECT_TRUE(j["summary"]["qps"].is_null());
}

TEST(client_trace, json_to_a_file_agrees_with_key_averages_of_a_real_profile) {
  temp_dir tmp;
  const std::string out = tmp.file("dlrm.json");
  const auto r = run_client({"trace", "analyze", fixtures_dir() + "/traces/dlrm_cpu.json", "--format", "json", "-o", out,
                             "--batch-size", "16"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  const auto j = nlohmann::json::parse(read_file(out));
  EXPECT_EQ(j["summary"]["iterations"], 3);
  EXPECT_GT(j["summary"]["qps"].get<double>(), 0);
  std::map<std::string, nlohmann::json> ops;
  for (const auto& op : j["ops"]) ops[op["key"]] = op;
  const auto averages = nlohmann::json::parse(fixture_text("traces/dlrm_cpu_key_averages.json"));
  ASSERT_EQ(ops.size(), averages["keys"].size());
  for (const auto& k : averages["keys"]) {
    SCOPED_TRACE(k["key"].get<std::string>());
    const auto& op = ops.at(k["key"]);
    EXPECT_EQ(op["count"], k["count"]);
    EXPECT_NEAR(op["cpu_total_us"].get<double>(), k["cpu_time_total"].get<double>(),
                0.01 * k["cpu_time_total"].get<double>() + 1e-3);
    EXPECT_NEAR(op["self_cpu_us"].get<double>(), k["self_cpu_time_total"].get<double>(),
                0.01 * k["self_cpu_time_total"].get<double>() + 1e-3);
  }
}

TEST(client_trace, the_table_is_the_default) {
  const auto r = run_client({"trace", "analyze", fixtures_dir() + "/traces/cnn_cpu.json", "--iteration-op", "aten::conv2d"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "iterations (aten::conv2d): 6,")) << r.out;  // two convolutions a step, three steps
  EXPECT_TRUE(has(r.out, "\nop  ")) << r.out;
  EXPECT_TRUE(has(r.out, "\nhost overheads (DLRM trace analysis' model; CPU_EVENT_OVERHEAD 2.00 us")) << r.out;
}

// A DLRM-style trace labels its steps "## iteration N ##" (make_iteration_traces.py): found by
// default and by --iteration-label, with the QPS the trace itself gives (10 x 128 over the span
// from the first step's start to the last one's end, read here from the file).
TEST(client_trace, dlrm_iteration_labels_give_the_steps_and_their_qps) {
  const std::string file = fixtures_dir() + "/traces/dlrm_iterations_legacy.json";
  double first = 1e300, last = -1e300;
  for (const auto& e : nlohmann::json::parse(read_file(file))) {
    const std::string name = e["name"];
    if (name.rfind("## iteration ", 0) != 0) continue;
    first = std::min(first, e["ts"].get<double>());
    last = std::max(last, e["ts"].get<double>() + e["dur"].get<double>());
  }
  const double qps = 10 * 128 / ((last - first) * 1e-6);
  for (const std::vector<std::string>& extra :
       {std::vector<std::string>{}, std::vector<std::string>{"--iteration-label", "## iteration * ##"}}) {
    std::vector<std::string> args{"trace", "analyze", file, "--format", "json", "--batch-size", "128"};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = run_client(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["summary"]["iterations"], 10);
    EXPECT_EQ(j["summary"]["iteration_source"], "## iteration * ##");
    ASSERT_TRUE(j["summary"]["qps"].is_number()) << j["summary"].dump();
    EXPECT_NEAR(j["summary"]["qps"].get<double>(), qps, 0.01 * qps);
    EXPECT_EQ(j["overheads"]["scope"], "iterations");
    for (const auto& t5 : j["overheads"]["t5"]) EXPECT_NE(t5["op"], "backward") << "a label counted as an op";
  }
  const auto table = run_client({"trace", "analyze", file, "--iteration-label", "forward"});
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_TRUE(has(table.out, "iterations (forward): 10,")) << table.out;
  EXPECT_TRUE(has(table.out, "\nrecord_function labels (not ops")) << table.out;
  // One way of naming the iterations at a time, and no empty pattern: usage errors.
  const auto both = run_client({"trace", "analyze", file, "--iteration-label", "x", "--iteration-op", "y"});
  EXPECT_EQ(both.exit_code, 2) << both.err;
  EXPECT_TRUE(has(both.err, "--iteration-op")) << both.err;
  const auto empty = run_client({"trace", "analyze", file, "--iteration-label", ""});
  EXPECT_EQ(empty.exit_code, 2) << empty.err;
}

TEST(client_trace, a_malformed_trace_names_the_event_and_field) {
  temp_dir tmp;
  const std::string path = tmp.file("bad.json");
  write_file(path, R"({"traceEvents": [{"ph": "X", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 3}]})");
  const auto r = run_client({"trace", "analyze", path});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(has(r.err, "error: " + path + ": traceEvents[0].dur: event 0 (aten::mm): missing \"dur\"")) << r.err;
  EXPECT_EQ(r.out, "");

  write_file(path, "not json");
  const auto not_json = run_client({"trace", "analyze", path});
  EXPECT_EQ(not_json.exit_code, 1);
  EXPECT_TRUE(has(not_json.err, "not valid JSON at byte")) << not_json.err;

  const auto missing = run_client({"trace", "analyze", tmp.file("none.json")});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_TRUE(has(missing.err, "cannot read")) << missing.err;

  // What is not a regular file is refused before it is opened: /dev/zero and a FIFO hung the
  // client, a directory was "9223372036854775807 bytes".
  const auto fifo = tmp.file("pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const auto& [file, what] : {std::pair<std::string, std::string>{"/dev/zero", "a device or socket"},
                                   {fifo, "a FIFO"}, {tmp.path(), "a directory"}}) {
    const auto refused = run_client({"trace", "analyze", file}, {}, 20);
    EXPECT_EQ(refused.exit_code, 2) << file << ": " << refused.err;
    EXPECT_TRUE(has(refused.err, file + " is not a regular file (" + what + ")")) << refused.err;
  }

  const auto no_sub = run_client({"trace"});
  EXPECT_EQ(no_sub.exit_code, 2);
}

}  // namespace
}  // namespace jetperf::test
