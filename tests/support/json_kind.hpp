#pragma once
// A test kind whose spec and points stay JSON as stored: it writes parse (its own checks),
// expand and run_point; storing and reading back are the identity.
#include <nlohmann/json.hpp>

#include <jetperf/common/cell_json.hpp>
#include <jetperf/jobs/kind.hpp>

namespace jetperf::test {

class json_kind : public jobs::kind<nlohmann::json, nlohmann::json> {
 public:
  nlohmann::json stored(const nlohmann::json& spec) const { return spec; }
  nlohmann::json to_json(const nlohmann::json& spec) const { return spec; }
  record params_of(const nlohmann::json& point) const { return record_of(point); }
  nlohmann::json point_of(const record& point) const { return jetperf::to_json(point); }
};

}  // namespace jetperf::test
