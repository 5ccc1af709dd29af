// The worst inputs of issue "Hardening, round two" (cases 8, 9 and 12), and what they cost in
// memory: the daemon's and the client's peak resident size for each, against the bound of that
// issue (no request and no job grows the daemon by more than 64 MB beyond what it keeps).
//   trace_names: a finished job gets a 10 MB trace of 120 000 distinct op names attached, its
//                events over the job's power samples (POST /v1/jobs/{id}/traces).
//   markers:     a command job whose program sends 100 000 `mark` markers of 8 attributes each.
//   samples_page: one page of 100 000 samples (issue "Everyday costs": peak <= 16 MB, kept <= 5 MB).
//   client_chunked / client_length: `jetperf show 1` against a server that answers 700 MiB,
//                without a length (chunked) and with one (Content-Length).
// For the daemon: `peak_growth_mb` is its VmHWM (reset through /proc/PID/clear_refs just before)
// less its VmRSS then; `kept_mb` its VmRSS 2 s after the answer (the job's end) less the same.
// For the client: its peak (wait4's ru_maxrss; this process holds a few MB when it forks).
// Usage: bench_memory_bounds [jetperfd] [jetperf] [CASE,...] (default: the build's, every case; an
// earlier build's programs measure "before"; "" for the build's). Prints one JSON object.
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include <support/daemon_process.hpp>
#include <support/finished_job.hpp>
#include <support/http_client.hpp>
#include <support/loopback_listener.hpp>
#include <support/process_memory.hpp>
#include <support/temp_dir.hpp>
#include <support/test_paths.hpp>

using namespace jetperf::test;
using nlohmann::json;

namespace {

double mb(long long kb) { return static_cast<double>(kb) / 1024.0; }

struct daemon_memory {
  long long before_kb = 0;
  pid_t pid = -1;
  explicit daemon_memory(pid_t p) : pid(p) {
    before_kb = status_kb(pid, "VmRSS");
    if (!reset_peak_rss(pid)) throw std::runtime_error("cannot reset the daemon's peak RSS (clear_refs)");
  }
  json figures() const {
    const auto peak = status_kb(pid, "VmHWM");
    std::this_thread::sleep_for(std::chrono::seconds(2));
    const auto after = status_kb(pid, "VmRSS");
    return {{"rss_before_mb", mb(before_kb)},
            {"peak_growth_mb", mb(peak - before_kb)},
            {"kept_mb", mb(after - before_kb)}};
  }
};

// A Chrome trace of `names` complete events, one name each, 5 us long every 10 us from ts 0.
std::string many_names_trace(int names) {
  std::string out = "{\"traceEvents\":[";
  char buf[160];
  for (int i = 0; i < names; ++i) {
    std::snprintf(buf, sizeof buf, "%s{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::op_%07d\",\"pid\":1,\"tid\":1,\"ts\":%d,\"dur\":5}",
                  i ? "," : "", i, i * 10);
    out += buf;
  }
  return out + "]}";
}

json trace_names(const std::string& daemon_program) {
  temp_dir sim;
  daemon_process d({"--board", "sim:orin-agx", "--sim-dir", sim.path(), "--log-level", "warn"}, daemon_program);
  http_client http(d.port());
  const auto job = run_job(d, http, "idle", {{"duration_s", 2.0}, {"repeats", 1}});
  const auto first = json::parse(
      http.request("GET", "/v1/jobs/" + job.id + "/samples?channel=power.total&limit=1").body)["samples"][0]["t_ns"];
  // The trace's 1.2 s from 100 ms into the job's 2 s.
  const auto offset = first.get<std::int64_t>() + 100'000'000;
  std::string trace = many_names_trace(120000);
  const double trace_mb = static_cast<double>(trace.size()) / 1e6;
  daemon_memory m(d.pid());
  const auto res = http.request("POST", "/v1/jobs/" + job.id + "/traces?offset_ns=" + std::to_string(offset), trace,
                                {{"Authorization", "Bearer " + d.token()}});
  trace.clear();
  trace.shrink_to_fit();
  if (res.status != 201) throw std::runtime_error("the upload got " + std::to_string(res.status) + ": " + res.body.substr(0, 300));
  auto out = m.figures();
  out["trace_mb"] = trace_mb;
  out["answer_mb"] = static_cast<double>(res.body.size()) / 1e6;
  out["op_rows"] = json::parse(res.body)["energy"]["ops"].size();
  return out;
}

json markers(const std::string& daemon_program) {
  temp_dir sim, programs, shared;
  ::chmod(programs.path().c_str(), 0755);
  ::chmod(shared.path().c_str(), 01777);
  {
    std::ifstream in(test_programs_dir() + "/marked_phases", std::ios::binary);
    std::ofstream out(programs.file("marked_phases"), std::ios::binary);
    out << in.rdbuf();
  }
  ::chmod(programs.file("marked_phases").c_str(), 0755);
  daemon_process d({"--board", "sim:orin-agx", "--sim-dir", sim.path(), "--log-level", "warn", "--command-jobs", "true",
                    "--command-user", "nobody", "--command-dirs", programs.path(), "--runtime-dir", shared.file("run")},
                   daemon_program);
  http_client http(d.port());
  daemon_memory m(d.pid());
  const auto job = run_job(d, http, "command",
                           {{"argv", {programs.file("marked_phases"), "--marks", "100000"}}, {"repeats", 1}, {"idle_s", 0}});
  auto out = m.figures();
  const auto& row = job.results["rows"][0];
  out["markers_kept"] = row["markers"];
  out["marker_errors"] = row["marker_errors"];
  out["job_s"] = job.wall_s;
  return out;
}

// One page of 100 000 samples (GET /v1/jobs/{id}/samples?limit=100000) of an idle job sampled
// every millisecond; issue "Everyday costs" bounds its peak at 16 MB and what it keeps at 5 MB.
json samples_page(const std::string& daemon_program) {
  temp_dir sim;
  daemon_process d({"--board", "sim:orin-agx", "--sim-dir", sim.path(), "--log-level", "warn", "--sample-period-ms", "1"},
                   daemon_program);
  http_client http(d.port(), std::chrono::seconds(60));
  const auto job = run_job(d, http, "idle", {{"duration_s", 6.0}, {"repeats", 1}});
  daemon_memory m(d.pid());
  const auto res = http.request("GET", "/v1/jobs/" + job.id + "/samples?limit=100000");
  if (res.status != 200) throw std::runtime_error("the page got " + std::to_string(res.status) + ": " + res.body.substr(0, 300));
  auto out = m.figures();
  const auto page = json::parse(res.body);
  out["samples"] = page["samples"].size();
  out["answer_mb"] = static_cast<double>(res.body.size()) / 1e6;
  return out;
}

// Answers every request on loopback with `bytes` of 'x', chunked or with a Content-Length.
class oversized_server {
 public:
  oversized_server(std::uint64_t bytes, bool chunked) : bytes_(bytes), chunked_(chunked) {
    fd_ = listen_on_loopback(&port_, 4);
    thread_ = std::thread([this] { serve(); });
  }
  ~oversized_server() {
    ::shutdown(fd_, SHUT_RDWR);
    ::close(fd_);
    thread_.join();
  }
  int port() const { return port_; }

 private:
  void serve() {
    const int c = ::accept(fd_, nullptr, nullptr);
    if (c < 0) return;
    char buf[4096];
    std::string request;
    while (request.find("\r\n\r\n") == std::string::npos) {
      const auto n = ::read(c, buf, sizeof buf);
      if (n <= 0) break;
      request.append(buf, static_cast<std::size_t>(n));
    }
    std::string head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n";
    head += chunked_ ? "Transfer-Encoding: chunked\r\n\r\n" : "Content-Length: " + std::to_string(bytes_) + "\r\n\r\n";
    const std::string block(1 << 20, 'x');
    char size_line[32];
    std::snprintf(size_line, sizeof size_line, "%zx\r\n", block.size());
    bool ok = send_all(c, head);
    for (std::uint64_t sent = 0; ok && sent < bytes_; sent += block.size())
      ok = chunked_ ? send_all(c, size_line) && send_all(c, block) && send_all(c, "\r\n") : send_all(c, block);
    if (ok && chunked_) send_all(c, "0\r\n\r\n");
    ::close(c);
  }
  static bool send_all(int fd, const std::string& s) {
    for (std::size_t off = 0; off < s.size();) {
      const auto n = ::send(fd, s.data() + off, s.size() - off, MSG_NOSIGNAL);
      if (n <= 0) return false;
      off += static_cast<std::size_t>(n);
    }
    return true;
  }

  std::uint64_t bytes_;
  bool chunked_;
  int fd_ = -1;
  int port_ = 0;
  std::thread thread_;
};

json client_answer(const std::string& client_program, bool chunked) {
  oversized_server server(700ull << 20, chunked);
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, 1);
    ::dup2(null, 2);
    const std::string host = "127.0.0.1:" + std::to_string(server.port());
    ::execl(client_program.c_str(), client_program.c_str(), "--host", host.c_str(), "show", "1", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int status = 0;
  rusage ru{};
  ::wait4(pid, &status, 0, &ru);
  return {{"answer_mib", 700},
          {"exit_code", WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status)},
          {"seconds", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()},
          {"client_peak_rss_mb", mb(ru.ru_maxrss)}};
}

}  // namespace

int main(int argc, char** argv) {
  const std::string daemon_program = argc > 1 && argv[1][0] ? argv[1] : "";
  const std::string client_program = argc > 2 && argv[2][0] ? argv[2] : client_path();
  // A third argument names the cases to run (comma-separated); all by default.
  const std::string only = argc > 3 ? std::string(",") + argv[3] + "," : "";
  const auto wanted = [&](const char* name) { return only.empty() || only.find(std::string(",") + name + ",") != std::string::npos; };
  json out;
  out["bench"] = "memory_bounds";
  out["loadavg_1m_before"] = loadavg1();
  if (wanted("trace_names")) out["trace_names"] = trace_names(daemon_program);
  if (wanted("markers")) out["markers"] = markers(daemon_program);
  if (wanted("samples_page")) out["samples_page"] = samples_page(daemon_program);
  if (wanted("client_chunked")) out["client_chunked"] = client_answer(client_program, true);
  if (wanted("client_length")) out["client_length"] = client_answer(client_program, false);
  out["loadavg_1m_after"] = loadavg1();
  // Each case against its bound: 64 MB beyond what the daemon keeps (issue "Hardening, round
  // two"); the client at 512 MB + 64; a samples page at 16 MB peak and 5 MB kept ("Everyday costs").
  const auto at_most = [&](const char* c, const char* figure, double bound) {
    return !out.contains(c) || out[c][figure].get<double>() <= bound;
  };
  out["bound_mb"] = 64;
  out["within_bound"] = at_most("trace_names", "peak_growth_mb", 64) && at_most("markers", "peak_growth_mb", 64) &&
                        at_most("client_chunked", "client_peak_rss_mb", 512 + 64) &&
                        at_most("samples_page", "peak_growth_mb", 16) && at_most("samples_page", "kept_mb", 5);
  std::cout << out.dump(2) << std::endl;
  return 0;
}
