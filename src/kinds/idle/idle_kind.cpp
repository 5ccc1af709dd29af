#include <jetperf/kinds/idle/idle_kind.hpp>

#include <chrono>
#include <thread>

#include <jetperf/common/clock.hpp>
#include <jetperf/common/spec_table.hpp>
#include <jetperf/jobs/kind.hpp>
#include <jetperf/kinds/common/point_power.hpp>
#include <jetperf/measure/power_window.hpp>

namespace jetperf::kinds {

namespace {

namespace cols {
inline constexpr column_key<std::int64_t> repeat{"repeat"};
inline constexpr column_key<double> duration_s{"duration_s"};
inline constexpr column_key<double> power_w{"power_w"};
inline constexpr column_key<std::int64_t> samples{"samples"};
}  // namespace cols

// Cancellation is polled at this period while idling, so a DELETE ends a point quickly.
constexpr std::chrono::milliseconds k_poll{10};


class idle_kind final : public jobs::kind<idle_spec, idle_point> {
 public:
  std::string kind() const { return "idle"; }
  std::string description() const {
    return "The board at rest for duration_s, repeated: the baseline every power figure is compared with.";
  }
  const std::vector<spec_field>& spec_fields() const { return idle_spec_fields(); }
  const column_table& columns() const { return idle_columns(); }

  std::vector<idle_point> expand(const idle_spec& spec) const { return kinds::expand(spec); }
  record params_of(const idle_point& p) const { return {{cols::repeat.name, p.repeat}}; }
  idle_point point_of(const record& p) const {
    const auto* repeat = p.find(cols::repeat.name);
    return {repeat && repeat->is_integer() ? *repeat->integer() : 0};
  }

  std::vector<double> estimate_points_s(const idle_spec& spec, const std::vector<idle_point>& points,
                                        const measure::estimate_context&) const {
    return std::vector<double>(points.size(), spec.duration_s);
  }

  measure::point_result run_point(measure::point_context& ctx, const idle_spec& spec, const idle_point& point) {
    const auto duration_ns = static_cast<std::int64_t>(spec.duration_s * 1e9);
    measure::point_result r;
    r.t_start_ns = monotonic_ns();
    const auto deadline = r.t_start_ns + duration_ns;
    for (auto now = r.t_start_ns; now < deadline && !ctx.cancelled(); now = monotonic_ns())
      std::this_thread::sleep_for(std::min<std::chrono::nanoseconds>(k_poll, std::chrono::nanoseconds(deadline - now)));
    r.t_end_ns = monotonic_ns();
    r.metrics.set(cols::repeat, point.repeat);
    r.metrics.set(cols::duration_s, static_cast<double>(r.t_end_ns - r.t_start_ns) / 1e9);
    r.metrics.set(cols::power_w, nullptr);
    r.metrics.set(cols::samples, 0);
    if (ctx.telemetry) add_power(*ctx.telemetry, r);
    return r;
  }

 private:
  // Mean of every power channel over the window (the measurement protocol's own summary); the
  // total-power channel becomes power_w, each rail its rail column.
  static void add_power(const telemetry::sample_source& source, measure::point_result& r) {
    const auto summary = measure::summarize_window(source.channels(), source.window(r.t_start_ns, r.t_end_ns),
                                                   source.total_power_channel());
    common::put_rail_metrics(r.metrics, summary);
    if (summary.total_power_w) r.metrics.set(cols::power_w, *summary.total_power_w);
    r.metrics.set(cols::samples, summary.total_samples);
  }
};

}  // namespace

namespace {

const spec_table<idle_spec>& idle_table() {
  static const spec_table<idle_spec> table({
      // A zero-length window measures nothing: the range starts above 0.
      {{"duration_s", spec_type::number, 1.0, "seconds each repeat measures the board at rest", 0.001, 3600, {}},
       &idle_spec::duration_s},
      {{"repeats", spec_type::integer, 1, "how many times (one point each)", 1, 10000, {}}, &idle_spec::repeats},
  });
  return table;
}

}  // namespace

const std::vector<spec_field>& idle_spec_fields() { return idle_table().declarations(); }

const column_table& idle_columns() {
  static const column_table table{
      {
          declare(cols::repeat, column_role::parameter, "", "which repeat, from 0", true),
          declare(cols::duration_s, column_role::metric, "s", "length of the window measured", true),
          declare(cols::power_w, column_role::metric, "W", "mean total board power over the window", true, /*main=*/true),
          declare(cols::samples, column_role::metric, "", "telemetry samples in the window", true),
      },
      true,
      {}};
  return table;
}

idle_spec idle_spec::parse(const record& spec, const platform::board_offer&) {
  check_spec_fields(spec, idle_spec_fields());
  idle_spec s;
  idle_table().parse(spec, s);
  return s;
}

record idle_spec::to_record() const {
  record out;
  idle_table().put(*this, out);
  return out;
}

std::vector<idle_point> expand(const idle_spec& spec) {
  std::vector<idle_point> points;
  for (std::int64_t i = 0; i < spec.repeats; ++i) points.push_back({i});
  return points;
}

std::unique_ptr<jobs::workload> make_idle_kind() { return jobs::make_workload(idle_kind{}); }

}  // namespace jetperf::kinds
