// Reading and analysing a large Kineto trace: a GPU-style step (ops, runtime calls with
// correlation ids, kernels, flow events, Kineto's args) repeated until the file reaches the size
// asked for. Usage: bench_trace_parse [MB=100] [RUNS=3] [JETPERFD]. Prints one JSON object with
// each run's wall and CPU seconds for read_trace_file and analyze_trace, and how much the
// process's resident memory grew in each (VmHWM, reset through /proc/self/clear_refs before the
// run, less VmRSS then: the peak of the read, and of the read and the analysis together); then
// the daemon's side ("attach"): the same file POSTed to /v1/jobs/{id}/traces of a real jetperfd
// (the build's, or JETPERFD), restarted before each run, with how much its resident memory grew
// until it answered and the time to the answer; with the 1-minute load average. Target: a 100 MB
// trace in seconds, in memory well below its size.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <malloc.h>
#include <unistd.h>
#include <time.h>

#include <nlohmann/json.hpp>

#include <jetperf/traces/trace_analysis.hpp>
#include <jetperf/traces/trace_reader.hpp>
#include <jetperf/store/database.hpp>
#include <jetperf/store/job_store.hpp>
#include <support/daemon_process.hpp>
#include <support/http_client.hpp>
#include <support/process_memory.hpp>
#include <support/test_paths.hpp>
#include <support/temp_dir.hpp>

namespace {

// Process CPU seconds: on a shared machine wall time also measures the queue.
double cpu_now() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

double wall_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// One step starting at `t0` us (epoch-like, with Kineto's three decimals), correlation ids from `corr`.
void append_step(std::string& out, long step, double t0, long corr) {
  char buf[640];
  const auto host = [&](const char* cat, const char* name, double ts, double dur, const char* args) {
    std::snprintf(buf, sizeof buf,
                  "  {\"ph\": \"X\", \"cat\": \"%s\", \"name\": \"%s\", \"pid\": 4242, \"tid\": 4242, "
                  "\"ts\": %.3f, \"dur\": %.3f, \"args\": {%s}},\n",
                  cat, name, t0 + ts, dur, args);
    out += buf;
  };
  const auto device = [&](const char* cat, const char* name, double ts, double dur, long c) {
    std::snprintf(buf, sizeof buf,
                  "  {\"ph\": \"X\", \"cat\": \"%s\", \"name\": \"%s\", \"pid\": 0, \"tid\": 7, \"ts\": %.3f, "
                  "\"dur\": %.3f, \"args\": {\"External id\": %ld, \"device\": 0, \"stream\": 7, \"correlation\": %ld, "
                  "\"registers per thread\": 128, \"shared memory\": 0, \"grid\": [128, 1, 1], \"block\": [256, 1, 1]}},\n",
                  cat, name, t0 + ts, dur, c, c);
    out += buf;
    std::snprintf(buf, sizeof buf,
                  "  {\"ph\": \"f\", \"id\": %ld, \"pid\": 0, \"tid\": 7, \"ts\": %.3f, \"cat\": \"ac2g\", "
                  "\"name\": \"ac2g\", \"bp\": \"e\"},\n",
                  c, t0 + ts);
    out += buf;
  };
  char args[320];
  std::snprintf(buf, sizeof buf, "ProfilerStep#%ld", step);
  const std::string step_name = buf;
  host("user_annotation", step_name.c_str(), 0, 990, "\"External id\": 1");
  const char* dims = "\"Input Dims\": [[2048, 512], [1024, 512], [1024]], \"Input type\": [\"float\", \"float\", \"float\"]";
  for (int layer = 0; layer < 8; ++layer) {
    const double base = 5 + layer * 120;
    const long c = corr + layer * 3;
    std::snprintf(args, sizeof args, "\"External id\": %ld, \"Sequence number\": %ld, \"Fwd thread id\": 0, %s", c,
                  step * 100 + layer, dims);
    host("cpu_op", "aten::linear", base, 100, args);
    host("cpu_op", "aten::t", base + 2, 6, args);
    host("cpu_op", "aten::addmm", base + 10, 80, args);
    std::snprintf(args, sizeof args, "\"External id\": %ld, \"cbid\": 211, \"correlation\": %ld", c, c);
    host("cuda_runtime", "cudaLaunchKernel", base + 20, 9.5, args);
    host("cuda_runtime", "cudaEventRecord", base + 31, 1.2, "\"cbid\": 135");
    std::snprintf(args, sizeof args, "\"External id\": %ld, \"cbid\": 211, \"correlation\": %ld", c, c + 1);
    host("cuda_runtime", "cudaLaunchKernel", base + 40, 9.5, args);
    device("kernel", "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_16x5_tn_align4>(Params)", base + 35, 40,
           c);
    device("kernel", "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>>(int, F, A)",
           base + 76, 3.5, c + 1);
    std::snprintf(args, sizeof args, "\"External id\": %ld, %s", c + 2, dims);
    host("cpu_op", "aten::relu", base + 100, 15, args);
    std::snprintf(args, sizeof args, "\"External id\": %ld, \"cbid\": 211, \"correlation\": %ld", c + 2, c + 2);
    host("cuda_runtime", "cudaLaunchKernel", base + 103, 8, args);
    device("kernel", "void at::native::vectorized_elementwise_kernel<4, at::native::clamp_min_scalar_kernel>(int, F, A)",
           base + 112, 2.5, c + 2);
  }
}

nlohmann::json stats(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return {{"median", v[v.size() / 2]}, {"min", v.front()}, {"max", v.back()}};
}

using jetperf::test::loadavg1;
using jetperf::test::reset_peak_rss;
using jetperf::test::status_kb;

// The daemon's side: a finished job without phases or samples (offset_ns=0 aligns the trace), the
// file uploaded whole in one request, on a daemon started afresh for each run.
nlohmann::json attach_bench(const std::string& path, int runs, const std::string& program) {
  jetperf::test::temp_dir sims;
  jetperf::test::daemon_process d({"--board", "sim:orin-agx", "--sim-dir", sims.path(), "--log-level", "warn"}, program);
  d.stop();
  std::int64_t job = 0;
  {
    jetperf::store::database db(d.db_path());
    jetperf::store::job_store jobs(db);
    job = jobs.insert("command", nlohmann::json::object(), {}, 1, 1);
    jobs.set_state(job, jetperf::store::job_state::running);
    jobs.set_state(job, jetperf::store::job_state::succeeded);
  }
  const std::string body = jetperf::test::read_file(path);
  std::vector<double> grew_mb, answer_s;
  int status = 0;
  std::size_t events = 0;
  bool peak_reset = true;
  for (int r = 0; r < runs; ++r) {
    d.start();
    std::this_thread::sleep_for(std::chrono::seconds(2));  // start-up work done
    jetperf::test::http_client http(d.port(), std::chrono::seconds(120));
    const long long rss0 = status_kb(d.pid(), "VmRSS");
    peak_reset = reset_peak_rss(d.pid()) && peak_reset;
    const double w0 = wall_now();
    const auto res = http.request("POST", "/v1/jobs/" + std::to_string(job) + "/traces?offset_ns=0", body,
                                  {{"Authorization", "Bearer " + d.token()}, {"Content-Type", "application/json"}});
    answer_s.push_back(wall_now() - w0);
    grew_mb.push_back(static_cast<double>(status_kb(d.pid(), "VmHWM") - rss0) / 1024.0);
    status = res.status;
    if (res.status == 201) events = nlohmann::json::parse(res.body).value("events", std::size_t{0});
    d.stop();
  }
  return {{"daemon", program.empty() ? jetperf::test::daemon_path() : program},
          {"status", status},
          {"events", events},
          {"peak_rss_growth_mb", stats(grew_mb)},
          {"time_to_answer_s", stats(answer_s)},
          {"peak_rss_reset_before_each_run", peak_reset}};
}

}  // namespace

int main(int argc, char** argv) {
  const double mb = argc > 1 ? std::atof(argv[1]) : 100.0;
  const int runs = argc > 2 ? std::atoi(argv[2]) : 3;
  const std::string daemon = argc > 3 ? argv[3] : "";
  const double load_before = loadavg1();
  std::string text = "{\n \"schemaVersion\": 1,\n \"baseTimeNanoseconds\": 1700000000000000000,\n \"traceEvents\": [\n";
  const auto target = static_cast<std::size_t>(mb * 1024 * 1024);
  long step = 0;
  while (text.size() < target) {
    append_step(text, step, 1700000000000000.0 + static_cast<double>(step) * 1000.0, 1 + step * 100);
    ++step;
  }
  text += "  {\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 0, \"tid\": 0, \"args\": {\"name\": \"GPU 0\"}}\n ]\n}\n";
  jetperf::test::temp_dir tmp;
  const std::string path = tmp.file("large_trace.json");
  jetperf::test::write_file(path, text);

  nlohmann::json result{{"bench", "trace_parse"}, {"bytes", text.size()}, {"steps", step}};
  text.clear();
  text.shrink_to_fit();
  nlohmann::json per_run = nlohmann::json::array();
  std::vector<double> read_wall, total_wall, read_peak_mb, total_peak_mb;
  std::size_t events = 0, ops = 0;
  bool peak_reset = true;
  for (int r = 0; r < runs; ++r) {
    // The heap the previous run freed goes back to the system, so every run starts alike.
    ::malloc_trim(0);
    const long long rss0 = status_kb(::getpid(), "VmRSS");
    peak_reset = reset_peak_rss(::getpid()) && peak_reset;
    const double w0 = wall_now(), c0 = cpu_now();
    auto t = std::make_unique<jetperf::traces::trace>(jetperf::traces::read_trace_file(path));
    const double w1 = wall_now(), c1 = cpu_now();
    const long long read_hwm = status_kb(::getpid(), "VmHWM");
    jetperf::traces::analysis_options o;
    o.batch_size = 2048;
    const auto b = jetperf::traces::analyze_trace(*t, o);
    const double w2 = wall_now(), c2 = cpu_now();
    const long long total_hwm = status_kb(::getpid(), "VmHWM");
    events = t->events.size();
    ops = b.overheads.ops;
    t.reset();
    const double read_mb = static_cast<double>(read_hwm - rss0) / 1024.0;
    const double total_mb = static_cast<double>(total_hwm - rss0) / 1024.0;
    per_run.push_back({{"read_wall_s", w1 - w0}, {"read_cpu_s", c1 - c0}, {"analyze_wall_s", w2 - w1},
                       {"analyze_cpu_s", c2 - c1}, {"read_peak_rss_growth_mb", read_mb},
                       {"read_and_analyze_peak_rss_growth_mb", total_mb}});
    read_wall.push_back(w1 - w0);
    total_wall.push_back(w2 - w0);
    read_peak_mb.push_back(read_mb);
    total_peak_mb.push_back(total_mb);
  }
  std::sort(read_wall.begin(), read_wall.end());
  std::sort(total_wall.begin(), total_wall.end());
  result["events"] = events;
  result["seed_ops"] = ops;
  result["runs"] = per_run;
  if (runs > 0) {
    result["median_read_wall_s"] = read_wall[read_wall.size() / 2];
    result["median_total_wall_s"] = total_wall[total_wall.size() / 2];
    result["read_mb_per_s"] = static_cast<double>(result["bytes"].get<std::size_t>()) / 1048576.0 / read_wall[read_wall.size() / 2];
    result["read_peak_rss_growth_mb"] = stats(read_peak_mb);
    result["read_and_analyze_peak_rss_growth_mb"] = stats(total_peak_mb);
    result["peak_rss_reset_before_each_run"] = peak_reset;
  }
  if (runs > 0) result["attach"] = attach_bench(path, runs, daemon);
  result["loadavg_1m_before"] = load_before;
  result["loadavg_1m_after"] = loadavg1();
  std::cout << result.dump(1) << std::endl;
}
