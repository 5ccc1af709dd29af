#pragma once
// What a multi_dnn job's finished points add up to: the summary (mappings by class, the fastest
// and the most efficient mapping) and the seed's processed layout (`--format multinet`).
#include <string>
#include <vector>

#include <jetperf/common/cell.hpp>
#include <jetperf/jobs/point_row.hpp>

namespace jetperf::kinds {

/// {mappings, measured, skipped, failed, classes: {A: n, ...}, best_throughput, best_efficiency}
/// over the points' rows.
record summarize_multi_dnn(const std::vector<jobs::point_row>& rows);

/// {"mappings": [one seed 001 processed document per measured mapping: mapping, stageSummary
/// {network: {device: {infCount, avgInfTime, avgTransferTime (-1 where none)}}}, samplingDuration,
/// Mode, Device (null: the board's family, which the client fills from the provenance),
/// Tegrastats, ModelInfo {network: {device: {params, macs, flops, functionalLayerCount}}}], with
/// "mapping_id" beside each}, its keys in the seed's order. A network's second stage on one
/// device keys "<device>:<stage>".
record multinet_export(const std::vector<jobs::point_row>& rows);

/// thop's clever_format, as the seed's files hold counts: "25.56 M", "4.09 G".
std::string clever_format(double value);

}  // namespace jetperf::kinds
