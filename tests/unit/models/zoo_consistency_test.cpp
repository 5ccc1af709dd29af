// Invariants every zoo network must keep at both granularities, so that a layer-wise job can run
// each layer in isolation: layers tile the ops, a layer reads only other layers' outputs (with
// the shapes those produce), and the per-layer MACs/params/FLOPs add up to the network's.
// (Published params/MACs per entry are zoo_test.cpp's job.)
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <jetperf/models/network.hpp>
#include <jetperf/models/zoo.hpp>

using namespace jetperf::models;

namespace {

const std::vector<granularity>& both_granularities() {
  static const std::vector<granularity> all = {granularity::op, granularity::block};
  return all;
}

/// The external producers of ops [first, last) in first-use order, computed independently of
/// make_layer.
std::vector<int> external_inputs(const network& net, int first, int last) {
  std::vector<int> out;
  for (int i = first; i < last; ++i) {
    for (int src : net.ops[static_cast<std::size_t>(i)].inputs) {
      const bool inside = src >= first && src < last;
      if (!inside && std::find(out.begin(), out.end(), src) == out.end()) out.push_back(src);
    }
  }
  return out;
}

}  // namespace

TEST(zoo_consistency, ops_form_a_shape_consistent_graph) {
  for (const auto& entry : zoo()) {
    SCOPED_TRACE(entry.name);
    const network net = entry.build();
    EXPECT_EQ(net.name, entry.name);
    EXPECT_EQ(net.input_shape, (shape{3, 224, 224}));
    ASSERT_FALSE(net.ops.empty());
    std::set<std::string> names;
    for (std::size_t i = 0; i < net.ops.size(); ++i) {
      const op& o = net.ops[i];
      EXPECT_TRUE(names.insert(o.name).second) << "duplicate op name " << o.name;
      ASSERT_FALSE(o.inputs.empty()) << o.name;
      ASSERT_EQ(o.inputs.size(), o.input_shapes.size()) << o.name;
      for (std::size_t k = 0; k < o.inputs.size(); ++k) {
        const int src = o.inputs[k];
        ASSERT_TRUE(src == k_network_input || (src >= 0 && src < static_cast<int>(i))) << o.name;
        const shape& produced =
            src == k_network_input ? net.input_shape : net.ops[static_cast<std::size_t>(src)].output_shape;
        EXPECT_EQ(o.input_shapes[k], produced) << o.name << " input " << k;
      }
      EXPECT_GT(elements(o.output_shape), 0) << o.name;
    }
    EXPECT_EQ(net.ops.back().output_shape, (shape{1000}));
  }
}

TEST(zoo_consistency, layers_cover_every_op_exactly_once) {
  for (const auto& entry : zoo()) {
    const network net = entry.build();
    for (granularity g : both_granularities()) {
      SCOPED_TRACE(entry.name + " at " + to_string(g));
      const std::vector<layer> layers = layers_of(net, g);
      ASSERT_FALSE(layers.empty());
      EXPECT_EQ(layers.size(), g == granularity::op ? net.ops.size() : net.blocks.size());
      std::vector<int> covered(net.ops.size(), 0);
      int next = 0;
      std::set<std::string> names;
      for (std::size_t i = 0; i < layers.size(); ++i) {
        const layer& l = layers[i];
        EXPECT_EQ(l.index, static_cast<int>(i));
        EXPECT_EQ(l.first, next) << l.name;  // contiguous and in execution order
        ASSERT_LT(l.first, l.last) << l.name;
        ASSERT_LE(l.last, static_cast<int>(net.ops.size())) << l.name;
        for (int k = l.first; k < l.last; ++k) ++covered[static_cast<std::size_t>(k)];
        next = l.last;
        EXPECT_FALSE(l.name.empty());
        EXPECT_FALSE(l.type.empty()) << l.name;
        EXPECT_TRUE(names.insert(l.name).second) << "duplicate layer name " << l.name;
      }
      EXPECT_EQ(next, static_cast<int>(net.ops.size()));
      EXPECT_TRUE(std::all_of(covered.begin(), covered.end(), [](int c) { return c == 1; }));
    }
  }
}

TEST(zoo_consistency, layers_read_only_other_layers_outputs_with_their_shapes) {
  for (const auto& entry : zoo()) {
    const network net = entry.build();
    for (granularity g : both_granularities()) {
      SCOPED_TRACE(entry.name + " at " + to_string(g));
      const std::vector<layer> layers = layers_of(net, g);
      // Which layer each op belongs to.
      std::vector<int> owner(net.ops.size(), -1);
      for (const layer& l : layers) {
        for (int k = l.first; k < l.last; ++k) owner[static_cast<std::size_t>(k)] = l.index;
      }
      for (const layer& l : layers) {
        EXPECT_EQ(l.inputs, external_inputs(net, l.first, l.last)) << l.name;
        ASSERT_EQ(l.inputs.size(), l.input_shapes.size()) << l.name;
        ASSERT_FALSE(l.inputs.empty()) << l.name;
        EXPECT_EQ(l.output_shape, net.ops[static_cast<std::size_t>(l.last - 1)].output_shape) << l.name;
        for (std::size_t k = 0; k < l.inputs.size(); ++k) {
          const int src = l.inputs[k];
          if (src == k_network_input) {
            EXPECT_EQ(l.input_shapes[k], net.input_shape) << l.name;
            continue;
          }
          ASSERT_TRUE(src >= 0 && src < l.first) << l.name << " reads a later op " << src;
          // Run in isolation, a layer only sees what earlier layers output: their last op.
          const layer& producer = layers[static_cast<std::size_t>(owner[static_cast<std::size_t>(src)])];
          EXPECT_EQ(src, producer.last - 1) << l.name << " reads " << net.ops[static_cast<std::size_t>(src)].name
                                            << " inside layer " << producer.name;
          EXPECT_EQ(l.input_shapes[k], producer.output_shape) << l.name << " input " << k;
        }
      }
      EXPECT_EQ(layers.back().output_shape, (shape{1000}));
      // Only the network input feeds the first layer.
      EXPECT_EQ(layers.front().inputs, (std::vector<int>{k_network_input}));
    }
  }
}

TEST(zoo_consistency, layer_sums_equal_network_totals) {
  for (const auto& entry : zoo()) {
    const network net = entry.build();
    ASSERT_GT(net.macs(), 0) << entry.name;
    for (granularity g : both_granularities()) {
      SCOPED_TRACE(entry.name + " at " + to_string(g));
      std::int64_t macs = 0, params = 0, flops = 0;
      for (const layer& l : layers_of(net, g)) {
        macs += l.macs;
        params += l.params;
        flops += l.flops;
      }
      EXPECT_EQ(macs, net.macs());
      EXPECT_EQ(params, net.params());
      EXPECT_EQ(flops, net.flops());
    }
    const layer whole = whole_network(net);
    EXPECT_EQ(whole.macs, net.macs()) << entry.name;
    EXPECT_EQ(whole.output_shape, (shape{1000})) << entry.name;
  }
}
