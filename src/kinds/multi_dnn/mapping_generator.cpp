#include <jetperf/kinds/multi_dnn/mapping_generator.hpp>

#include <algorithm>
#include <set>

namespace jetperf::kinds {

std::uint64_t splitmix64::next() {
  std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

namespace {

// A device drawn with the priorities' odds, among those not excluded (the device of the stage
// before); "" when every device is excluded.
std::string draw_device(splitmix64& rng, const std::vector<std::pair<std::string, double>>& priorities,
                        const std::string& excluded = {}) {
  double total = 0;
  for (const auto& [d, w] : priorities)
    if (d != excluded) total += w;
  if (total <= 0) return {};
  double u = rng.unit() * total;
  std::string last;
  for (const auto& [d, w] : priorities) {
    if (d == excluded || w <= 0) continue;
    last = d;
    if (u < w) return d;
    u -= w;
  }
  return last;  // rounding at the very top of the range
}

// k distinct items of `pool` (a partial Fisher-Yates shuffle), in name order.
std::vector<std::string> draw_set(splitmix64& rng, std::vector<std::string> pool, std::size_t k) {
  for (std::size_t i = 0; i < k; ++i) std::swap(pool[i], pool[i + rng.below(pool.size() - i)]);
  pool.resize(k);
  std::sort(pool.begin(), pool.end());
  return pool;
}

// The block boundaries `net` may be split at.
std::vector<int> cuts_of(const mapping_rules& rules, const std::string& net) {
  const auto it = rules.cuts.find(net);
  if (it != rules.cuts.end()) return it->second;
  std::vector<int> all;
  for (int b = 1; b < rules.blocks.at(net); ++b) all.push_back(b);
  return all;
}

network_mapping whole(const std::string& net, int blocks, const std::string& device) {
  return {net, {{blocks, device}}};
}

// One network cut in two at a random boundary, the first stage's device drawn, the second's
// drawn among the others (one stage per device, as the seed's stageSummary, keyed by device,
// holds them); on a board with one device, a pipeline of two stages on it.
network_mapping split_network(splitmix64& rng, const generator_options& o, const mapping_rules& rules,
                              const std::string& net) {
  auto cuts = cuts_of(rules, net);
  const std::size_t stages = std::min<std::size_t>(2, cuts.size() + 1);
  for (std::size_t i = 0; i + 1 < stages; ++i) std::swap(cuts[i], cuts[i + rng.below(cuts.size() - i)]);
  cuts.resize(stages - 1);
  std::sort(cuts.begin(), cuts.end());
  cuts.push_back(rules.blocks.at(net));
  network_mapping n{net, {}};
  std::string device = draw_device(rng, o.device_priorities);
  for (const int c : cuts) {
    n.stages.push_back({c, device});
    if (auto other = draw_device(rng, o.device_priorities, device); !other.empty()) device = other;
  }
  return n;
}

mapping random_mapping(splitmix64& rng, const generator_options& o, const mapping_rules& rules,
                       const std::vector<std::string>& nets) {
  // A split needs a boundary to cut at.
  std::vector<std::size_t> splittable;
  for (std::size_t i = 0; i < nets.size(); ++i)
    if (!cuts_of(rules, nets[i]).empty()) splittable.push_back(i);
  std::size_t budget = splittable.size();
  if (o.max_split_networks >= 0) budget = std::min<std::size_t>(budget, static_cast<std::size_t>(o.max_split_networks));
  const std::size_t split_count = rng.below(budget + 1);
  for (std::size_t i = 0; i < split_count; ++i)
    std::swap(splittable[i], splittable[i + rng.below(splittable.size() - i)]);
  std::set<std::size_t> to_split(splittable.begin(), splittable.begin() + static_cast<std::ptrdiff_t>(split_count));
  mapping m;
  for (std::size_t i = 0; i < nets.size(); ++i)
    m.networks.push_back(to_split.count(i) ? split_network(rng, o, rules, nets[i])
                                           : whole(nets[i], rules.blocks.at(nets[i]), draw_device(rng, o.device_priorities)));
  return m;
}

bool offers(const generator_options& o, const std::string& device) {
  for (const auto& p : o.device_priorities)
    if (p.first == device && p.second > 0) return true;
  return false;
}

}  // namespace

std::vector<generated_mapping> generate_mappings(const generator_options& o, const mapping_rules& rules) {
  splitmix64 rng(o.seed);
  std::vector<generated_mapping> out;
  if (o.single_networks)
    for (const auto& net : o.networks)
      for (const auto& p : o.device_priorities)
        if (p.second > 0) {
          mapping m{{whole(net, rules.blocks.at(net), p.first)}};
          out.push_back({m, mapping_class(m), -1});
        }
  std::int64_t set = 0;
  const auto top = std::min<std::int64_t>(o.max_networks, static_cast<std::int64_t>(o.networks.size()));
  for (std::int64_t count = o.min_networks; count <= top; ++count) {
    for (std::int64_t s = 0; s < o.sets; ++s, ++set) {
      const auto nets = draw_set(rng, o.networks, static_cast<std::size_t>(count));
      if (o.gpu_only_maps && offers(o, "cuda")) {
        mapping m;
        for (const auto& n : nets) m.networks.push_back(whole(n, rules.blocks.at(n), "cuda"));
        out.push_back({m, mapping_class(m), set});
      }
      // Independent draws, as the seed's: keeping only distinct ones would bend the device odds
      // towards equal shares wherever a set has few mappings, so a small set may repeat one.
      for (std::int64_t k = 0; k < o.samples; ++k) {
        auto m = random_mapping(rng, o, rules, nets);
        out.push_back({m, mapping_class(m), set});
      }
    }
  }
  return out;
}

}  // namespace jetperf::kinds
