#pragma once
// The job-kind contract: one workload per kind (src/kinds/<kind>/, registered by the daemon)
// validates its spec, expands it into points, measures one point at a time and declares the
// columns its points fill. The job runner owns ordering, progress, persistence and
// cancellation; a workload only measures.
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <jetperf/common/errors.hpp>
#include <jetperf/common/spec_fields.hpp>
#include <jetperf/jobs/columns.hpp>
#include <jetperf/jobs/run_cost.hpp>
#include <jetperf/platform/board_fidelity.hpp>
#include <jetperf/platform/board_settings.hpp>
#include <jetperf/platform/workload_processes.hpp>
#include <jetperf/store/job_store.hpp>
#include <jetperf/store/timeline_store.hpp>
#include <jetperf/telemetry/sample_source.hpp>

namespace jetperf::jobs {

/// What a point may use while it runs. Pointers may be null (no board control, no telemetry).
struct point_context {
  std::int64_t job_id = 0;
  std::int64_t index = 0;
  const std::atomic<bool>* cancel = nullptr;  ///< poll at safe points; throw nothing, return early
  platform::board_settings* board = nullptr;
  telemetry::sample_source* telemetry = nullptr;
  /// What the board's numbers stand for; null on a real board (nothing to flag).
  const platform::board_fidelity* fidelity = nullptr;
  /// Told of processes the point starts (a command job's program); null when nobody asks.
  platform::workload_processes* processes = nullptr;
  /// Emits a job event (type, data), e.g. "log"; stored and streamed.
  std::function<void(const std::string&, const nlohmann::json&)> event;
  /// Keeps a span on the job's timeline (stored with the point); null: nothing is kept.
  std::function<void(store::timeline_span)> timeline;

  bool cancelled() const { return cancel && cancel->load(); }
  /// A span of this point on `track` (an instant when end == start).
  void record(const std::string& track, const std::string& name, std::int64_t start_ns, std::int64_t end_ns,
              nlohmann::json args = nlohmann::json::object()) const {
    if (timeline) timeline({job_id, index, track, name, start_ns, end_ns, std::move(args)});
  }
};

struct point_result {
  std::string status = "ok";  ///< "ok", "skipped" (metrics.reason says why), "failed"
  nlohmann::json metrics = nlohmann::json::object();
  std::int64_t t_start_ns = 0;  ///< monotonic start of the measurement window
  std::int64_t t_end_ns = 0;
  /// What one run of the point cost and how long it took, for the cost model to learn from
  /// (absent when the point has no runs, or was not measured).
  std::optional<run_cost> cost;
  double run_s = 0;   ///< mean seconds of one run
  double run_cv = 0;  ///< their standard deviation over the mean
};

/// Finished points as the {"params","metrics","status"} rows the kinds' views read.
std::vector<nlohmann::json> point_rows(const std::vector<store::point_record>& points);

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
  /// Validates the spec field by field and fills defaults. `offered` is board_settings::offered()
  /// (or {} without a board). Throws validation_error with field "spec.<name>".
  virtual nlohmann::json normalize(const nlohmann::json& spec, const platform::board_offer& offered) const = 0;
  /// The ordered points of a normalized spec (each a JSON object of settings).
  virtual std::vector<nlohmann::json> expand(const nlohmann::json& spec) const = 0;
  /// Points of a normalized spec that this machine could only skip, counted by reason, for the
  /// dry run (e.g. cuda points without a CUDA device). What a spec can never run is refused by
  /// normalize() instead.
  virtual std::map<std::string, std::size_t> foreseen_skips(const nlohmann::json& spec,
                                                           const std::vector<nlohmann::json>& points) const {
    return {};
  }
  /// Seconds each of `points` (the expansion of `spec`, in order) will take: the protocol around
  /// its runs (windows, warm-up, cool-down, the idle baseline of each new setting) over the time
  /// of one run that `ctx` gives (what this board measured before). The runner sums them for the
  /// job's estimate and refreshes them as the job runs. Default: nothing known (0 each).
  virtual std::vector<double> estimate_points_s(const nlohmann::json& spec, const std::vector<nlohmann::json>& points,
                                                const estimate_context& ctx) const {
    return std::vector<double>(points.size(), 0.0);
  }

  /// Measures one point. Throws on failure of the point (the runner records it and goes on).
  virtual point_result run_point(point_context& ctx, const nlohmann::json& spec, const nlohmann::json& point) = 0;
  /// Job-level summary over the finished points (best setting, ...).
  virtual nlohmann::json summarize(const nlohmann::json& spec,
                                   const std::vector<store::point_record>& points) const {
    return nlohmann::json::object();
  }
  /// Compares finished points along one parameter (GET /v1/jobs/{id}/compare?by=...), e.g.
  /// tensor cores on vs off. Throws validation_error(field "by") when the kind has no such view.
  virtual nlohmann::json compare(const nlohmann::json& spec, const std::vector<store::point_record>& points,
                                 const std::string& by) const;
  /// The kind's own result layouts besides json and csv (GET /v1/jobs/{id}/results?format=NAME),
  /// e.g. "dnnstats" for layer-wise jobs: the processed layout existing analysis code reads.
  virtual std::vector<std::string> export_formats() const { return {}; }
  /// The results in `format` (one of export_formats()), keys in the layout's own order.
  virtual nlohmann::ordered_json export_results(const std::string& format, const nlohmann::json& spec,
                                        const std::vector<store::point_record>& points) const;
};

}  // namespace jetperf::jobs
