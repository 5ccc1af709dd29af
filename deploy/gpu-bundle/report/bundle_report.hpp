#pragma once
// The GPU bundle's run (deploy/gpu-bundle/run.sh) as one model, read back from the directory the
// run wrote, and its two exports: report.json and report.md.
//
// run.sh leaves, in its output directory:
//   environment.txt            "key: value" lines (GPU, driver, CUDA, cuBLAS, cuDNN, libraries used)
//   steps/NN-name/status       one line: ok, failed (exit N), timed out (N s), skipped: REASON, not run: REASON
//   steps/NN-name/seconds      the step's wall time
//   steps/NN-name/commands     the commands it ran, one a line, as a reader would type them
//   steps/NN-name/figures/X.json     what a command printed (an object, an array of rows, or an
//                                    object with "rows"); X.columns (optional, one comma line)
//                                    names the columns report.md shows of those rows
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace jetperf::bundle {

/// One figure file of a step: its name (the file's stem), its content and the columns to show.
struct figure {
  std::string name;
  nlohmann::ordered_json value;
  std::vector<std::string> columns;  ///< empty: every scalar column of the rows
};

struct step {
  std::string name;    ///< "01-gpu_tests"
  std::string status;  ///< as run.sh wrote it
  double seconds = 0;
  std::vector<std::string> commands;
  std::vector<figure> figures;
};

struct run_report {
  std::vector<std::pair<std::string, std::string>> environment;
  std::vector<step> steps;
};

/// Reads what run.sh wrote under `dir`; throws std::runtime_error naming a file it cannot parse.
run_report read_run(const std::string& dir);

/// A step that ran, failed, timed out or was skipped for a reason has run; "not run: ..." (the
/// bundle lacked a program) has not, and neither has a step without a status.
bool every_step_ran(const run_report& r);

nlohmann::ordered_json to_json(const run_report& r);
std::string to_markdown(const run_report& r);

}  // namespace jetperf::bundle
