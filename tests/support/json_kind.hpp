#pragma once
// A test kind whose spec and points stay JSON as the runner stores them: it writes parse (its
// own checks, over the request's record as every kind reads it), expand and run_point; storing
// and reading back convert between the record and the JSON one for one.
#include <nlohmann/json.hpp>

#include <jetperf/store/cell_json.hpp>
#include <jetperf/jobs/kind.hpp>

namespace jetperf::test {

class json_kind : public jobs::kind<nlohmann::json, nlohmann::json> {
 public:
  nlohmann::json stored(const record& spec) const { return jetperf::to_json(spec); }
  record to_record(const nlohmann::json& spec) const { return record_of(spec); }
  record params_of(const nlohmann::json& point) const { return record_of(point); }
  nlohmann::json point_of(const record& point) const { return jetperf::to_json(point); }
};

}  // namespace jetperf::test
