#include <jetperf/kinds/gemm/gemm_compare.hpp>

#include <map>
#include <optional>

#include <jetperf/common/cell_json.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/measure/repeat_stats.hpp>

namespace jetperf::kinds {

namespace {

using nlohmann::json;

// The params that identify a point (metrics such as gflops are never grouping keys).
const char* const k_param_keys[] = {"power_mode", "emc_freq_hz", "gpu_freq_hz", "cpu_freq_khz", "device", "dtype",
                                    "tensor",     "m",           "n",           "k",            "repeat"};

struct flat_point {
  json params;   // identifying params only
  json metrics;  // everything else
  /// Why a verdict leaves this point out ("" when it counts): a window other processes took CPU
  /// time from, or one that ended short of its precision target, can name the wrong winner.
  std::string left_out;
};

// The flags that keep a point out of every verdict, in the order a point is said to have one.
const char* const k_verdict_exclusions[] = {"contended", "rse_unmet"};

std::string verdict_exclusion(const json& metrics) {
  const auto it = metrics.find("flags");
  if (it == metrics.end() || !it->is_array()) return {};
  for (const char* flag : k_verdict_exclusions)
    for (const auto& f : *it)
      if (f == flag) return flag;
  return {};
}

std::vector<flat_point> flatten(const std::vector<json>& points) {
  std::vector<flat_point> out;
  for (const auto& p : points) {
    if (!p.is_object()) continue;
    if (p.contains("status") && p["status"].is_string() && p["status"] != "ok") continue;
    json merged = p.contains("params") ? p["params"] : p;
    const json metrics = p.contains("metrics") ? p["metrics"] : p;
    if (!merged.is_object()) continue;
    flat_point f;
    for (const char* k : k_param_keys) {
      if (merged.contains(k)) f.params[k] = merged[k];
      else if (metrics.is_object() && metrics.contains(k)) f.params[k] = metrics[k];
    }
    f.metrics = metrics.is_object() ? metrics : json::object();
    f.left_out = verdict_exclusion(f.metrics);
    out.push_back(std::move(f));
  }
  return out;
}

std::optional<double> metric(const json& m, const char* name) {
  if (m.contains(name) && m[name].is_number()) return m[name].get<double>();
  return std::nullopt;
}

json ratio(std::optional<double> a, std::optional<double> b) {
  if (!a || !b || *b == 0) return nullptr;
  return *a / *b;
}

json opt(std::optional<double> v) { return v ? json(*v) : json(); }

// GFLOP/s per watt over the board's idle: what the GEMM itself costs (null without an idle
// baseline, or where the window drew no more than idle).
std::optional<double> gflops_per_dynamic_w(const json& m) {
  const auto g = metric(m, "gflops"), d = metric(m, "dynamic_power_w");
  if (!g || !d || *d <= 0) return std::nullopt;
  return *g / *d;
}

// Keeps the better of `best` and `p` by `score` (higher wins; a point without one never does).
template <class Score>
void keep_better(const flat_point*& best, const flat_point& p, Score score) {
  const auto s = score(p.metrics);
  if (s && (!best || *s > *score(best->metrics))) best = &p;
}

bool is_on(const json& t) { return t.is_boolean() ? t.get<bool>() : t == "on"; }

json compare_tensor(const std::vector<flat_point>& pts) {
  std::map<std::string, std::pair<const flat_point*, const flat_point*>> pairs;  // key -> (on, off)
  std::vector<std::string> order;
  for (const auto& p : pts) {
    json key = p.params;
    key.erase("tensor");
    const auto k = key.dump();
    if (!pairs.count(k)) order.push_back(k);
    auto& slot = pairs[k];
    (is_on(p.params.value("tensor", json(false))) ? slot.first : slot.second) = &p;
  }
  json rows = json::array();
  for (const auto& k : order) {
    const auto& [on, off] = pairs[k];
    if (!on || !off) continue;
    json row = json::parse(k);
    const auto g_on = metric(on->metrics, "gflops"), g_off = metric(off->metrics, "gflops");
    const auto e_on = metric(on->metrics, "gflops_per_w"), e_off = metric(off->metrics, "gflops_per_w");
    row["gflops_on"] = opt(g_on);
    row["gflops_off"] = opt(g_off);
    row["gflops_ratio"] = ratio(g_on, g_off);
    row["gflops_per_w_on"] = opt(e_on);
    row["gflops_per_w_off"] = opt(e_off);
    row["gflops_per_w_ratio"] = ratio(e_on, e_off);
    row["tensor_used_on"] = on->metrics.value("tensor_used", json());
    rows.push_back(std::move(row));
  }
  return rows;
}

json compare_param(const std::vector<flat_point>& pts, const std::string& by) {
  std::map<std::string, std::vector<const flat_point*>> groups;
  std::vector<std::string> order;
  for (const auto& p : pts) {
    json key = p.params;
    key.erase(by);
    const auto k = key.dump();
    if (!groups.count(k)) order.push_back(k);
    groups[k].push_back(&p);
  }
  json rows = json::array();
  for (const auto& k : order) {
    json row = json::parse(k);
    json values = json::array();
    const flat_point *best = nullptr, *best_dynamic = nullptr;
    int left_out = 0;
    for (const auto* p : groups[k]) {
      json value = {{by, p->params.value(by, json())},
                    {"gflops", opt(metric(p->metrics, "gflops"))},
                    {"gflops_per_w", opt(metric(p->metrics, "gflops_per_w"))},
                    {"gflops_per_dynamic_w", opt(gflops_per_dynamic_w(p->metrics))}};
      if (!p->left_out.empty()) value["left_out"] = p->left_out;
      values.push_back(std::move(value));
      if (!p->left_out.empty()) {
        ++left_out;
        continue;
      }
      keep_better(best, *p, [](const json& m) { return metric(m, "gflops_per_w"); });
      keep_better(best_dynamic, *p, gflops_per_dynamic_w);
    }
    row["best_" + by] = best ? best->params.value(by, json()) : json();
    row["best_gflops_per_w"] = best ? opt(metric(best->metrics, "gflops_per_w")) : json();
    row["best_gflops"] = best ? opt(metric(best->metrics, "gflops")) : json();
    row["best_" + by + "_over_idle"] = best_dynamic ? best_dynamic->params.value(by, json()) : json();
    row["best_gflops_per_dynamic_w"] = best_dynamic ? opt(gflops_per_dynamic_w(best_dynamic->metrics)) : json();
    row["left_out"] = left_out;
    row["values"] = std::move(values);
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace

nlohmann::json compare_gemm_points(const std::vector<nlohmann::json>& points, const std::string& by) {
  bool known = false;
  for (const char* k : k_param_keys) known = known || by == k;
  if (!known) {
    std::string list;
    for (const char* k : k_param_keys) list += (list.empty() ? "" : ", ") + std::string(k);
    throw validation_error("by", "cannot compare by '" + by + "' (known: " + list + ")");
  }
  const auto pts = flatten(points);
  return by == "tensor" ? compare_tensor(pts) : compare_param(pts, by);
}

nlohmann::json best_gemm_settings(const std::vector<nlohmann::json>& points) {
  const auto pts = flatten(points);
  const auto per_w = [](const json& m) { return metric(m, "gflops_per_w"); };
  struct winners {
    const flat_point* total = nullptr;    // by GFLOP/s per watt drawn
    const flat_point* dynamic = nullptr;  // by GFLOP/s per watt over idle
  };
  std::map<std::string, winners> best;
  std::vector<std::string> order;
  winners overall;
  json left_out = json::object();
  for (const auto& p : pts) {
    if (!per_w(p.metrics)) continue;
    if (!p.left_out.empty()) {
      left_out[p.left_out] = left_out.value(p.left_out, 0) + 1;
      continue;
    }
    const json key = {p.params.value("dtype", json()), p.params.value("m", json()), p.params.value("n", json()),
                      p.params.value("k", json())};
    const auto k = key.dump();
    if (!best.count(k)) order.push_back(k);
    auto& b = best[k];
    keep_better(b.total, p, per_w);
    keep_better(b.dynamic, p, gflops_per_dynamic_w);
    keep_better(overall.total, p, per_w);
    keep_better(overall.dynamic, p, gflops_per_dynamic_w);
  }
  const auto describe = [](const flat_point* p) {
    if (!p) return json();
    return json{{"dtype", p->params.value("dtype", json())},
                {"m", p->params.value("m", json())},
                {"n", p->params.value("n", json())},
                {"k", p->params.value("k", json())},
                {"params", p->params},
                {"gflops", opt(metric(p->metrics, "gflops"))},
                {"gflops_per_w", opt(metric(p->metrics, "gflops_per_w"))},
                {"power_w", opt(metric(p->metrics, "power_w"))},
                {"gflops_per_dynamic_w", opt(gflops_per_dynamic_w(p->metrics))},
                {"dynamic_power_w", opt(metric(p->metrics, "dynamic_power_w"))}};
  };
  json rows = json::array();
  for (const auto& k : order) {
    auto row = describe(best[k].total);
    row["over_idle"] = describe(best[k].dynamic);
    rows.push_back(std::move(row));
  }
  return {{"best_per_dtype_size", rows},
          {"best_overall", describe(overall.total)},
          {"best_overall_over_idle", describe(overall.dynamic)},
          {"left_out", left_out}};
}

nlohmann::json gemm_repeat_stats(const std::vector<nlohmann::json>& points) {
  // Points equal in every param but the repeat, in first-seen order.
  std::map<std::string, std::vector<const flat_point*>> groups;
  std::vector<std::string> order;
  const auto pts = flatten(points);
  for (const auto& p : pts) {
    json key = p.params;
    key.erase("repeat");
    const auto k = key.dump();
    if (!groups.count(k)) order.push_back(k);
    groups[k].push_back(&p);
  }
  json rows = json::array();
  for (const auto& k : order) {
    const auto& g = groups[k];
    if (g.size() < 2) continue;
    std::vector<double> gflops, gflops_se, efficiency;
    for (const auto* p : g) {
      const auto v = metric(p->metrics, "gflops");
      const auto rse = metric(p->metrics, "time_rse");
      if (v) {
        gflops.push_back(*v);
        gflops_se.push_back(rse ? *v * *rse : 0.0);
      }
      if (auto e = metric(p->metrics, "gflops_per_w")) efficiency.push_back(*e);
    }
    // Each repeat's GFLOP/s is known to its window's time RSE; GFLOP/s/W's own error is not kept.
    const auto g_stats = measure::summarize_repeats(gflops, gflops.size() == g.size() ? gflops_se : std::vector<double>{});
    json row = json::parse(k);
    row["gflops"] = jetperf::to_json(g_stats.to_record());
    row["gflops_per_w"] = jetperf::to_json(measure::summarize_repeats(efficiency, {}).to_record());
    row["repeats_disagree"] = g_stats.disagree;
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace jetperf::kinds
