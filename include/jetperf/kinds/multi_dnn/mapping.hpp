#pragma once
// A multi-DNN mapping as seed 001 writes it: the networks that run at once, each cut at block
// boundaries into stages, each stage on a device. In {"resnet50": {"8": "cpu", "22": "cuda"}} a
// stage covers the blocks after the previous split up to and including its index (1-based), so
// {numLayers: device} is the whole network on one device and the last index is always the
// network's block count.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <jetperf/common/cell.hpp>

namespace jetperf::kinds {

/// Networks one mapping may run at once (each is a thread, and a copy of its weights).
constexpr std::size_t k_max_mapping_networks = 16;

struct mapping_stage {
  int split = 0;       ///< the seed's index: the stage ends after block `split` (1-based)
  std::string device;  ///< "cpu" or "cuda"
};

struct network_mapping {
  std::string network;
  std::vector<mapping_stage> stages;  ///< increasing splits; the last is the network's block count
  bool split() const { return stages.size() > 1; }
  /// Blocks [first, last) of stage `i` (0-based block indices).
  int first_block(std::size_t i) const { return i == 0 ? 0 : stages[i - 1].split; }
  int last_block(std::size_t i) const { return stages[i].split; }
};

struct mapping {
  std::vector<network_mapping> networks;  ///< each network once, in name order
};

/// What a mapping may name: the networks with their block counts, and the devices this build and
/// board run (anything else is refused, naming why).
struct mapping_rules {
  std::map<std::string, int> blocks;  ///< network -> block count
  /// network -> the block boundaries a split may use (1..blocks-1): those where the rest of the
  /// network reads nothing but the one tensor the blocks before leave (absent: every boundary)
  std::map<std::string, std::vector<int>> cuts;
  std::vector<std::string> devices;   ///< "cpu", and "cuda" where the build and the board have one
  std::string missing_cuda;           ///< why "cuda" is not among them ("" when it is)
};

/// The seed's case classes: "A" one network, "B" every stage on the GPU, "C" every network whole
/// on one device (not all GPU), "D" at least one network split across devices.
std::string mapping_class(const mapping& m);

/// Parses and validates a mapping in the seed's form; every error is a validation_error whose
/// field is `field` + ".<network>" or ".<network>.<index>" (unknown network, an index that is
/// not a decimal integer, out of range, or leaves the network's end unmapped, a device not
/// offered, a split whose stage needs more than the tensor the previous stage leaves). Two
/// adjacent stages may share a device: a pipeline cut on one device.
mapping parse_mapping(const cell& value, const mapping_rules& rules, const std::string& field);

/// The seed's form, {"<network>": {"<split>": "<device>"}}, networks in the mapping's order (a
/// point's stored "mapping", an explicit mapping of a stored spec).
record mapping_record(const mapping& m);
/// A mapping in the seed's form read back (trusted: it was validated at submission).
mapping mapping_of_record(const record& seed_form);

/// A canonical text of the mapping ("alexnet:21=cuda;resnet18:5=cpu,14=cuda"), for finding
/// duplicates and labelling rows.
std::string mapping_key(const mapping& m);

}  // namespace jetperf::kinds
