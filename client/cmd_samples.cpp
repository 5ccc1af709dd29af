// jetperf samples ID --point N: one point's raw power series, one row per sampler tick and one
// column per rail (W), time in seconds from the window's start: seed 000's per-test `time,power`
// files, for every rail at once. --channel picks one channel of any unit instead.
#include <algorithm>
#include <iostream>
#include <map>
#include <sstream>

#include "cli_error.hpp"
#include "command.hpp"
#include "output.hpp"

namespace jetperf::client {

namespace {

using json = nlohmann::json;

// Samples asked for per request.
constexpr int k_page = 50000;

// Samples of the chosen channels pivoted by time: "time_s,<channel>,..." CSV.
std::string series_csv(const json& answer, const std::string& only) {
  std::vector<std::string> names;
  for (const auto& c : answer.value("channels", json::array())) {
    const auto name = c.value("name", std::string());
    if (only.empty() ? c.value("unit", std::string()) == "W" : name == only) names.push_back(name);
  }
  std::map<std::int64_t, std::map<std::string, double>> by_time;
  for (const auto& s : answer.value("samples", json::array())) {
    const auto name = s.value("channel", std::string());
    if (std::find(names.begin(), names.end(), name) == names.end()) continue;
    by_time[s.value("t_ns", std::int64_t{0})][name] = s.value("value", 0.0);
  }
  std::ostringstream out;
  out << "time_s";
  for (const auto& n : names) out << ',' << n;
  out << '\n';
  const std::int64_t t0 = by_time.empty() ? 0 : by_time.begin()->first;
  for (const auto& [t, values] : by_time) {
    out << format_cell(json(static_cast<double>(t - t0) / 1e9));
    for (const auto& n : names) {
      out << ',';
      auto it = values.find(n);
      if (it != values.end()) out << json(it->second).dump();
    }
    out << '\n';
  }
  return out.str();
}

class samples_command final : public command {
 public:
  explicit samples_command(CLI::App& parent)
      : app_(parent.add_subcommand("samples", "One point's raw power samples, one column per rail (CSV)")) {
    app_->add_option("id", id_, "Job id")->required()->check(job_id_check());
    app_->add_option("--point", point_, "The point's index (the results' index column)")->required()->check(CLI::NonNegativeNumber);
    app_->add_option("--channel", channel_, "Only this telemetry channel, of any unit (default: every power channel)");
    app_->add_option("-o,--output", output_, "Write to this file instead of stdout")->transform(dash_is_stdout());
  }
  CLI::App* app() const override { return app_; }
  bool prints_table() const override { return true; }  // CSV, for --format table and csv alike

  int run(context& ctx) override {
    std::string target = "/v1/jobs/" + std::to_string(id_) + "/samples?point=" + std::to_string(point_);
    if (!channel_.empty()) target += "&channel=" + url_encode(channel_);
    // Page by page: a long point's samples never have to fit one answer.
    json answer;
    for (std::string after;;) {
      auto page = ctx.call("GET", target + "&limit=" + std::to_string(k_page) + (after.empty() ? "" : "&after=" + url_encode(after)));
      if (answer.is_null()) {
        answer = page;
      } else {
        for (auto& s : page["samples"]) answer["samples"].push_back(std::move(s));
        for (auto& c : page["channels"])
          if (std::find(answer["channels"].begin(), answer["channels"].end(), c) == answer["channels"].end())
            answer["channels"].push_back(c);
      }
      if (!page.value("next_after", json()).is_string()) break;
      after = page["next_after"].get<std::string>();
    }
    answer.erase("next_after");
    const std::string text = ctx.config().json ? answer.dump(2) + "\n" : series_csv(answer, channel_);
    if (output_.empty()) {
      std::cout << text;
      return exit_ok;
    }
    write_text_file(output_, text);
    return exit_ok;
  }

 private:
  CLI::App* app_;
  std::int64_t id_ = 0;
  std::int64_t point_ = 0;
  std::string channel_;
  std::string output_;
};

}  // namespace

std::unique_ptr<command> make_samples_command(CLI::App& parent) { return std::make_unique<samples_command>(parent); }

}  // namespace jetperf::client
