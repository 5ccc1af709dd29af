// The layers spec at the sizes a body allows: a user network whose working set is past int64
// is refused, not wrapped to a size that fits.
#include <jetperf/kinds/layers/layers_spec.hpp>

#include <string>

#include <gtest/gtest.h>

#include <jetperf/common/errors.hpp>

using nlohmann::json;
using namespace jetperf::kinds;

namespace {

jetperf::platform::board_offer offered() {
  jetperf::platform::board_offer o;
  o.has_cuda_device = false;
  o.memory_bytes = 8LL << 30;
  return o;
}

json one_relu(const std::string& name, json input = {3}) {
  return {{"name", name}, {"input", std::move(input)}, {"layers", json::array({{{"name", "r"}, {"type", "relu"}}})}};
}

jetperf::validation_error refusal(const json& spec) {
  try {
    normalize_layers_spec(spec, offered());
  } catch (const jetperf::validation_error& e) {
    return e;
  }
  ADD_FAILURE() << "accepted";
  return jetperf::validation_error("", "accepted");
}

}  // namespace

TEST(layers_spec_limits, a_working_set_past_int64_is_refused_not_wrapped) {
  // 2^48 input elements and as many out of the relu: at batch 2^16 in float, 2^67 bytes, which
  // wrapped to exactly 0 and was accepted.
  const json huge = one_relu("huge", {65536, 65536, 65536});
  for (const int batch : {65536, 32768}) {
    const auto e = refusal({{"networks", json::array({huge})}, {"batch", batch}});
    EXPECT_EQ(e.field(), "spec.batch") << batch;
    EXPECT_EQ(e.code(), "too_large") << batch;
    EXPECT_NE(std::string(e.what()).find("needs more than 9223372036854775807 bytes on cpu"), std::string::npos)
        << e.what();
  }
}
