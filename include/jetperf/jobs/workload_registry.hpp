#pragma once
// The job kinds this daemon can run, by name.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <jetperf/jobs/workload.hpp>

namespace jetperf::jobs {

class workload_registry {
 public:
  void add(std::unique_ptr<workload> w);
  /// Throws validation_error(field "kind") listing the known kinds when absent.
  workload& get(const std::string& kind) const;
  bool has(const std::string& kind) const;
  std::vector<std::string> kinds() const;

 private:
  std::map<std::string, std::unique_ptr<workload>> by_kind_;
};

}  // namespace jetperf::jobs
