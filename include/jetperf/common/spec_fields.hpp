#pragma once
// Field-by-field readers for job specs: each throws validation_error naming "spec.<field>" with
// what was expected, so every workload (jobs, workloads) reports bad input the same way.
#include <cstdint>
#include <initializer_list>
#include <string>

#include <nlohmann/json.hpp>

namespace jetperf {

/// Rejects any key of `spec` not in `allowed` (field "spec.<key>").
void reject_unknown_fields(const nlohmann::json& spec, std::initializer_list<const char*> allowed);
/// A finite number in [min, max]; `fallback` when absent.
double number_field(const nlohmann::json& spec, const char* name, double min, double max, double fallback);
/// An integer in [min, max]; `fallback` when absent. 2.0 is accepted, 2.5 and "2" are not.
std::int64_t integer_field(const nlohmann::json& spec, const char* name, std::int64_t min, std::int64_t max,
                           std::int64_t fallback);
/// A string; `fallback` when absent.
std::string string_field(const nlohmann::json& spec, const char* name, const std::string& fallback);

}  // namespace jetperf
