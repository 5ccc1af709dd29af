#pragma once
// The job runner's view of a kind: specs and points as records, finished points as rows, views
// as cells (common/cell.hpp); the store and the API make them JSON. Kinds do not implement it by
// hand: each is a typed jobs::kind<Spec, Point> (jobs/kind.hpp) that jobs::make_workload turns
// into one. The job runner owns ordering, progress, persistence and cancellation; a workload only
// measures.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <jetperf/common/cell.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/common/spec_fields.hpp>
#include <jetperf/common/columns.hpp>
#include <jetperf/common/summary_table.hpp>
#include <jetperf/jobs/job_plan.hpp>
#include <jetperf/jobs/point_row.hpp>
#include <jetperf/measure/point_context.hpp>
#include <jetperf/measure/point_result.hpp>
#include <jetperf/measure/run_cost.hpp>
#include <jetperf/platform/board_settings.hpp>

namespace jetperf::jobs {

class workload {
 public:
  virtual ~workload() = default;
  virtual std::string kind() const = 0;
  /// One sentence for GET /v1/kinds.
  virtual std::string description() const { return {}; }
  /// The spec's declared fields (GET /v1/kinds); normalize() reads its defaults and bounds here.
  virtual const std::vector<spec_field>& spec_fields() const;
  /// The columns a point of this kind fills, in output order. Every key a point's metrics hold
  /// is one of them (or a rail column), so JSON, CSV and the client's table read one table.
  virtual const column_table& columns() const;
  /// The lists in summarize()'s answer that read as tables (GET /v1/kinds), so clients render
  /// them without knowing the kind; none by default.
  virtual const std::vector<summary_table>& summary_tables() const;
  /// Validates a request's spec (its members; no spec at all: no fields) field by field and fills
  /// defaults: the spec as stored. `offered` is board_settings::offered() (or {} without a board).
  /// Throws validation_error with field "spec.<name>".
  virtual record normalize(const record& spec, const platform::board_offer& offered) const = 0;
  /// The ordered points of a normalized spec, each as its params are stored.
  virtual std::vector<record> expand(const record& spec) const = 0;

  /// The version of this kind's stored spec that normalize writes now; stored with each job.
  virtual std::int64_t spec_version() const { return 1; }
  /// A stored spec of an older version (0: stored before versions existed) as the current
  /// version writes it: the one place a kind reads its old forms.
  virtual record upgrade(const record& spec, std::int64_t from_version) const { return spec; }
  /// The normalized (stored) spec parsed and expanded once, for the runner to hold while the job
  /// runs: its points, their estimates, foreseen skips and the measuring of each. Throws
  /// validation_error when the stored spec is no longer valid.
  virtual std::unique_ptr<job_plan> plan(const record& spec) = 0;

  /// Job-level summary over the finished points (best setting, ...).
  virtual cell summarize(const std::vector<point_row>& rows) const { return record(); }
  /// Compares finished points along one parameter (GET /v1/jobs/{id}/compare?by=...), e.g.
  /// tensor cores on vs off: a list of rows that compare_views() declares as a table for `by`.
  /// Throws validation_error(field "by") when the kind declares no view for `by`.
  virtual cell compare(const std::vector<point_row>& rows, const std::string& by) const;
  /// The comparisons compare() makes, as tables (GET /v1/kinds); none by default.
  virtual const std::vector<compare_view>& compare_views() const;
  /// The kind's own result layouts besides json and csv (GET /v1/jobs/{id}/results?format=NAME),
  /// e.g. "dnnstats" for layer-wise jobs: the processed layout existing analysis code reads.
  virtual std::vector<std::string> export_formats() const { return {}; }
  /// Whether the job's provenance joins the export as its last key ("provenance"); false for a
  /// layout whose readers take every key for one of theirs (dnnstats: each key a network).
  virtual bool export_has_provenance(const std::string& format) const { return true; }
  /// The results in `format` (one of export_formats()); records keep the layout's key order.
  virtual cell export_results(const std::string& format, const std::vector<point_row>& rows) const;
};

}  // namespace jetperf::jobs
