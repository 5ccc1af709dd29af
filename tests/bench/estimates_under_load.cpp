// How close a running job's estimate comes to the truth on a loaded host (issue 56 item 4): two
// CPU hogs spin beside jetperfd on a simulated Orin while small jobs of every kind
// (tests/support/estimate_cases.cpp) run one after another, N of each kind, kinds interleaved
// (idle, gemm, layers, multi_dnn, command, then again). `history`: one daemon, so every job after
// a kind's first has the history of the earlier ones; `fresh`: a daemon with an empty database for
// each round, so every job is the first of its kind on its board (the job's own pace alone).
// Per job: the ETA the job view gave once the first point had ended, the time the job then really
// took, their ratio and the basis the view named. The target: the first ETA within 2x of the
// truth for at least 9 of every 10 jobs of a kind.
// Usage: bench_estimates_under_load [jobs_per_kind=10] [hogs=2] [history|fresh] [JETPERFD]
// (another jetperfd than the build's, e.g. an earlier one to compare with). Prints one JSON
// object; exits 1 when a kind misses the target.
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include <jetperf/config.hpp>
#include <support/cpu_hogs.hpp>
#include <support/daemon_process.hpp>
#include <support/estimate_cases.hpp>
#include <support/eta_trial.hpp>
#include <support/http_client.hpp>
#include <support/temp_dir.hpp>
#include <support/test_paths.hpp>

using namespace jetperf::test;
using nlohmann::json;

namespace {

double load_average() {
  double l[1] = {0};
  return ::getloadavg(l, 1) == 1 ? l[0] : -1;
}

// A daemon on the simulated board that runs command jobs of the program in `programs`.
std::unique_ptr<daemon_process> start_daemon(const temp_dir& sim, const temp_dir& programs, const temp_dir& shared,
                                             const std::string& program) {
  return std::make_unique<daemon_process>(
      std::vector<std::string>{"--board", "sim:orin-agx", "--sim-dir", sim.path(), "--log-level", "warn",
                               "--command-jobs", "true", "--command-user", "nobody", "--command-dirs",
                               programs.path(), "--runtime-dir", shared.file("run")},
      program);
}

}  // namespace

int run(int argc, char** argv) {
  const int per_kind = argc > 1 ? std::max(1, std::atoi(argv[1])) : 10;
  const auto hog_count = static_cast<std::size_t>(argc > 2 ? std::max(1, std::atoi(argv[2])) : 2);
  const std::string mode = argc > 3 ? argv[3] : "history";
  const std::string program = argc > 4 ? argv[4] : "";
  if (mode != "history" && mode != "fresh") throw std::invalid_argument("mode must be history or fresh, not " + mode);
  temp_dir programs, shared;
  // The command account must reach the program and the daemon's runtime directory.
  ::chmod(programs.path().c_str(), 0755);
  ::chmod(shared.path().c_str(), 01777);
  copy_file(test_programs_dir() + "/marked_phases", programs.file("marked_phases"), 0755);
  const auto kinds = estimate_case_kinds(JETPERF_HAS_ONEDNN != 0);
  std::map<std::string, json> jobs;
  const double load_before = load_average();
  {
    const cpu_hogs hogs(hog_count);
    std::unique_ptr<temp_dir> sim;
    std::unique_ptr<daemon_process> d;
    for (int n = 0; n < per_kind; ++n) {
      if (!d || mode == "fresh") {
        d.reset();
        sim = std::make_unique<temp_dir>();
        d = start_daemon(*sim, programs, shared, program);
      }
      http_client http(d->port(), std::chrono::seconds(60));
      for (const auto& kind : kinds) {
        const auto t = run_eta_trial(http, d->token(), kind, estimate_case_spec(kind, n, programs.file("marked_phases")));
        auto j = t.to_json();
        j["kind"] = kind;
        std::cerr << j.dump() << "\n";
        jobs[kind].push_back(std::move(j));
      }
    }
  }
  json per = json::object();
  bool met = true;
  for (const auto& kind : kinds) {
    int within = 0;
    double worst = 1;
    for (const auto& j : jobs[kind]) {
      const double r = j["ratio"].get<double>();
      if (r >= 0.5 && r <= 2.0) ++within;
      worst = std::max(worst, r > 0 ? std::max(r, 1 / r) : INFINITY);
    }
    const bool kind_met = within * 10 >= 9 * per_kind;
    met = met && kind_met;
    per[kind] = {{"within_2x", within}, {"of", per_kind}, {"worst_factor", worst}, {"met", kind_met}, {"jobs", jobs[kind]}};
  }
  std::cout << json{{"benchmark", "estimates_under_load"},
                    {"board", "sim:orin-agx, CPU backends, one thread"},
                    {"hogs", hog_count},
                    {"mode", mode},
                    {"jetperfd", program.empty() ? "this build's" : program},
                    {"load_before", load_before},
                    {"load_after", load_average()},
                    {"target", "the first ETA after the first point within 2x of the time left, 9 of 10 jobs per kind"},
                    {"met", met},
                    {"kinds", per}}
                   .dump(2)
            << "\n";
  return met ? 0 : 1;
}

int main(int argc, char** argv) {
  // Thrown out of the hogs' scope, so that they are killed before the process ends.
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "bench_estimates_under_load: " << e.what() << "\n";
    return 2;
  }
}
