#pragma once
// The host events of a trace as a forest: on each (pid, tid) thread an event is the child of the
// innermost event whose interval holds it. The rule is torch's own (EventList._populate_cpu_children):
// child c of p when p.start <= c.start < p.end and c.end <= p.end, events taken in order of start,
// then longest first. So two events with equal start and end nest (the first in the file is the
// parent), a zero-length event at another's end is its sibling, and an event partly overlapping
// another is not its child (counted in partial_overlaps).
#include <cstddef>
#include <cstdint>
#include <vector>

#include <jetperf/traces/trace.hpp>

namespace jetperf::traces {

struct op_node {
  std::uint32_t event = 0;               ///< index into trace::events
  std::int32_t parent = -1;              ///< node index, -1 for a root
  std::vector<std::uint32_t> children;   ///< node indices, in start order
};

struct op_tree {
  std::vector<op_node> nodes;
  std::vector<std::uint32_t> roots;          ///< roots of every thread, in start order
  std::vector<std::int32_t> node_of_event;   ///< event index -> node index, -1 for non-host events
  std::size_t partial_overlaps = 0;          ///< events that overlapped the open event without fitting in it
};

/// Builds the forest of the host events (cpu_op, user_annotation, runtime, driver).
op_tree build_op_tree(const trace& t);

}  // namespace jetperf::traces
