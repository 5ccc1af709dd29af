#include <jetperf/kinds/layers/in_context.hpp>

#include <algorithm>
#include <cmath>
#include <map>

#include <jetperf/common/clock.hpp>

namespace jetperf::kinds {

namespace {

using nlohmann::json;

double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const double pos = q * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const auto hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (pos - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

}  // namespace

json measure_in_context(const measure::point_context& ctx, workloads::layer_backend& be, const models::network& net,
                        const std::vector<models::layer>& layers) {
  const auto kernels = be.op_kernels();
  std::map<int, std::vector<double>> times;  // by layer index
  const auto started = monotonic_ns();
  for (std::size_t run = 0; run < k_in_context_max_runs && !ctx.cancelled(); ++run) {
    if (run >= k_in_context_min_runs && static_cast<double>(monotonic_ns() - started) * 1e-9 > k_in_context_budget_s) break;
    const auto spans = be.timed_run_ops();
    if (spans.empty()) return json::object();
    if (run < measure::k_in_context_traced_runs) measure::record_run_ops(ctx, net, kernels, spans, run);
    for (const auto& ls : measure::layer_spans_of_run(spans, layers)) {
      times[ls.layer].push_back(static_cast<double>(ls.end_ns - ls.start_ns) * 1e-9);
      ctx.record("layers", layers[static_cast<std::size_t>(ls.layer)].name, ls.start_ns, ls.end_ns,
                 {{"layer_index", ls.layer}, {"run", run}});
    }
  }
  json out = json::object();
  for (const auto& [index, t] : times) {
    out[std::to_string(index)] = {{"name", layers[static_cast<std::size_t>(index)].name},
                                  {"median_s", quantile(t, 0.5)},
                                  {"p25_s", quantile(t, 0.25)},
                                  {"p75_s", quantile(t, 0.75)},
                                  {"runs", t.size()}};
  }
  return out;
}

json compare_in_context(const json& in_context, const std::vector<json>& isolated) {
  json out = json::array();
  for (const auto& row : isolated) {
    const auto index = row.value("layer_index", -1);
    if (index < 0 || !in_context.contains(std::to_string(index))) continue;
    const auto& c = in_context[std::to_string(index)];
    const auto iso = row.value("latency_median_s", 0.0);
    const auto iso_sd = row.value("latency_std_s", 0.0);
    const auto ctx_s = c.value("median_s", 0.0);
    const auto ctx_sd = (c.value("p75_s", 0.0) - c.value("p25_s", 0.0)) / 1.349;
    const auto spread = std::sqrt(iso_sd * iso_sd + ctx_sd * ctx_sd);
    out.push_back({{"layer_index", index},
                   {"layer_name", row.value("layer_name", std::string())},
                   {"isolated_median_s", iso},
                   {"in_context_median_s", ctx_s},
                   {"isolated_over_in_context", ctx_s > 0 ? json(iso / ctx_s) : json()},
                   {"disagrees", std::abs(iso - ctx_s) > 2 * spread}});
  }
  return out;
}

}  // namespace jetperf::kinds
