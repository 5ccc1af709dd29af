#include <jetperf/common/cell.hpp>

#include <algorithm>
#include <stdexcept>

namespace jetperf {

record::record(std::initializer_list<entry> entries) {
  for (const auto& e : entries) set(e.first, e.second);
}

cell& record::set(const std::string& key, cell value) {
  if (auto* c = find(key)) return *c = std::move(value);
  entries_.emplace_back(key, std::move(value));
  return entries_.back().second;
}

const cell* record::find(const std::string& key) const {
  auto it = std::find_if(entries_.begin(), entries_.end(), [&](const entry& e) { return e.first == key; });
  return it == entries_.end() ? nullptr : &it->second;
}

cell* record::find(const std::string& key) {
  return const_cast<cell*>(static_cast<const record*>(this)->find(key));
}

const cell& record::at(const std::string& key) const {
  if (const auto* c = find(key)) return *c;
  throw std::out_of_range("no value named " + key);
}

bool record::erase(const std::string& key) {
  auto it = std::find_if(entries_.begin(), entries_.end(), [&](const entry& e) { return e.first == key; });
  if (it == entries_.end()) return false;
  entries_.erase(it);
  return true;
}

// Equal when they hold the same keys with equal values, in whatever order they were set.
bool record::operator==(const record& other) const {
  if (size() != other.size()) return false;
  for (const auto& e : entries_) {
    const auto* o = other.find(e.first);
    if (!o || *o != e.second) return false;
  }
  return true;
}

std::optional<double> cell::number() const {
  if (const auto* i = std::get_if<std::int64_t>(&v_)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(&v_)) return *d;
  return std::nullopt;
}

std::optional<std::int64_t> cell::integer() const {
  if (const auto* i = std::get_if<std::int64_t>(&v_)) return *i;
  if (const auto* d = std::get_if<double>(&v_)) return static_cast<std::int64_t>(*d);
  return std::nullopt;
}

std::optional<bool> cell::boolean() const {
  if (const auto* b = std::get_if<bool>(&v_)) return *b;
  return std::nullopt;
}

std::optional<std::string> cell::text() const {
  if (const auto* s = std::get_if<std::string>(&v_)) return *s;
  return std::nullopt;
}

std::vector<std::string> cell::strings() const {
  std::vector<std::string> out;
  if (const auto* l = std::get_if<cell_list>(&v_))
    for (const auto& c : *l)
      if (c.is_string()) out.push_back(c.as_string());
  return out;
}

}  // namespace jetperf
