// Containment on each thread, with torch's rule (EventList._populate_cpu_children), and the
// per-op totals read from the tree.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <jetperf/traces/kernel_links.hpp>
#include <jetperf/traces/op_totals.hpp>
#include <jetperf/traces/op_tree.hpp>
#include <jetperf/traces/trace_reader.hpp>

namespace jetperf::traces {
namespace {

// One CPU event per (name, tid, ts, dur), in the given order.
struct ev {
  const char* name;
  int tid;
  double ts, dur;
};

trace make(const std::vector<ev>& events) {
  std::string json = "[";
  for (const auto& e : events) {
    if (json.size() > 1) json += ",";
    json += R"({"ph":"X","cat":"cpu_op","pid":1,"name":")" + std::string(e.name) + R"(","tid":)" + std::to_string(e.tid) +
            R"(,"ts":)" + std::to_string(e.ts) + R"(,"dur":)" + std::to_string(e.dur) + "}";
  }
  return parse_trace(json + "]");
}

// The parent's name of the event named `name` ("" for a root).
std::string parent_of(const trace& t, const op_tree& tree, const std::string& name) {
  for (const auto& n : tree.nodes) {
    if (t.name_of(t.events[n.event]) != name) continue;
    return n.parent < 0 ? "" : t.name_of(t.events[tree.nodes[n.parent].event]);
  }
  ADD_FAILURE() << "no event " << name;
  return "?";
}

const op_total& row(const std::vector<op_total>& rows, const std::string& key) {
  for (const auto& r : rows)
    if (r.key == key) return r;
  static const op_total none{};
  ADD_FAILURE() << "no row " << key;
  return none;
}

TEST(op_tree, nesting_follows_containment) {
  const trace t = make({{"outer", 1, 0, 100}, {"a", 1, 10, 20}, {"a_in", 1, 12, 5}, {"b", 1, 40, 60}});
  const op_tree tree = build_op_tree(t);
  EXPECT_EQ(parent_of(t, tree, "outer"), "");
  EXPECT_EQ(parent_of(t, tree, "a"), "outer");
  EXPECT_EQ(parent_of(t, tree, "a_in"), "a");
  EXPECT_EQ(parent_of(t, tree, "b"), "outer");  // ends exactly where outer ends
  EXPECT_EQ(tree.roots.size(), 1u);
  EXPECT_EQ(tree.partial_overlaps, 0u);
}

TEST(op_tree, equal_intervals_nest_in_file_order) {
  const trace t = make({{"first", 1, 5, 10}, {"second", 1, 5, 10}, {"third", 1, 5, 10}});
  const op_tree tree = build_op_tree(t);
  EXPECT_EQ(parent_of(t, tree, "first"), "");
  EXPECT_EQ(parent_of(t, tree, "second"), "first");
  EXPECT_EQ(parent_of(t, tree, "third"), "second");
}

TEST(op_tree, the_longer_of_two_events_with_one_start_is_the_parent_whatever_the_file_order) {
  const trace t = make({{"short", 1, 5, 3}, {"long", 1, 5, 10}});
  const op_tree tree = build_op_tree(t);
  EXPECT_EQ(parent_of(t, tree, "short"), "long");
}

TEST(op_tree, zero_length_events) {
  const trace t = make({{"p", 1, 10, 10},
                        {"at_start", 1, 10, 0},
                        {"inside", 1, 15, 0},
                        {"at_end", 1, 20, 0},
                        {"z", 1, 30, 0},
                        {"after_z", 1, 30, 0}});
  const op_tree tree = build_op_tree(t);
  EXPECT_EQ(parent_of(t, tree, "at_start"), "p");
  EXPECT_EQ(parent_of(t, tree, "inside"), "p");
  // [start, end) of the child must start before the parent ends: one at the end is a sibling.
  EXPECT_EQ(parent_of(t, tree, "at_end"), "");
  // A zero-length event holds nothing, not even another zero-length event at the same time.
  EXPECT_EQ(parent_of(t, tree, "after_z"), "");
  const auto totals = compute_op_totals(t, tree, link_kernels(t));
  EXPECT_DOUBLE_EQ(row(totals, "p").self_cpu_us, 10.0);
  EXPECT_DOUBLE_EQ(row(totals, "at_end").cpu_total_us, 0.0);
}

TEST(op_tree, threads_do_not_nest_into_each_other) {
  const trace t = make({{"main", 1, 0, 100}, {"worker", 2, 10, 10}, {"main_child", 1, 10, 10}});
  const op_tree tree = build_op_tree(t);
  EXPECT_EQ(parent_of(t, tree, "worker"), "");
  EXPECT_EQ(parent_of(t, tree, "main_child"), "main");
  ASSERT_EQ(tree.roots.size(), 2u);
  // Roots of all threads in start order.
  EXPECT_EQ(t.name_of(t.events[tree.nodes[tree.roots[0]].event]), "main");
  EXPECT_EQ(t.name_of(t.events[tree.nodes[tree.roots[1]].event]), "worker");
  const auto totals = compute_op_totals(t, tree, link_kernels(t));
  EXPECT_DOUBLE_EQ(row(totals, "main").self_cpu_us, 90.0);  // the worker's 10 us are not main's
}

TEST(op_tree, a_partial_overlap_is_counted_not_nested) {
  const trace t = make({{"a", 1, 0, 10}, {"b", 1, 5, 10}, {"c", 1, 6, 2}});
  const op_tree tree = build_op_tree(t);
  EXPECT_EQ(parent_of(t, tree, "b"), "");
  EXPECT_EQ(parent_of(t, tree, "c"), "b");
  EXPECT_EQ(tree.partial_overlaps, 1u);
}

TEST(op_totals, self_time_count_and_profiler_steps_as_torch_keys_them) {
  const trace t = make({{"ProfilerStep#4", 1, 0, 100},
                        {"aten::linear", 1, 10, 30},
                        {"aten::addmm", 1, 12, 20},
                        {"aten::linear", 1, 50, 40},
                        {"aten::addmm", 1, 55, 30},
                        {"ProfilerStep#5", 1, 100, 50}});
  const auto totals = compute_op_totals(t, build_op_tree(t), link_kernels(t));
  ASSERT_EQ(totals.size(), 3u);
  EXPECT_EQ(totals[0].key, "ProfilerStep*");  // largest CPU total first
  EXPECT_EQ(totals[0].count, 2u);
  EXPECT_DOUBLE_EQ(totals[0].cpu_total_us, 150.0);
  EXPECT_DOUBLE_EQ(totals[0].self_cpu_us, 150.0 - 70.0);
  EXPECT_EQ(row(totals, "aten::linear").count, 2u);
  EXPECT_DOUBLE_EQ(row(totals, "aten::linear").cpu_total_us, 70.0);
  EXPECT_DOUBLE_EQ(row(totals, "aten::linear").self_cpu_us, 20.0);
  EXPECT_DOUBLE_EQ(row(totals, "aten::addmm").self_cpu_us, 50.0);
}

TEST(op_totals, an_only_child_of_the_same_name_counts_once) {
  // torch's _remove_dup_nodes: x holding only x counts as one x of the outer interval.
  const trace t = make({{"x", 1, 0, 10}, {"x", 1, 1, 8}, {"y", 1, 2, 3}, {"z", 1, 20, 10}, {"z", 1, 21, 2}, {"w", 1, 24, 2}});
  const auto totals = compute_op_totals(t, build_op_tree(t), link_kernels(t));
  EXPECT_EQ(row(totals, "x").count, 1u);
  EXPECT_DOUBLE_EQ(row(totals, "x").cpu_total_us, 10.0);
  EXPECT_DOUBLE_EQ(row(totals, "x").self_cpu_us, 7.0);
  // z has two children: the inner z stays a row of its own.
  EXPECT_EQ(row(totals, "z").count, 2u);
  EXPECT_DOUBLE_EQ(row(totals, "z").self_cpu_us, 10.0 - 4.0 + 2.0);
}

}  // namespace
}  // namespace jetperf::traces
