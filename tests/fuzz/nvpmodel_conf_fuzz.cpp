// libFuzzer target: any bytes as an nvpmodel.conf. The parser must return a conf or throw
// platform_error; CLOCK values of the parsed modes must convert or throw platform_error too.
#include <cstddef>
#include <cstdint>
#include <string>

#include <jetperf/common/errors.hpp>
#include <jetperf/platform/nvpmodel_conf.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace jetperf::platform;
  std::string text(reinterpret_cast<const char*>(data), size);
  try {
    nvpmodel_conf conf = parse_nvpmodel_conf(text);
    for (const auto& mode : conf.modes) {
      (void)conf.find_mode(mode.id);
      (void)conf.find_mode(mode.name);
      for (const auto& s : mode.settings) {
        const nvpmodel_param* param = conf.find_param(s.param);
        if (param && param->type == "CLOCK") {
          try {
            (void)nvpmodel_clock_value(s.value);
          } catch (const jetperf::platform_error&) {
          }
        }
        (void)mode.value(s.param, s.arg);
      }
    }
  } catch (const jetperf::platform_error&) {
  }
  return 0;
}
