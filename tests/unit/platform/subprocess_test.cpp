#include <jetperf/platform/subprocess.hpp>

#include <signal.h>
#include <sys/stat.h>

#include <gtest/gtest.h>

#include <jetperf/common/errors.hpp>
#include <support/temp_dir.hpp>

using namespace std::chrono_literals;
using jetperf::platform::line_process;
using jetperf::platform::run_process;

namespace {

std::string script(const jetperf::test::temp_dir& tmp, const std::string& name, const std::string& body) {
  const std::string path = tmp.file(name);
  jetperf::test::write_file(path, "#!/bin/sh\n" + body);
  ::chmod(path.c_str(), 0755);
  return path;
}

}  // namespace

TEST(subprocess, captures_stdout_stderr_and_exit_code) {
  jetperf::test::temp_dir tmp;
  auto p = script(tmp, "t.sh", "echo \"out:$1:$2\"\necho err >&2\nexit 3\n");
  auto r = run_process({p, "a b", "$HOME"}, 5s);
  EXPECT_EQ(r.out, "out:a b:$HOME\n");  // arguments pass verbatim: no shell expansion
  EXPECT_EQ(r.err, "err\n");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_FALSE(r.timed_out);
}

TEST(subprocess, feeds_stdin) {
  jetperf::test::temp_dir tmp;
  auto p = script(tmp, "t.sh", "read a\necho \"got $a\"\n");
  auto r = run_process({p}, 5s, "YES\n");
  EXPECT_EQ(r.out, "got YES\n");
  EXPECT_EQ(r.exit_code, 0);
  // Large input that the child never reads must not hang or crash.
  auto q = script(tmp, "q.sh", "exit 0\n");
  auto r2 = run_process({q}, 5s, std::string(1 << 20, 'x'));
  EXPECT_EQ(r2.exit_code, 0);
}

TEST(subprocess, kills_on_timeout) {
  jetperf::test::temp_dir tmp;
  auto p = script(tmp, "t.sh", "echo started\nexec sleep 30\n");
  auto r = run_process({p}, 300ms);
  // Killed, not waited for: a child left to run would exit 0 after its 30 s with no signal.
  EXPECT_TRUE(r.timed_out);
  EXPECT_EQ(r.term_signal, 9);
  EXPECT_EQ(r.exit_code, -1);
  EXPECT_EQ(r.out, "started\n");
}

TEST(subprocess, missing_program_is_a_platform_error) {
  EXPECT_THROW(run_process({"/nonexistent/nvpmodel", "-q"}, 1s), jetperf::platform_error);
  EXPECT_THROW(run_process({}, 1s), jetperf::platform_error);
  EXPECT_THROW(line_process({"/nonexistent/tegrastats"}), jetperf::platform_error);
}

TEST(subprocess, line_process_reads_lines_and_stops) {
  jetperf::test::temp_dir tmp;
  auto p = script(tmp, "t.sh", "echo one\necho two\nprintf three\nexec sleep 30\n");
  line_process lp({p});
  std::string line;
  ASSERT_TRUE(lp.read_line(line, 5s));
  EXPECT_EQ(line, "one");
  ASSERT_TRUE(lp.read_line(line, 5s));
  EXPECT_EQ(line, "two");
  EXPECT_FALSE(lp.read_line(line, 200ms));  // "three" has no newline yet and the child sleeps
  EXPECT_TRUE(lp.running());
  lp.stop();
  EXPECT_FALSE(lp.running());
}

TEST(subprocess, line_process_returns_last_partial_line_at_eof) {
  jetperf::test::temp_dir tmp;
  auto p = script(tmp, "t.sh", "echo a\nprintf b\n");
  line_process lp({p});
  std::string line;
  ASSERT_TRUE(lp.read_line(line, 5s));
  EXPECT_EQ(line, "a");
  ASSERT_TRUE(lp.read_line(line, 5s));
  EXPECT_EQ(line, "b");
  EXPECT_FALSE(lp.read_line(line, 1s));
}

TEST(subprocess, unread_input_does_not_raise_sigpipe) {
  jetperf::test::temp_dir tmp;
  auto p = script(tmp, "t.sh", "exec 0<&-\nexec 1>&-\nexec 2>&-\nsleep 0.2\n");
  for (int i = 0; i < 3; ++i) {
    auto r = run_process({p}, 5s, std::string(4 << 20, 'x'));
    EXPECT_EQ(r.exit_code, 0);
  }
}

TEST(subprocess, child_gets_a_clean_signal_mask) {
  // With SIGTERM blocked in the calling thread (as a daemon using sigwait does), the child must
  // still start with nothing blocked, or line_process::stop() could only SIGKILL it.
  sigset_t term, old;
  sigemptyset(&term);
  sigaddset(&term, SIGTERM);
  ::pthread_sigmask(SIG_BLOCK, &term, &old);
  std::string line;
  {
    line_process lp({"grep", "SigBlk", "/proc/self/status"});
    ASSERT_TRUE(lp.read_line(line, 5s));
  }
  auto r = run_process({"grep", "SigBlk", "/proc/self/status"}, 5s);
  ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
  ASSERT_EQ(line.rfind("SigBlk:", 0), 0u) << line;
  const unsigned long long mask = std::stoull(line.substr(7), nullptr, 16);
  EXPECT_EQ(mask & (1ULL << (SIGTERM - 1)), 0u) << line;
  EXPECT_EQ(r.out.find("SigBlk:\t0000000000000000"), 0u) << r.out;
}
