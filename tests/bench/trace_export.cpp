// Trace export speed and memory: a job's timeline as Chrome trace JSON, for the largest answer
// GET /v1/jobs/{id}/trace gives at full rate: two minutes of telemetry on 44 channels at 100 Hz
// (528 000 counter points) and 100 000 spans (a command job's markers and phases, or a layers
// job's runs).
//   writer: the store's read of those spans and chrome_trace_json over them, in this process.
//   daemon: the real jetperfd (sim:orin-agx) serving that job over HTTP: time to the first and the
//           last byte, and how much the daemon's resident memory grew while it answered (its
//           VmHWM, reset just before the request through /proc/PID/clear_refs, less its VmRSS
//           then; and the peak of VmRSS sampled every 2 ms, less the same). The daemon restarts
//           before each run, so no run inherits another's heap.
//   small: the same daemon answering small exports (one point of the large job: 1 000 spans and
//          1.2 s of telemetry; a job of 10 spans), each the median of 20 requests per run.
//   client: `jetperf trace ID -o FILE` for the large export against that daemon: its wall time
//           and peak RSS (its VmHWM, read every 2 ms until it exits: wait4's ru_maxrss would
//           count this process's memory, which the child holds between fork and exec).
// Usage: bench_trace_export [runs] [jetperfd] [jetperf] (default 3, the build's programs; another
// daemon or client measures an earlier one). Prints one JSON object: the median of the runs,
// their range, and the 1-minute load average before and after. Target: the whole answer in under
// 2 s on a board, the daemon's memory for it bounded by its chunks rather than the file's size.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <boost/beast/http.hpp>
#include <nlohmann/json.hpp>

#include <jetperf/api/chrome_trace.hpp>
#include <jetperf/store/database.hpp>
#include <jetperf/store/job_store.hpp>
#include <jetperf/store/sample_store.hpp>
#include <jetperf/store/timeline_store.hpp>
#include <support/daemon_process.hpp>
#include <support/process_memory.hpp>
#include <support/temp_dir.hpp>
#include <support/test_paths.hpp>

namespace {

using clock_type = std::chrono::steady_clock;
using nlohmann::json;
using jetperf::test::loadavg1;
using jetperf::test::reset_peak_rss;
using jetperf::test::status_kb;

constexpr std::size_t k_spans = 100000;
constexpr int k_channels = 44;
constexpr std::int64_t k_points_per_channel = 12000;  // 120 s at 100 Hz
constexpr std::int64_t k_sample_period_ns = 10'000'000;
// The spans cover the same 120 s as the samples, so the route answers at full rate.
constexpr std::int64_t k_span_step_ns = 1'199'000;
constexpr int k_small_requests = 20;

double seconds_since(clock_type::time_point t0) { return std::chrono::duration<double>(clock_type::now() - t0).count(); }

json stats(const std::vector<double>& v) {
  auto s = v;
  std::sort(s.begin(), s.end());
  return {{"median", s[s.size() / 2]}, {"min", s.front()}, {"max", s.back()}};
}

struct job_rows {
  std::vector<jetperf::store::timeline_span> spans;
  std::vector<jetperf::store::sample_row> samples;
};

// `spans` spans (half instants) and `points` samples per channel, both from t = 0.
job_rows make_job(std::int64_t job, std::size_t spans, std::int64_t points, const std::vector<std::int64_t>& channels) {
  job_rows out;
  for (std::size_t i = 0; i < spans; ++i) {
    const auto t = static_cast<std::int64_t>(i) * k_span_step_ns;
    out.spans.push_back({job, static_cast<std::int64_t>(i / 1000), i % 2 ? "markers" : "phases", i % 4 < 2 ? "busy" : "sleep",
                         t, i % 2 ? t : t + 800'000, {{"cycle", std::to_string(i)}}});
  }
  for (std::int64_t i = 0; i < points; ++i)
    for (const auto c : channels) out.samples.push_back({c, i * k_sample_period_ns, 1.0 + 0.001 * static_cast<double>(i % 500)});
  return out;
}

// Stores a finished job with those rows; samples in one-second batches.
std::int64_t store_job(jetperf::store::database& db, std::size_t spans, std::int64_t points,
                       const std::vector<std::int64_t>& channels) {
  jetperf::store::job_store jobs(db);
  const auto id = jobs.insert("command", json::object(), {}, 1, 1);
  jobs.set_state(id, jetperf::store::job_state::running);
  jobs.set_state(id, jetperf::store::job_state::succeeded);
  const auto rows = make_job(id, spans, points, channels);
  jetperf::store::timeline_store(db).add(rows.spans);
  jetperf::store::sample_store samples(db);
  const std::size_t batch = channels.size() * 100;
  for (std::size_t i = 0; i < rows.samples.size(); i += batch)
    samples.insert(id, {rows.samples.begin() + static_cast<std::ptrdiff_t>(i),
                        rows.samples.begin() + static_cast<std::ptrdiff_t>(std::min(i + batch, rows.samples.size()))});
  return id;
}

struct http_get_result {
  std::string head;  ///< status line and headers
  std::string raw_body;  ///< as sent (chunked or not)
  double first_byte_s = 0, last_byte_s = 0;
};

// GET with "Connection: close", read to the end: the time to the first and the last byte.
http_get_result http_get(int port, const std::string& target) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw std::runtime_error("socket failed");
  int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    throw std::runtime_error("connect failed");
  }
  const std::string req = "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
  const auto t0 = clock_type::now();
  if (::send(fd, req.data(), req.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(req.size())) {
    ::close(fd);
    throw std::runtime_error("send failed");
  }
  http_get_result r;
  std::string all;
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    if (all.empty()) r.first_byte_s = seconds_since(t0);
    all.append(buf, static_cast<std::size_t>(n));
  }
  r.last_byte_s = seconds_since(t0);
  ::close(fd);
  const auto end = all.find("\r\n\r\n");
  if (end == std::string::npos) throw std::runtime_error("no answer for " + target);
  r.head = all.substr(0, end + 4);
  r.raw_body = all.substr(end + 4);
  return r;
}

// The body of a whole answer (chunks joined), parsed by Beast; throws when it is incomplete.
std::string body_of(const http_get_result& r) {
  namespace http = boost::beast::http;
  http::response_parser<http::string_body> parser;
  parser.body_limit(boost::none);
  parser.eager(true);
  boost::beast::error_code ec;
  const std::string all = r.head + r.raw_body;
  parser.put(boost::asio::buffer(all), ec);
  if (ec || !parser.is_done()) {
    // Delimited by the end of the connection (HTTP/1.0 style): the body is what followed.
    parser.put_eof(ec);
    if (ec || !parser.is_done()) throw std::runtime_error("incomplete answer: " + ec.message());
  }
  return parser.get().body();
}

struct client_run {
  int exit_code = -1;
  double wall_s = 0;
  double peak_rss_mb = 0;
};

// Runs the client with `args` (its output to /dev/null) and measures it.
client_run run_measured(const std::vector<std::string>& args) {
  std::vector<std::string> copy = args;
  std::vector<char*> argv;
  for (auto& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  const auto t0 = clock_type::now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int devnull = ::open("/dev/null", O_WRONLY);
    ::dup2(devnull, 1);
    ::dup2(devnull, 2);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  client_run r;
  int status = 0;
  long long hwm_kb = 0;
  while (::waitpid(pid, &status, WNOHANG) == 0) {
    // Only once it runs the client: before exec the child is a copy of this process.
    std::ifstream exe_check("/proc/" + std::to_string(pid) + "/cmdline");
    std::string first;
    std::getline(exe_check, first, '\0');
    if (first == args[0]) hwm_kb = std::max(hwm_kb, status_kb(pid, "VmHWM"));
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  r.wall_s = seconds_since(t0);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.peak_rss_mb = static_cast<double>(hwm_kb) / 1024.0;
  return r;
}

json writer_bench(int runs) {
  jetperf::test::temp_dir dir;
  jetperf::store::database db(dir.file("bench.db"));
  jetperf::store::job_store jobs(db);
  const auto job = jobs.insert("command", json::object(), {}, 1, 1);
  jetperf::store::timeline_store timeline(db);
  const auto rows = make_job(job, k_spans, 0, {});
  auto t0 = clock_type::now();
  timeline.add(rows.spans);
  const double store_s = seconds_since(t0);

  jetperf::api::trace_document doc;
  doc.title = "bench";
  for (int c = 0; c < k_channels; ++c) {
    jetperf::api::trace_counter tc{"rail.R" + std::to_string(c), "W", {}};
    for (std::int64_t i = 0; i < k_points_per_channel; ++i)
      tc.points.emplace_back(i * k_sample_period_ns, 1.0 + 0.001 * static_cast<double>(i % 500));
    doc.counters.push_back(std::move(tc));
  }
  std::vector<double> read_s, write_s;
  std::size_t bytes = 0;
  for (int r = 0; r < runs; ++r) {
    t0 = clock_type::now();
    jetperf::store::timeline_query q;
    q.job_id = job;
    doc.spans = timeline.spans(q);
    read_s.push_back(seconds_since(t0));
    t0 = clock_type::now();
    bytes = jetperf::api::chrome_trace_json(doc).size();
    write_s.push_back(seconds_since(t0));
  }
  return {{"store_spans_s", store_s}, {"read_spans_s", stats(read_s)}, {"write_json_s", stats(write_s)}, {"bytes", bytes}};
}

json daemon_bench(int runs, const std::string& daemon, const std::string& client) {
  jetperf::test::temp_dir sims;
  jetperf::test::daemon_process d({"--board", "sim:orin-agx", "--sim-dir", sims.path(), "--log-level", "warn"}, daemon);
  d.stop();
  std::int64_t large = 0, tiny = 0;
  {
    jetperf::store::database db(d.db_path());
    jetperf::store::sample_store samples(db);
    std::vector<std::int64_t> channels;
    for (int c = 0; c < k_channels; ++c) channels.push_back(samples.channel_id("rail.R" + std::to_string(c), "W", "bench"));
    large = store_job(db, k_spans, k_points_per_channel, channels);
    tiny = store_job(db, 10, 10, channels);
  }
  const std::string large_target = "/v1/jobs/" + std::to_string(large) + "/trace";
  const std::vector<std::pair<std::string, std::string>> small_targets = {
      {"point", large_target + "?point=0"}, {"tiny_job", "/v1/jobs/" + std::to_string(tiny) + "/trace"}};

  std::vector<double> first_s, last_s, hwm_mb, sampled_mb, rss_before_mb, client_s, client_mb;
  int client_exit = 0;
  std::map<std::string, std::vector<double>> small_s;
  std::size_t bytes = 0, small_bytes_point = 0;
  bool chunked = false, valid = false, hwm_reset = true;
  for (int r = 0; r < runs; ++r) {
    d.start();
    std::this_thread::sleep_for(std::chrono::seconds(2));  // start-up work done
    const int pid = d.pid();
    const long long before_kb = status_kb(pid, "VmRSS");
    hwm_reset = reset_peak_rss(pid) && hwm_reset;
    std::atomic<bool> done{false};
    long long peak_kb = before_kb;
    std::thread sampler([&] {
      while (!done) {
        peak_kb = std::max(peak_kb, status_kb(pid, "VmRSS"));
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      }
    });
    const auto got = http_get(d.port(), large_target);
    done = true;
    sampler.join();
    const long long hwm_kb = status_kb(pid, "VmHWM");
    first_s.push_back(got.first_byte_s);
    last_s.push_back(got.last_byte_s);
    rss_before_mb.push_back(static_cast<double>(before_kb) / 1024.0);
    hwm_mb.push_back(static_cast<double>(hwm_kb - before_kb) / 1024.0);
    sampled_mb.push_back(static_cast<double>(peak_kb - before_kb) / 1024.0);
    chunked = got.head.find("Transfer-Encoding: chunked\r\n") != std::string::npos;
    if (r == 0) {
      const auto body = body_of(got);
      valid = got.head.rfind("HTTP/1.1 200", 0) == 0 && json::accept(body);
      bytes = body.size();
    }
    for (const auto& [name, target] : small_targets) {
      std::vector<double> each;
      for (int i = 0; i < k_small_requests; ++i) {
        const auto s = http_get(d.port(), target);
        each.push_back(s.last_byte_s);
        if (name == "point") small_bytes_point = body_of(s).size();
      }
      small_s[name].push_back(stats(each)["median"].get<double>());
    }
    const auto c = run_measured({client, "--host", d.address(), "--token", d.token(), "trace", std::to_string(large), "-o",
                                 sims.file("large.trace.json")});
    client_exit = std::max(client_exit, c.exit_code);
    client_s.push_back(c.wall_s);
    client_mb.push_back(c.peak_rss_mb);
    d.stop();
  }
  json small = json::object();
  for (const auto& [name, v] : small_s) small[name + "_time_to_last_byte_s"] = stats(v);
  small["point_bytes"] = small_bytes_point;
  return {{"daemon", daemon.empty() ? jetperf::test::daemon_path() : daemon},
          {"bytes", bytes},
          {"status_200_and_valid_json", valid},
          {"chunked", chunked},
          {"time_to_first_byte_s", stats(first_s)},
          {"time_to_last_byte_s", stats(last_s)},
          {"rss_before_mb", stats(rss_before_mb)},
          {"peak_rss_growth_mb_vmhwm", stats(hwm_mb)},
          {"peak_rss_growth_mb_sampled", stats(sampled_mb)},
          {"vmhwm_reset_before_request", hwm_reset},
          {"small", small},
          {"client", {{"program", client}, {"exit_code", client_exit}, {"wall_s", stats(client_s)}, {"peak_rss_mb", stats(client_mb)}}}};
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3;
  const std::string daemon = argc > 2 ? argv[2] : "";
  const std::string client = argc > 3 ? argv[3] : jetperf::test::client_path();
  const double load_before = loadavg1();
  json out = {{"bench", "trace_export"},
              {"runs", runs},
              {"spans", k_spans},
              {"counter_points", k_channels * k_points_per_channel}};
  out["writer"] = writer_bench(runs);
  out["daemon"] = daemon_bench(runs, daemon, client);
  out["loadavg_1m_before"] = load_before;
  out["loadavg_1m_after"] = loadavg1();
  std::printf("%s\n", out.dump(1).c_str());
  return 0;
}
