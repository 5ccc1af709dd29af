#include <jetperf/measure/protocols/in_context.hpp>

#include <algorithm>
#include <cmath>
#include <exception>
#include <tuple>

#include <spdlog/spdlog.h>

#include <jetperf/measure/kernel_ops.hpp>
#include <jetperf/measure/network_runs.hpp>
#include <jetperf/measure/power_window.hpp>
#include <jetperf/stats/window_offset.hpp>
#include <jetperf/platform/sensor_averaging.hpp>

namespace jetperf::measure {

namespace {

// Polls before the window the sensor's clock is fitted from as well.
constexpr std::int64_t k_sensor_fit_lead_ns = 3'000'000'000;
// A layer shorter than this share of the sensor's window (0.73 ms of an Orin's 4.9 ms) is told
// from its neighbours only by the window edges that fall inside it: where those are placed, to
// within tens of microseconds, moves its figure, and its interval does not count that (its row
// is flagged edge_limited, and the runs do not wait for its interval to narrow). On the
// simulated Orin the stem's 0.4-0.5 ms layers came out up to 0.65 W off their power run alone;
// conv1, 1.4 ms, within its interval.
constexpr double k_edge_limited_windows = 0.15;
// How far either side of a layer a targeted update may fall (the runs' own spread).
constexpr double k_edge_margin_ns = 250'000;
// A GPU run's kernels kept (resnet50 at op granularity launches a few hundred).
constexpr std::size_t k_max_kernels_per_run = 1u << 14;
// How far from its fitted updates the sensor's windows may end, searched at the end
// (stats/window_offset.hpp): a poll or so either way.
constexpr double k_window_offset_range_ns = 1'500'000;
// The least half-width of a unit's interval, as a share of its dynamic power: what modelling a
// layer by columns of ops leaves out (widen_for_parts).
constexpr double k_model_floor = 0.025;
// A card's window stands for the readings' only where it differs from the fitted period by more
// than this share of it (the card fits it to a few percent).
constexpr double k_card_window_differs = 0.1;
// The longest wait between two checks, however long a check takes.
constexpr std::int64_t k_max_check_spacing_ns = 2'000'000'000;

// The layer each op belongs to (-1: none), when some layer has several ops: the estimate then
// models each op (or run of short ops) on its own and adds them up per layer. Empty: one op per
// layer, the layers are the parts.
std::vector<int> layer_of_op(const models::network& net, const std::vector<models::layer>& layers) {
  std::vector<int> out(net.ops.size(), -1);
  bool several = false;
  for (std::size_t l = 0; l < layers.size(); ++l) {
    several = several || layers[l].last - layers[l].first > 1;
    for (int o = layers[l].first; o < layers[l].last; ++o)
      if (o >= 0 && static_cast<std::size_t>(o) < out.size()) out[static_cast<std::size_t>(o)] = static_cast<int>(l);
  }
  if (!several) out.clear();
  return out;
}

// A run's ops that belong to a layer, as the estimator's parts, in time order.
std::vector<stats::layer_span> part_spans(const std::vector<workloads::op_span>& ops, const std::vector<int>& layer_of) {
  std::vector<stats::layer_span> out;
  for (const auto& o : ops)
    if (o.op >= 0 && static_cast<std::size_t>(o.op) < layer_of.size() && layer_of[static_cast<std::size_t>(o.op)] >= 0)
      out.push_back({o.op, o.start_ns, o.end_ns});
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.start_ns < b.start_ns; });
  return out;
}

// The time `spans` take of [from_ns, to_ns].
double time_within(const std::vector<std::pair<std::int64_t, std::int64_t>>& spans, std::int64_t from_ns,
                   std::int64_t to_ns) {
  std::int64_t sum = 0;
  for (const auto& [a, b] : spans) sum += std::max<std::int64_t>(0, std::min(b, to_ns) - std::max(a, from_ns));
  return static_cast<double>(sum) * 1e-9;
}

}  // namespace

const char* to_string(layer_resolution r) {
  switch (r) {
    case layer_resolution::resolved: return "resolved";
    case layer_resolution::not_converged: return "not_converged";
    case layer_resolution::merged: return "merged";
    case layer_resolution::unresolvable: return "unresolvable";
    case layer_resolution::runs_nothing: return "runs_nothing";
  }
  return "unresolvable";
}

double power_over_runs(double window_w, double window_s, double paused_s, double between_runs_w) {
  if (!(paused_s > 0) || !std::isfinite(between_runs_w) || !(window_s > paused_s)) return window_w;
  return (window_w * window_s - between_runs_w * paused_s) / (window_s - paused_s);
}

std::vector<std::string> in_context_flags(const in_context_result& r) {
  std::vector<std::string> flags;
  const auto& e = r.estimator;
  if (e.between_runs.pauses > 0 || e.jitter || e.targeted_runs > 0) flags.push_back("paused_between_runs");
  if (r.window.decision.reason == stop_reason::sensor_clock_lost) flags.push_back("sensor_clock_lost");
  return flags;
}

in_context_protocol::in_context_protocol(const point_context& ctx, workloads::layer_backend& be,
                                         const models::network& net, const std::vector<models::layer>& layers,
                                         std::optional<double> idle_w, const in_context_plan& plan)
    : ctx_(ctx), be_(be), net_(net), layers_(layers), idle_w_(idle_w), plan_(plan), clock_(ctx.clock()),
      source_(ctx.telemetry), times_(layers.size()), truth_(ctx.fidelity, layers.size()), rng_(static_cast<std::uint64_t>(ctx.clock().now_ns())),
      offsets_(layers.size()) {}

in_context_result measure_in_context(const point_context& ctx, workloads::layer_backend& be, const models::network& net,
                                     const std::vector<models::layer>& layers, std::optional<double> idle_w,
                                     in_context_plan plan) {
  auto out = in_context_protocol(ctx, be, net, layers, idle_w, plan)();
  std::size_t retries = 0;
  for (; out.estimator.sensor_unfitted && retries < plan.sensor_retries && !ctx.cancelled(); ++retries) {
    ctx.record("windows", "sensor clock not fitted", out.window.t_start_ns, out.window.t_end_ns,
               record{{"reason", out.estimator.unresolvable}, {"retry", static_cast<std::int64_t>(retries + 1)}});
    spdlog::info("in_context: {}; measuring a window twice as long", out.estimator.unresolvable);
    plan.min_time_s *= 2;
    plan.max_time_s *= 2;
    // The clock is fitted afresh from the new window's polls: the failed one's would spoil it.
    plan.sensor_since_ns = std::max(plan.sensor_since_ns, out.window.t_end_ns);
    out = in_context_protocol(ctx, be, net, layers, idle_w, plan)();
  }
  out.estimator.sensor_retries = retries;
  return out;
}

in_context_result in_context_protocol::operator()() {
  start();
  for (std::size_t run = 0;; ++run) {
    if (ctx_.cancelled()) {
      out_.window.cancelled = true;
      stop_ = stop_reason::cancelled;
      break;
    }
    pause_before(run);
    const auto outcome = run_network(run);
    if (outcome == ran::unsupported) return std::move(out_);
    if (outcome == ran::span_limit) break;
    const auto now = run_seen_ns_;
    const double elapsed_s = static_cast<double>(now - out_.window.t_start_ns) * 1e-9;
    if (elapsed_s >= plan_.max_time_s) break;
    if (est_ && now >= next_check_ && elapsed_s >= plan_.min_time_s && !go_on_after_check(now, elapsed_s)) break;
    if (!est_ && elapsed_s >= plan_.min_time_s) {
      stop_ = stop_reason::no_power;
      break;
    }
  }
  finish();
  if (out_.window.cancelled) return std::move(out_);
  measure_runs_power();
  figure_layers();
  report_diagnostics();
  return std::move(out_);
}

// What the estimate needs (a power sensor, the idle baseline, the sensor's period), and the
// sensor's clock fitted from the polls before the window too (the idle baseline and the
// warm-up, read anyway): a fit over the first half second alone is often a poll spacing off, and
// the first check decides merges on it. Readings over that time are not in the system: the
// warm-up's runs are not modelled, so a reading that straddles the window's start would count
// them as idle.
void in_context_protocol::start() {
  kernels_ = be_.op_kernels();
  total_ = source_ ? source_->total_power_channel() : std::nullopt;
  if (total_) {
    // NVML's power as the total is the dgpu board: its energy counter sits beside it.
    const auto ch = source_->channels();
    const auto& name = ch.at(static_cast<std::size_t>(*total_)).name;
    nvml_ = name.rfind("nvml.", 0) == 0 && name.size() > 6 && name.compare(name.size() - 6, 6, ".power") == 0;
    const auto energy = nvml_ ? name.substr(0, name.size() - 6) + ".energy" : std::string();
    for (std::size_t i = 0; nvml_ && i < ch.size(); ++i)
      if (ch[i].name == energy) energy_ = static_cast<int>(i);
  }
  resolve_sensor_facts();
  nominal_s_ = facts_.period_s;
  if (!source_ || !total_) unresolvable_ = "no power sensor";
  else if (!idle_w_) unresolvable_ = "no idle baseline to subtract";
  else if (!(nominal_s_ > 0)) unresolvable_ = "the sensor's update period is unknown (its readings did not change before the runs)";
  window_ns_ = static_cast<std::int64_t>((facts_.window_s > 0 ? facts_.window_s : nominal_s_) * 1e9);
  delay_ns_ = static_cast<std::int64_t>(facts_.delay_s * 1e9);
  // A layer of several ops (a block) is modelled by its ops, grouped to min_part_windows.
  parts_ = layer_of_op(net_, layers_);
  if (unresolvable_.empty()) {
    stats::layer_estimate_options o{window_ns_, *idle_w_, plan_.target_rel};
    o.relative_to_dynamic = true;
    o.resolvable_rel = plan_.resolvable_rel;
    o.min_part_ns = static_cast<std::int64_t>(plan_.min_part_windows * static_cast<double>(window_ns_));
    // The runs pause between them, and what the board draws there is measured, not assumed.
    o.between_runs_column = plan_.pause_windows > 0;
    est_.emplace(layers_.size(), o, parts_);
  }
  auto& r = out_.window;
  r.t_start_ns = clock_.now_ns();
  if (est_) {
    const auto fit_from =
        std::max({r.t_start_ns - k_sensor_fit_lead_ns, source_->complete_since_ns(), plan_.sensor_since_ns});
    series_next_ns_ = fit_from;
    est_->exclude(fit_from, r.t_start_ns);
  }
  next_check_ = r.t_start_ns + static_cast<std::int64_t>(plan_.check_period_s * 1e9);
}

// The sensor's figures the runs start from (measure/sensor_facts.hpp): a stored card's window and
// delay (under another averaging, its delay only: the chip's window follows its averaging, the
// time its value takes to be read does not); the period the driver states, else the one its
// changes before the window show (NVML's and L4T r32's drivers state none: the sampler's own
// period is not the sensor's, and taken for it made every r32 board's polls look too slow).
void in_context_protocol::resolve_sensor_facts() {
  const bool stated = plan_.sensor_period_s > 0 || (source_ && !nvml_ && source_->update_period_stated());
  if (stated) {
    facts_.period_s = plan_.sensor_period_s > 0 ? plan_.sensor_period_s : source_->update_period_s();
    facts_.period_source = "nominal";
  }
  facts_.window_source = "nominal";
  facts_.delay_source = "nominal";
  if (ctx_.sensor_cards && ctx_.board && source_ && total_ && !nvml_) {
    const auto averaging = platform::describe_sensor_averaging(ctx_.board->sensor_averaging());
    const auto channel = source_->channels().at(static_cast<std::size_t>(*total_)).name;
    const auto same = ctx_.sensor_cards->find(channel, averaging, true);
    const auto card = same ? same : ctx_.sensor_cards->find(channel, averaging, false);
    if (card) {
      facts_.delay_s = std::max(0.0, card->delay_s);
      facts_.delay_source = "card";
      facts_.card_job_id = card->card_job_id;
    }
    if (same) {
      facts_.window_s = same->window_s;
      facts_.window_source = "card";
    }
  }
  if (!(facts_.period_s > 0) && source_ && total_) {
    facts_.period_s = period_from_polls();
    if (facts_.period_s > 0) facts_.period_source = "fit";
  }
}

bool in_context_protocol::speed_up_polls(std::int64_t now_ns) {
  auto* telemetry = ctx_.telemetry;
  if (sped_up_ || !telemetry) return false;
  const double tick = telemetry->tick_period_s(), fastest = telemetry->fastest_tick_period_s();
  if (!(fastest > 0) || !(fastest < 0.9 * tick)) return false;
  tick_before_ = tick;
  telemetry->set_job_tick_period_s(fastest);
  sped_up_ = true;
  // The slow polls placed nothing: the fit starts from the fast ones, and the readings meanwhile
  // stay out of the estimate.
  series_.clear();
  series_next_ns_ = now_ns;
  fit_ = stats::sensor_update_fit{};
  est_->exclude(out_.window.t_start_ns, now_ns);
  spdlog::info("in_context: the sensor updates faster than it was read; polling every {:.2g} ms from now on", fastest * 1e3);
  return true;
}

void in_context_protocol::restore_polls() {
  if (!sped_up_ || !ctx_.telemetry) return;
  ctx_.telemetry->set_job_tick_period_s(tick_before_);
  sped_up_ = false;
}

std::int64_t in_context_protocol::reading_window_ns() const {
  // The chip's whole update period, as fitted (a driver's update_interval is rounded to a
  // millisecond): an INA3221 averages its whole conversion. A card's window only where it says
  // the sensor averages clearly less or more than that (its own figure is a few percent off).
  const double period_s = fit_.period_s > 0 ? fit_.period_s : static_cast<double>(window_ns_) * 1e-9;
  if (facts_.window_source == "card" && facts_.window_s > 0 &&
      std::fabs(facts_.window_s - period_s) > k_card_window_differs * period_s)
    return static_cast<std::int64_t>(facts_.window_s * 1e9);
  return static_cast<std::int64_t>(period_s * 1e9);
}

std::vector<stats::power_reading> in_context_protocol::placed(std::vector<stats::power_reading> readings) const {
  // A reading is seen `delay` after its window ends: the estimate wants the window's end.
  if (delay_ns_ > 0)
    for (auto& r : readings) r.end_ns -= delay_ns_;
  return readings;
}

double in_context_protocol::period_from_polls() const {
  const auto now = clock_.now_ns();
  std::vector<std::pair<std::int64_t, double>> polls;
  for (const auto& smp : source_->window(std::max({now - k_sensor_fit_lead_ns, source_->complete_since_ns(), plan_.sensor_since_ns}), now))
    if (smp.channel == *total_ && (polls.empty() || smp.t_ns > polls.back().first)) polls.emplace_back(smp.t_ns, smp.value);
  const auto fit = stats::fit_sensor_updates(polls, 0);
  return fit.unusable.empty() ? fit.period_s : 0.0;
}

const std::vector<std::pair<std::int64_t, double>>& in_context_protocol::read_series(std::int64_t to_ns) {
  if (to_ns < series_next_ns_) return series_;
  for (const auto& s : source_->window(series_next_ns_, to_ns))
    if (s.channel == *total_ && (series_.empty() || s.t_ns > series_.back().first)) series_.emplace_back(s.t_ns, s.value);
  series_next_ns_ = to_ns + 1;
  return series_;
}

// Before each run after the first: a pause, or (aim_updates) a delay that puts an update inside a
// layer still short of its target.
void in_context_protocol::pause_before(std::size_t run) {
  const auto& r = out_.window;
  // The last run's length: an update aimed past it would fall after the run.
  const double run_ns = r.times_s.empty() ? 0.0 : r.times_s.back() * 1e9;
  if (!targets_.empty() && run % 2 == 1) {
    // An update at a random point of the next layer short of its target. (Every other run
    // only: the runs in between keep their own phases, so the edges still fall everywhere and
    // the other layers stay as separable as they were.)
    const auto& t = targets_[(run / 2) % targets_.size()];
    double at = std::uniform_real_distribution<double>(t.from_ns, t.to_ns)(rng_);
    // The readings whose window holds the pause are left out: a board need not fall to idle
    // the moment its work pauses (the simulated Orin does not), so the pause's power is not
    // known. A window that ends `at` into the run reaches back one period; where that crosses
    // the run's start, the window's other edge is aimed there instead (its end then falls one
    // period later, still inside the run), so the aimed reading is kept.
    const double period_ns = fit_.period_s * 1e9;
    if (at < period_ns + k_edge_margin_ns) at += period_ns;
    if (at < run_ns) {
      // Asleep, not spinning. (A sleep wakes some tens of microseconds late, within the margin.)
      const auto now = clock_.now_ns();
      clock_.sleep_for(stats::delay_for_update_at(now, at, fit_.update_ns, period_ns));
      est_->exclude(now, clock_.now_ns());
      ++targeted_runs_;
    }
  } else if (run > 0 && (plan_.pause_windows > 0 || jitter_)) {
    // A pause before each run, one and a half sensor windows long: the readings over a run's
    // last layers then end before the next run's first ones begin, and those wholly inside a
    // pause measure the board there (the estimator's column for the time between runs). Back
    // to back, a run's tail and the next run's head (avgpool, fc; conv1, bn1, relu, maxpool:
    // five short layers within one 4.9 ms window) are told apart only by the few window edges
    // that fall between them. When the runs lock in phase with the sensor, a random pause of
    // up to one window more.
    const double period_ns = fit_.period_s > 0 ? fit_.period_s * 1e9 : static_cast<double>(window_ns_);
    auto pause_ns = static_cast<std::int64_t>(plan_.pause_windows * period_ns);
    if (jitter_) pause_ns += std::uniform_int_distribution<std::int64_t>(0, window_ns_)(rng_);
    const auto from = clock_.now_ns();
    clock_.sleep_for(pause_ns);
    if (pauses_.size() < plan_.max_spans) pauses_.emplace_back(from, clock_.now_ns());
  }
}

// One end-to-end run, op by op: its layers' times, the first runs on the timeline, its spans
// into the estimate.
in_context_protocol::ran in_context_protocol::run_network(std::size_t run) {
  auto& r = out_.window;
  std::string why;
  auto ops = be_.timed_run_ops();
  if (ops.empty()) ops = gpu_run_ops(why);
  if (ops.empty()) {
    out_.unsupported = !why.empty() ? why
                                    : be_.name() + " cannot time its ops one by one (in_context runs on the CPU backends, "
                                                   "and on a GPU with NVML power)";
    return ran::unsupported;
  }
  const auto spans = layer_spans_of_run(ops, layers_);
  const auto now = run_seen_ns_ = clock_.now_ns();
  r.times_s.push_back(static_cast<double>(ops.back().end_ns - ops.front().start_ns) * 1e-9);
  if (run_spans_.size() < plan_.max_spans) run_spans_.emplace_back(ops.front().start_ns, ops.back().end_ns);
  if (r.ends_ns.size() < k_timed_runs) r.ends_ns.push_back(now);
  for (const auto& s : spans) times_[static_cast<std::size_t>(s.layer)].push_back(static_cast<double>(s.end_ns - s.start_ns) * 1e-9);
  // The last run's work is asked of the simulator after this one: its clocks are decided by then.
  truth_.flush_all_but(0);
  for (const auto& s : spans) truth_.add(static_cast<std::size_t>(s.layer), {{s.start_ns, s.end_ns}});

  if (run < k_in_context_traced_runs) {
    record_run_ops(ctx_, net_, kernels_, ops, run);
    for (const auto& s : spans)
      ctx_.record("layers", layers_[static_cast<std::size_t>(s.layer)].name, s.start_ns, s.end_ns,
                  {{"layer_index", s.layer}, {"run", run}});
  }
  if (est_) {
    if (spans_kept_ + spans.size() > plan_.max_spans) {
      stop_ = stop_reason::span_limit;
      return ran::span_limit;
    }
    est_->add_run(parts_.empty() ? spans : part_spans(ops, parts_));
    offsets_.add_run(spans);
    spans_kept_ += spans.size();
  }
  return ran::ok;
}

// A GPU backend's ops run asynchronously: each op's GPU time is its kernels' (CUPTI), given to the
// op whose launch calls they came from. Only where NVML's power is the total (the dgpu board):
// a Jetson's GPU path is not checked yet.
std::vector<workloads::op_span> in_context_protocol::gpu_run_ops(std::string& why) {
  auto* tracer = be_.tracer();
  if (!nvml_ || !tracer) return {};
  try {
    tracer->start();
  } catch (const std::exception& e) {
    why = be_.name() + " cannot time its ops one by one: the kernel trace is unavailable (" + e.what() + ")";
    return {};
  }
  std::vector<workloads::op_launch> launches;
  try {
    launches = be_.run_once_noting_ops();
    be_.sync();
  } catch (...) {
    tracer->stop(0);
    throw;
  }
  const auto trace = tracer->stop(k_max_kernels_per_run);
  std::size_t unattributed = 0;
  const auto spans = stats::spans_of_kernels(kernels_by_op(launches, trace.kernels, &unattributed));
  if (spans.empty()) {
    why = be_.name() + " cannot time its ops one by one: no kernel of a run could be given to its op";
    return {};
  }
  if (unattributed > 0 || trace.dropped > 0)
    spdlog::debug("in_context: {} kernels of a run not given to an op, {} dropped", unattributed, trace.dropped);
  std::vector<workloads::op_span> out;
  out.reserve(spans.size());
  for (const auto& sp : spans) out.push_back({sp.layer, sp.start_ns, sp.end_ns});
  return out;
}

// A check of the estimate while the runs go on: false when they should stop (stop_ says why).
bool in_context_protocol::go_on_after_check(std::int64_t now, double elapsed_s) {
  // Runs that start at one phase of the sensor add readings but no information: from then on
  // each starts after a random pause, and nothing is decided on the locked ones. (Targeted runs
  // start at chosen phases: locked by design, and spread over the layers they target.)
  const auto outcome = solve(now, elapsed_s, plan_.max_time_s, targeted_runs_ == 0);
  if (spdlog::should_log(spdlog::level::debug)) log_check(now, elapsed_s);
  // The solve ran on the runner's own core: the board was not idle meanwhile.
  const auto checked = clock_.now_ns();
  est_->exclude(now, checked);
  // The checks take at most a fifth of the time (at op granularity, 175 units, a solve takes
  // about 100 ms; at block granularity 10-20 ms), but are never more than 2 s apart and a few
  // are always left before max_time_s: a slow host's first check (its sensor fit from scratch:
  // 3 s under valgrind) would otherwise leave none, and the runs would go on to max_time_s
  // whatever the estimate, or long after a sensor lost its clock.
  const auto check_ns = static_cast<std::int64_t>(plan_.check_period_s * 1e9);
  const auto left_ns = static_cast<std::int64_t>(plan_.max_time_s * 1e9) - (checked - out_.window.t_start_ns);
  next_check_ = checked + std::max(check_ns, std::min({4 * (checked - now), left_ns / 3, k_max_check_spacing_ns}));
  // A sensor read no faster than it updates gives readings that cannot be placed: the sampler is
  // asked for its fastest tick, and the fit starts again from the faster polls; where it is
  // already at it, no layer will ever get a number, however long the runs go on. (A fit that
  // explains too few changes may be an early alias: the next check fits afresh.)
  if (fit_.poll_too_slow) {
    if (speed_up_polls(checked)) return true;
    stop_ = stop_reason::no_power;
    return false;
  }
  if (outcome == check::locked) {
    jitter_ = true;
    return true;
  }
  // The sensor's changes no longer follow the clock its earlier ones did: no later reading can
  // be placed, so more runs add nothing. The estimate keeps the readings placed before.
  if (outcome == check::refit_failed) {
    stop_ = stop_reason::sensor_clock_lost;
    return false;
  }
  // From a fit that places the updates, the next runs start where they help the layers still
  // short of their target.
  targets_.clear();
  if (plan_.aim_updates && fit_.unusable.empty() && fit_.period_s > 0)
    targets_ = stats::edge_targets(res_, offsets_, plan_.target_rel, k_edge_margin_ns);
  if (res_.converged) {
    stop_ = stop_reason::converged;
    return false;
  }
  // Every layer within the target, or one that the readings still to come would not bring there
  // by max_time_s either: running on would not change the answer.
  if (settled_except_hopeless()) {
    stop_ = stop_reason::projected_max_time;
    return false;
  }
  return true;
}

// Why the runs go on: each unit short of the target, its interval now and at max_time_s.
void in_context_protocol::log_check(std::int64_t now, double elapsed_s) const {
  std::string open;
  for (const auto& u : res_.units)
    if (u.rel_half_width() > plan_.target_rel)
      open += fmt::format(" {}{}:{:.3f}/{:.3f}", layers_[static_cast<std::size_t>(u.layers.front())].name,
                          u.layers.size() > 1 ? "+" : "", u.rel_half_width(), u.projected_rel);
  spdlog::debug("in_context check at {:.2f} s: {} runs, {} readings, {} units, {:.1f} ms; short of the target:{}",
                elapsed_s, est_->runs(), res_.readings, res_.units.size(),
                static_cast<double>(clock_.now_ns() - now) / 1e6, open.empty() ? " none" : open);
}

// Refits the sensor's update times over everything read so far, then solves (merging first what
// cannot be resolved in the time left), and says whether the check may decide anything: not
// when the runs are locked in phase with the sensor's updates (against the fitted period; with
// `may_lock`, locked runs are not merged: they make neighbours inseparable only until the pauses
// that unlock them), nor when the refit placed no updates. `horizon_s`: how long the runs may
// still go on (merges judge what the readings by then can separate; at the end, none are to come).
in_context_protocol::check in_context_protocol::solve(std::int64_t until_ns, double elapsed_s, double horizon_s,
                                                      bool may_lock) {
  ++checks_;
  // A fit that placed a few hundred updates is a reliable start for the next, which is then
  // searched near it (cheap, and right over a long stream, where a search from scratch has to
  // find the period to within a few microseconds); an early one (a few dozen updates) may be an
  // alias, and is redone from scratch. (Extra changes, a value seen changing twice within one
  // update as when a poll falls between the writes of a rail's voltage and current, do not make
  // it less reliable.)
  const bool reliable = fit_.unusable.empty() && fit_.readings.size() >= 200;
  auto next = stats::fit_sensor_updates(read_series(until_ns), nominal_s_, reliable ? &fit_ : nullptr);
  if (!next.unusable.empty() && !next.poll_too_slow && reliable) {
    // A refit that places nothing keeps the last placement: its readings stay in the system.
    // (With none, every layer would look inseparable from its neighbours, and be merged.)
    ++failed_refits_;
    res_ = est_->solve();
    return check::refit_failed;
  }
  fit_ = std::move(next);
  est_->set_readings(placed(fit_.readings), reading_window_ns());
  if (may_lock && est_->phase_locked()) {
    res_ = est_->solve();
    return check::locked;
  }
  merges_ += est_->merge_unresolvable(elapsed_s, horizon_s, &res_);
  return check::decide;
}

// Too short for the sensor (edge_limited): see k_edge_limited_windows.
bool in_context_protocol::edge_limited(double seconds) const { return seconds < k_edge_limited_windows * fit_.period_s; }

bool in_context_protocol::settled_except_hopeless() const {
  // Intervals from a handful of spare readings, or of runs, are themselves too uncertain to act on.
  if (!res_.unresolvable.empty() || res_.residual_dof < stats::k_min_residual_dof || est_->runs() < stats::k_min_runs) return false;
  // Every layer short of the target would still be short of it at max_time_s, from what the
  // readings to come can add (a NaN projection: not known yet, so not hopeless). Layers too
  // short for the sensor (edge_limited) are not waited for: their intervals leave out where the
  // window edges inside them fall, so more runs narrow a figure without making it right.
  return std::all_of(res_.units.begin(), res_.units.end(), [&](const stats::layer_unit& u) {
    return u.rel_half_width() <= plan_.target_rel || u.projected_rel > plan_.target_rel || edge_limited(u.duration_s);
  });
}

// The window's end: its latency and power, and the last solve over every reading, those whose
// windows hold the last runs too (they arrive up to one sensor period later).
void in_context_protocol::finish() {
  auto& r = out_.window;
  r.t_end_ns = clock_.now_ns();
  r.latency = stats::compute_latency_stats(r.times_s);
  if (r.cancelled) {
    restore_polls();
    return;
  }
  if (source_) {
    auto w = read_window_power(*source_, r.t_start_ns, r.t_end_ns, plan_.boundary_s);
    r.power = std::move(w.summary);
    r.power_window_s = w.window_s;
    r.power_covered_s = w.covered_s;
    r.samples = std::move(w.samples);
  }
  r.decision.stop = true;
  r.decision.reason = stop_;
  if (!est_) {
    truth_.flush();
    restore_polls();
    return;
  }
  clock_.sleep_for(window_ns_ + window_ns_ / 2 + 2'000'000);
  truth_.flush();
  restore_polls();
  const double ran_s = static_cast<double>(r.t_end_ns - r.t_start_ns) * 1e-9;
  hold_to_counter();
  solve(clock_.now_ns(), ran_s, ran_s, false);
  widen_for_window_edges();
  finish_gpu_estimate();
  if (!res_.converged) r.decision.unmet.push_back("layer_energy_interval");
  if (!res_.unresolvable.empty()) unresolvable_ = res_.unresolvable;
  if (!fit_.unusable.empty()) unresolvable_ = fit_.unusable;
}

// NVML's energy counter over the runs (its first to last update inside them) is an exact
// integral: the final estimate is held to it (layer_power_estimator::set_exact_energy).
void in_context_protocol::hold_to_counter() {
  if (!energy_ || run_spans_.empty()) return;
  std::vector<std::pair<std::int64_t, double>> polls;
  for (const auto& smp : source_->window(out_.window.t_start_ns, clock_.now_ns()))
    if (smp.channel == *energy_ && (polls.empty() || smp.t_ns > polls.back().first)) polls.emplace_back(smp.t_ns, smp.value);
  const auto e = stats::counter_energy_within(polls, run_spans_.front().first, run_spans_.back().second);
  if (!e) return;
  est_->set_exact_energy(e->from_ns, e->to_ns, e->joules);
  stats::gpu_counter_check c;
  c.available = true;
  c.clock_fitted = e->clock_fitted;
  c.from_ns = e->from_ns;
  c.to_ns = e->to_ns;
  c.counter_j = e->joules;
  out_.estimator.counter = c;
}

// Where the sensor's windows end: where the polls first see each update, as a chip's register
// holds its mean the moment the conversion ends; known no better than the fit's phase
// uncertainty, 5% of the poll, or the range of offsets the runs fit about as well as the best
// (window_offset.hpp; not on a GPU, whose energy counter places the readings). Every reading
// moved that far both ways, each interval is widened by what that moves its unit. It matters
// most to a layer beside a step in power, as the first layer after a pause is. The best offset
// itself is only reported: it follows what the model misses as much as the sensor (on the
// simulated Orin, whose windows end where they are seen, moving the readings by it put conv1
// 0.1-0.2 W above its power alone on resnet50, outside its interval in 12 of 30 jobs; placed as
// seen, 1 of 100 on resnet18 and resnet50: docs/benchmarks.md).
void in_context_protocol::widen_for_window_edges() {
  if (!fit_.unusable.empty()) return;
  placement_shift_ns_ = stats::placement_uncertainty_ns(fit_, series_);
  if (!nvml_) {
    // Where no card measured the sensor's delay, the runs themselves say it: the offset at which
    // they fit best, moved back from where the updates are seen (a delay cannot be negative),
    // and the estimate solved again with it.
    // Searched around the card's delay where a card measured one (a reader's view of the sensor:
    // where the runs' own clock fit places the updates may differ from it by a poll or so), from
    // a window before the updates were seen otherwise.
    const auto window = static_cast<double>(reading_window_ns());
    const double earliest = facts_.delay_source == "card" ? -k_window_offset_range_ns : -k_window_offset_range_ns - window;
    offset_ = stats::fit_window_offset(*est_, placed(fit_.readings), earliest, k_window_offset_range_ns,
                                (k_window_offset_range_ns - earliest) / 24);
    delay_ns_ = std::max<std::int64_t>(0, delay_ns_ + static_cast<std::int64_t>(std::llround(-offset_.offset_ns)));
    facts_.delay_s = static_cast<double>(delay_ns_) * 1e-9;
    facts_.delay_source = "fit";
    est_->set_readings(placed(fit_.readings), reading_window_ns());
    const double ran_s = static_cast<double>(out_.window.t_end_ns - out_.window.t_start_ns) * 1e-9;
    merges_ += est_->merge_unresolvable(ran_s, ran_s, &res_);
    placement_shift_ns_ = std::max(placement_shift_ns_, offset_.half_width_ns);
  }
  stats::widen_for_placement(*est_, placed(fit_.readings), placement_shift_ns_, res_);
  widen_for_parts();

  if (spdlog::should_log(spdlog::level::debug))
    for (const auto& u : res_.units)
      spdlog::debug("in_context unit {}: {:.3f} W +- {:.3f} (residuals {:.3f}, runs {:.3f}, placement {:.3f}), {} readings",
                    layers_[static_cast<std::size_t>(u.layers.front())].name, u.power_w, u.power_ci95_w,
                    u.residuals_ci95_w, u.runs_ci95_w, u.placement_w, u.readings);
}

// A column stands for several ops of a layer (those shorter than min_part_windows together): they
// draw different powers, which the readings see unevenly, and neighbouring layers trade that
// difference at their boundary the same way in every run, so neither the residuals nor the runs'
// spread show it. Each interval is at least this share of its unit's dynamic power (on the
// simulated boards, layers whose intervals said 1% of it were 1-2.5% off the simulator's figure).
void in_context_protocol::widen_for_parts() {
  bool converged = res_.converged;
  for (auto& u : res_.units) {
    if (!(u.reference_w > 0) || !std::isfinite(u.power_ci95_w)) continue;
    u.power_ci95_w = std::max(u.power_ci95_w, k_model_floor * u.reference_w);
    u.energy_ci95_j = u.power_ci95_w * u.duration_s;
    converged = converged && u.rel_half_width() <= plan_.target_rel;
  }
  res_.converged = converged;
}

void in_context_protocol::finish_gpu_estimate() {
  if (!nvml_ || !est_) return;
  if (!out_.estimator.counter) return;
  auto& c = *out_.estimator.counter;
  std::tie(c.layers_j, c.between_runs_j) = est_->energy_within(c.from_ns, c.to_ns, res_);
  c.sum_rel_error = c.counter_j > 0 ? (c.layers_j + c.between_runs_j - c.counter_j) / c.counter_j : 0.0;
  c.unconstrained_gap_j = -res_.exact_energy_gap_j;
  spdlog::info("in_context on the GPU: layers {:.3f} J and between runs {:.3f} J against the counter's {:.3f} J ({:+.3f}%)",
               c.layers_j, c.between_runs_j, c.counter_j, 100 * c.sum_rel_error);
}

// The end-to-end row is the runs' power: the window holds the time between them too (the pauses,
// and the checks' solves, 1-3% of it), which is taken out at the power the readings measured
// between runs (the estimator's own unknown, mostly from the readings wholly inside a pause;
// exact for the solves on a board whose power follows its work, a little high on one whose
// solving core draws more). The window's energy comes from the placed readings wholly inside it,
// each the mean over its own window, whose runs' share is known to the nanosecond (the samples'
// mean lags by half an update and a poll). Its rails stay the samples' (flagged).
void in_context_protocol::measure_runs_power() {
  auto& r = out_.window;
  auto& between = out_.estimator.between_runs;
  between.pauses = pauses_.size();
  between.paused_s = time_within(pauses_, r.t_start_ns, r.t_end_ns);
  between.power_w = res_.between_runs_power_w;
  between.power_ci95_w = res_.between_runs_ci95_w;
  between.readings = res_.between_runs_readings;
  if (!(r.power && r.power->total_power_w)) return;
  between.window_power_w = *r.power->total_power_w;
  const auto w_ns = fit_.period_s > 0 ? reading_window_ns() : 0;
  double watts = 0, run_s = 0;
  std::size_t n = 0;
  for (const auto& k : placed(fit_.readings)) {
    if (w_ns <= 0 || k.end_ns - w_ns < r.t_start_ns || k.end_ns > r.t_end_ns) continue;
    watts += k.watts;
    run_s += time_within(run_spans_, k.end_ns - w_ns, k.end_ns);
    ++n;
  }
  if (!pauses_.empty() && n > 0) {
    const double covered_s = static_cast<double>(n) * static_cast<double>(w_ns) * 1e-9;
    r.power->total_power_w =
        power_over_runs(watts / static_cast<double>(n), covered_s, covered_s - run_s, res_.between_runs_power_w);
  }
}

// Each layer's latency in the runs and the figure of the unit it ended in; a unit of several
// layers gives one group figure over their summed time, and its members none of their own.
void in_context_protocol::figure_layers() {
  std::vector<const stats::layer_unit*> unit_of(layers_.size(), nullptr);
  for (const auto& u : res_.units)
    for (int l : u.layers) unit_of[static_cast<std::size_t>(l)] = &u;
  const bool figures = unresolvable_.empty();
  for (std::size_t li = 0; li < layers_.size(); ++li) {
    in_context_layer item;
    item.index = li;
    item.name = layers_[li].name;
    item.type = layers_[li].type;
    item.latency = stats::compute_latency_stats(times_[li]);
    const auto* u = unit_of[li];
    if (!item.latency.count) {
      item.resolution = layer_resolution::runs_nothing;
    } else if (!u || !figures || !std::isfinite(u->power_ci95_w)) {
      item.resolution = layer_resolution::unresolvable;
    } else if (u->layers.size() > 1) {
      for (int o : u->layers)
        if (o != static_cast<int>(li))
          item.merged_with += (item.merged_with.empty() ? "" : ", ") + layers_[static_cast<std::size_t>(o)].name;
      item.resolution = layer_resolution::merged;
    } else {
      put_unit_figures(item, *u, item.latency.mean_s);
      item.resolution = u->rel_half_width() <= plan_.target_rel ? layer_resolution::resolved : layer_resolution::not_converged;
    }
    item.sim = truth_.of(li);
    out_.layers.push_back(std::move(item));
  }
  std::vector<std::size_t> all(layers_.size());
  for (std::size_t li = 0; li < all.size(); ++li) all[li] = li;
  out_.runs_sim = truth_.of(all);
  if (figures)
    for (const auto& u : res_.units)
      if (u.layers.size() > 1 && std::isfinite(u.power_ci95_w)) out_.groups.push_back(group_of(u));
  add_up_layers();
  out_.estimated = figures && est_.has_value();
}

// A unit's figures over `seconds` of its time.
template <typename Figures>
void in_context_protocol::put_unit_figures(Figures& f, const stats::layer_unit& u, double seconds) const {
  f.power_w = u.power_w;
  f.power_ci95_w = u.power_ci95_w;
  f.energy_j = u.power_w * seconds;
  f.energy_ci95_j = u.power_ci95_w * seconds;
  f.dynamic_power_w = u.power_w - *idle_w_;
  f.dynamic_energy_j = (u.power_w - *idle_w_) * seconds;
  f.readings = u.readings;
  f.edge_limited = edge_limited(seconds);
}

// A merged unit's group: its members (which ran: out_.layers holds their times) and figures.
in_context_group in_context_protocol::group_of(const stats::layer_unit& u) const {
  in_context_group g;
  for (int l : u.layers) {
    const auto& member = out_.layers[static_cast<std::size_t>(l)];
    g.members.push_back(member.index);
    g.name += (g.name.empty() ? "" : " + ") + member.name;
    g.members_text += (g.members_text.empty() ? "" : ", ") + member.name;
    g.latency_mean_s += member.latency.mean_s;
  }
  put_unit_figures(g, u, g.latency_mean_s);
  g.sim = truth_.of(g.members);
  return g;
}

// The layers' energy added up, one term per unit: a group's members move together, so its
// interval is the group's, not its members' as if independent. The units' intervals are nearly
// independent once resolved; the estimator's own sum (with the covariances, over the gap-free
// attributed time) is in the diagnostics beside it.
void in_context_protocol::add_up_layers() {
  double sum_var = 0;
  const auto add = [&](double energy_j, double half_j) {
    out_.sum_energy_j += energy_j;
    sum_var += half_j * half_j;
  };
  for (const auto& l : out_.layers)
    if (l.has_figure()) add(l.energy_j, l.energy_ci95_j);
  for (const auto& g : out_.groups) add(g.energy_j, g.energy_ci95_j);
  out_.sum_energy_ci95_j = std::sqrt(sum_var);
}

void in_context_protocol::report_diagnostics() {
  auto& e = out_.estimator;
  e.unresolvable = unresolvable_;
  e.runs = out_.window.times_s.size();
  e.readings = res_.readings;
  e.units = res_.units.size();
  e.columns = res_.columns;
  e.merges = merges_;
  e.condition_number = res_.condition_number;
  e.residual_rms_w = res_.residual_rms_w;
  e.phase_lock = res_.phase_lock;
  e.jitter = jitter_;
  e.targeted_runs = targeted_runs_;
  e.checks = checks_;
  e.failed_refits = failed_refits_;
  e.attributed_energy_j = res_.sum_energy_j;
  e.attributed_energy_ci95_j = res_.sum_energy_ci95_j;
  e.target_half_width = plan_.target_rel;
  e.blocks = res_.blocks;
  e.placement_shift_s = placement_shift_ns_ * 1e-9;
  e.window_offset_s = offset_.offset_ns * 1e-9;
  e.sensor_unfitted = !fit_.unusable.empty() && !fit_.poll_too_slow;
  e.sensor = {fit_.nominal_period_s, plan_.poll_period_s, fit_.period_s, fit_.lateness_median_s, fit_.lateness_iqr_s,
              fit_.phase_uncertainty_s, fit_.changes, fit_.readings.size()};
  e.facts = facts_;
  // The period the runs were placed with is the fit's; the window and delay the card's or nominal.
  if (fit_.period_s > 0) {
    e.facts.period_s = fit_.period_s;
    e.facts.period_source = "fit";
  }
  if (fit_.period_s > 0) {
    const double used_s = static_cast<double>(reading_window_ns()) * 1e-9;
    if (!(facts_.window_source == "card" && std::fabs(used_s - facts_.window_s) < 1e-6)) e.facts.window_source = "fit";
    e.facts.window_s = used_s;
  }
}

}  // namespace jetperf::measure
