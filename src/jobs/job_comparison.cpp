#include <jetperf/jobs/job_comparison.hpp>

#include <algorithm>
#include <cmath>
#include <optional>

namespace jetperf::jobs {

namespace {

constexpr const char* k_repeat = "repeat";

// Which way is better decides the words: a time that grows is slower, a rate that grows is
// faster; power, energy and efficiency only go higher or lower.
enum class metric_sense { time, rate, other };

metric_sense sense_of(const std::string& unit) {
  if (unit == "s") return metric_sense::time;
  if (unit.size() > 2 && unit.compare(unit.size() - 2, 2, "/s") == 0) return metric_sense::rate;
  return metric_sense::other;
}

bool is_spread_column(const std::vector<column>& columns, const std::string& name) {
  for (const auto& c : columns)
    if (c.sd_column == name || c.count_column == name) return true;
  return false;
}

// The metrics compared: numeric, shown by default (a kind's headline figures) or main.
std::vector<const column*> compared_metrics(const std::vector<column>& columns) {
  std::vector<const column*> out;
  for (const auto& c : columns) {
    const bool numeric = c.type == column_type::number || c.type == column_type::integer;
    if (c.role == column_role::metric && numeric && (c.shown || c.main) && !is_spread_column(columns, c.name))
      out.push_back(&c);
  }
  return out;
}

std::optional<double> number_in(const row& r, const std::string& name) {
  const auto* c = r.find(name);
  if (!c) return std::nullopt;
  const auto v = c->number();
  if (!v || !std::isfinite(*v)) return std::nullopt;
  return v;
}

struct point_group {
  record params;
  std::vector<const point_row*> a;
  std::vector<const point_row*> b;
};

record pairing_key(const point_row& p) {
  record key = p.params;
  key.erase(k_repeat);
  return key;
}

void add_rows(std::vector<point_group>& groups, const std::vector<point_row>& rows, bool side_b) {
  for (const auto& p : rows) {
    if (p.status != "ok") continue;
    auto key = pairing_key(p);
    auto it = std::find_if(groups.begin(), groups.end(), [&](const point_group& g) { return g.params == key; });
    if (it == groups.end()) it = groups.insert(groups.end(), point_group{std::move(key), {}, {}});
    (side_b ? it->b : it->a).push_back(&p);
  }
}

std::vector<double> values_of(const std::vector<const point_row*>& rows, const std::string& name) {
  std::vector<double> out;
  for (const auto* p : rows)
    if (auto v = number_in(p->metrics, name)) out.push_back(*v);
  return out;
}

// One side's points pooled through their windows: every run behind every point, as one sample
// (the mixture's mean and standard deviation). Nothing when a point lacks its spread.
std::optional<stats::sample_summary> window_summary(const std::vector<const point_row*>& rows, const column& c) {
  if (c.sd_column.empty() || rows.empty()) return std::nullopt;
  double n = 0, sum = 0, within = 0;
  std::vector<stats::sample_summary> parts;
  for (const auto* p : rows) {
    const auto mean = number_in(p->metrics, c.name);
    const auto sd = number_in(p->metrics, c.sd_column);
    const auto count = number_in(p->metrics, c.count_column);
    if (!mean || !sd || !count || *count < 2) return std::nullopt;
    parts.push_back({*mean, *sd, *count});
    n += *count;
    sum += *count * *mean;
    within += (*count - 1) * *sd * *sd;
  }
  stats::sample_summary s{sum / n, 0, n};
  double between = 0;
  for (const auto& part : parts) between += part.n * (part.mean - s.mean) * (part.mean - s.mean);
  s.sd = std::sqrt((within + between) / (n - 1));
  return s;
}

comparison_verdict verdict_of(const stats::ratio_interval& r, metric_sense sense, double threshold) {
  if (!r.valid) return comparison_verdict::unknown;
  if (!r.differs() || std::fabs(r.ratio - 1.0) <= threshold) return comparison_verdict::same;
  const bool grew = r.ratio > 1.0;
  switch (sense) {
    case metric_sense::time: return grew ? comparison_verdict::slower : comparison_verdict::faster;
    case metric_sense::rate: return grew ? comparison_verdict::faster : comparison_verdict::slower;
    case metric_sense::other: break;
  }
  return grew ? comparison_verdict::higher : comparison_verdict::lower;
}

std::optional<metric_comparison> compare_metric(const point_group& g, const column& c, double threshold) {
  const auto va = values_of(g.a, c.name);
  const auto vb = values_of(g.b, c.name);
  if (va.empty() || vb.empty()) return std::nullopt;
  metric_comparison m;
  m.metric = c.name;
  m.unit = c.unit;
  m.a = stats::summarize(va);
  m.b = stats::summarize(vb);
  if (va.size() >= 2 && vb.size() >= 2) {
    m.test = comparison_test::repeats;
  } else if (auto wa = window_summary(g.a, c), wb = window_summary(g.b, c); wa && wb) {
    m.test = comparison_test::window;
    m.a = *wa;
    m.b = *wb;
  }
  m.ratio = stats::welch_ratio(m.a, m.b);
  if (m.test == comparison_test::none) m.ratio.valid = false;
  m.verdict = verdict_of(m.ratio, sense_of(c.unit), threshold);
  m.regressed = m.verdict == comparison_verdict::slower;
  return m;
}

}  // namespace

const char* to_string(comparison_test t) {
  switch (t) {
    case comparison_test::repeats: return "repeats";
    case comparison_test::window: return "window";
    case comparison_test::none: break;
  }
  return "none";
}

const char* to_string(comparison_verdict v) {
  switch (v) {
    case comparison_verdict::faster: return "faster";
    case comparison_verdict::slower: return "slower";
    case comparison_verdict::higher: return "higher";
    case comparison_verdict::lower: return "lower";
    case comparison_verdict::same: return "same";
    case comparison_verdict::unknown: break;
  }
  return "unknown";
}

job_comparison compare_jobs(const std::vector<column>& columns, const std::vector<point_row>& a,
                            const std::vector<point_row>& b, double threshold) {
  std::vector<point_group> groups;
  add_rows(groups, a, false);
  add_rows(groups, b, true);
  const auto metrics = compared_metrics(columns);
  job_comparison out;
  out.threshold = threshold;
  for (const auto& g : groups) {
    if (g.b.empty()) ++out.only_in_a;
    if (g.a.empty()) ++out.only_in_b;
    if (g.a.empty() || g.b.empty()) continue;
    point_pair pair{g.params, g.a.size(), g.b.size(), {}};
    for (const auto* c : metrics)
      if (auto m = compare_metric(g, *c, threshold)) {
        out.regressions += m->regressed ? 1 : 0;
        pair.metrics.push_back(std::move(*m));
      }
    out.pairs.push_back(std::move(pair));
  }
  return out;
}

}  // namespace jetperf::jobs
