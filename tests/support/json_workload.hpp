#pragma once
// A workload called with the JSON its specs and points are stored and served as, for the tests
// written against that form: the request's spec goes in as the API hands it over (its members;
// null as no spec; anything else refused as the API refuses it), points come out as stored, and
// a point runs through the job's plan as the runner runs it (the plan made once per spec).
// `w->` reaches these JSON calls, `*w` the workload itself.
#include <cstddef>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <jetperf/common/errors.hpp>
#include <jetperf/jobs/workload.hpp>
#include <jetperf/store/cell_json.hpp>
#include <jetperf/jobs/point_rows.hpp>

namespace jetperf::test {

/// A request's spec as the API passes it to the job service (routes_jobs.cpp checks the object).
inline record spec_record(const std::string& kind, const nlohmann::json& spec) {
  if (spec.is_null()) return {};
  if (!spec.is_object()) throw validation_error("spec", "the " + kind + " spec must be a JSON object");
  return record_of(spec);
}

class json_workload {
 public:
  explicit json_workload(std::unique_ptr<jobs::workload> w) : w_(std::move(w)) {}

  json_workload* operator->() { return this; }
  const json_workload* operator->() const { return this; }
  jobs::workload& operator*() { return *w_; }
  const jobs::workload& operator*() const { return *w_; }
  jobs::workload* get() { return w_.get(); }

  std::string kind() const { return w_->kind(); }
  const std::vector<spec_field>& spec_fields() const { return w_->spec_fields(); }
  const column_table& columns() const { return w_->columns(); }
  const std::vector<summary_table>& summary_tables() const { return w_->summary_tables(); }
  std::int64_t spec_version() const { return w_->spec_version(); }
  std::vector<std::string> export_formats() const { return w_->export_formats(); }
  bool export_has_provenance(const std::string& format) const { return w_->export_has_provenance(format); }

  nlohmann::json normalize(const nlohmann::json& spec, const platform::board_offer& offered) const {
    return to_json(w_->normalize(spec_record(w_->kind(), spec), offered));
  }
  std::vector<nlohmann::json> expand(const nlohmann::json& spec) const {
    std::vector<nlohmann::json> out;
    for (const auto& p : w_->expand(record_of(spec))) out.push_back(to_json(p));
    return out;
  }
  nlohmann::json upgrade(const nlohmann::json& spec, std::int64_t from_version) const {
    return to_json(w_->upgrade(record_of(spec), from_version));
  }
  std::unique_ptr<jobs::job_plan> plan(const nlohmann::json& spec) { return w_->plan(record_of(spec)); }
  std::map<std::string, std::size_t> foreseen_skips(const nlohmann::json& spec, const std::vector<nlohmann::json>&) {
    return plan_of(spec).foreseen_skips();
  }
  std::vector<double> estimate_points_s(const nlohmann::json& spec, const std::vector<nlohmann::json>&,
                                        const measure::estimate_context& ctx) {
    return plan_of(spec).estimate_points_s(ctx);
  }
  /// Runs `point` (one of the spec's points, as stored) through the spec's plan.
  measure::point_result run_point(measure::point_context& ctx, const nlohmann::json& spec, const nlohmann::json& point) {
    auto& plan = plan_of(spec);
    const auto wanted = record_of(point);
    const auto& points = plan.points();
    for (std::size_t i = 0; i < points.size(); ++i)
      if (points[i] == wanted) return plan.run_point(ctx, i);
    throw std::invalid_argument("not a point of the spec: " + point.dump());
  }
  nlohmann::json summarize(const nlohmann::json&, const std::vector<store::point_record>& points) const {
    return to_json(w_->summarize(jobs::point_rows(points)));
  }
  nlohmann::json compare(const nlohmann::json&, const std::vector<store::point_record>& points,
                         const std::string& by) const {
    return to_json(w_->compare(jobs::point_rows(points), by));
  }
  nlohmann::ordered_json export_results(const std::string& format, const nlohmann::json&,
                                        const std::vector<store::point_record>& points) const {
    return to_ordered_json(w_->export_results(format, jobs::point_rows(points)));
  }

 private:
  jobs::job_plan& plan_of(const nlohmann::json& spec) {
    if (!plan_ || spec != plan_spec_) {
      plan_ = w_->plan(record_of(spec));
      plan_spec_ = spec;
    }
    return *plan_;
  }

  std::unique_ptr<jobs::workload> w_;
  nlohmann::json plan_spec_;
  std::unique_ptr<jobs::job_plan> plan_;
};

}  // namespace jetperf::test

namespace jetperf::test {

/// A spec written as JSON in a test, as the API hands it to the job service.
inline record spec_of(const nlohmann::json& spec) { return spec_record("test", spec); }

}  // namespace jetperf::test
