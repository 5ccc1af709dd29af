#include <support/run_client.hpp>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <stdexcept>

#include <gtest/gtest.h>

#include <support/sanitizer.hpp>
#include <support/test_paths.hpp>

extern char** environ;

namespace jetperf::test {

client_result run_client(const std::vector<std::string>& args, const std::map<std::string, std::string>& env,
                         int timeout_s) {
  std::vector<std::string> argv{client_path()};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_program(argv, env, timeout_s);
}

client_result run_program(const std::vector<std::string>& args, const std::map<std::string, std::string>& env,
                          int timeout_s, const std::string& stdin_file, const std::string& interrupt_when_out_has) {
  std::map<std::string, std::string> vars;
  for (char** e = environ; *e; ++e) {
    const std::string kv(*e);
    const auto eq = kv.find('=');
    if (eq == std::string::npos || kv.compare(0, 8, "JETPERF_") == 0) continue;
    vars[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  vars["XDG_CONFIG_HOME"] = "/nonexistent/jetperf-test-config";
  for (const auto& [k, v] : env) {
    if (v.empty())
      vars.erase(k);
    else
      vars[k] = v;
  }
  std::vector<std::string> env_strings;
  for (const auto& [k, v] : vars) env_strings.push_back(k + "=" + v);
  std::vector<char*> envp;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);

  std::vector<std::string> argv_strings = args;
  std::vector<char*> argv;
  for (auto& a : argv_strings) argv.push_back(a.data());
  argv.push_back(nullptr);

  int out_pipe[2], err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0 || ::pipe2(err_pipe, O_CLOEXEC) != 0)
    throw std::runtime_error("run_client: pipe: " + std::string(std::strerror(errno)));
  const std::string input = stdin_file.empty() ? std::string("/dev/null") : stdin_file;
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("run_client: fork: " + std::string(std::strerror(errno)));
  if (pid == 0) {
    const int in = ::open(input.c_str(), O_RDONLY);
    if (in < 0) ::_exit(126);
    ::dup2(in, 0);
    ::dup2(out_pipe[1], 1);
    ::dup2(err_pipe[1], 2);
    ::execve(argv[0], argv.data(), envp.data());
    ::_exit(127);
  }
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);

  client_result result;
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&result.out, &result.err};
  int open_fds = 2;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  bool timed_out = false;
  bool interrupted = false;
  while (open_fds > 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    if (::poll(fds, 2, static_cast<int>(left.count())) < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buf[4096];
      const ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        sinks[i]->append(buf, static_cast<std::size_t>(n));
        if (!interrupted && !interrupt_when_out_has.empty() && result.out.find(interrupt_when_out_has) != std::string::npos)
          interrupted = ::kill(pid, SIGINT) == 0;
      } else if (n == 0 || errno != EINTR) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  if (timed_out) ::kill(pid, SIGKILL);
  for (auto& f : fds)
    if (f.fd >= 0) ::close(f.fd);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.exit_code = 128 + WTERMSIG(status);
  if (timed_out) result.err += "\n[run_client: killed after " + std::to_string(timeout_s) + " s]";
  // A sanitizer build's finding in the program fails the test even where the test expects the
  // program to fail anyway (ASan's exit status 1 is also the client's "the daemon said no").
  if (const auto report = sanitizer_report(result.err); !report.empty())
    ADD_FAILURE() << args.front() << " reported:\n" << report;
  return result;
}

}  // namespace jetperf::test
