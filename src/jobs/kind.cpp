#include <jetperf/jobs/kind.hpp>

#include <jetperf/common/errors.hpp>

namespace jetperf::jobs {

record spec_record(const std::string& kind, const nlohmann::json& spec) {
  if (spec.is_null()) return {};
  if (!spec.is_object()) throw validation_error("spec", "the " + kind + " spec must be a JSON object");
  return record_of(spec);
}

}  // namespace jetperf::jobs
