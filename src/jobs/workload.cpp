#include <jetperf/jobs/workload.hpp>

#include <jetperf/common/errors.hpp>

namespace jetperf::jobs {

nlohmann::json workload::compare(const nlohmann::json&, const std::vector<store::point_record>&,
                                 const std::string&) const {
  throw validation_error("by", "jobs of kind '" + kind() + "' have no comparisons");
}

}  // namespace jetperf::jobs
