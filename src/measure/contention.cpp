#include <jetperf/measure/contention.hpp>

#include <spdlog/spdlog.h>

namespace jetperf::measure {

const std::vector<spec_field>& contention_fields() {
  using t = spec_type;
  static const std::vector<spec_field> fields = {
      {"contention_threshold", t::number, 0.05,
       "share of the workload's cores' time other processes may take in a window (from /proc/stat less the "
       "daemon's own CPU time) before the window is measured again; a point still over it after max_retries is "
       "flagged contended and left out of the verdicts",
       0.001, 1, {}},
      {"max_retries", t::integer, 2, "times a contended window is measured again", 0, 10, {}},
  };
  return fields;
}

std::vector<spec_field> with_contention_fields(std::vector<spec_field> fields) {
  const auto at = fields.empty() ? fields.end() : fields.end() - 1;
  fields.insert(at, contention_fields().begin(), contention_fields().end());
  return fields;
}

contention_policy contention_policy::parse(const record& spec) {
  contention_policy p;
  p.threshold = number_field(spec, find_spec_field(contention_fields(), "contention_threshold"));
  p.max_retries = integer_field(spec, find_spec_field(contention_fields(), "max_retries"));
  return p;
}

contention_policy contention_policy::stored(const record& j) {
  contention_policy p;
  if (const auto* c = j.find("contention_threshold")) p.threshold = c->number().value_or(p.threshold);
  if (const auto* c = j.find("max_retries")) p.max_retries = c->integer().value_or(p.max_retries);
  return p;
}

void contention_policy::put(record& normalized) const {
  normalized.set("contention_threshold", threshold);
  normalized.set("max_retries", max_retries);
}

void contention_probe::start() {
  started_.reset();
  if (!usage_) return;
  try {
    started_ = usage_->now();
  } catch (const std::exception& e) {
    // Without /proc/stat the window is measured as before, with no contention figure.
    spdlog::warn("contention: {}", e.what());
  }
}

std::optional<window_contention> contention_probe::stop(const contention_policy& policy, std::int64_t retries,
                                                        double workload_cpu_s) const {
  if (!usage_ || !started_) return std::nullopt;
  try {
    window_contention w;
    auto ended = usage_->now();
    ended.own_s += workload_cpu_s;
    w.others_cpu_share = platform::others_share(*started_, ended);
    w.retries = retries;
    w.contended = w.others_cpu_share > policy.threshold;
    return w;
  } catch (const std::exception& e) {
    spdlog::warn("contention: {}", e.what());
    return std::nullopt;
  }
}

}  // namespace jetperf::measure
