#pragma once
// Small jobs of every kind whose estimates the estimate sim test and bench_estimates_under_load
// hold to the truth on a loaded host: a few points each (the first one's pace must say something
// about the rest), seconds each on a 2-core machine with two CPU hogs beside the daemon, and
// varied from one job to the next (sizes, networks, repeats), so that history helps without
// repeating the same job.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace jetperf::test {

/// The kinds in the order the cases run them: idle, gemm, layers, multi_dnn (when `onednn`),
/// command.
std::vector<std::string> estimate_case_kinds(bool onednn);

/// The spec of job `n` (0-based) of `kind`; `program` is the command kind's program
/// (tests/programs/marked_phases, where the command account reaches it).
nlohmann::json estimate_case_spec(const std::string& kind, int n, const std::string& program);

}  // namespace jetperf::test
