// The provenance parts lower layers answer typed (api/provenance_views.hpp): keys only when known.
#include <jetperf/api/provenance_views.hpp>

#include <gtest/gtest.h>

namespace jetperf::api {
namespace {

using nlohmann::json;

TEST(provenance_views, a_real_board_says_only_that_it_is_not_simulated) {
  EXPECT_EQ(fidelity_json({}).dump(), R"({"simulated":false})");
}

TEST(provenance_views, a_simulated_board_says_what_it_models) {
  platform::fidelity_summary f;
  f.simulated = true;
  f.power = "simulated: p";
  f.speed_simulated = false;
  f.speed = "not simulated (why)";
  EXPECT_EQ(fidelity_json(f),
            json::parse(R"j({"simulated":true,"power":"simulated: p","speed_simulated":false,"speed":"not simulated (why)"})j"));
  f.speed_simulated = true;
  f.speed_mechanism = "cgroup";
  f.last_refusal = "refused";
  const auto j = fidelity_json(f);
  EXPECT_EQ(j["speed_mechanism"], "cgroup");
  EXPECT_EQ(j["last_refusal"], "refused");
  EXPECT_EQ(j.size(), 6u);
}

TEST(provenance_views, backend_versions_name_only_the_libraries_known) {
  EXPECT_EQ(backend_versions_json({}).dump(), "{}");
  workloads::backend_versions v;
  v.openblas = "OpenBLAS 0.3.21";
  v.onednn = "3.0.0";
  v.cuda_runtime = 12020;
  v.cuda_driver = 0;
  v.cublas = 120201;
  v.cuda_device = "Orin";
  EXPECT_EQ(backend_versions_json(v),
            json::parse(R"({"openblas":"OpenBLAS 0.3.21","onednn":"3.0.0","cuda_runtime":12020,"cuda_driver":0,
                            "cublas":120201,"cuda_device":"Orin"})"));
  workloads::backend_versions unloaded;
  unloaded.cuda_not_loaded = "not loaded (no CUDA work since the daemon started)";
  EXPECT_EQ(backend_versions_json(unloaded)["cuda"], "not loaded (no CUDA work since the daemon started)");
}

}  // namespace
}  // namespace jetperf::api
