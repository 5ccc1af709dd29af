#include <jetperf/traces/op_totals.hpp>

#include <algorithm>
#include <unordered_map>

namespace jetperf::traces {

std::string op_key(const std::string& name) {
  static const std::string k_step = "ProfilerStep#";
  return name.compare(0, k_step.size(), k_step) == 0 ? "ProfilerStep*" : name;
}

std::vector<op_total> compute_op_totals(const trace& t, const op_tree& tree, const kernel_links& links) {
  const std::size_t n_nodes = tree.nodes.size();
  const auto event_of = [&](std::size_t n) -> const trace_event& { return t.events[tree.nodes[n].event]; };

  // torch's _remove_dup_nodes: the only child of a parent with its own name is folded into the
  // parent (which keeps its own interval). Parents come before their children in `nodes`.
  std::vector<bool> folded(n_nodes, false);
  std::vector<std::uint32_t> rep(n_nodes);
  for (std::uint32_t n = 0; n < n_nodes; ++n) {
    const std::int32_t p = tree.nodes[n].parent;
    folded[n] = p >= 0 && tree.nodes[p].children.size() == 1 && event_of(p).name == event_of(n).name;
    rep[n] = folded[n] ? rep[p] : n;
  }

  std::vector<double> self_ns(n_nodes, 0), device_total(n_nodes, 0), device_self(n_nodes, 0);
  for (std::uint32_t n = 0; n < n_nodes; ++n) {
    if (folded[n]) continue;
    self_ns[n] += static_cast<double>(event_of(n).dur_ns);
    if (tree.nodes[n].parent >= 0) self_ns[rep[tree.nodes[n].parent]] -= static_cast<double>(event_of(n).dur_ns);
  }
  // A kernel belongs to the op around the runtime call that launched it (as torch attaches it to
  // the op, not the call), and to every op above that one.
  for (const kernel_link& k : links.links) {
    const std::int32_t launch = tree.node_of_event[k.launch_event];
    if (launch < 0) continue;
    const double dur = static_cast<double>(t.events[k.device_event].dur_ns);
    const std::int32_t parent = tree.nodes[launch].parent;
    const std::uint32_t owner = rep[parent >= 0 ? static_cast<std::uint32_t>(parent) : static_cast<std::uint32_t>(launch)];
    device_self[owner] += dur;
    for (std::int32_t a = static_cast<std::int32_t>(owner); a >= 0; a = tree.nodes[a].parent)
      if (!folded[a]) device_total[a] += dur;
  }

  std::unordered_map<std::string, std::size_t> row_of;
  std::vector<op_total> rows;
  for (std::uint32_t n = 0; n < n_nodes; ++n) {
    if (folded[n]) continue;
    const std::string key = op_key(t.name_of(event_of(n)));
    auto [it, inserted] = row_of.emplace(key, rows.size());
    if (inserted) {
      rows.push_back({key});
      rows.back().label = event_of(n).category == event_category::user_annotation;
    }
    op_total& r = rows[it->second];
    ++r.count;
    r.cpu_total_us += static_cast<double>(event_of(n).dur_ns) / 1000.0;
    r.self_cpu_us += self_ns[n] / 1000.0;
    r.device_total_us += device_total[n] / 1000.0;
    r.device_self_us += device_self[n] / 1000.0;
  }
  std::sort(rows.begin(), rows.end(), [](const op_total& a, const op_total& b) {
    return a.cpu_total_us != b.cpu_total_us ? a.cpu_total_us > b.cpu_total_us : a.key < b.key;
  });
  return rows;
}

std::vector<kernel_total> compute_kernel_totals(const trace& t) {
  std::unordered_map<std::uint32_t, std::size_t> row_of;
  std::vector<kernel_total> rows;
  for (const trace_event& e : t.events) {
    if (!is_device(e.category)) continue;
    const double dur = static_cast<double>(e.dur_ns) / 1000.0;
    auto [it, inserted] = row_of.emplace(e.name, rows.size());
    if (inserted) {
      const char* kind = e.category == event_category::kernel ? "kernel"
                         : e.category == event_category::memcpy ? "memcpy"
                                                                : "memset";
      rows.push_back({t.name_of(e), kind, 0, 0, dur, dur});
    }
    kernel_total& r = rows[it->second];
    ++r.count;
    r.total_us += dur;
    r.min_us = std::min(r.min_us, dur);
    r.max_us = std::max(r.max_us, dur);
  }
  std::sort(rows.begin(), rows.end(), [](const kernel_total& a, const kernel_total& b) {
    return a.total_us != b.total_us ? a.total_us > b.total_us : a.name < b.name;
  });
  return rows;
}

}  // namespace jetperf::traces
