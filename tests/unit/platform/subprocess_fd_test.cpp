// run_process and line_process must not leak descriptors when one of their pipes cannot be made.
// The failure is forced, deterministically, by lowering RLIMIT_NOFILE in a forked child so that
// exactly `free_slots` descriptors can still be opened: pipes take the lowest free numbers, so
// the first free_slots / 2 pipes succeed and the next fails with EMFILE. The child reports what
// it saw through a pipe of its own; the limit stays in the child.
#include <jetperf/platform/subprocess.hpp>

#include <dirent.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <functional>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include <jetperf/common/errors.hpp>

using namespace std::chrono_literals;

namespace {

// The descriptors open in this process (not counting the one that lists them).
std::set<int> open_fds() {
  std::set<int> fds;
  DIR* d = ::opendir("/proc/self/fd");
  if (!d) return fds;
  const int own = ::dirfd(d);
  while (const dirent* e = ::readdir(d)) {
    if (e->d_name[0] == '.') continue;
    const int fd = std::atoi(e->d_name);
    if (fd != own) fds.insert(fd);
  }
  ::closedir(d);
  return fds;
}

// The RLIMIT_NOFILE under which exactly `free_slots` more descriptors can be opened.
rlim_t limit_leaving(const std::set<int>& open, int free_slots) {
  rlim_t limit = 0;
  for (int free = 0;; ++limit) {
    if (!open.count(static_cast<int>(limit))) {
      if (free == free_slots) return limit;
      ++free;
    }
  }
}

struct outcome {
  bool threw = false;
  std::string what;
  int leaked = -1;  ///< descriptors open afterwards that were not before
};

// Runs `start` in a forked child with only `free_slots` descriptors left to it.
outcome with_free_slots(int free_slots, const std::function<void()>& start) {
  int report[2];
  if (::pipe(report) != 0) throw std::runtime_error("pipe");
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(report[0]);
    const auto before = open_fds();
    rlimit old{};
    ::getrlimit(RLIMIT_NOFILE, &old);
    rlimit low = old;
    low.rlim_cur = limit_leaving(before, free_slots);
    ::setrlimit(RLIMIT_NOFILE, &low);
    std::string what;
    bool threw = false;
    try {
      start();
    } catch (const jetperf::platform_error& e) {
      // Back up before reading the exception: in a UBSan build (JETPERF_SANITIZE=address) the
      // check of e's dynamic type probes memory through a pipe, which fails with no descriptor
      // left and is then reported as an invalid vptr.
      ::setrlimit(RLIMIT_NOFILE, &old);
      threw = true;
      what = e.what();
    }
    // Back up before counting: listing /proc/self/fd needs a descriptor of its own.
    ::setrlimit(RLIMIT_NOFILE, &old);
    const auto after = open_fds();
    int leaked = 0;
    for (int fd : after) leaked += before.count(fd) ? 0 : 1;
    const std::string text = std::to_string(threw) + " " + std::to_string(leaked) + " " + what;
    ssize_t ignored = ::write(report[1], text.data(), text.size());
    (void)ignored;
    ::_exit(0);
  }
  ::close(report[1]);
  std::string text;
  char buf[512];
  for (ssize_t n; (n = ::read(report[0], buf, sizeof buf)) > 0;) text.append(buf, static_cast<std::size_t>(n));
  ::close(report[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  outcome o;
  std::istringstream in(text);
  in >> o.threw >> o.leaked;
  std::getline(in >> std::ws, o.what);
  return o;
}

}  // namespace

TEST(subprocess_fds, run_process_closes_the_pipes_it_made_when_the_next_one_fails) {
  // 0: stdin's pipe fails; 2: stdout's; 4: stderr's; 6: the exec-status pipe inside spawn.
  for (int free_slots : {0, 2, 4, 6}) {
    const auto o = with_free_slots(free_slots, [] { jetperf::platform::run_process({"/bin/true"}, 5s); });
    EXPECT_TRUE(o.threw) << free_slots << " free descriptors";
    EXPECT_NE(o.what.find("pipe failed: Too many open files"), std::string::npos) << o.what;
    EXPECT_EQ(o.leaked, 0) << free_slots << " free descriptors: " << o.what;
  }
  // With room for all four pipes it runs, and still leaves nothing open.
  const auto ok = with_free_slots(8, [] {
    if (jetperf::platform::run_process({"/bin/true"}, 5s).exit_code != 0) throw jetperf::platform_error("exit");
  });
  EXPECT_FALSE(ok.threw) << ok.what;
  EXPECT_EQ(ok.leaked, 0);
}

TEST(subprocess_fds, line_process_closes_its_pipe_when_the_next_one_fails) {
  // 0: the output pipe fails; 2: the exec-status pipe inside spawn.
  for (int free_slots : {0, 2}) {
    const auto o = with_free_slots(free_slots, [] { jetperf::platform::line_process lp({"/bin/true"}); });
    EXPECT_TRUE(o.threw) << free_slots << " free descriptors";
    EXPECT_NE(o.what.find("pipe failed: Too many open files"), std::string::npos) << o.what;
    EXPECT_EQ(o.leaked, 0) << free_slots << " free descriptors: " << o.what;
  }
}
