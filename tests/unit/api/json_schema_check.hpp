#pragma once
// A small checker for the subset of OpenAPI 3.0 schemas that proto/openapi.json uses: type,
// required, properties, additionalProperties (bool or schema), items, enum, nullable, pattern,
// minimum/maximum, minItems/maxItems, minLength/maxLength and $ref to #/components/schemas.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace jetperf::test {

/// Every violation of `schema` by `value`, as "path: what"; empty when it conforms.
/// `document` resolves $ref. Unknown $refs are violations too, so a broken contract fails.
std::vector<std::string> schema_violations(const nlohmann::json& document, const nlohmann::json& schema,
                                           const nlohmann::json& value, const std::string& path = "$");

/// The schema of components/schemas/<name>.
nlohmann::json component_schema(const nlohmann::json& document, const std::string& name);

}  // namespace jetperf::test
