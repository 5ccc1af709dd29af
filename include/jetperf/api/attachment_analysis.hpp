#pragma once
// A trace attached to a job, read against what the daemon stored of that job: the job's closed
// phases and its clock readings (timeline) align the trace's clock (traces::align_trace), and its
// power samples (sample store) give the energy per op and per kernel (traces::attribute_energy).
// The results as the JSON the API stores and serves.
#include <cstdint>
#include <optional>

#include <nlohmann/json.hpp>

#include <jetperf/store/job_store.hpp>
#include <jetperf/store/sample_store.hpp>
#include <jetperf/store/timeline_store.hpp>
#include <jetperf/traces/iterations.hpp>
#include <jetperf/traces/trace.hpp>

namespace jetperf::api {

struct attachment_result {
  /// {method, offset_ns, uncertainty_ns, matched, trace_events, phases, detail, verified, unverified_reasons}
  nlohmann::json alignment;
  nlohmann::json energy;  ///< {sensor_period_s, channel, coverage, iterations, ops, top_level, kernels}
};

/// Throws validation_error ("offset_ns", "no_alignment") when the trace cannot be aligned, and
/// ("body", "foreign_trace") when it does not belong to the job, unless `force`:
///  - aligned, it must lie within one of the job's runs (its command runs; else its measured runs,
///    windows or points), up to the alignment's uncertainty and 1 ms;
///  - aligned by markers, each of its events named like a phase must match one the markers saw,
///    within 10 ms.
/// Forced, alignment.verified is false with its unverified_reasons, and every row is marked
/// unverified. energy.coverage gives the share of the run (time and energy) the trace's top-level
/// ops cover; energy.iterations the iterations `iterations` finds (traces::find_iterations:
/// count, host runtime, mean, energy and energy per iteration). A legacy trace's (no "cat")
/// record_function ranges (traces::mark_legacy_labels) and events named like the job's phases
/// are taken as the labels they are (`t` is changed so).
attachment_result analyze_attachment(traces::trace& t, const store::job_record& job,
                                     const store::timeline_store& timeline, const store::sample_store* samples,
                                     std::optional<std::int64_t> offset_ns, bool force = false,
                                     const traces::iteration_rule& iterations = {});

/// The energy tables as CSV: table, name, count, time_s, energy_j, power_w, uncertainty_j,
/// short_intervals, outside_samples, then one rail_<NAME>_j column per rail.
std::string attachment_energy_csv(const nlohmann::json& energy);

}  // namespace jetperf::api
