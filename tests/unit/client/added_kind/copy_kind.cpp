#include "copy_kind.hpp"

#include <chrono>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include <jetperf/common/spec_fields.hpp>
#include <jetperf/common/summary_table.hpp>
#include <jetperf/jobs/kind.hpp>
#include <jetperf/measure/point_board.hpp>
#include <jetperf/measure/point_columns.hpp>
#include <jetperf/kinds/common/point_power.hpp>
#include <jetperf/measure/protocols/point.hpp>

namespace jetperf::test {

namespace {

// The spec and its stored form (parse, stored, to_record): read from and written as a record,
// the typed value tree the request's JSON object arrives as. The kind names no JSON.
struct copy_spec {
  std::vector<std::int64_t> sizes;  ///< bytes per copy, one point each
  std::int64_t repeats = 1;
  double window_s = 0.05;

  static copy_spec parse(const record& spec, const platform::board_offer&);
  static copy_spec stored(const record& spec) { return parse(spec, {}); }
  record to_record() const { return {{"sizes", sizes}, {"repeats", repeats}, {"window_s", window_s}}; }
};

struct copy_point {
  std::int64_t bytes = 0;
  std::int64_t repeat = 0;
};

const std::vector<spec_field>& copy_spec_fields() {
  static const std::vector<spec_field> fields = {
      {"sizes", spec_type::list, cell_list{65536}, "bytes per copy, one point each", 64, 1 << 24, {}},
      {"repeats", spec_type::integer, 1, "how many times the sizes run", 1, 100, {}},
      {"window_s", spec_type::number, 0.05, "seconds each point copies for", 0.01, 60, {}},
  };
  return fields;
}

const spec_field& field(const char* name) { return find_spec_field(copy_spec_fields(), name); }

std::vector<std::int64_t> parse_sizes(const record& spec) {
  const auto& f = field("sizes");
  const auto* given = spec.find("sizes");
  const cell& sizes = given ? *given : f.default_value;
  if (!sizes.is_list() || sizes.as_list().empty())
    throw validation_error("spec.sizes", "sizes must be a non-empty list of integers");
  std::vector<std::int64_t> out;
  for (const auto& s : sizes.as_list()) out.push_back(integer_field(record{{"sizes", s}}, f));
  return out;
}

copy_spec copy_spec::parse(const record& spec, const platform::board_offer&) {
  check_spec_fields(spec, copy_spec_fields());
  copy_spec s;
  s.sizes = parse_sizes(spec);
  s.repeats = integer_field(spec, field("repeats"));
  s.window_s = number_field(spec, field("window_s"));
  return s;
}

// The columns a copy row has: the table declares them and run_point writes through them.
namespace cols {
inline constexpr column_key<std::int64_t> repeat{"repeat"};
inline constexpr column_key<std::int64_t> bytes{"bytes"};
inline constexpr column_key<double> time_mean_s{"time_mean_s"};
inline constexpr column_key<double> gb_per_s{"gb_per_s"};
}  // namespace cols

const column_table& copy_columns() {
  static const column_table table{
      measure::join_columns({
          {
              declare(cols::repeat, column_role::parameter, "", "which run of the sizes, from 0", false),
              declare(cols::bytes, column_role::parameter, "", "bytes per copy", true),
              declare(cols::time_mean_s, column_role::metric, "s", "mean time of one copy", true,
               /*main=*/true),
              declare(cols::gb_per_s, column_role::metric, "GB/s", "bytes / time_mean_s", true),
          },
          measure::power_columns(),
      }),
      true,
      {}};
  return table;
}

class copy_kind final : public jobs::kind<copy_spec, copy_point> {
 public:
  std::string kind() const { return "copy"; }
  std::string description() const { return "A buffer copied over and over: time, GB/s and power per size."; }
  const std::vector<spec_field>& spec_fields() const { return copy_spec_fields(); }
  const column_table& columns() const { return copy_columns(); }

  std::vector<copy_point> expand(const copy_spec& s) const {
    std::vector<copy_point> points;
    for (std::int64_t r = 0; r < s.repeats; ++r)
      for (auto bytes : s.sizes) points.push_back({bytes, r});
    return points;
  }
  record params_of(const copy_point& p) const { return {{cols::bytes.name, p.bytes}, {cols::repeat.name, p.repeat}}; }
  copy_point point_of(const record& p) const {
    return {*p.at(cols::bytes.name).integer(), *p.at(cols::repeat.name).integer()};
  }

  measure::point_result run_point(measure::point_context& ctx, const copy_spec& spec, const copy_point& p) {
    std::vector<char> from(static_cast<std::size_t>(p.bytes), 'x'), to(from.size());
    measure::point_plan plan;
    plan.idle_s = 0.02;
    plan.boundary_s = 0;
    plan.fixed = measure::fixed_protocol{spec.window_s, 0};
    plan.run_once = [&] {
      const auto t0 = std::chrono::steady_clock::now();
      std::memcpy(to.data(), from.data(), from.size());
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    const auto m = measure::run_point(ctx, platform::board_setting{}, plan, idle_);
    measure::point_result r;
    if (m.skipped) return measure::skipped_point(*m.skipped, row(params_of(p)));
    r.t_start_ns = m.window.t_start_ns;
    r.t_end_ns = m.window.t_end_ns;
    r.metrics = row(params_of(p));
    r.metrics.set(cols::time_mean_s, m.latency.mean_s);
    r.metrics.set(cols::gb_per_s, m.latency.mean_s > 0 ? static_cast<double>(p.bytes) / m.latency.mean_s / 1e9 : 0.0);
    kinds::common::put_power_metrics(r.metrics, m.window, m.idle_w, m.latency.mean_s);
    return r;
  }

  // A comparison, declared as the table its rows read as: each size's fastest repeat.
  const std::vector<compare_view>& compare_views() const {
    using f = summary_format;
    using from = summary_source;
    static const std::vector<compare_view> views{
        {{"repeat"},
         {"fastest", "", "rows", "",
          {{"bytes", "bytes", "", f::value, from::row, ""},
           {"fastest_{by}", "fastest_{by}", "", f::value, from::row, ""},
           {"gb_per_s", "gb_per_s", "GB/s", f::value, from::row, ""},
           {"{by} values", "values", "", f::count, from::row, ""}},
          "no points (by {by})"}}};
    return views;
  }
  cell compare(const std::vector<jobs::point_row>& rows, const std::string& by) const {
    std::map<std::int64_t, record> by_size;
    for (const auto& r : rows) {
      if (r.status != "ok") continue;
      const auto bytes = r.metrics.get(cols::bytes).value_or(0);
      const auto repeat = r.metrics.get(cols::repeat).value_or(0);
      const auto gb_per_s = r.metrics.get(cols::gb_per_s).value_or(0.0);
      auto& row = by_size[bytes];
      if (row.empty()) row = record{{"bytes", bytes}, {"values", cell_list{}}};
      row.find("values")->as_list().push_back(repeat);
      const auto* best = row.find("gb_per_s");
      if (!best || gb_per_s > *best->number()) {
        row.set("gb_per_s", gb_per_s);
        row.set("fastest_" + by, repeat);
      }
    }
    cell_list out;
    for (auto& size : by_size) out.push_back(std::move(size.second));
    return out;
  }

  cell summarize(const std::vector<jobs::point_row>& rows) const {
    double best = 0;
    for (const auto& r : rows)
      if (r.status == "ok") best = std::max(best, r.metrics.get(cols::gb_per_s).value_or(0.0));
    return record{{"best_gb_per_s", best}};
  }

 private:
  measure::idle_power_cache idle_;
};

}  // namespace

std::unique_ptr<jobs::workload> make_copy_kind() { return jobs::make_workload(copy_kind{}); }

}  // namespace jetperf::test
