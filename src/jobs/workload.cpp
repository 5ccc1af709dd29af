#include <jetperf/jobs/workload.hpp>

namespace jetperf::jobs {

const std::vector<spec_field>& workload::spec_fields() const {
  static const std::vector<spec_field> none;
  return none;
}

const column_table& workload::columns() const {
  static const column_table none;
  return none;
}

const std::vector<summary_table>& workload::summary_tables() const {
  static const std::vector<summary_table> none;
  return none;
}

const std::vector<compare_view>& workload::compare_views() const {
  static const std::vector<compare_view> none;
  return none;
}

cell workload::compare(const std::vector<point_row>&, const std::string&) const {
  throw validation_error("by", "jobs of kind '" + kind() + "' have no comparisons");
}

cell workload::export_results(const std::string& format, const std::vector<point_row>&) const {
  throw validation_error("format", "jobs of kind '" + kind() + "' have no format '" + format + "'");
}

}  // namespace jetperf::jobs
