// What a simulated board's CPUs run: this process's workload threads (not its service threads,
// not other processes), their CPU share of the simulated clock, and the flags a result gets when
// the host refuses that share.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include <jetperf/common/clock.hpp>
#include <jetperf/common/thread_name.hpp>
#include <jetperf/platform/sysfs_root.hpp>
#include <jetperf/sim/cgroup_cpu_share.hpp>
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

TEST(workload_threads, counts_the_processes_a_job_starts_only_once_they_are_added) {
  // Two spinning children: one is a command job's program (added), the other is not the job's.
  const auto spin_child = [] {
    const pid_t pid = ::fork();
    if (pid == 0) {
      for (volatile unsigned long i = 0;; i = i + 1) {
      }
    }
    return pid;
  };
  const pid_t program = spin_child(), stranger = spin_child();
  ASSERT_GT(program, 0);
  ASSERT_GT(stranger, 0);
  workload_threads threads;
  threads.add_process(program);
  threads.sample(monotonic_ns());
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const auto seen = threads.sample(monotonic_ns());
  threads.remove_process(program);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const auto after = threads.sample(monotonic_ns());
  ::kill(program, SIGKILL);
  ::kill(stranger, SIGKILL);
  ::waitpid(program, nullptr, 0);
  ::waitpid(stranger, nullptr, 0);
  const auto* p = find_tid(seen, program);
  ASSERT_NE(p, nullptr) << "the added program was not counted";
  EXPECT_TRUE(p->external);
  // Spinning whenever it runs; a loaded 2-core machine still gives it a fair part.
  EXPECT_GT(p->busy, 0.1);
  EXPECT_LE(p->busy, 1.05);
  EXPECT_EQ(find_tid(seen, stranger), nullptr) << "a process that is not the job's was counted";
  EXPECT_EQ(find_tid(after, program), nullptr) << "counted after it was removed";
}

// How busy `tid` is over `ms` milliseconds of wall time (its own CPU clock).
static double busy_over(int tid, int ms) {
  const auto t0 = thread_cpu_ns(tid);
  const auto w0 = monotonic_ns();
  std::this_thread::sleep_for(std::chrono::milliseconds(ms));
  return static_cast<double>(thread_cpu_ns(tid) - t0) / static_cast<double>(monotonic_ns() - w0);
}

TEST(cpu_reservation, a_reserved_thread_gets_at_most_its_share_or_the_refusal_says_why) {
  spinner worker("blas-worker");
  cpu_reservation reservation;
  const std::string failure = reservation.apply({worker.tid()}, 0.1);
  if (!reservation.unavailable().empty()) {
    EXPECT_EQ(failure, reservation.unavailable()) << "no mechanism, yet no refusal";
  }
  if (!failure.empty()) {
    // A host that grants neither a cgroup quota nor SCHED_DEADLINE to us, or whose deadline
    // bandwidth other processes hold: the answer names the reason and the thread runs
    // unreserved, which is what the results' speed_not_simulated flag reports.
    EXPECT_NE(failure.find("SCHED_DEADLINE"), std::string::npos) << failure;
    EXPECT_EQ(reservation.share_of(worker.tid()), 1.0);
    return;
  }
  EXPECT_FALSE(reservation.mechanism().empty());
  EXPECT_DOUBLE_EQ(reservation.share_of(worker.tid()), 0.1);
  // The kernel never runs it longer than its share, however idle the machine (0.5 s spans 25
  // quota periods, 125 deadline periods).
  EXPECT_LT(busy_over(worker.tid(), 500), 0.15) << reservation.mechanism();
  // Renewed (fresh parameters where the mechanism needs them), it keeps its share.
  reservation.renew();
  EXPECT_DOUBLE_EQ(reservation.share_of(worker.tid()), 0.1);
  // At the top clock (share >= 0.95) the reservation goes: back to the host's full speed.
  EXPECT_EQ(reservation.apply({worker.tid()}, 1.0), "");
  EXPECT_EQ(reservation.share_of(worker.tid()), 1.0);
}

TEST(cpu_reservation, without_a_mechanism_every_share_is_refused_with_the_reason) {
  spinner worker("blas-worker");
  cpu_reservation none(nullptr, "no cgroup CPU quota (test) and SCHED_DEADLINE is not permitted");
  EXPECT_EQ(none.mechanism(), "");
  EXPECT_EQ(none.apply({worker.tid()}, 0.2), none.unavailable());
  EXPECT_EQ(none.share_of(worker.tid()), 1.0);
  EXPECT_EQ(none.apply({worker.tid()}, 1.0), "") << "full speed needs no mechanism";
}

TEST(cpu_cgroup, found_from_mountinfo_and_the_process_cgroup) {
  // A cgroup v1 host (cpu and cpuacct co-mounted) with the process in a nested group.
  const std::string v1_mounts =
      "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
      "32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,relatime shared:9 - cgroup cgroup rw,cpu,cpuacct\n"
      "33 31 0:30 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset\n"
      "40 31 0:35 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";
  const std::string v1_self = "3:cpuset:/\n2:cpu,cpuacct:/system.slice/jetperfd.service\n0::/system.slice/jetperfd.service\n";
  std::string why;
  auto v1 = sim::find_cpu_cgroup(v1_mounts, v1_self, &why);
  ASSERT_TRUE(v1) << why;
  EXPECT_EQ(v1->version, 1);
  EXPECT_EQ(v1->dir, "/sys/fs/cgroup/cpu,cpuacct/system.slice/jetperfd.service");
  // The root group, and a mount that shows a sub-tree (a container's cgroup namespace view).
  v1 = sim::find_cpu_cgroup(v1_mounts, "2:cpu,cpuacct:/\n", &why);
  ASSERT_TRUE(v1);
  EXPECT_EQ(v1->dir, "/sys/fs/cgroup/cpu,cpuacct");
  v1 = sim::find_cpu_cgroup("50 1 0:29 /lab /mnt/cpu rw - cgroup cgroup rw,cpu\n", "4:cpu:/lab/job\n", &why);
  ASSERT_TRUE(v1);
  EXPECT_EQ(v1->dir, "/mnt/cpu/job");
  // cpuacct alone is not cpu.
  EXPECT_FALSE(sim::find_cpu_cgroup("32 31 0:29 / /c rw - cgroup cgroup rw,cpuacct\n", "2:cpuacct:/\n", &why));
  EXPECT_FALSE(why.empty());
}

TEST(cpu_cgroup, quota_for_a_share_respects_the_kernels_limits) {
  auto q = sim::quota_for_share(0.5);
  EXPECT_EQ(q.period_us, 20000);
  EXPECT_EQ(q.quota_us, 10000);
  // Orin's lowest clock, 115.2 of 2201.6 MHz: above the 1 ms minimum quota at 20 ms.
  q = sim::quota_for_share(115200.0 / 2201600.0);
  EXPECT_EQ(q.period_us, 20000);
  EXPECT_EQ(q.quota_us, 1047);
  // Smaller shares lengthen the period instead of rounding the quota up to 1 ms.
  q = sim::quota_for_share(0.01);
  EXPECT_EQ(q.period_us, 100000);
  EXPECT_EQ(q.quota_us, 1000);
  EXPECT_NEAR(static_cast<double>(q.quota_us) / static_cast<double>(q.period_us), 0.01, 1e-9);
}

TEST(cpu_cgroup, a_held_thread_runs_at_its_share_in_a_group_of_its_own_and_comes_back_out) {
  std::string why;
  auto share = sim::cgroup_cpu_share::open_for_this_process(&why);
  if (!share) {
    // Only a host without a writable cgroup v1 cpu controller gets here: the reason says so.
    EXPECT_NE(why.find("cgroup"), std::string::npos) << why;
    return;
  }
  spinner a("blas-worker"), b("blas-worker");
  // Two threads at 20% each: no admission limits how many are held.
  ASSERT_EQ(share->hold(a.tid(), 0.2).result, share_outcome::kind::held);
  ASSERT_EQ(share->hold(b.tid(), 0.2).result, share_outcome::kind::held);
  const auto group_a = share->group_dir() + "/t" + std::to_string(a.tid());
  EXPECT_NE(test::read_file(group_a + "/tasks").find(std::to_string(a.tid())), std::string::npos);
  EXPECT_EQ(test::read_file(group_a + "/cpu.cfs_quota_us"), "4000\n");
  EXPECT_LT(busy_over(a.tid(), 500), 0.26);
  EXPECT_LT(busy_over(b.tid(), 500), 0.26);
  // A new share replaces the old one.
  ASSERT_EQ(share->hold(a.tid(), 0.5).result, share_outcome::kind::held);
  EXPECT_EQ(test::read_file(group_a + "/cpu.cfs_quota_us"), "10000\n");
  share->release(a.tid());
  EXPECT_FALSE(std::filesystem::exists(group_a)) << "the thread's group stays after its release";
  // Released, it is back in the process's own cgroup (the main thread's), with no quota of its
  // own. (Its CPU share then is the machine's load's to decide, so it is not timed here.)
  EXPECT_EQ(test::read_file("/proc/self/task/" + std::to_string(a.tid()) + "/cgroup"), test::read_file("/proc/self/cgroup"));
  // A thread that is gone says so.
  EXPECT_EQ(share->hold(999999999, 0.5).result, share_outcome::kind::gone);
  const auto group = share->group_dir();
  share.reset();
  EXPECT_FALSE(std::filesystem::exists(group)) << "the process's group stays after the share is closed";
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
  // Eight steps: schedutil raises a held thread's clock, and with it its share, over a few.
  const auto settle = [&sim] {
    for (int i = 0; i < 8; ++i) {
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
  // One spinning thread adds about 1 W on an idle host (365 -> 1420 mW); a loaded 2-core host
  // under a sanitizer gives it less CPU, and schedutil a lower clock (CI saw +400 mW). What the
  // test holds to: the worker moves the rail clearly, and far more than the service thread did.
  EXPECT_GT(with_worker, quiet + 150) << "quiet " << quiet << " mW, one busy workload thread " << with_worker;
  EXPECT_GT(with_worker - quiet, 3 * (with_service - quiet)) << "service " << with_service << ", worker " << with_worker;
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
  EXPECT_EQ(fidelity.window_flags(since, "cuda", 1), std::vector<std::string>{"speed_not_simulated"});
  const auto d = fidelity.describe();
  EXPECT_TRUE(d.simulated);
  if (sim.speed().simulated) {
    EXPECT_TRUE(fidelity.window_flags(since, "cpu", 1).empty());
    EXPECT_TRUE(d.speed_simulated);
    EXPECT_EQ(d.speed_mechanism, sim.speed().mechanism);
  } else {
    EXPECT_EQ(fidelity.window_flags(since, "cpu", 1), std::vector<std::string>{"speed_not_simulated"});
    EXPECT_FALSE(d.speed_simulated);
    EXPECT_FALSE(d.speed_mechanism.has_value());
    EXPECT_FALSE(sim.speed().reason.empty());
  }
  // A given load (tests, tools) has no workload threads to slow down: speed is not simulated.
  rail_simulator_options given;
  given.host_load = [] { return std::vector<double>{0.5}; };
  rail_simulator fixed(board.profile(), board.paths().sysfs_root, given);
  EXPECT_FALSE(fixed.speed().simulated);
  EXPECT_EQ(sim_fidelity(fixed).window_flags(since, "cpu", 1), std::vector<std::string>{"speed_not_simulated"});
}

TEST(sim_fidelity, several_threads_under_a_simulated_clock_are_approximate_one_is_not) {
  test::temp_dir tmp;
  auto board = sim_testing::make_board("orin-agx", tmp);
  platform::sysfs_root root(board.paths().sysfs_root);
  // Every cluster at its lowest clock (a share of about 5%).
  for (const char* policy : {"policy0", "policy4", "policy8"}) {
    const std::string dir = std::string("/sys/devices/system/cpu/cpufreq/") + policy;
    root.write(dir + "/scaling_min_freq", "115200");
    root.write(dir + "/scaling_max_freq", "115200");
  }
  rail_simulator_options o;
  o.noise = 0;
  rail_simulator sim(board.profile(), board.paths().sysfs_root, o);
  const sim_fidelity fidelity(sim);
  const auto step_for = [&sim](int steps) {
    for (int i = 0; i < steps; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      sim.step(0.02);
    }
  };
  step_for(2);
  const auto one = monotonic_ns();
  {
    spinner worker("blas-worker");
    step_for(10);
    const auto flags = fidelity.window_flags(one, "cpu", 1);
    if (!sim.speed().simulated || sim.speed().last_refusal_ns >= one) {
      EXPECT_EQ(flags, std::vector<std::string>{"speed_not_simulated"});
      return;
    }
    EXPECT_TRUE(flags.empty()) << flags[0];
    EXPECT_LT(sim.speed().share, 0.1);
  }
  step_for(2);
  const auto two = monotonic_ns();
  spinner a("blas-worker"), b("blas-worker");
  step_for(10);
  if (sim.speed().last_refusal_ns >= two) return;  // the host refused a share meanwhile: said above
  EXPECT_EQ(fidelity.window_flags(two, "cpu", 0), std::vector<std::string>{"speed_threads_approx"});
  EXPECT_EQ(fidelity.window_flags(two, "cpu", 2), std::vector<std::string>{"speed_threads_approx"});
  // A workload that asked for one thread waits for nobody (other threads are its library's idle pool).
  EXPECT_TRUE(fidelity.window_flags(two, "cpu", 1).empty());
}
