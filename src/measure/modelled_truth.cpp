#include <jetperf/measure/modelled_truth.hpp>

#include <jetperf/measure/point_columns.hpp>

namespace jetperf::measure {

modelled_truth::modelled_truth(const platform::board_fidelity* fidelity, std::size_t items)
    : fidelity_(fidelity), tallies_(items) {}

void modelled_truth::add(std::size_t item, std::vector<platform::time_span> spans) {
  if (!fidelity_ || item >= tallies_.size() || spans.empty()) return;
  pending_.emplace_back(item, std::move(spans));
}

void modelled_truth::flush() { flush_all_but(0); }

void modelled_truth::flush_all_but(std::size_t keep) {
  if (pending_.size() <= keep) return;
  const auto upto = pending_.size() - keep;
  for (std::size_t k = 0; k < upto; ++k) {
    const auto& [item, spans] = pending_[k];
    const auto m = fidelity_->modelled(spans);
    if (!m) continue;
    auto& t = tallies_[item];
    t.energy += m->power_w * m->seconds;
    t.dynamic_energy += m->dynamic_w * m->seconds;
    t.seconds += m->seconds;
  }
  pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(upto));
}

std::optional<platform::modelled_power> modelled_truth::of(std::size_t item) const {
  return of(std::vector<std::size_t>{item});
}

std::optional<platform::modelled_power> modelled_truth::of(const std::vector<std::size_t>& items) const {
  tally sum;
  for (auto i : items) {
    if (i >= tallies_.size()) continue;
    sum.energy += tallies_[i].energy;
    sum.dynamic_energy += tallies_[i].dynamic_energy;
    sum.seconds += tallies_[i].seconds;
  }
  if (!(sum.seconds > 0)) return std::nullopt;
  return platform::modelled_power{sum.energy / sum.seconds, sum.dynamic_energy / sum.seconds, sum.seconds};
}

void put_modelled(row& metrics, const std::optional<platform::modelled_power>& m) {
  metrics.set(cols::sim_power_w, m ? std::optional<double>(m->power_w) : std::nullopt);
  metrics.set(cols::sim_dynamic_w, m ? std::optional<double>(m->dynamic_w) : std::nullopt);
}

void put_modelled(row& metrics, const point_context& ctx, std::int64_t from_ns, std::int64_t to_ns) {
  if (!ctx.fidelity || to_ns <= from_ns) return;
  put_modelled(metrics, ctx.fidelity->modelled({{from_ns, to_ns}}));
}

}  // namespace jetperf::measure
