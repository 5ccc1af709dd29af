#pragma once
// A kind's spec in the JSON form the runner stores, for the tests written against that form: a
// request's spec goes through the adapter's own conversion (jobs::spec_record: a non-object is
// refused as the runner refuses it), the kind's parse and its record as JSON; a stored one
// back through record_of, as the runner reads it.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <jetperf/store/cell_json.hpp>
#include <jetperf/jobs/kind.hpp>
#include "support/json_workload.hpp"
#include <jetperf/platform/board_settings.hpp>

namespace jetperf::test {

template <class Spec>
nlohmann::json normalized_json(const std::string& kind, const nlohmann::json& spec,
                               const platform::board_offer& offered) {
  return to_json(Spec::parse(test::spec_record(kind, spec), offered).to_record());
}

template <class Spec>
Spec stored_of(const nlohmann::json& normalized) {
  return Spec::stored(record_of(normalized));
}

/// The points of a stored spec, as stored.
template <class Spec>
std::vector<nlohmann::json> expanded_json(const nlohmann::json& normalized) {
  std::vector<nlohmann::json> out;
  for (const auto& p : expand(stored_of<Spec>(normalized))) out.push_back(to_json(p.to_record()));
  return out;
}

}  // namespace jetperf::test
