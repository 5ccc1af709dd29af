#include <jetperf/jobs/idle_workload.hpp>

#include <chrono>
#include <thread>

#include <jetperf/common/clock.hpp>
#include <jetperf/common/spec_fields.hpp>
#include <jetperf/measure/power_window.hpp>

namespace jetperf::jobs {

namespace {

// Cancellation is polled at this period while idling, so a DELETE ends a point quickly.
constexpr std::chrono::milliseconds k_poll{10};

class idle_workload final : public workload {
 public:
  std::string kind() const override { return "idle"; }

  nlohmann::json normalize(const nlohmann::json& spec, const nlohmann::json&) const override {
    reject_unknown_fields(spec, {"duration_s", "repeats"});
    return {{"duration_s", number_field(spec, "duration_s", 0.001, 3600, 1.0)},
            {"repeats", integer_field(spec, "repeats", 1, 10000, 1)}};
  }

  std::vector<nlohmann::json> expand(const nlohmann::json& spec) const override {
    std::vector<nlohmann::json> points;
    const auto repeats = spec.at("repeats").get<std::int64_t>();
    for (std::int64_t i = 0; i < repeats; ++i) points.push_back({{"repeat", i}});
    return points;
  }

  double estimate_s(const nlohmann::json& spec, std::size_t points) const override {
    return spec.at("duration_s").get<double>() * static_cast<double>(points);
  }

  point_result run_point(point_context& ctx, const nlohmann::json& spec, const nlohmann::json&) override {
    const auto duration_ns = static_cast<std::int64_t>(spec.at("duration_s").get<double>() * 1e9);
    point_result r;
    r.t_start_ns = monotonic_ns();
    const auto deadline = r.t_start_ns + duration_ns;
    for (auto now = r.t_start_ns; now < deadline && !ctx.cancelled(); now = monotonic_ns())
      std::this_thread::sleep_for(std::min<std::chrono::nanoseconds>(k_poll, std::chrono::nanoseconds(deadline - now)));
    r.t_end_ns = monotonic_ns();
    r.metrics["duration_s"] = static_cast<double>(r.t_end_ns - r.t_start_ns) / 1e9;
    r.metrics["power_w"] = nullptr;
    r.metrics["samples"] = 0;
    if (ctx.telemetry) add_power(*ctx.telemetry, r);
    return r;
  }

 private:
  // Mean of every power channel over the window (the measurement protocol's own summary); the
  // total-power channel becomes power_w.
  static void add_power(const telemetry::sample_source& source, point_result& r) {
    const auto channels = source.channels();
    const auto summary = measure::summarize_window(channels, source.window(r.t_start_ns, r.t_end_ns),
                                                   source.total_power_channel());
    for (const auto& [index, ch] : summary.channels)
      if (channels[index].kind == telemetry::channel_kind::power) r.metrics[ch.name + "_w"] = ch.mean;
    if (summary.total_power_w) r.metrics["power_w"] = *summary.total_power_w;
    r.metrics["samples"] = summary.total_samples;
  }
};

}  // namespace

std::unique_ptr<workload> make_idle_workload() { return std::make_unique<idle_workload>(); }

}  // namespace jetperf::jobs
