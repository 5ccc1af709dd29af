#include <jetperf/jobs/job_service.hpp>

#include <algorithm>
#include <cstddef>
#include <optional>

#include <jetperf/common/errors.hpp>
#include <jetperf/jobs/estimate_basis_record.hpp>
#include <jetperf/platform/reboot_plan.hpp>

namespace jetperf::jobs {

namespace {

// A sweep this large is almost certainly a mistake in the spec; it would also take weeks.
constexpr std::size_t k_max_points = 100000;

// A point's power mode, read through the settings table (null or absent: left as it is).
std::optional<std::int64_t> point_power_mode(const record& point) {
  for (const auto& f : platform::setting_fields()) {
    if (f.member != &platform::board_setting::power_mode) continue;
    const auto* v = point.find(f.key);
    if (v && v->is_integer()) return v->integer();
  }
  return std::nullopt;
}

runner_options runner_options_of(const job_service_options& o) {
  runner_options r;
  r.thermal_limit_c = o.thermal_limit_c;
  r.on_running = o.on_running;
  r.fidelity = o.fidelity;
  r.sensor_cards = o.sensor_cards;
  r.processes = o.processes;
  r.cpu_usage = o.cpu_usage;
  return r;
}

}  // namespace

job_service::job_service(store::database& db, workload_registry& registry, event_hub& hub,
                         platform::board_settings* board, telemetry::sample_source* telemetry,
                         job_service_options options)
    : jobs_(db),
      journal_(db, jobs_, options.provenance),
      eta_(db, options.cost_scope, telemetry),
      queue_(jobs_, journal_, hub, options.max_queued),
      registry_(registry),
      board_(board),
      runner_(db, jobs_, queue_, journal_, eta_, registry, hub, board, telemetry, runner_options_of(options)) {}

job_service::~job_service() { stop(); }

void job_service::start() { runner_.start(); }

void job_service::stop() { runner_.stop(); }

store::job_record job_service::submit(const std::string& kind, const record& spec,
                                      const std::vector<std::string>& tags) {
  auto& w = registry_.get(kind);
  const auto offered = board_ ? board_->offered() : platform::board_offer{};
  auto normalized = w.normalize(spec, offered);
  const auto plan = w.plan(normalized);
  const auto& points = plan->points();
  if (points.empty()) throw validation_error("spec", "the spec expands to an empty sweep", "empty_sweep");
  if (points.size() > k_max_points)
    throw validation_error("spec", "the sweep has " + std::to_string(points.size()) + " points; at most " +
                                       std::to_string(k_max_points) + " are allowed",
                           "too_many_points");
  const double estimate = eta_.estimate_job(w, *plan);
  return queue_.submit(kind, normalized, tags, static_cast<std::int64_t>(points.size()), estimate,
                       w.spec_version(), eta_.basis_of(kind));
}

record job_service::dry_run(const std::string& kind, const record& spec) const {
  auto& w = registry_.get(kind);
  const auto offered = board_ ? board_->offered() : platform::board_offer{};
  auto normalized = w.normalize(spec, offered);
  const auto plan = w.plan(normalized);
  const auto& points = plan->points();
  if (points.empty()) throw validation_error("spec", "the spec expands to an empty sweep", "empty_sweep");
  cell_list skips;
  for (const auto& s : plan->foreseen_skips()) skips.push_back(record{{"reason", s.first}, {"points", s.second}});
  // The power-mode switches that reboot the board (allowed by the spec, or it was refused above).
  std::vector<std::int64_t> modes;
  for (const auto& p : points)
    if (auto m = point_power_mode(p)) modes.push_back(*m);
  cell_list reboots;
  for (const auto& step : platform::reboot_steps(offered, modes))
    reboots.push_back(record{{"from", step.from}, {"to", step.to}, {"restore", step.restore}});
  // What will run, in order: the first points of it (a multi_dnn job's mappings are its points).
  constexpr std::size_t k_planned = 200;
  cell_list planned(points.begin(), points.begin() + static_cast<std::ptrdiff_t>(std::min(points.size(), k_planned)));
  return {{"kind", kind},
          {"spec", normalized},
          {"points", points.size()},
          {"estimate_s", eta_.estimate_job(w, *plan)},
          {"estimate_basis", *estimate_basis_record(eta_.basis_of(kind))},
          {"would_skip", skips},
          {"reboots", reboots},
          {"planned", planned},
          {"planned_more", points.size() > k_planned ? points.size() - k_planned : 0}};
}

store::job_record job_service::cancel(std::int64_t id) { return queue_.cancel(id); }

store::job_record job_service::resume(std::int64_t id) { return queue_.resume(id); }

store::job_record job_service::get(std::int64_t id) const { return queue_.get(id); }

std::vector<store::job_record> job_service::list(const store::job_filter& filter, std::int64_t* total) const {
  return queue_.list(filter, total);
}

std::vector<store::point_record> job_service::points(std::int64_t id) const {
  get(id);
  return jobs_.points(id);
}

std::optional<std::int64_t> job_service::running() const { return queue_.running(); }

std::size_t job_service::queued_count() const { return queue_.queued_count(); }

}  // namespace jetperf::jobs
