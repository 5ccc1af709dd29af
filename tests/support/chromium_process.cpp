#include <support/chromium_process.hpp>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

extern char** environ;

namespace jetperf::test {

namespace {

pid_t spawn(const std::vector<std::string>& args, const std::string& log) {
  std::vector<char*> argv;
  std::vector<std::string> copy = args;
  for (auto& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = -1;
  const int rc = ::posix_spawn(&pid, args[0].c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error("posix_spawn " + args[0] + ": " + std::strerror(rc));
  return pid;
}

// Waits up to `timeout` for the child; its exit status, or -1 (then it is killed).
int wait_for(pid_t pid, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  int status = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    if (::waitpid(pid, &status, WNOHANG) == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, &status, 0);
  return -1;
}

bool executable(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

// Whether `program --version` answers like a real Chromium.
bool runs(const std::string& program, std::string& answer) {
  temp_dir scratch;
  const auto log = scratch.file("version.txt");
  const int rc = wait_for(spawn({program, "--version"}, log), std::chrono::seconds(30));
  answer = read_file(log);
  while (!answer.empty() && (answer.back() == '\n' || answer.back() == '\r')) answer.pop_back();
  return rc == 0 && answer.find("Chromium") != std::string::npos;
}

}  // namespace

std::string find_chromium(std::string* why) {
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("JETPERF_CHROMIUM"); env && *env) candidates.push_back(env);
  candidates.push_back("/usr/bin/chromium");
  std::istringstream dirs(std::getenv("PATH") ? std::getenv("PATH") : "");
  std::string dir;
  while (std::getline(dirs, dir, ':'))
    for (const char* name : {"chromium", "chromium-browser"}) candidates.push_back((dir.empty() ? "." : dir) + "/" + name);
  std::string tried;
  for (const auto& c : candidates) {
    if (!executable(c)) continue;
    std::string answer;
    if (runs(c, answer)) return c;
    tried += (tried.empty() ? "" : "; ") + c + " --version answered '" + answer.substr(0, 160) + "'";
  }
  if (why) *why = tried.empty() ? "no chromium or chromium-browser on PATH or at /usr/bin/chromium" : tried;
  return {};
}

chromium_process::chromium_process(const std::string& program) {
  std::vector<std::string> args = {program,
                                   "--headless=new",
                                   "--remote-debugging-port=0",
                                   "--remote-debugging-address=127.0.0.1",
                                   "--user-data-dir=" + dir_.file("profile"),
                                   "--no-first-run",
                                   "--no-default-browser-check",
                                   "--disable-gpu",
                                   "--disable-extensions",
                                   "--disable-background-networking",
                                   "--disable-component-update",
                                   "--disable-sync",
                                   "--disable-dev-shm-usage",
                                   "--mute-audio",
                                   "--hide-scrollbars",
                                   "--window-size=1280,1000"};
  // Chromium refuses to start as root with its sandbox (CI's chroot runs the suite as root).
  if (::geteuid() == 0) args.push_back("--no-sandbox");
  args.push_back("about:blank");
  pid_ = spawn(args, dir_.file("chromium.log"));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    std::ifstream in(dir_.file("profile/DevToolsActivePort"));
    int port = 0;
    if (in >> port && port > 0) {
      port_ = port;
      return;
    }
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      throw std::runtime_error("chromium exited before announcing its DevTools port:\n" + log());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  // The destructor does not run for a constructor that throws: stop it here.
  ::kill(pid_, SIGKILL);
  ::waitpid(pid_, nullptr, 0);
  pid_ = -1;
  throw std::runtime_error("chromium announced no DevTools port within 30 s:\n" + log());
}

chromium_process::~chromium_process() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGTERM);
  if (wait_for(pid_, std::chrono::seconds(5)) < 0) return;  // killed there
}

std::string chromium_process::log() const {
  try {
    return read_file(dir_.file("chromium.log"));
  } catch (...) {
    return {};
  }
}

}  // namespace jetperf::test
