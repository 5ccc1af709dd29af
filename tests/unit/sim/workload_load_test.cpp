// What a simulated board's CPUs run: this process's workload threads (not its service threads,
// not other processes), their CPU share of the simulated clock, and the flags a result gets when
// the host refuses that share.
#include <gtest/gtest.h>

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include <jetperf/common/clock.hpp>
#include <jetperf/common/thread_name.hpp>
#include <jetperf/platform/sysfs_root.hpp>
#include <jetperf/sim/cpu_reservation.hpp>
#include <jetperf/sim/sim_fidelity.hpp>
#include <jetperf/sim/workload_threads.hpp>

#include "sim_test_util.hpp"

using namespace jetperf;
using namespace jetperf::sim;

namespace {

// A thread that spins until destroyed, named as given; tid() once it runs.
class spinner {
 public:
  explicit spinner(std::string name) {
    thread_ = std::thread([this, name] {
      name_this_thread(name);
      tid_ = static_cast<int>(syscall(SYS_gettid));
      volatile double x = 0;
      while (!stop_) x = x + 1;
    });
    while (tid_ == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~spinner() {
    stop_ = true;
    thread_.join();
  }
  int tid() const { return tid_; }

 private:
  std::atomic<bool> stop_{false};
  std::atomic<int> tid_{0};
  std::thread thread_;
};

const thread_busy* find_tid(const std::vector<thread_busy>& v, int tid) {
  for (const auto& t : v)
    if (t.tid == tid) return &t;
  return nullptr;
}

double rail(const rail_simulator& sim, const std::string& name) {
  for (const auto& [label, mw] : sim.rails_mw())
    if (label == name) return mw;
  return -1;
}

}  // namespace

TEST(thread_name, service_threads_are_jp_prefixed_except_the_runner) {
  EXPECT_TRUE(is_service_thread("jp-http-0"));
  EXPECT_TRUE(is_service_thread("jp-sampler"));
  EXPECT_FALSE(is_service_thread("jp-runner"));
  EXPECT_FALSE(is_service_thread("jetperfd"));
  EXPECT_FALSE(is_service_thread("omp_worker"));
}

TEST(workload_threads, counts_job_threads_by_their_own_cpu_clock_and_leaves_service_threads_out) {
  spinner worker("blas-worker");
  spinner service("jp-http-7");
  workload_threads threads;
  threads.sample(monotonic_ns());
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const auto seen = threads.sample(monotonic_ns());
  const auto* w = find_tid(seen, worker.tid());
  ASSERT_NE(w, nullptr);
  // A spinning thread is busy whenever it runs; on a loaded 2-core machine it still gets a fair part.
  EXPECT_GT(w->busy, 0.2);
  EXPECT_LE(w->busy, 1.05);
  EXPECT_EQ(find_tid(seen, service.tid()), nullptr) << "a jp- service thread counted as workload";
}

TEST(cpu_reservation, a_reserved_thread_gets_at_most_its_share_or_the_refusal_says_why) {
  spinner worker("blas-worker");
  cpu_reservation reservation;
  const auto refused = cpu_reservation::probe();
  const std::string failure = reservation.apply({worker.tid()}, 0.1);
  if (refused) EXPECT_FALSE(failure.empty()) << "the probe was refused, the share was not";
  if (!failure.empty()) {
    // A host without SCHED_DEADLINE for us, or whose deadline bandwidth other processes hold
    // (admission is machine-wide: parallel test daemons): the answer names the reason and the
    // thread runs unreserved, which is what the results' speed_not_simulated flag reports.
    EXPECT_NE(failure.find("SCHED_DEADLINE"), std::string::npos) << failure;
    EXPECT_EQ(reservation.share_of(worker.tid()), 1.0);
    return;
  }
  EXPECT_DOUBLE_EQ(reservation.share_of(worker.tid()), 0.1);
  const auto t0 = thread_cpu_ns(worker.tid());
  const auto w0 = monotonic_ns();
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  const double busy = static_cast<double>(thread_cpu_ns(worker.tid()) - t0) / static_cast<double>(monotonic_ns() - w0);
  // The kernel never runs it longer than its runtime per period, however idle the machine.
  EXPECT_LT(busy, 0.15);
  // Renewed (fresh parameters), it keeps its share.
  reservation.renew();
  EXPECT_DOUBLE_EQ(reservation.share_of(worker.tid()), 0.1);
  // At the top clock (share >= 0.95) the reservation goes: back to the host's full speed.
  EXPECT_EQ(reservation.apply({worker.tid()}, 1.0), "");
  EXPECT_EQ(reservation.share_of(worker.tid()), 1.0);
}

TEST(rail_simulator, cpu_rail_follows_this_process_workload_threads_not_its_service_threads) {
  test::temp_dir tmp;
  auto board = sim_testing::make_board("orin-agx", tmp);
  // MAXN (all 12 cores): confirmed for the reboot, then the boot applies it.
  ASSERT_EQ(sim_testing::run(board.paths().nvpmodel_path, {"-m", "0"}, "YES\n").exit_code, 0);
  ASSERT_EQ(sim_testing::run(board.paths().nvpmodel_path, {"--boot"}).exit_code, 0);
  rail_simulator_options o;
  o.noise = 0;
  rail_simulator sim(board.profile(), board.paths().sysfs_root, o);
  const auto settle = [&sim] {
    for (int i = 0; i < 4; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(60));
      sim.step(0.06);
    }
    return rail(sim, "VDD_CPU_CV");
  };
  sim.step(0.02);
  const double quiet = settle();
  double with_service = 0, with_worker = 0;
  {
    spinner service("jp-noise");  // a daemon service thread, busy: not the job
    with_service = settle();
  }
  {
    spinner worker("blas-worker");
    with_worker = settle();
    EXPECT_GT(sim.host_load(), 0.02);
  }
  EXPECT_LT(with_service, quiet + 300) << "a busy service thread moved the CPU rail";
  EXPECT_GT(with_worker, quiet + 400) << "quiet " << quiet << " mW, one busy workload thread " << with_worker;
  // The board's own /proc/stat counts the same load.
  platform::sysfs_root root(board.paths().sysfs_root);
  const auto stat = root.read("/proc/stat");
  EXPECT_EQ(stat.rfind("cpu  ", 0), 0u) << stat;
  EXPECT_NE(stat.find("\ncpu11 "), std::string::npos) << stat;
}

TEST(sim_fidelity, flags_what_the_simulator_does_not_model) {
  test::temp_dir tmp;
  auto board = sim_testing::make_board("orin-agx", tmp);
  rail_simulator sim(board.profile(), board.paths().sysfs_root);
  const sim_fidelity fidelity(sim);
  const auto since = monotonic_ns();
  // The host GPU's speed never follows the simulated GPU clock.
  EXPECT_EQ(fidelity.window_flags(since, "cuda"), std::vector<std::string>{"speed_not_simulated"});
  const auto d = fidelity.describe();
  EXPECT_EQ(d["simulated"], true);
  if (sim.speed().simulated) {
    EXPECT_TRUE(fidelity.window_flags(since, "cpu").empty());
    EXPECT_EQ(d["speed_simulated"], true);
  } else {
    EXPECT_EQ(fidelity.window_flags(since, "cpu"), std::vector<std::string>{"speed_not_simulated"});
    EXPECT_EQ(d["speed_simulated"], false);
    EXPECT_FALSE(sim.speed().reason.empty());
  }
  // A given load (tests, tools) has no workload threads to slow down: speed is not simulated.
  rail_simulator_options given;
  given.host_load = [] { return std::vector<double>{0.5}; };
  rail_simulator fixed(board.profile(), board.paths().sysfs_root, given);
  EXPECT_FALSE(fixed.speed().simulated);
  EXPECT_EQ(sim_fidelity(fixed).window_flags(since, "cpu"), std::vector<std::string>{"speed_not_simulated"});
}
