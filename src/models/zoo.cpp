// The zoo registry: every builder with torchvision's published figures.
#include <jetperf/models/zoo.hpp>

#include <algorithm>
#include <stdexcept>

#include <jetperf/models/network_builder.hpp>

namespace jetperf::models {

namespace {

// torchvision weights meta (IMAGENET1K_V1): "num_params" and "_ops" (GFLOPS as torchvision
// counts them, i.e. conv + linear multiply-accumulates). _ops is measured at each weight's crop
// size: 224 everywhere except efficientnet_b1 (240) and efficientnet_b2 (288).
std::vector<zoo_entry> make_zoo() {
  std::vector<zoo_entry> z = {
      {"alexnet", &build_alexnet, 61100840, 0.714},
      {"densenet121", &build_densenet121, 7978856, 2.834},
      {"efficientnet_b0", &build_efficientnet_b0, 5288548, 0.386},
      {"efficientnet_b1", &build_efficientnet_b1, 7794184, 0.687, 240},
      {"efficientnet_b2", &build_efficientnet_b2, 9109994, 1.088, 288},
      {"mnasnet0_5", &build_mnasnet0_5, 2218512, 0.104},
      {"mnasnet1_0", &build_mnasnet1_0, 4383312, 0.314},
      {"mobilenet_v2", &build_mobilenet_v2, 3504872, 0.301},
      {"mobilenet_v3_large", &build_mobilenet_v3_large, 5483032, 0.217},
      {"mobilenet_v3_small", &build_mobilenet_v3_small, 2542856, 0.057},
      {"regnet_x_3_2gf", &build_regnet_x_3_2gf, 15296552, 3.177},
      {"regnet_x_400mf", &build_regnet_x_400mf, 5495976, 0.414},
      {"regnet_x_800mf", &build_regnet_x_800mf, 7259656, 0.8},
      {"regnet_y_1_6gf", &build_regnet_y_1_6gf, 11202430, 1.612},
      {"regnet_y_400mf", &build_regnet_y_400mf, 4344144, 0.402},
      {"regnet_y_800mf", &build_regnet_y_800mf, 6432512, 0.834},
      {"resnet101", &build_resnet101, 44549160, 7.801},
      {"resnet18", &build_resnet18, 11689512, 1.814},
      {"resnet34", &build_resnet34, 21797672, 3.664},
      {"resnet50", &build_resnet50, 25557032, 4.089},
      {"shufflenet_v2_x0_5", &build_shufflenet_v2_x0_5, 1366792, 0.04},
      {"shufflenet_v2_x1_0", &build_shufflenet_v2_x1_0, 2278604, 0.145},
      {"squeezenet1_0", &build_squeezenet1_0, 1248424, 0.819},
  };
  std::sort(z.begin(), z.end(), [](const zoo_entry& a, const zoo_entry& b) { return a.name < b.name; });
  return z;
}

}  // namespace

const std::vector<zoo_entry>& zoo() {
  static const std::vector<zoo_entry> entries = make_zoo();
  return entries;
}

const zoo_entry* find_model(const std::string& name) {
  for (const auto& e : zoo()) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

std::string zoo_names() {
  std::string known;
  for (const auto& e : zoo()) known += (known.empty() ? "" : ", ") + e.name;
  return known;
}

network build_model(const std::string& name) {
  if (const zoo_entry* e = find_model(name)) return e->build();
  throw std::invalid_argument("unknown model \"" + name + "\"; known models: " + zoo_names());
}

network build_model(const std::string& name, std::int64_t input_size) {
  network net = build_model(name);
  if (net.input_shape.size() == 3 && net.input_shape[1] == input_size && net.input_shape[2] == input_size) return net;
  return with_input_size(net, input_size);
}

}  // namespace jetperf::models
