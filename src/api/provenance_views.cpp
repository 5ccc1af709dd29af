#include <jetperf/api/provenance_views.hpp>

namespace jetperf::api {

namespace {

template <typename T>
void put_if(nlohmann::json& j, const char* key, const std::optional<T>& v) {
  if (v) j[key] = *v;
}

}  // namespace

nlohmann::json fidelity_json(const platform::fidelity_summary& fidelity) {
  if (!fidelity.simulated) return {{"simulated", false}};
  nlohmann::json j{{"simulated", true}, {"power", fidelity.power}, {"speed_simulated", fidelity.speed_simulated},
                   {"speed", fidelity.speed}};
  put_if(j, "speed_mechanism", fidelity.speed_mechanism);
  put_if(j, "last_refusal", fidelity.last_refusal);
  return j;
}

nlohmann::json backend_versions_json(const workloads::backend_versions& versions) {
  nlohmann::json j = nlohmann::json::object();
  put_if(j, "openblas", versions.openblas);
  put_if(j, "onednn", versions.onednn);
  put_if(j, "cuda", versions.cuda_not_loaded);
  put_if(j, "cuda_runtime", versions.cuda_runtime);
  put_if(j, "cuda_driver", versions.cuda_driver);
  put_if(j, "cublas", versions.cublas);
  put_if(j, "cudnn", versions.cudnn);
  put_if(j, "cuda_device", versions.cuda_device);
  return j;
}

}  // namespace jetperf::api
