#pragma once
// Reads a stored spec (what a kind's to_record wrote when the job was submitted, read back from
// the store as a record): the values were validated then, so a missing value or one of another
// type means a spec no longer valid, refused as validation_error("spec.<field>") like any other.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <jetperf/common/cell.hpp>

namespace jetperf {

class stored_spec {
 public:
  explicit stored_spec(const record& spec) : spec_(spec) {}

  const cell& at(const std::string& key) const;
  std::string text(const std::string& key) const;
  /// An integer reads as a number, and a number as an integer (truncated), as JSON's did.
  double number(const std::string& key) const;
  std::int64_t integer(const std::string& key) const;
  bool boolean(const std::string& key) const;
  /// A list's strings / integers (a null: none).
  std::vector<std::string> texts(const std::string& key) const;
  std::vector<std::int64_t> integers(const std::string& key) const;

 private:
  const record& spec_;
};

}  // namespace jetperf
