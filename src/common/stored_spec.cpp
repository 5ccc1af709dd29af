#include <jetperf/common/stored_spec.hpp>

#include <jetperf/common/errors.hpp>

namespace jetperf {

namespace {

template <class T>
T checked(const std::optional<T>& v, const std::string& key, const char* type) {
  if (!v) throw validation_error("spec." + key, "the stored spec's " + key + " is not " + type);
  return *v;
}

}  // namespace

const cell& stored_spec::at(const std::string& key) const {
  const auto* c = spec_.find(key);
  if (!c) throw validation_error("spec." + key, "the stored spec has no " + key);
  return *c;
}

std::string stored_spec::text(const std::string& key) const { return checked(at(key).text(), key, "a string"); }
double stored_spec::number(const std::string& key) const { return checked(at(key).number(), key, "a number"); }
std::int64_t stored_spec::integer(const std::string& key) const {
  return checked(at(key).integer(), key, "an integer");
}
bool stored_spec::boolean(const std::string& key) const { return checked(at(key).boolean(), key, "true or false"); }

std::vector<std::string> stored_spec::texts(const std::string& key) const {
  const auto& v = at(key);
  if (!v.is_list() && !v.is_null()) throw validation_error("spec." + key, "the stored spec's " + key + " is not a list");
  std::vector<std::string> out;
  if (v.is_list())
    for (const auto& item : v.as_list()) out.push_back(checked(item.text(), key, "a list of strings"));
  return out;
}

std::vector<std::int64_t> stored_spec::integers(const std::string& key) const {
  const auto& v = at(key);
  if (!v.is_list() && !v.is_null()) throw validation_error("spec." + key, "the stored spec's " + key + " is not a list");
  std::vector<std::int64_t> out;
  if (v.is_list())
    for (const auto& item : v.as_list()) out.push_back(checked(item.integer(), key, "a list of integers"));
  return out;
}

}  // namespace jetperf
