#include "json_schema_check.hpp"

#include <regex>

namespace jetperf::test {

namespace {

const nlohmann::json* resolve(const nlohmann::json& document, const std::string& ref) {
  const std::string prefix = "#/components/schemas/";
  if (ref.compare(0, prefix.size(), prefix) != 0) return nullptr;
  const auto name = ref.substr(prefix.size());
  const auto& schemas = document["components"]["schemas"];
  auto it = schemas.find(name);
  return it == schemas.end() ? nullptr : &*it;
}

bool has_type(const nlohmann::json& value, const std::string& type) {
  if (type == "object") return value.is_object();
  if (type == "array") return value.is_array();
  if (type == "string") return value.is_string();
  if (type == "boolean") return value.is_boolean();
  if (type == "integer") return value.is_number_integer();
  if (type == "number") return value.is_number();
  return false;
}

}  // namespace

nlohmann::json component_schema(const nlohmann::json& document, const std::string& name) {
  return document.at("components").at("schemas").at(name);
}

std::vector<std::string> schema_violations(const nlohmann::json& document, const nlohmann::json& schema,
                                           const nlohmann::json& value, const std::string& path) {
  std::vector<std::string> out;
  auto fail = [&](const std::string& what) { out.push_back(path + ": " + what); };
  if (!schema.is_object()) {
    fail("schema is not an object");
    return out;
  }
  if (auto ref = schema.find("$ref"); ref != schema.end()) {
    const auto* target = resolve(document, ref->get<std::string>());
    if (!target) {
      fail("unresolved $ref " + ref->get<std::string>());
      return out;
    }
    return schema_violations(document, *target, value, path);
  }
  if (value.is_null()) {
    if (!schema.value("nullable", false)) fail("null is not allowed");
    return out;
  }
  if (auto type = schema.find("type"); type != schema.end() && !has_type(value, type->get<std::string>())) {
    fail("expected " + type->get<std::string>() + ", got " + value.type_name());
    return out;
  }
  if (auto en = schema.find("enum"); en != schema.end()) {
    bool found = false;
    for (const auto& e : *en) found = found || e == value;
    if (!found) fail("value " + value.dump() + " not in enum " + en->dump());
  }
  if (value.is_number()) {
    const double v = value.get<double>();
    if (schema.contains("minimum") && v < schema["minimum"].get<double>()) fail("below minimum");
    if (schema.contains("maximum") && v > schema["maximum"].get<double>()) fail("above maximum");
  }
  if (value.is_string()) {
    const auto& s = value.get_ref<const std::string&>();
    if (schema.contains("minLength") && s.size() < schema["minLength"].get<std::size_t>()) fail("shorter than minLength");
    if (schema.contains("maxLength") && s.size() > schema["maxLength"].get<std::size_t>()) fail("longer than maxLength");
    if (schema.contains("pattern") && !std::regex_search(s, std::regex(schema["pattern"].get<std::string>())))
      fail("does not match pattern " + schema["pattern"].get<std::string>());
  }
  if (value.is_array()) {
    if (schema.contains("minItems") && value.size() < schema["minItems"].get<std::size_t>()) fail("too few items");
    if (schema.contains("maxItems") && value.size() > schema["maxItems"].get<std::size_t>()) fail("too many items");
    if (auto items = schema.find("items"); items != schema.end())
      for (std::size_t i = 0; i < value.size(); ++i) {
        auto sub = schema_violations(document, *items, value[i], path + "[" + std::to_string(i) + "]");
        out.insert(out.end(), sub.begin(), sub.end());
      }
  }
  if (value.is_object()) {
    if (auto req = schema.find("required"); req != schema.end())
      for (const auto& name : *req)
        if (!value.contains(name.get<std::string>())) fail("missing required property '" + name.get<std::string>() + "'");
    const auto props = schema.value("properties", nlohmann::json::object());
    const auto additional = schema.value("additionalProperties", nlohmann::json(true));
    for (auto it = value.begin(); it != value.end(); ++it) {
      const std::string sub_path = path + "." + it.key();
      if (auto p = props.find(it.key()); p != props.end()) {
        auto sub = schema_violations(document, *p, it.value(), sub_path);
        out.insert(out.end(), sub.begin(), sub.end());
      } else if (additional.is_boolean()) {
        if (!additional.get<bool>()) out.push_back(sub_path + ": property not allowed by the schema");
      } else {
        auto sub = schema_violations(document, additional, it.value(), sub_path);
        out.insert(out.end(), sub.begin(), sub.end());
      }
    }
  }
  return out;
}

}  // namespace jetperf::test
