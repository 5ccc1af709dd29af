// Per-layer energy in context against the simulator's own truth, on every kind of board (issue 55):
// for each simulated board (built-in profiles and profile files whose sensors differ from every
// built-in one) and network, one isolated `layers` job (its wall time) and `jobs` in_context jobs
// (CPU backend, one thread, highest CPU clock). Every layer and group row with an interval is set
// against its sim_power_w: inside the 95% interval or not, its half-width over its sim_dynamic_w,
// and the sign of its error (a sign test per layer over the jobs that gave it a figure).
// Usage: bench_in_context_truth [jobs=10] [boards=sim:nano,sim:tx2,sim:thor,sim:orin-nano,profile:a,profile:b]
//        [models=resnet18,mobilenet_v2,efficientnet_b0] [isolated=1] [granularity=block]
// (`profile:a` and `profile:b` are the two profile files this program writes: see profile_files()).
// Prints one JSON object: per board and network, and per board over its networks.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <jetperf/sim/board_profile.hpp>
#include <jetperf/sim/profile_file.hpp>

#include <support/daemon_process.hpp>
#include <support/finished_job.hpp>
#include <support/http_client.hpp>
#include <support/temp_dir.hpp>

using namespace jetperf::test;
using nlohmann::json;

namespace {

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

double number(const json& row, const char* key) {
  return row.contains(key) && row[key].is_number() ? row[key].get<double>() : std::nan("");
}

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return std::nan("");
  std::sort(v.begin(), v.end());
  const double pos = q * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const auto hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (pos - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

// Two-sided sign test: the chance of a split at least this uneven among n fair coin flips.
double sign_test_p(int below, int above) {
  const int n = below + above, k = std::min(below, above);
  if (n == 0) return 1;
  double p = 0;
  for (int i = 0; i <= k; ++i) {
    double c = 1;
    for (int j = 0; j < i; ++j) c = c * (n - j) / (j + 1);
    p += c * std::pow(0.5, n);
  }
  return std::min(1.0, 2 * p);
}

// Two boards whose sensors differ from every built-in profile's: an Orin Nano (its input rail
// the total) whose INA3221 updates every 11.3 ms at 16 samples, 1.5 ms late, with absolute noise;
// and an L4T r32 Xavier NX (no averaging to set) whose sensor updates every 33.1 ms, 3 ms late.
std::map<std::string, std::string> profile_files(const std::string& dir) {
  using jetperf::sim::find_profile;
  auto a = find_profile("orin-nano");
  a.name = "bench-a";
  a.sensor.period_us = 11300;
  a.sensor.lag_us = 1500;
  a.sensor.noise_mw = 8;
  a.sensor.noise_fraction = 0.002;
  auto b = find_profile("xavier-nx");
  b.name = "bench-b";
  b.sensor.period_us = 33100;
  b.sensor.lag_us = 3000;
  b.sensor.noise_mw = 3;
  b.sensor.noise_fraction = 0.004;
  std::map<std::string, std::string> out;
  for (const auto* p : {&a, &b}) {
    const std::string path = dir + "/" + p->name + ".json";
    std::ofstream(path) << jetperf::sim::profile_json_text(*p);
    out["profile:" + std::string(p == &a ? "a" : "b")] = "sim:" + path;
  }
  return out;
}

struct tally {
  int rows = 0, inside = 0, jobs = 0, succeeded = 0;
  std::vector<double> rel_half, job_s;
  std::map<std::string, std::pair<int, int>> signs;  // layer -> (below, above)
  void add(const tally& t) {
    rows += t.rows, inside += t.inside, jobs += t.jobs, succeeded += t.succeeded;
    rel_half.insert(rel_half.end(), t.rel_half.begin(), t.rel_half.end());
    job_s.insert(job_s.end(), t.job_s.begin(), t.job_s.end());
  }
  json summary() const {
    int biased = 0, tested = 0;
    json worst;
    double worst_p = 1;
    for (const auto& [layer, s] : signs) {
      if (s.first + s.second < 10) continue;
      ++tested;
      const double p = sign_test_p(s.first, s.second);
      if (p <= 0.05) ++biased;
      if (p < worst_p) worst_p = p, worst = {{"layer", layer}, {"below", s.first}, {"above", s.second}, {"p", p}};
    }
    return {{"rows", rows},
            {"coverage", rows ? json(static_cast<double>(inside) / rows) : json()},
            {"median_rel_half_width", rel_half.empty() ? json() : json(quantile(rel_half, 0.5))},
            {"p90_rel_half_width", rel_half.empty() ? json() : json(quantile(rel_half, 0.9))},
            {"layers_sign_tested", tested},
            {"layers_biased_p05", biased},
            {"most_uneven", worst},
            {"jobs", jobs},
            {"succeeded", succeeded},
            {"in_context_job_s_median", job_s.empty() ? json() : json(quantile(job_s, 0.5))}};
  }
};

// Every row with an interval and a truth: inside or not, its width over its dynamic power, the
// sign of its error (for layers with a name: a group is named by its members).
void score(const json& rows, tally& t) {
  for (const auto& r : rows) {
    const double p = number(r, "power_w"), h = number(r, "power_ci95_w"), truth = number(r, "sim_power_w"),
                 dyn = number(r, "sim_dynamic_w");
    if (!std::isfinite(p) || !std::isfinite(h) || !std::isfinite(truth)) continue;
    ++t.rows;
    t.inside += std::fabs(p - truth) <= h;
    if (dyn > 0) t.rel_half.push_back(h / dyn);
    auto& s = t.signs[r.value("layer_name", std::string())];
    (p < truth ? s.first : s.second) += 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int jobs = argc > 1 ? std::atoi(argv[1]) : 10;
  auto boards = split(argc > 2 ? argv[2] : "sim:nano,sim:tx2,sim:thor,sim:orin-nano,profile:a,profile:b");
  const auto models = split(argc > 3 ? argv[3] : "resnet18,mobilenet_v2,efficientnet_b0");
  const bool isolated = argc > 4 ? std::atoi(argv[4]) != 0 : true;
  const std::string granularity = argc > 5 ? argv[5] : "block";

  temp_dir scratch;
  const auto files = profile_files(scratch.path());
  json out = {{"benchmark", "in_context_truth"}, {"jobs_per_network", jobs}, {"granularity", granularity}};
  tally all;
  for (const auto& board : boards) {
    const auto it = files.find(board);
    const std::string kind = it != files.end() ? it->second : board;
    temp_dir sim;
    daemon_process d({"--board", kind, "--sim-dir", sim.path(), "--log-level", "warn"});
    http_client http(d.port(), std::chrono::seconds(120));
    const json base = {{"models", ""}, {"devices", "cpu"}, {"granularity", granularity}, {"threads", 1},
                       {"cpu_freqs", {"max"}}};
    tally on_board;
    for (const auto& model : models) {
      auto spec = base;
      spec["models"] = model;
      json entry = {{"board", board}, {"network", model}};
      if (isolated) {
        auto iso = spec;
        iso.update({{"protocol", "adaptive"}, {"end_to_end", false}});
        try {
          entry["isolated_job_s"] = run_job(d, http, "layers", iso).wall_s;
        } catch (const std::exception& e) {
          entry["isolated_error"] = e.what();
        }
      }
      tally t;
      auto context = spec;
      context["protocol"] = "in_context";
      for (int k = 0; k < jobs; ++k) {
        ++t.jobs;
        try {
          const auto done = run_job(d, http, "layers", context);
          ++t.succeeded;
          t.job_s.push_back(done.wall_s);
          score(done.results["rows"], t);
        } catch (const std::exception& e) {
          entry["errors"].push_back(e.what());
        }
      }
      entry["in_context"] = t.summary();
      if (entry.contains("isolated_job_s") && !t.job_s.empty())
        entry["speedup_vs_isolated"] = entry["isolated_job_s"].get<double>() / quantile(t.job_s, 0.5);
      out["networks"].push_back(entry);
      std::cerr << entry.dump() << "\n";
      on_board.add(t);
      for (const auto& [layer, s] : t.signs) on_board.signs[model + ":" + layer] = s;
    }
    out["boards"][board] = on_board.summary();
    all.add(on_board);
  }
  out["all"] = all.summary();
  std::cout << out.dump(2) << "\n";
  return 0;
}
