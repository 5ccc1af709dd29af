#include <jetperf/kinds/multi_dnn/concurrent_window.hpp>

#include <pthread.h>
#include <sched.h>

#include <chrono>
#include <limits>
#include <mutex>
#include <thread>

#include <jetperf/common/clock.hpp>
#include <jetperf/measure/latency_stats.hpp>

namespace jetperf::kinds {

namespace {

constexpr std::int64_t k_never = std::numeric_limits<std::int64_t>::max();

// What a network's thread shares with the one that runs the window.
struct network_slot {
  std::mutex m;
  std::int64_t start_ns = k_never;  ///< inferences completing from here on are in the window ...
  std::int64_t end_ns = k_never;    ///< ... up to here
  network_window w;
  std::string error;
};

void pin_this_thread(std::size_t network, int threads) {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int k = 0; k < threads; ++k) CPU_SET((network * static_cast<std::size_t>(threads) + static_cast<std::size_t>(k)) % cores, &set);
  // Threads the library starts from here on (its OpenMP pool) inherit the mask.
  pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

void record(network_window& w, const std::vector<stage_timing>& t, double cycle_s) {
  ++w.inferences;
  if (w.cycle_s.size() < k_kept_stage_timings) w.cycle_s.push_back(cycle_s);
  for (std::size_t i = 0; i < t.size(); ++i) {
    auto& s = w.stages[i];
    ++s.count;
    s.inference_sum_s += t[i].inference_s;
    if (s.inference_s.size() < k_kept_stage_timings) s.inference_s.push_back(static_cast<float>(t[i].inference_s));
    if (t[i].transfer_s >= 0) {
      ++s.transfers;
      s.transfer_sum_s += t[i].transfer_s;
    }
  }
}

void run_network(network_pipeline& p, network_slot& slot, std::size_t index, const window_plan& plan,
                 const std::atomic<bool>& stop) {
  if (plan.pin) pin_this_thread(index, plan.threads);
  std::vector<stage_timing> t;
  try {
    p.set_threads(plan.threads);
    while (!stop.load()) {
      const auto c0 = std::chrono::steady_clock::now();
      p.run_once(t);
      const double cycle = std::chrono::duration<double>(std::chrono::steady_clock::now() - c0).count();
      std::lock_guard<std::mutex> lock(slot.m);
      // Read under the lock: the window's edges are set under it too.
      const auto now = monotonic_ns();
      if (now < slot.start_ns) ++slot.w.warmup;
      else if (now <= slot.end_ns) record(slot.w, t, cycle);
    }
  } catch (const std::exception& e) {
    std::lock_guard<std::mutex> lock(slot.m);
    slot.error = p.network() + ": " + e.what();
  }
}

// Sets a window edge on every network at one instant (locks taken in order, released together).
std::int64_t set_edge(std::vector<std::unique_ptr<network_slot>>& slots, std::int64_t network_slot::*edge) {
  std::vector<std::unique_lock<std::mutex>> locks;
  for (auto& s : slots) locks.emplace_back(s->m);
  const auto now = monotonic_ns();
  for (auto& s : slots) (*s).*edge = now;
  return now;
}

std::optional<measure::power_summary> read_power(const window_plan& plan, std::int64_t from, std::int64_t to,
                                                 window_result* r) {
  if (!plan.source) return std::nullopt;
  auto w = measure::read_window_power(*plan.source, from, to, plan.boundary_s);
  if (r) {
    r->power_window_s = w.window_s;
    r->power_covered_s = w.covered_s;
    r->samples = std::move(w.samples);
  }
  return std::move(w.summary);
}

}  // namespace

window_result run_concurrent_window(std::vector<network_pipeline>& pipelines, const window_plan& plan) {
  window_result r;
  std::vector<std::unique_ptr<network_slot>> slots;
  for (auto& p : pipelines) {
    slots.push_back(std::make_unique<network_slot>());
    slots.back()->w.stages.resize(p.stages().size());
  }
  std::atomic<bool> stop{false};
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < pipelines.size(); ++i)
    threads.emplace_back(run_network, std::ref(pipelines[i]), std::ref(*slots[i]), i, std::cref(plan), std::cref(stop));

  const auto period = std::chrono::duration<double>(plan.check_period_s);
  const auto failed = [&] {
    for (auto& s : slots) {
      std::lock_guard<std::mutex> lock(s->m);
      if (!s->error.empty()) {
        r.error = s->error;
        return true;
      }
    }
    return false;
  };
  const auto cancelled = [&] { return plan.cancel && plan.cancel->load(); };

  // Warm-up: every network has run its warm-up inferences (caches, allocations, clocks settle).
  const auto warm_deadline = monotonic_ns() + static_cast<std::int64_t>(plan.warmup_timeout_s * 1e9);
  for (bool warm = false; !warm;) {
    if (cancelled() || failed()) break;
    if (monotonic_ns() > warm_deadline) {
      r.error = "the networks did not finish " + std::to_string(plan.warmup_runs) + " warm-up inferences in " +
                std::to_string(static_cast<int>(plan.warmup_timeout_s)) + " s";
      break;
    }
    warm = true;
    for (auto& s : slots) {
      std::lock_guard<std::mutex> lock(s->m);
      warm = warm && s->w.warmup >= plan.warmup_runs;
    }
    if (!warm) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }

  if (r.error.empty() && !cancelled()) {
    r.t_start_ns = set_edge(slots, &network_slot::start_ns);
    std::int64_t last_power_check = 0;
    for (;;) {
      std::this_thread::sleep_for(period);
      if (cancelled()) {
        r.cancelled = true;
        r.decision = {true, measure::stop_reason::cancelled, {}};
        break;
      }
      if (failed()) break;
      const auto now = monotonic_ns();
      const double elapsed = static_cast<double>(now - r.t_start_ns) * 1e-9;
      if (plan.fixed_s) {
        if (elapsed >= *plan.fixed_s) {
          r.decision = {true, measure::stop_reason::fixed_duration, {}};
          break;
        }
        continue;
      }
      if (elapsed < plan.min_time_s) continue;
      std::vector<std::string> unmet;
      for (auto& s : slots) {
        std::lock_guard<std::mutex> lock(s->m);
        if (s->w.inferences < plan.min_inferences) unmet.push_back("min_samples");
        else if (measure::batch_means_rse(s->w.cycle_s) > plan.target_rse) unmet.push_back("throughput_rse");
        if (!unmet.empty()) break;
      }
      const bool at_max = elapsed >= plan.max_time_s;
      // The power window is re-read only once the networks have converged, at most every 50 ms.
      if ((unmet.empty() && now - last_power_check >= 50'000'000) || at_max) {
        last_power_check = now;
        const auto p = read_power(plan, r.t_start_ns, now, nullptr);
        if (p && plan.source->total_power_channel() && (!p->total_samples || p->total_rse > plan.target_rse))
          unmet.push_back("power_rse");
        if (unmet.empty()) {
          r.decision = {true, measure::stop_reason::converged, {}};
          break;
        }
      }
      if (at_max) {
        r.decision = {true, measure::stop_reason::max_time, unmet};
        break;
      }
    }
    r.t_end_ns = set_edge(slots, &network_slot::end_ns);
  }
  if (cancelled()) {
    r.cancelled = true;
    r.decision = {true, measure::stop_reason::cancelled, {}};
  }
  stop = true;
  for (auto& t : threads) t.join();
  if (r.error.empty()) failed();
  for (auto& s : slots) {
    s->w.throughput_rse = measure::batch_means_rse(s->w.cycle_s);
    r.networks.push_back(std::move(s->w));
  }
  if (r.error.empty() && !r.cancelled && r.t_end_ns > r.t_start_ns) r.power = read_power(plan, r.t_start_ns, r.t_end_ns, &r);
  return r;
}

}  // namespace jetperf::kinds
