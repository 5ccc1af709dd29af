#include <jetperf/traces/op_tree.hpp>

#include <algorithm>
#include <numeric>

namespace jetperf::traces {

namespace {

// Start first, then the longest (the would-be parent before what it holds), then file order so
// that equal intervals nest the same way on every run.
bool starts_before(const trace& t, std::uint32_t a, std::uint32_t b) {
  const trace_event& x = t.events[a];
  const trace_event& y = t.events[b];
  if (x.ts_ns != y.ts_ns) return x.ts_ns < y.ts_ns;
  if (x.end_ns() != y.end_ns()) return x.end_ns() > y.end_ns();
  return a < b;
}

}  // namespace

op_tree build_op_tree(const trace& t) {
  op_tree tree;
  tree.node_of_event.assign(t.events.size(), -1);

  std::vector<std::uint32_t> host;
  for (std::uint32_t i = 0; i < t.events.size(); ++i)
    if (is_host(t.events[i].category)) host.push_back(i);
  // By thread, then in start order: one pass per thread with a stack of open events.
  std::sort(host.begin(), host.end(), [&](std::uint32_t a, std::uint32_t b) {
    if (t.events[a].thread != t.events[b].thread) return t.events[a].thread < t.events[b].thread;
    return starts_before(t, a, b);
  });

  tree.nodes.reserve(host.size());
  std::vector<std::uint32_t> open;
  std::uint32_t thread = 0;
  for (std::uint32_t e : host) {
    const trace_event& ev = t.events[e];
    if (tree.nodes.empty() || ev.thread != thread) {
      open.clear();
      thread = ev.thread;
    }
    const auto node = static_cast<std::uint32_t>(tree.nodes.size());
    tree.nodes.push_back({e, -1, {}});
    tree.node_of_event[e] = static_cast<std::int32_t>(node);
    while (!open.empty()) {
      const trace_event& p = t.events[tree.nodes[open.back()].event];
      // torch's test: [start, end) of the child inside [start, end] of the parent.
      if (ev.ts_ns >= p.end_ns() || ev.end_ns() > p.end_ns()) {
        if (ev.ts_ns < p.end_ns()) ++tree.partial_overlaps;
        open.pop_back();
        continue;
      }
      tree.nodes[node].parent = static_cast<std::int32_t>(open.back());
      tree.nodes[open.back()].children.push_back(node);
      break;
    }
    if (tree.nodes[node].parent < 0) tree.roots.push_back(node);
    open.push_back(node);
  }
  // The seed walks the roots of every thread as one list in start order.
  std::stable_sort(tree.roots.begin(), tree.roots.end(), [&](std::uint32_t a, std::uint32_t b) {
    return starts_before(t, tree.nodes[a].event, tree.nodes[b].event);
  });
  return tree;
}

}  // namespace jetperf::traces
