#include <jetperf/kinds/layers/in_context.hpp>

#include <algorithm>
#include <cmath>
#include <map>

#include <jetperf/common/clock.hpp>
#include <jetperf/kinds/layers/layers_columns.hpp>

namespace jetperf::kinds {

namespace {

// Latencies further apart than this factor either way disagree, however wide their spreads.
constexpr double k_disagree_ratio = 1.5;

double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const double pos = q * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const auto hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (pos - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

// A number of an in_context entry, 0 when it has none.
double number_in(const record& r, const char* key) {
  const auto* c = r.find(key);
  return c && c->is_number() ? *c->number() : 0.0;
}

}  // namespace

record measure_in_context(const measure::point_context& ctx, workloads::layer_backend& be, const models::network& net,
                        const std::vector<models::layer>& layers) {
  const auto kernels = be.op_kernels();
  std::map<int, std::vector<double>> times;  // by layer index
  const auto started = monotonic_ns();
  for (std::size_t run = 0; run < k_in_context_max_runs && !ctx.cancelled(); ++run) {
    if (run >= k_in_context_min_runs && static_cast<double>(monotonic_ns() - started) * 1e-9 > k_in_context_budget_s) break;
    const auto spans = be.timed_run_ops();
    if (spans.empty()) return record();
    if (run < measure::k_in_context_traced_runs) measure::record_run_ops(ctx, net, kernels, spans, run);
    for (const auto& ls : measure::layer_spans_of_run(spans, layers)) {
      times[ls.layer].push_back(static_cast<double>(ls.end_ns - ls.start_ns) * 1e-9);
      ctx.record("layers", layers[static_cast<std::size_t>(ls.layer)].name, ls.start_ns, ls.end_ns,
                 {{"layer_index", ls.layer}, {"run", run}});
    }
  }
  record out;
  for (const auto& [index, t] : times) {
    out.set(std::to_string(index), record{{"name", layers[static_cast<std::size_t>(index)].name},
                                          {"median_s", quantile(t, 0.5)},
                                          {"p25_s", quantile(t, 0.25)},
                                          {"p75_s", quantile(t, 0.75)},
                                          {"runs", t.size()}});
  }
  return out;
}

cell_list compare_in_context(const record& in_context, const std::vector<row>& isolated) {
  using namespace layers;
  cell_list out;
  for (const auto& r : isolated) {
    const auto index = r.get(cols::layer_index).value_or(-1);
    const auto* entry = index < 0 ? nullptr : in_context.find(std::to_string(index));
    if (!entry || !entry->is_record()) continue;
    const auto& c = entry->as_record();
    const auto iso = r.get(cols::latency_median_s).value_or(0.0);
    const auto iso_sd = r.get(cols::latency_std_s).value_or(0.0);
    const auto ctx_s = number_in(c, "median_s");
    const auto ctx_sd = (number_in(c, "p75_s") - number_in(c, "p25_s")) / 1.349;
    const auto spread = std::sqrt(iso_sd * iso_sd + ctx_sd * ctx_sd);
    // A layer that runs half again as fast (or slow) alone as inside the network is not the same
    // work there, whatever the spread of two noisy timings (sub-millisecond ops at op granularity
    // spread as much as they differ): its isolated figures do not stand for it in the network.
    const double ratio = ctx_s > 0 ? iso / ctx_s : 0.0;
    const bool apart = ctx_s > 0 && iso > 0 && (ratio > k_disagree_ratio || ratio < 1 / k_disagree_ratio);
    out.push_back(record{{"layer_index", index},
                         {"layer_name", r.get(cols::layer_name).value_or("")},
                         {"isolated_median_s", iso},
                         {"in_context_median_s", ctx_s},
                         {"isolated_over_in_context", ctx_s > 0 ? cell(iso / ctx_s) : cell()},
                         {"disagrees", apart || std::abs(iso - ctx_s) > 2 * spread}});
  }
  return out;
}

}  // namespace jetperf::kinds
