#include <jetperf/traces/host_overheads.hpp>

#include <algorithm>
#include <utility>

namespace jetperf::traces {

namespace {

bool listed(const std::vector<std::string>& list, const std::string& name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

bool is_label(const std::string& name, const overhead_model& model) {
  for (const auto& m : model.module_markers)
    if (name.compare(0, m.size(), m) == 0) return true;
  return false;
}

double us(std::int64_t ns) { return static_cast<double>(ns) / 1000.0; }

// What the notebook reads of one op: its launches, each with the number of events since the
// previous one (trace_utils.py get_event_all_kernel_launches, then the notebook's filter to
// launch_names), and the events in it (get_sub_event_count).
struct op_launches {
  std::vector<std::pair<std::uint32_t, std::int64_t>> launches;  // (node, events before it)
  std::int64_t sub_events = 0;
};

op_launches read_launches(const trace& t, const op_tree& tree, std::uint32_t op, const overhead_model& model) {
  op_launches out;
  const auto name = [&](std::uint32_t n) -> const std::string& { return t.name_of(t.events[tree.nodes[n].event]); };

  // get_sub_event_count: the op and every descendant, except skipped runtime calls (and what is
  // under them). Iterative: a trace may nest deeper than the stack allows recursion.
  std::vector<std::uint32_t> stack{op};
  while (!stack.empty()) {
    const std::uint32_t n = stack.back();
    stack.pop_back();
    ++out.sub_events;
    for (std::uint32_t c : tree.nodes[n].children)
      if (!listed(model.skipped_runtime_names, name(c))) stack.push_back(c);
  }

  // get_event_all_kernel_launches: every descendant in pre-order adds one to the count; a leaf
  // runtime call (not skipped) takes the count minus itself and restarts it.
  std::vector<std::pair<std::uint32_t, std::int64_t>> leaves;
  std::int64_t count = 0;
  const auto& top = tree.nodes[op].children;
  for (auto it = top.rbegin(); it != top.rend(); ++it) stack.push_back(*it);
  while (!stack.empty()) {
    const std::uint32_t n = stack.back();
    stack.pop_back();
    ++count;
    const op_node& node = tree.nodes[n];
    if (node.children.empty()) {
      if (is_runtime(t.events[node.event].category) && !listed(model.skipped_runtime_names, name(n))) {
        leaves.emplace_back(n, count - 1);
        count = 0;
      }
      continue;
    }
    for (auto it = node.children.rbegin(); it != node.children.rend(); ++it) stack.push_back(*it);
  }

  // The notebook keeps the launches proper; the events before a runtime call that is not one
  // carry over to the next launch (the call itself is not counted).
  std::int64_t carried = 0;
  for (const auto& [n, before] : leaves) {
    carried += before;
    if (listed(model.launch_names, name(n))) {
      out.launches.emplace_back(n, carried);
      carried = 0;
    }
  }
  return out;
}

}  // namespace

std::vector<std::uint32_t> seed_operators(const trace& t, const op_tree& tree, const overhead_model& model) {
  std::vector<std::uint32_t> ops;
  std::vector<std::uint32_t> stack(tree.roots.rbegin(), tree.roots.rend());
  while (!stack.empty()) {
    const std::uint32_t n = stack.back();
    stack.pop_back();
    const trace_event& e = t.events[tree.nodes[n].event];
    if (e.category == event_category::cpu_op && !is_label(t.name_of(e), model)) {
      ops.push_back(n);
      continue;
    }
    const auto& children = tree.nodes[n].children;
    for (auto it = children.rbegin(); it != children.rend(); ++it) stack.push_back(*it);
  }
  return ops;
}

host_overheads compute_host_overheads(const trace& t, const op_tree& tree, const overhead_model& model) {
  return compute_host_overheads(t, tree, model, seed_operators(t, tree, model));
}

host_overheads compute_host_overheads(const trace& t, const op_tree& tree, const overhead_model& model,
                                      const std::vector<std::uint32_t>& ops) {
  const double cpu = model.cpu_event_overhead_us;
  const double t4_value = model.kernel_launch_length_us - cpu - model.gpu_event_overhead_us;

  std::vector<double> t1;
  std::map<std::string, std::vector<double>> t2, t3, t4, t5;
  host_overheads out;
  out.ops = ops.size();
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const op_node& node = tree.nodes[ops[i]];
    const trace_event& op = t.events[node.event];
    const std::string& name = t.name_of(op);
    const op_launches l = read_launches(t, tree, ops[i], model);

    if (!l.launches.empty()) {
      const trace_event& first = t.events[tree.nodes[l.launches.front().first].event];
      const trace_event& last = t.events[tree.nodes[l.launches.back().first].event];
      t2[name].push_back(us(first.ts_ns - op.ts_ns) - static_cast<double>(l.launches.front().second) * cpu);
      std::int64_t trailing = l.sub_events;
      for (const auto& launch : l.launches) trailing -= launch.second + 1;
      t3[name].push_back(us(op.end_ns() - last.end_ns()) - static_cast<double>(trailing) * cpu);
      if (l.launches.size() > 1) {
        for (std::size_t k = 1; k < l.launches.size(); ++k) {
          const trace_event& a = t.events[tree.nodes[l.launches[k - 1].first].event];
          const trace_event& b = t.events[tree.nodes[l.launches[k].first].event];
          t5[name].push_back(us(b.ts_ns - a.end_ns()) - static_cast<double>(l.launches[k].second) * cpu);
        }
      } else {
        t5[name].push_back(0.0);
      }
      auto& listed_launches = out.launches[name];
      const bool first_seen = listed_launches.empty();
      for (const auto& launch : l.launches) {
        const std::string& launch_name = t.name_of(t.events[tree.nodes[launch.first].event]);
        t4[launch_name].push_back(t4_value);
        if (first_seen) listed_launches.push_back(launch_name);
      }
    } else {
      // An op that launches nothing: its CPU time less the profiler's share is one T5.
      if (listed(model.no_launch_skipped_ops, name)) continue;
      t5[name].push_back(us(op.dur_ns) - static_cast<double>(l.sub_events) * cpu);
    }

    if (i == 0) continue;
    const op_node& prev_node = tree.nodes[ops[i - 1]];
    const trace_event& prev = t.events[prev_node.event];
    // Adjacent ops under the same parent only. The seed's roots share the parent None whatever
    // their thread; here two roots pair only on one thread (a gap across threads is no overhead).
    if (prev_node.parent != node.parent) continue;
    if (node.parent < 0 && prev.thread != op.thread) continue;
    const double gap = us(op.ts_ns - prev.end_ns());
    if (gap < model.t1_max_gap_us) t1.push_back(gap - cpu);
  }

  out.t1 = summarize(t1);
  for (auto& [k, v] : t2) out.t2[k] = summarize(v);
  for (auto& [k, v] : t3) out.t3[k] = summarize(v);
  for (auto& [k, v] : t4) out.t4[k] = summarize(v);
  for (auto& [k, v] : t5) out.t5[k] = summarize(v);
  return out;
}

}  // namespace jetperf::traces
