#include <jetperf/jobs/workload_registry.hpp>

#include <jetperf/common/errors.hpp>

namespace jetperf::jobs {

void workload_registry::add(std::unique_ptr<workload> w) {
  const auto kind = w->kind();
  by_kind_[kind] = std::move(w);
}

workload& workload_registry::get(const std::string& kind) const {
  auto it = by_kind_.find(kind);
  if (it == by_kind_.end()) {
    std::string known;
    for (const auto& kv : by_kind_) known += (known.empty() ? "" : ", ") + kv.first;
    throw validation_error("kind", "unknown job kind '" + kind + "' (known: " + known + ")", "unknown_kind");
  }
  return *it->second;
}

bool workload_registry::has(const std::string& kind) const { return by_kind_.count(kind) != 0; }

std::vector<std::string> workload_registry::kinds() const {
  std::vector<std::string> out;
  for (const auto& kv : by_kind_) out.push_back(kv.first);
  return out;
}

}  // namespace jetperf::jobs
