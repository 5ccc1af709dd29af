#pragma once
// The model zoo: C++ builders reproducing torchvision's architectures exactly, for the 23
// networks of the seed study, with torchvision's published parameter counts and GFLOPS.
#include <cstdint>
#include <string>
#include <vector>

#include <jetperf/models/network.hpp>

namespace jetperf::models {

struct zoo_entry {
  std::string name;                  ///< torchvision's function name ("resnet50")
  network (*build)();                ///< builds it at 3x224x224 (build_model resizes it)
  std::int64_t published_params;     ///< torchvision weights meta "num_params"
  double published_gmacs;            ///< torchvision weights meta "_ops" (GFLOPS as torchvision counts them: conv + linear MACs)
  std::int64_t published_resolution = 224;  ///< the crop size "_ops" was measured at (efficientnet_b1 240, b2 288)
};

/// Every zoo network, sorted by name.
const std::vector<zoo_entry>& zoo();
/// The entry named `name`, or nullptr.
const zoo_entry* find_model(const std::string& name);
/// "alexnet, densenet121, ...": every zoo name, for messages that list the valid ones.
std::string zoo_names();
/// Builds `name`; throws std::invalid_argument naming the known models when it is not one.
network build_model(const std::string& name);
/// Builds `name` at `input_size` x `input_size` pixels; throws shape_error naming the first op
/// the size does not fit (every zoo network pools to a fixed size, so any size its convolutions
/// and pools leave non-empty works).
network build_model(const std::string& name, std::int64_t input_size);

// One builder per network (src/models/zoo_<family>.cpp).
network build_alexnet();
network build_densenet121();
network build_efficientnet_b0();
network build_efficientnet_b1();
network build_efficientnet_b2();
network build_mnasnet0_5();
network build_mnasnet1_0();
network build_mobilenet_v2();
network build_mobilenet_v3_large();
network build_mobilenet_v3_small();
network build_regnet_y_400mf();
network build_regnet_y_800mf();
network build_regnet_y_1_6gf();
network build_regnet_x_400mf();
network build_regnet_x_800mf();
network build_regnet_x_3_2gf();
network build_resnet18();
network build_resnet34();
network build_resnet50();
network build_resnet101();
network build_shufflenet_v2_x0_5();
network build_shufflenet_v2_x1_0();
network build_squeezenet1_0();

}  // namespace jetperf::models
