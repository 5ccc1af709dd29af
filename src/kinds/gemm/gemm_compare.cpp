#include <jetperf/kinds/gemm/gemm_compare.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>

#include <jetperf/kinds/gemm/gemm_columns.hpp>
#include <jetperf/measure/point_columns.hpp>
#include <jetperf/stats/repeat_stats.hpp>
#include <jetperf/kinds/common/verdict_exclusion.hpp>

namespace jetperf::kinds {

namespace {

// The params that identify a point (metrics such as gflops are never grouping keys).
const char* const k_param_keys[] = {"power_mode", "emc_freq_hz", "gpu_freq_hz", "cpu_freq_khz", "device", "dtype",
                                    "tensor",     "m",           "n",           "k",            "repeat"};

struct flat_point {
  record params;  // identifying params only
  row metrics;    // everything else
  /// Why a verdict leaves this point out ("" when it counts): an implausible figure is no result,
  /// and a window other processes took CPU time from, or one that ended short of its precision
  /// target, can name the wrong winner.
  std::string left_out;
};

// A value's text for grouping keys: type and value, unambiguous (a key's order is first-seen,
// never this text's).
std::string key_text(const cell& c) {
  if (c.is_null()) return "n";
  if (const auto b = c.boolean()) return *b ? "t" : "f";
  if (c.is_integer()) return "i" + std::to_string(*c.integer());
  if (c.is_double()) {
    // Every digit a double has (std::to_string keeps six decimals and would merge neighbours).
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", *c.number());
    return std::string("d") + text;
  }
  if (const auto t = c.text()) return "s" + std::to_string(t->size()) + ":" + *t;
  return "?";
}

// The params but `without`, as a grouping key.
std::string group_key(const record& params, const std::string& without = {}) {
  std::string key;
  for (const auto& [name, value] : params)
    if (name != without) key += name + "=" + key_text(value) + ";";
  return key;
}

record without(record params, const std::string& key) {
  params.erase(key);
  return params;
}

cell param(const record& params, const std::string& key) {
  const auto* v = params.find(key);
  return v ? *v : cell();
}

std::vector<flat_point> flatten(const std::vector<jobs::point_row>& points) {
  std::vector<flat_point> out;
  for (const auto& p : points) {
    if (!common::verdict_sees(p.status)) continue;
    flat_point f;
    for (const char* k : k_param_keys) {
      if (const auto* v = p.params.find(k)) f.params.set(k, *v);
      else if (const auto* m = p.metrics.find(k)) f.params.set(k, *m);
    }
    f.metrics = p.metrics;
    f.left_out = common::verdict_exclusion(p.status, f.metrics);
    out.push_back(std::move(f));
  }
  return out;
}

// A point whose figures are results at all: an implausible one's are not, and no comparison or
// statistic takes them (the verdicts count them as left out).
bool is_result(const flat_point& p) { return p.left_out != "implausible"; }

cell ratio(std::optional<double> a, std::optional<double> b) {
  if (!a || !b || *b == 0) return nullptr;
  return *a / *b;
}

std::optional<double> gflops(const row& m) { return m.get(gemm::cols::gflops); }
std::optional<double> gflops_per_w(const row& m) { return m.get(gemm::cols::gflops_per_w); }

// GFLOP/s per watt over the board's idle: what the GEMM itself costs (null without an idle
// baseline, or where the window drew no more than idle).
std::optional<double> gflops_per_dynamic_w(const row& m) {
  const auto g = gflops(m), d = m.get(measure::cols::dynamic_power_w);
  if (!g || !d || *d <= 0) return std::nullopt;
  return *g / *d;
}

// Keeps the better of `best` and `p` by `score` (higher wins; a point without one never does).
template <class Score>
void keep_better(const flat_point*& best, const flat_point& p, Score score) {
  const auto s = score(p.metrics);
  if (s && (!best || *s > *score(best->metrics))) best = &p;
}

bool is_on(const cell& t) { return t.is_bool() ? *t.boolean() : t.text() == std::optional<std::string>("on"); }

cell_list compare_tensor(const std::vector<flat_point>& pts) {
  struct pair_of {
    record params;  // all but tensor
    const flat_point *on = nullptr, *off = nullptr;
  };
  std::map<std::string, pair_of> pairs;
  std::vector<std::string> order;
  for (const auto& p : pts) {
    if (!is_result(p)) continue;
    const auto k = group_key(p.params, "tensor");
    if (!pairs.count(k)) order.push_back(k);
    auto& slot = pairs[k];
    slot.params = without(p.params, "tensor");
    const auto* tensor = p.params.find("tensor");
    (tensor && is_on(*tensor) ? slot.on : slot.off) = &p;
  }
  cell_list rows;
  for (const auto& k : order) {
    const auto& pr = pairs[k];
    if (!pr.on || !pr.off) continue;
    record row = pr.params;
    const auto g_on = gflops(pr.on->metrics), g_off = gflops(pr.off->metrics);
    const auto e_on = gflops_per_w(pr.on->metrics), e_off = gflops_per_w(pr.off->metrics);
    row.set("gflops_on", g_on);
    row.set("gflops_off", g_off);
    row.set("gflops_ratio", ratio(g_on, g_off));
    row.set("gflops_per_w_on", e_on);
    row.set("gflops_per_w_off", e_off);
    row.set("gflops_per_w_ratio", ratio(e_on, e_off));
    const auto* used = pr.on->metrics.find(gemm::cols::tensor_used.name);
    row.set("tensor_used_on", used ? *used : cell());
    rows.push_back(std::move(row));
  }
  return rows;
}

cell_list compare_param(const std::vector<flat_point>& pts, const std::string& by) {
  std::map<std::string, std::vector<const flat_point*>> groups;
  std::vector<std::string> order;
  for (const auto& p : pts) {
    const auto k = group_key(p.params, by);
    if (!groups.count(k)) order.push_back(k);
    groups[k].push_back(&p);
  }
  cell_list rows;
  for (const auto& k : order) {
    record row = without(groups[k].front()->params, by);
    cell_list values;
    const flat_point *best = nullptr, *best_dynamic = nullptr;
    int left_out = 0;
    for (const auto* p : groups[k]) {
      record value{{by, param(p->params, by)},
                   {"gflops", gflops(p->metrics)},
                   {"gflops_per_w", gflops_per_w(p->metrics)},
                   {"gflops_per_dynamic_w", gflops_per_dynamic_w(p->metrics)}};
      if (!p->left_out.empty()) value.set("left_out", p->left_out);
      values.push_back(std::move(value));
      if (!p->left_out.empty()) {
        ++left_out;
        continue;
      }
      keep_better(best, *p, gflops_per_w);
      keep_better(best_dynamic, *p, gflops_per_dynamic_w);
    }
    row.set("best_" + by, best ? param(best->params, by) : cell());
    row.set("best_gflops_per_w", best ? cell(gflops_per_w(best->metrics)) : cell());
    row.set("best_gflops", best ? cell(gflops(best->metrics)) : cell());
    row.set("best_" + by + "_over_idle", best_dynamic ? param(best_dynamic->params, by) : cell());
    row.set("best_gflops_per_dynamic_w", best_dynamic ? cell(gflops_per_dynamic_w(best_dynamic->metrics)) : cell());
    row.set("left_out", left_out);
    row.set("values", std::move(values));
    rows.push_back(std::move(row));
  }
  return rows;
}

// One GEMM's work, in GFLOP (2mnk), from its params; nullopt without them.
std::optional<double> work_gflop(const flat_point& p) {
  const auto m = param(p.params, "m").number(), n = param(p.params, "n").number(), k = param(p.params, "k").number();
  if (!m || !n || !k) return std::nullopt;
  return 2 * *m * *n * *k / 1e9;
}

// A repeat's time of one GEMM (s): its time_mean_s, or the work over its GFLOP/s where a row has
// only the rate. Its standard error from time_rse where it has one (0 when unknown).
std::optional<std::pair<double, double>> time_per_run(const flat_point& p) {
  const auto rse = p.metrics.get(gemm::cols::time_rse).value_or(0.0);
  if (const auto t = p.metrics.get(gemm::cols::time_mean_s); t && *t > 0) return std::make_pair(*t, *t * rse);
  const auto w = work_gflop(p);
  const auto g = gflops(p.metrics);
  if (!w || !g || *g <= 0) return std::nullopt;
  return std::make_pair(*w / *g, *w / *g * rse);
}

// A repeat's energy of one GEMM (J): its energy_j, or the work over its GFLOP/s/W. No standard
// error is kept for it.
std::optional<std::pair<double, double>> energy_per_run(const flat_point& p) {
  if (const auto e = p.metrics.get(measure::cols::energy_j); e && *e > 0) return std::make_pair(*e, 0.0);
  const auto w = work_gflop(p);
  const auto e = gflops_per_w(p.metrics);
  if (!w || !e || *e <= 0) return std::nullopt;
  return std::make_pair(*w / *e, 0.0);
}

// The work over a part (time or energy per run) across the group's repeats, its interval from the
// part's (measure::summarize_ratio): GFLOP/s from the time, GFLOP/s/W from the energy, so no bound
// is below zero and none is symmetric around the rate. Null when a repeat lacks the part.
template <class Part, class Rate>
cell repeat_rate(const std::vector<const flat_point*>& group, Part part, Rate rate) {
  std::vector<double> values, standard_errors, rates;
  std::optional<double> work;
  for (const auto* p : group) {
    const auto v = part(*p);
    const auto w = work_gflop(*p);
    if (!v || !w) return cell();
    work = w;
    values.push_back(v->first);
    standard_errors.push_back(v->second);
    rates.push_back(rate(p->metrics).value_or(*w / v->first));
  }
  const bool known_errors = std::any_of(standard_errors.begin(), standard_errors.end(), [](double e) { return e > 0; });
  const auto den = stats::summarize_repeats(values, known_errors ? standard_errors : std::vector<double>{});
  const auto num = stats::summarize_repeats(std::vector<double>(values.size(), *work), {});
  return stats::summarize_ratio(num, den, rates).to_record();
}

}  // namespace

const std::vector<compare_view>& gemm_compare_views() {
  using f = summary_format;
  using from = summary_source;
  std::vector<std::string> params;
  for (const char* k : k_param_keys)
    if (std::string(k) != "tensor") params.push_back(k);
  static const std::vector<compare_view> views{
      {{"tensor"},
       {"tensor", "", "rows", "",
        {{"params", "", "", f::params, from::row, "tensor"},
         {"gflops_on", "gflops_on", "GFLOP/s", f::value},
         {"gflops_off", "gflops_off", "GFLOP/s", f::value},
         {"gflops_ratio", "gflops_ratio", "", f::value},
         {"gflops_per_w_on", "gflops_per_w_on", "GFLOP/s/W", f::value},
         {"gflops_per_w_off", "gflops_per_w_off", "GFLOP/s/W", f::value},
         {"gflops_per_w_ratio", "gflops_per_w_ratio", "", f::value}},
        "no comparable points (by {by})"}},
      // The winner by GFLOP/s/W drawn and by GFLOP/s/W over idle, how many points the verdict
      // left out (implausible, contended or short of their precision target), and how many values
      // it was picked from.
      {params,
       {"best", "", "rows", "",
        {{"params", "", "", f::params, from::row, "{by}"},
         {"best_{by}", "best_{by}", "", f::value},
         {"best_gflops_per_w", "best_gflops_per_w", "GFLOP/s/W", f::value},
         {"best_gflops", "best_gflops", "GFLOP/s", f::value},
         {"best_{by}_over_idle", "best_{by}_over_idle", "", f::value},
         {"best_gflops_per_dynamic_w", "best_gflops_per_dynamic_w", "GFLOP/s/W", f::value},
         {"left_out", "left_out", "", f::value},
         {"{by} values", "values", "", f::count}},
        "no comparable points (by {by})"}}};
  return views;
}

cell_list compare_gemm_points(const std::vector<jobs::point_row>& points, const std::string& by) {
  const auto pts = flatten(points);
  return by == "tensor" ? compare_tensor(pts) : compare_param(pts, by);
}

record best_gemm_settings(const std::vector<jobs::point_row>& points) {
  const auto pts = flatten(points);
  const auto per_w = gflops_per_w;
  struct winners {
    const flat_point* total = nullptr;    // by GFLOP/s per watt drawn
    const flat_point* dynamic = nullptr;  // by GFLOP/s per watt over idle
  };
  std::map<std::string, winners> best;
  std::vector<std::string> order;
  winners overall;
  std::map<std::string, std::int64_t> left_out;
  for (const auto& p : pts) {
    if (!per_w(p.metrics)) continue;
    if (!p.left_out.empty()) {
      ++left_out[p.left_out];
      continue;
    }
    std::string k;
    for (const char* name : {"dtype", "m", "n", "k"}) k += key_text(param(p.params, name)) + ";";
    if (!best.count(k)) order.push_back(k);
    auto& b = best[k];
    keep_better(b.total, p, per_w);
    keep_better(b.dynamic, p, gflops_per_dynamic_w);
    keep_better(overall.total, p, per_w);
    keep_better(overall.dynamic, p, gflops_per_dynamic_w);
  }
  const auto describe = [](const flat_point* p) -> cell {
    if (!p) return cell();
    return record{{"dtype", param(p->params, "dtype")},
                  {"m", param(p->params, "m")},
                  {"n", param(p->params, "n")},
                  {"k", param(p->params, "k")},
                  {"params", p->params},
                  {"gflops", gflops(p->metrics)},
                  {"gflops_per_w", gflops_per_w(p->metrics)},
                  {"power_w", p->metrics.get(measure::cols::power_w)},
                  {"gflops_per_dynamic_w", gflops_per_dynamic_w(p->metrics)},
                  {"dynamic_power_w", p->metrics.get(measure::cols::dynamic_power_w)}};
  };
  cell_list rows;
  for (const auto& k : order) {
    auto row = describe(best[k].total);
    row.as_record().set("over_idle", describe(best[k].dynamic));
    rows.push_back(std::move(row));
  }
  return {{"best_per_dtype_size", std::move(rows)},
          {"best_overall", describe(overall.total)},
          {"best_overall_over_idle", describe(overall.dynamic)},
          {"left_out", left_out}};
}

cell_list gemm_repeat_stats(const std::vector<jobs::point_row>& points) {
  // Points equal in every param but the repeat, in first-seen order.
  std::map<std::string, std::vector<const flat_point*>> groups;
  std::vector<std::string> order;
  const auto pts = flatten(points);
  for (const auto& p : pts) {
    if (!is_result(p)) continue;
    const auto k = group_key(p.params, "repeat");
    if (!groups.count(k)) order.push_back(k);
    groups[k].push_back(&p);
  }
  cell_list rows;
  for (const auto& k : order) {
    const auto& g = groups.at(k);
    if (g.size() < 2) continue;
    record row = without(g.front()->params, "repeat");
    // Each repeat's time is known to its window's time RSE; its energy's own error is not kept.
    auto speed = repeat_rate(g, time_per_run, gflops);
    const auto* disagree = speed.is_record() ? speed.as_record().find("disagree") : nullptr;
    const cell repeats_disagree = disagree ? *disagree : cell(false);
    row.set("gflops", std::move(speed));
    row.set("gflops_per_w", repeat_rate(g, energy_per_run, gflops_per_w));
    row.set("repeats_disagree", repeats_disagree);
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace jetperf::kinds
