#pragma once
// Seed 001's mapping generator (MappingDBGenerator.py's options): random sets of networks and,
// for each set, random mappings of them onto the devices, drawn from a seeded generator of our
// own (not std:: distributions, whose output differs between standard libraries) so that one
// seed gives the same mappings on every board, mode and build.
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <jetperf/kinds/multi_dnn/mapping.hpp>

namespace jetperf::kinds {

struct generator_options {
  std::vector<std::string> networks;          ///< the pool (names in mapping_rules::blocks)
  std::int64_t min_networks = 2, max_networks = 6;  ///< networks per mapping (the seed's numNetsRange)
  std::int64_t samples = 20;                  ///< mappings per set of networks (samples_per_set)
  std::int64_t sets = 1;                      ///< sets of networks drawn per network count
  /// (device, weight) with weights summing to 1 (device_priorities): the device of a whole
  /// network, and of the first stage of a split one, is drawn with these odds.
  std::vector<std::pair<std::string, double>> device_priorities;
  std::int64_t max_split_networks = -1;       ///< networks a mapping may split (-1: all)
  bool single_networks = false;               ///< also each network alone on each device (class A)
  bool gpu_only_maps = false;                 ///< also each set whole on the GPU (class B)
  std::uint64_t seed = 0;
};

struct generated_mapping {
  mapping m;
  std::string mapping_class;  ///< mapping_class(m)
  std::int64_t set = -1;      ///< which set of networks (-1: a single-network mapping)
};

/// Mapping sets drawn from `rules`' networks: single-network mappings first (when asked), then
/// for each network count in [min, max] `sets` sets, each with its GPU-only mapping (when asked)
/// and `samples` random mappings, drawn independently (a set with few mappings may repeat one).
/// Splits only at rules.cuts. Deterministic for a seed.
std::vector<generated_mapping> generate_mappings(const generator_options& options, const mapping_rules& rules);

/// SplitMix64: a tiny generator with a fixed output for a seed on every platform.
class splitmix64 {
 public:
  explicit splitmix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  /// Uniform in [0, n) (n > 0).
  std::uint64_t below(std::uint64_t n) { return next() % n; }
  /// Uniform in [0, 1).
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  std::uint64_t state_;
};

}  // namespace jetperf::kinds
