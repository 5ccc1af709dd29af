// jetperf-bundle-report OUTDIR: writes OUTDIR/report.json and OUTDIR/report.md from what the GPU
// bundle's run.sh left there (bundle_report.hpp). Exit 0 when every step ran, 1 when one did not,
// 2 when the directory cannot be read.
#include <fstream>
#include <iostream>
#include <stdexcept>

#include "bundle_report.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: jetperf-bundle-report OUTDIR\n";
    return 2;
  }
  const std::string dir = argv[1];
  try {
    const auto report = jetperf::bundle::read_run(dir);
    std::ofstream json(dir + "/report.json");
    json << jetperf::bundle::to_json(report).dump(2) << "\n";
    std::ofstream md(dir + "/report.md");
    md << jetperf::bundle::to_markdown(report);
    if (!json.flush() || !md.flush()) throw std::runtime_error("cannot write report.json or report.md in " + dir);
    return jetperf::bundle::every_step_ran(report) ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "jetperf-bundle-report: " << e.what() << "\n";
    return 2;
  }
}
