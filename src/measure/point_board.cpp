#include <jetperf/measure/point_board.hpp>

#include <algorithm>

#include <jetperf/common/clock.hpp>
#include <jetperf/measure/point_columns.hpp>
#include <jetperf/measure/power_window.hpp>
#include <jetperf/measure/throttle.hpp>

namespace jetperf::measure {

namespace {

// A requested clock in the unit of the channel that reports it.
double in_unit(double value_hz, const std::string& unit) {
  if (unit == "kHz") return value_hz / 1e3;
  if (unit == "MHz") return value_hz / 1e6;
  return value_hz;
}

}  // namespace

platform::board_setting applied_settings::effective() const {
  platform::board_setting e = requested;
  for (const auto& f : platform::setting_fields())
    if (read_back.*f.member) e.*f.member = read_back.*f.member;
  return e;
}

platform::board_setting setting_of_point(const record& point) {
  platform::board_setting s;
  for (const auto& f : platform::setting_fields()) {
    const auto* v = point.find(f.key);
    if (v && v->is_number()) s.*f.member = v->integer();
  }
  return s;
}

record setting_record(const platform::board_setting& s) {
  record out;
  for (const auto& f : platform::setting_fields()) out.set(f.key, s.*f.member);
  return out;
}

record set_values(const platform::board_setting& s) {
  record out;
  for (const auto& f : platform::setting_fields())
    if (const auto& v = s.*f.member) out.set(f.key, *v);
  return out;
}

applied_settings apply_point_settings(measure::point_context& ctx, const platform::board_setting& setting) {
  applied_settings a;
  a.requested = setting;
  auto& clock = ctx.clock();
  const auto t0 = clock.now_ns();
  if (ctx.board && !a.requested.empty()) {
    a.read_back = ctx.board->apply(a.requested);
    if (a.read_back.power_mode) a.caps = ctx.board->caps_of(*a.read_back.power_mode);
  }
  else if (!a.requested.empty())
    a.flags.push_back("settings_not_applied");
  else if (ctx.board)
    a.read_back = ctx.board->read_back();  // nothing swept: the row still says what it ran at
  if (ctx.board && a.requested.empty() && a.read_back.power_mode) a.caps = ctx.board->caps_of(*a.read_back.power_mode);
  if (!a.requested.empty())
    ctx.record("settings", a.requested.label(), t0, clock.now_ns(),
               record{{"requested", setting_record(a.requested)}, {"read_back", set_values(a.read_back)}});
  return a;
}

bool sleep_polling(const measure::point_context& ctx, double seconds) {
  auto& clock = ctx.clock();
  const auto deadline = clock.now_ns() + static_cast<std::int64_t>(seconds * 1e9);
  for (auto now = clock.now_ns(); now < deadline; now = clock.now_ns()) {
    if (ctx.cancelled()) return false;
    clock.sleep_until(std::min<std::int64_t>(now + 10'000'000, deadline));
  }
  return !ctx.cancelled();
}

std::optional<double> idle_power_cache::get(measure::point_context& ctx, const platform::board_setting& setting,
                                            double idle_s, double boundary_s) {
  if (!ctx.telemetry || !ctx.telemetry->total_power_channel()) return std::nullopt;
  if (job_ != ctx.job_id) {
    cache_.clear();
    job_ = ctx.job_id;
  }
  const auto key = setting.label();
  if (auto it = cache_.find(key); it != cache_.end()) return it->second;
  const auto t0 = ctx.clock().now_ns();
  if (!sleep_polling(ctx, idle_s + 2 * boundary_s)) return std::nullopt;
  const auto t1 = ctx.clock().now_ns();
  const auto trimmed = trim_window(ctx.telemetry->window(t0, t1), t0, t1, boundary_s);
  const auto summary = summarize_window(ctx.telemetry->channels(), trimmed, ctx.telemetry->total_power_channel());
  cache_[key] = summary.total_power_w;
  ctx.record("idle", "idle " + key, t0, t1,
             summary.total_power_w ? record{{"power_w", *summary.total_power_w}} : record());
  return summary.total_power_w;
}

void put_settings(row& mt, const applied_settings& applied) {
  for (const auto& e : setting_record(applied.effective())) mt.put(e.first, e.second);
  mt.set(cols::requested, set_values(applied.requested));
  mt.set(cols::read_back, set_values(applied.read_back));
}

void put_window_flags(row& mt, std::vector<std::string> flags, const measure::point_context& ctx,
                      const loop_result& res, const applied_settings& applied, bool has_power,
                      const std::string& device, int threads) {
  const auto add_flag = [&flags](const std::string& f) {
    if (std::find(flags.begin(), flags.end(), f) == flags.end()) flags.push_back(f);
  };
  // What a simulated board did not model during this window (its speed, for one), once each
  // (a kind may have said it already).
  if (ctx.fidelity)
    for (const auto& f : ctx.fidelity->window_flags(res.t_start_ns, device, threads)) add_flag(f);
  // Throttling: any clock channel reading below the clock requested for this point, and any
  // clock the board read back below it after applying (the only sign for EMC where telemetry has
  // no EMC channel, or where the lock did not take).
  record throttle = ctx.telemetry ? throttled_clocks(*ctx.telemetry, res.samples, applied.requested) : record();
  const auto read_back = check_read_back(applied);
  for (const auto& [channel, entry] : read_back.below) {
    auto* seen = throttle.find(channel);
    if (!seen) {
      throttle.set(channel, entry);
      continue;
    }
    // Telemetry saw it too: keep its sample counts, add what was read back.
    auto& t = seen->as_record();
    const auto& e = entry.as_record();
    t.set("min_ratio", std::min(*t.at("min_ratio").number(), *e.at("min_ratio").number()));
    t.set("requested", e.at("requested"));
    t.set("read_back", e.at("read_back"));
  }
  if (!throttle.empty()) {
    add_flag("throttled");
    mt.set(cols::throttle, std::move(throttle));
  }
  // Read back above the request: the board runs the clock where it wants, not where asked.
  if (read_back.above) add_flag("settings_not_applied");
  // A window longer than the telemetry held (and could read back) averages only its end.
  if (res.power_covered_s < res.power_window_s) {
    add_flag("power_window_truncated");
    mt.set(cols::power_window_covered_s, res.power_covered_s);
  }
  // Stopped at max_time_s, or before it when the RSE's trend said the target was out of reach
  // (its projection at max_time_s in projected_rse): either way short of the target.
  const bool projected = res.decision.reason == stop_reason::projected_max_time;
  if (projected && res.projected_rse) mt.set(cols::projected_rse, *res.projected_rse);
  if (res.decision.reason == stop_reason::max_time || projected) {
    if (!projected) flags.push_back("max_time_reached");
    for (const auto& u : res.decision.unmet)
      if (u == "time_rse" || u == "power_rse" || u == "throughput_rse") {
        flags.push_back("rse_unmet");
        break;
      }
  }
  if (!has_power) flags.push_back("no_power");
  if (res.contention) {
    mt.set(cols::others_cpu_share, res.contention->others_cpu_share);
    mt.set(cols::retries, res.contention->retries);
    if (res.contention->contended) add_flag("contended");
  }
  mt.set(cols::flags, flags);
  mt.set(cols::stop_reason, to_string(res.decision.reason));
  mt.set(cols::unmet, res.decision.unmet);
}

measure::point_result skipped_point(const std::string& reason, row identity) {
  measure::point_result r;
  r.status = "skipped";
  r.metrics = std::move(identity);
  r.metrics.set(cols::reason, reason);
  r.t_start_ns = r.t_end_ns = monotonic_ns();
  return r;
}

read_back_check check_read_back(const applied_settings& applied) {
  // The channel each clock's telemetry reports under, so both findings land in one entry.
  static const std::pair<std::optional<std::int64_t> platform::board_setting::*, const char*> clocks[] = {
      {&platform::board_setting::gpu_freq_hz, "clock.gpu"},
      {&platform::board_setting::cpu_freq_khz, "clock.cpu"},
      {&platform::board_setting::emc_freq_hz, "clock.emc"},
  };
  static const char* const settings[] = {"gpu_freq_hz", "cpu_freq_khz", "emc_freq_hz"};
  read_back_check out;
  for (std::size_t i = 0; i < 3; ++i) {
    const auto& [member, channel] = clocks[i];
    const auto& asked = applied.requested.*member;
    const auto& got = applied.read_back.*member;
    // A clock above the cap of the mode the board is in is not the mode's, whatever was asked.
    const auto cap = applied.caps.of(settings[i]);
    if (cap && ((got && *got > *cap) || (asked && *asked > *cap))) {
      out.above = true;
      continue;
    }
    if (!asked || !got || *asked <= 0) continue;
    const double ratio = static_cast<double>(*got) / static_cast<double>(*asked);
    if (ratio < 1 - k_clock_tolerance) {
      out.below.set(channel, record{{"below", 1}, {"samples", 1}, {"min_ratio", ratio}, {"requested", *asked},
                                    {"read_back", *got}});
    } else if (ratio > 1 + k_clock_tolerance) {
      out.above = true;
    }
  }
  return out;
}

record throttled_clocks(const telemetry::sample_source& source, const std::vector<telemetry::sample>& samples,
                      const platform::board_setting& requested) {
  const auto channels = source.channels();
  record throttle;
  for (std::size_t i = 0; i < channels.size(); ++i) {
    const auto& c = channels[i];
    if (c.kind != telemetry::channel_kind::clock) continue;
    std::optional<double> requested_hz;
    if (c.name == "clock.gpu" && requested.gpu_freq_hz) requested_hz = static_cast<double>(*requested.gpu_freq_hz);
    if (c.name == "clock.emc" && requested.emc_freq_hz) requested_hz = static_cast<double>(*requested.emc_freq_hz);
    if (c.name.rfind("clock.cpu", 0) == 0 && requested.cpu_freq_khz)
      requested_hz = static_cast<double>(*requested.cpu_freq_khz) * 1e3;
    if (!requested_hz) continue;
    const auto t = check_throttle(samples, static_cast<int>(i), in_unit(*requested_hz, c.unit));
    if (t.throttled) throttle.set(c.name, record{{"below", t.below}, {"samples", t.samples}, {"min_ratio", t.min_ratio}});
  }
  return throttle;
}

}  // namespace jetperf::measure
