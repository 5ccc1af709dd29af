#include <jetperf/traces/iterations.hpp>

#include <algorithm>
#include <limits>

#include <jetperf/common/errors.hpp>

namespace jetperf::traces {

namespace {

// The outermost nodes among those whose event name is selected, in start order.
std::vector<std::uint32_t> outermost(const trace& t, const op_tree& tree, const std::vector<bool>& selected) {
  const auto chosen = [&](std::uint32_t n) { return selected[t.events[tree.nodes[n].event].name]; };
  std::vector<std::uint32_t> found;
  for (std::uint32_t n = 0; n < tree.nodes.size(); ++n) {
    if (!chosen(n)) continue;
    // A step inside a step (a label reused inside itself) is part of the outer one.
    bool nested = false;
    for (std::int32_t p = tree.nodes[n].parent; p >= 0 && !nested; p = tree.nodes[p].parent) nested = chosen(static_cast<std::uint32_t>(p));
    if (!nested) found.push_back(n);
  }
  std::sort(found.begin(), found.end(), [&](std::uint32_t a, std::uint32_t b) {
    return t.events[tree.nodes[a].event].ts_ns < t.events[tree.nodes[b].event].ts_ns;
  });
  return found;
}

// Which names of the trace's table the rule selects: the op's exact name, or the pattern's matches.
std::vector<bool> names_matching(const trace& t, const std::string& op, const std::string& pattern) {
  std::vector<bool> selected(t.names.size());
  for (std::size_t i = 0; i < t.names.size(); ++i)
    selected[i] = op.empty() ? matches_pattern(pattern, t.names[i]) : t.names[i] == op;
  return selected;
}

std::vector<iteration> to_iterations(const trace& t, const op_tree& tree, const std::vector<std::uint32_t>& nodes) {
  std::int64_t origin = std::numeric_limits<std::int64_t>::max();
  for (const auto& e : t.events) origin = std::min(origin, e.ts_ns);
  std::vector<iteration> out;
  out.reserve(nodes.size());
  for (std::uint32_t n : nodes) {
    const std::uint32_t index = tree.nodes[n].event;
    const trace_event& e = t.events[index];
    iteration it;
    it.name = t.name_of(e);
    it.start_us = static_cast<double>(e.ts_ns - origin) / 1000.0;
    it.duration_us = static_cast<double>(e.dur_ns) / 1000.0;
    it.event = index;
    out.push_back(std::move(it));
  }
  return out;
}

}  // namespace

const std::vector<std::string>& default_step_patterns() {
  static const std::vector<std::string> patterns{"ProfilerStep#*", "## iteration * ##"};
  return patterns;
}

bool matches_pattern(std::string_view pattern, std::string_view name) {
  // Greedy with one backtrack point (the last '*'): linear in practice, at worst their product.
  std::size_t p = 0, n = 0, star = std::string_view::npos, resume = 0;
  while (n < name.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || (pattern[p] != '*' && pattern[p] == name[n]))) {
      ++p;
      ++n;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = n;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      n = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

found_iterations find_iterations(const trace& t, const op_tree& tree, const iteration_rule& rule) {
  if (!rule.op.empty() && !rule.label.empty())
    throw validation_error("iteration_label", "give iteration_op or iteration_label, not both");
  if (rule.label.size() > k_max_iteration_pattern)
    throw validation_error("iteration_label", "the pattern has " + std::to_string(rule.label.size()) +
                                                  " characters, more than " + std::to_string(k_max_iteration_pattern));
  found_iterations out;
  if (!rule.op.empty() || !rule.label.empty()) {
    out.source = rule.op.empty() ? rule.label : rule.op;
    out.iterations = to_iterations(t, tree, outermost(t, tree, names_matching(t, rule.op, rule.label)));
    return out;
  }
  for (const auto& pattern : default_step_patterns()) {
    out.iterations = to_iterations(t, tree, outermost(t, tree, names_matching(t, "", pattern)));
    if (!out.iterations.empty()) {
      out.source = pattern == default_step_patterns().front() ? "ProfilerStep" : pattern;
      return out;
    }
  }
  out.source = "ProfilerStep";
  return out;
}

}  // namespace jetperf::traces
