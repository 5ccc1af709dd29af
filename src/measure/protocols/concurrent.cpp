#include <jetperf/measure/protocols/concurrent.hpp>

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <limits>
#include <mutex>

#include <jetperf/stats/latency_stats.hpp>
#include <jetperf/measure/power_window.hpp>

namespace jetperf::measure {

namespace {

constexpr std::int64_t k_never = std::numeric_limits<std::int64_t>::max();
// How often the warm-up looks at the pipelines' counts, and the join at their threads.
constexpr std::int64_t k_poll_ns = 1'000'000;
// The adaptive rule re-reads the power window at most this often (reading it costs more the
// longer the window), and only once the pipelines' throughput has converged.
constexpr std::int64_t k_power_check_ns = 50'000'000;

void pin_this_thread(std::size_t pipeline, int threads) {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int k = 0; k < threads; ++k)
    CPU_SET((pipeline * static_cast<std::size_t>(threads) + static_cast<std::size_t>(k)) % cores, &set);
  // Threads the library starts from here on (its OpenMP pool) inherit the mask.
  pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

// One inference completed inside the window.
void record(pipeline_window& w, const std::vector<stage_timing>& t, double cycle_s) {
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

}  // namespace

struct concurrent_protocol::slot {
  std::mutex m;
  std::int64_t start_ns = k_never;  ///< inferences completing from here on are in the window ...
  std::int64_t end_ns = k_never;    ///< ... up to here
  pipeline_window w;
  std::string error;
  std::atomic<bool> finished{false};  ///< its thread has left its loop
};

concurrent_protocol::concurrent_protocol(const point_context& ctx, const std::vector<concurrent_pipeline*>& pipelines,
                                         const concurrent_plan& plan)
    : ctx_(ctx), pipelines_(pipelines), plan_(plan), clock_(ctx.clock()) {}

// Only when operator() threw half-way: its threads are stopped and joined, never left running.
concurrent_protocol::~concurrent_protocol() {
  stop_ = true;
  for (auto& t : threads_)
    if (t.joinable()) t.join();
}

concurrent_result concurrent_protocol::operator()() {
  out_.t_warmup_ns = clock_.now_ns();
  start_threads();
  if (warm_up()) run_windows();
  if (cancelled()) {
    out_.window.cancelled = true;
    out_.window.decision = {true, stop_reason::cancelled, {}};
  }
  join_threads();
  summarise();
  return std::move(out_);
}

void concurrent_protocol::start_threads() {
  for (auto* p : pipelines_) {
    slots_.push_back(std::make_unique<slot>());
    slots_.back()->w.stages.resize(p->stage_count());
  }
  for (std::size_t i = 0; i < pipelines_.size(); ++i) threads_.emplace_back([this, i] { run_pipeline(i); });
}

// A pipeline's thread: inferences back to back until stopped, each counted by where it completed
// against the window's edges (read under the slot's lock, as the edges are set under it).
void concurrent_protocol::run_pipeline(std::size_t index) {
  if (plan_.pin) pin_this_thread(index, plan_.threads);
  auto& p = *pipelines_[index];
  auto& s = *slots_[index];
  std::vector<stage_timing> t;
  try {
    p.set_threads(plan_.threads);
    while (!stop_.load()) {
      const auto c0 = clock_.now_ns();
      p.run_once(t);
      const double cycle_s = static_cast<double>(clock_.now_ns() - c0) * 1e-9;
      std::lock_guard<std::mutex> lock(s.m);
      const auto now = clock_.now_ns();
      if (now < s.start_ns) ++s.w.warmup;
      else if (now <= s.end_ns) record(s.w, t, cycle_s);
    }
  } catch (const std::exception& e) {
    std::lock_guard<std::mutex> lock(s.m);
    s.error = p.name() + ": " + e.what();
  }
  s.finished = true;
}

// Every pipeline runs its warm-up inferences (caches, allocations, clocks settle). True when the
// window may open: warm, nothing failed, not cancelled.
bool concurrent_protocol::warm_up() {
  const auto deadline = clock_.now_ns() + static_cast<std::int64_t>(plan_.warmup_timeout_s * 1e9);
  while (!cancelled() && !failed()) {
    if (clock_.now_ns() > deadline) {
      out_.error = "the networks did not finish " + std::to_string(plan_.warmup_runs) + " warm-up inferences in " +
                   std::to_string(static_cast<int>(plan_.warmup_timeout_s)) + " s";
      break;
    }
    if (all_warm()) break;
    clock_.sleep_for(k_poll_ns);
  }
  return out_.error.empty() && !cancelled();
}

bool concurrent_protocol::all_warm() {
  bool warm = true;
  for (auto& s : slots_) {
    std::lock_guard<std::mutex> lock(s->m);
    warm = warm && s->w.warmup >= plan_.warmup_runs;
  }
  return warm;
}

// Windows until one was not contended (or max_retries were measured again): each one not kept
// stays on the point's timeline, named for why.
void concurrent_protocol::run_windows() {
  contention_probe probe(ctx_.cpu_usage);
  for (std::int64_t retries = 0;; ++retries) {
    probe.start();
    run_window();
    if (out_.window.cancelled || !out_.error.empty()) return;
    auto& c = out_.window.contention;
    c = probe.stop(plan_.contention, retries);
    if (!c || !c->contended || retries >= plan_.contention.max_retries) return;
    ctx_.record("windows", "contended window", out_.window.t_start_ns, out_.window.t_end_ns,
                {{"others_cpu_share", c->others_cpu_share}, {"retry", retries + 1}});
    reset_window();
  }
}

// Forgets the window measured: its inferences count as before the next one (the pipelines never
// stopped), and no edge is set until the next window opens.
void concurrent_protocol::reset_window() {
  std::vector<std::unique_lock<std::mutex>> locks;
  for (auto& s : slots_) locks.emplace_back(s->m);
  for (auto& s : slots_) {
    pipeline_window fresh;
    fresh.warmup = s->w.warmup + s->w.inferences;
    fresh.stages.resize(s->w.stages.size());
    s->w = std::move(fresh);
    s->start_ns = s->end_ns = k_never;
  }
  out_.window = loop_result{};
  last_power_check_ns_ = 0;
}

// The window, from its opening edge to its closing one: a check every check_period_s until the
// stop rule, a failure or a cancel ends it.
void concurrent_protocol::run_window() {
  auto& w = out_.window;
  w.t_start_ns = set_edge(&slot::start_ns);
  const auto period_ns = static_cast<std::int64_t>(plan_.check_period_s * 1e9);
  for (;;) {
    clock_.sleep_for(period_ns);
    if (cancelled()) {
      w.cancelled = true;
      w.decision = {true, stop_reason::cancelled, {}};
      break;
    }
    if (failed()) break;
    const auto now = clock_.now_ns();
    if (auto d = decision(now, static_cast<double>(now - w.t_start_ns) * 1e-9)) {
      w.decision = std::move(*d);
      break;
    }
  }
  w.t_end_ns = set_edge(&slot::end_ns);
}

// The stop rule at one check: the fixed window's length, or the adaptive rule's; nullopt: go on.
std::optional<stop_decision> concurrent_protocol::decision(std::int64_t now, double elapsed_s) {
  if (!plan_.fixed_s) return adaptive_decision(now, elapsed_s);
  if (elapsed_s >= *plan_.fixed_s) return stop_decision{true, stop_reason::fixed_duration, {}};
  return std::nullopt;
}

// After min_time_s: converged once every pipeline's throughput and then the mean power are within
// the target; at max_time_s, stopped with what was unmet.
std::optional<stop_decision> concurrent_protocol::adaptive_decision(std::int64_t now, double elapsed_s) {
  if (elapsed_s < plan_.min_time_s) return std::nullopt;
  auto unmet = throughput_unmet();
  const bool at_max = elapsed_s >= plan_.max_time_s;
  if ((unmet.empty() && now - last_power_check_ns_ >= k_power_check_ns) || at_max) {
    last_power_check_ns_ = now;
    const auto p = read_power(out_.window.t_start_ns, now, nullptr);
    if (p && ctx_.telemetry->total_power_channel() && (!p->total_samples || p->total_rse > plan_.target_rse))
      unmet.push_back("power_rse");
    if (unmet.empty()) return stop_decision{true, stop_reason::converged, {}};
  }
  if (at_max) return stop_decision{true, stop_reason::max_time, std::move(unmet)};
  return std::nullopt;
}

// What holds the first pipeline short of the target: too few inferences, or its throughput's RSE.
std::vector<std::string> concurrent_protocol::throughput_unmet() {
  std::vector<std::string> unmet;
  for (auto& s : slots_) {
    std::lock_guard<std::mutex> lock(s->m);
    if (s->w.inferences < plan_.min_inferences) unmet.push_back("min_samples");
    else if (stats::batch_means_rse(s->w.cycle_s) > plan_.target_rse) unmet.push_back("throughput_rse");
    if (!unmet.empty()) break;
  }
  return unmet;
}

// Sets a window edge on every pipeline at one instant (locks taken in order, released together).
std::int64_t concurrent_protocol::set_edge(std::int64_t slot::*edge) {
  std::vector<std::unique_lock<std::mutex>> locks;
  for (auto& s : slots_) locks.emplace_back(s->m);
  const auto now = clock_.now_ns();
  for (auto& s : slots_) (*s).*edge = now;
  return now;
}

// A pipeline's failure, the first in order, into the result.
bool concurrent_protocol::failed() {
  for (auto& s : slots_) {
    std::lock_guard<std::mutex> lock(s->m);
    if (!s->error.empty()) {
      out_.error = s->error;
      return true;
    }
  }
  return false;
}

// Stops the pipelines and waits for each to finish the inference it is in. The wait is on the
// protocol's clock (then the joins, at once): a test's clock moves only while this thread sleeps
// on it, so the pipelines' last inferences can end.
void concurrent_protocol::join_threads() {
  stop_ = true;
  const auto all_finished = [this] {
    return std::all_of(slots_.begin(), slots_.end(), [](const auto& s) { return s->finished.load(); });
  };
  while (!all_finished()) clock_.sleep_for(k_poll_ns);
  for (auto& t : threads_) t.join();
}

// Each pipeline's throughput RSE, and the window's power (not when it failed or was cancelled).
void concurrent_protocol::summarise() {
  if (out_.error.empty()) failed();
  for (auto& s : slots_) {
    s->w.throughput_rse = stats::batch_means_rse(s->w.cycle_s);
    out_.pipelines.push_back(std::move(s->w));
  }
  auto& w = out_.window;
  if (out_.error.empty() && !w.cancelled && w.t_end_ns > w.t_start_ns) w.power = read_power(w.t_start_ns, w.t_end_ns, &w);
}

// [from_ns, to_ns] trimmed by the boundary and summarised; `r` (when given) receives the kept
// samples and the window's coverage. nullopt without telemetry.
std::optional<power_summary> concurrent_protocol::read_power(std::int64_t from_ns, std::int64_t to_ns,
                                                             loop_result* r) const {
  if (!ctx_.telemetry) return std::nullopt;
  auto w = read_window_power(*ctx_.telemetry, from_ns, to_ns, plan_.boundary_s);
  if (r) {
    r->power_window_s = w.window_s;
    r->power_covered_s = w.covered_s;
    r->samples = std::move(w.samples);
  }
  return std::move(w.summary);
}

}  // namespace jetperf::measure
