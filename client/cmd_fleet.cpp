// jetperf fleet status|submit|watch|results: one client, many boards. The boards come from
// --hosts or the hosts file (fleet.hpp); each subcommand runs its requests on every board at once
// and reports each board on its own line, failures included. The exit status is the highest of
// the boards' (0 only when every board did its part: a refusal or an unreachable board shows).
#include <chrono>
#include <filesystem>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "board_csv_merge.hpp"
#include "cli_error.hpp"
#include "command.hpp"
#include "fleet.hpp"
#include "output.hpp"
#include "submit_spec_flags.hpp"

namespace jetperf::client {

namespace {

std::int64_t wall_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string text_of(const nlohmann::json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || j[key].is_null()) return "-";
  const auto& v = j[key];
  if (v.is_string()) return v.get<std::string>().empty() ? "-" : v.get<std::string>();
  return format_cell(v);
}

// The module's total power from a telemetry snapshot: the computed total when the board has one,
// else its input rail (VDD_IN), else the sum of its rails.
std::optional<double> total_power_w(const nlohmann::json& telemetry) {
  std::optional<double> input, sum;
  for (const auto& c : telemetry.value("channels", nlohmann::json::array())) {
    const auto name = c.value("name", std::string());
    if (!c.contains("value") || !c["value"].is_number()) continue;
    const double v = c["value"].get<double>();
    if (name == "power.total") return v;
    if (name == "rail.VDD_IN") input = v;
    if (name.rfind("rail.", 0) == 0) sum = sum.value_or(0) + v;
  }
  return input ? input : sum;
}

void report_failures(const std::vector<fleet_board>& boards, const std::vector<board_outcome>& outcomes) {
  for (std::size_t i = 0; i < boards.size(); ++i)
    if (outcomes[i].code != exit_ok)
      std::cerr << "error: board " << boards[i].name << " (" << boards[i].config.target.text()
                << "): " << outcomes[i].error << std::endl;
}

/// The options every fleet subcommand takes.
struct fleet_options {
  std::string hosts;
  std::string hosts_file;
  std::string on;
  void add_to(CLI::App& app) {
    app.add_option("--hosts", hosts, "Boards as a comma list of host:port or name=host:port (instead of the hosts file)");
    app.add_option("--hosts-file", hosts_file, "Hosts file (default ~/.config/jetperf/hosts: `name = host:port [token-file]`)");
    app.add_option("--on", on, "Only these boards (names, comma-separated)");
  }
  std::vector<fleet_board> boards(const context& ctx) const {
    return resolve_fleet(ctx.config(), hosts, hosts_file, on);
  }
};

class fleet_status {
 public:
  explicit fleet_status(CLI::App& parent) : app_(parent.add_subcommand("status", "One line per board: model, L4T, mode, power, job, queue, clock skew")) {
    opts_.add_to(*app_);
  }
  CLI::App* app() const { return app_; }

  int run(context& ctx) {
    const auto boards = opts_.boards(ctx);
    std::vector<nlohmann::json> rows(boards.size());
    const auto outcomes = for_each_board(boards, [&](std::size_t i, context& c) {
      nlohmann::json row{{"board", boards[i].name}, {"address", boards[i].config.target.text()}};
      const auto health = c.call("GET", "/v1/health");
      row["model"] = health.value("model", health.value("family", std::string()));
      row["l4t"] = health.value("l4t", std::string());
      row["simulated"] = health.value("simulated", false);
      const auto queue = health.value("queue", nlohmann::json::object());
      row["queued"] = queue.value("queued", std::int64_t{0});
      // Clock skew: the daemon's wall clock against the middle of the request's round trip.
      const auto t0 = wall_now_ns();
      const auto time = c.call("GET", "/v1/time");
      const auto t1 = wall_now_ns();
      row["skew_ms"] = static_cast<double>(time.value("wall_ns", std::int64_t{0}) - (t0 + (t1 - t0) / 2)) / 1e6;
      row["round_trip_ms"] = static_cast<double>(t1 - t0) / 1e6;
      try {
        row["mode"] = c.call("GET", "/v1/power-mode").value("name", std::string());
      } catch (const cli_error&) {
        row["mode"] = nullptr;  // a board without nvpmodel (dgpu, host) answers 503
      }
      try {
        if (auto w = total_power_w(c.call("GET", "/v1/telemetry"))) row["power_w"] = *w;
      } catch (const cli_error&) {
      }
      if (queue.contains("running") && queue["running"].is_number_integer()) {
        const auto id = queue["running"].get<std::int64_t>();
        const auto job = c.call("GET", "/v1/jobs/" + std::to_string(id));
        const auto p = job.value("progress", nlohmann::json::object());
        row["job"] = {{"id", id}, {"kind", job.value("kind", std::string())},
                      {"done", p.value("done", std::int64_t{0})}, {"total", p.value("total", std::int64_t{0})}};
      }
      rows[i] = std::move(row);
    });
    if (ctx.config().json) {
      nlohmann::json out = nlohmann::json::array();
      for (std::size_t i = 0; i < boards.size(); ++i) {
        nlohmann::json r = outcomes[i].code == exit_ok ? rows[i] : nlohmann::json{{"board", boards[i].name}};
        if (outcomes[i].code != exit_ok) r["error"] = outcomes[i].error;
        out.push_back(r);
      }
      std::cout << nlohmann::json{{"boards", out}}.dump(2) << std::endl;
    } else {
      std::vector<std::vector<std::string>> table;
      for (std::size_t i = 0; i < boards.size(); ++i) {
        const auto& r = rows[i];
        if (outcomes[i].code != exit_ok) {
          table.push_back({boards[i].name, "unreachable", "-", "-", "-", "-", "-", "-"});
          continue;
        }
        char power[32] = "-", skew[32];
        if (r.contains("power_w")) std::snprintf(power, sizeof power, "%.2f W", r["power_w"].get<double>());
        std::snprintf(skew, sizeof skew, "%+.1f ms", r["skew_ms"].get<double>());
        std::string job = "-";
        if (r.contains("job")) {
          const auto& j = r["job"];
          job = std::to_string(j["id"].get<std::int64_t>()) + " " + j["kind"].get<std::string>() + " " +
                std::to_string(j["done"].get<std::int64_t>()) + "/" + std::to_string(j["total"].get<std::int64_t>());
        }
        table.push_back({r["board"].get<std::string>(), text_of(r, "model") + (r.value("simulated", false) ? " (sim)" : ""),
                         text_of(r, "l4t"), text_of(r, "mode"), power, job, text_of(r, "queued"), skew});
      }
      std::cout << render_table(ctx.config().format, {"BOARD", "MODEL", "L4T", "MODE", "POWER", "JOB", "QUEUED", "SKEW"},
                                table);
      std::cout.flush();
    }
    report_failures(boards, outcomes);
    return fleet_exit_code(outcomes);
  }

 private:
  CLI::App* app_;
  fleet_options opts_;
};

class fleet_submit {
 public:
  explicit fleet_submit(CLI::App& parent)
      : app_(parent.add_subcommand("submit", "The same job on every board (or --on a,b): submit KIND [kind flags]")),
        request_flags_(*app_) {
    opts_.add_to(*app_);
  }
  CLI::App* app() const { return app_; }

  int run(context& ctx) {
    const auto request = request_flags_.build();
    const auto boards = opts_.boards(ctx);
    std::vector<nlohmann::json> jobs(boards.size());
    const auto body = request.body().dump();
    const auto outcomes =
        for_each_board(boards, [&](std::size_t i, context& c) { jobs[i] = c.call("POST", "/v1/jobs", body); });
    if (ctx.config().json) {
      nlohmann::json out = nlohmann::json::array();
      for (std::size_t i = 0; i < boards.size(); ++i) {
        nlohmann::json r{{"board", boards[i].name}};
        if (outcomes[i].code == exit_ok) r["job"] = jobs[i];
        else r["error"] = outcomes[i].error;
        out.push_back(r);
      }
      std::cout << nlohmann::json{{"boards", out}}.dump(2) << std::endl;
    } else {
      for (std::size_t i = 0; i < boards.size(); ++i) {
        if (outcomes[i].code != exit_ok) continue;
        const auto progress = jobs[i].value("progress", nlohmann::json::object());
        std::cout << boards[i].name << ": submitted job " << jobs[i].value("id", std::int64_t{0}) << " ("
                  << request.kind << ", " << progress.value("total", std::int64_t{0}) << " points, estimate "
                  << format_duration(jobs[i].value("estimate_s", nlohmann::json())) << ")\n";
      }
      std::cout.flush();
    }
    report_failures(boards, outcomes);
    return fleet_exit_code(outcomes);
  }

 private:
  CLI::App* app_;
  submit_spec_flags request_flags_;
  fleet_options opts_;
};

bool finished_state(const std::string& s) {
  return s == "succeeded" || s == "partial" || s == "failed" || s == "cancelled" || s == "interrupted";
}

class fleet_watch {
 public:
  explicit fleet_watch(CLI::App& parent)
      : app_(parent.add_subcommand("watch", "One progress bar per board until its job ends (--tag T: the newest job with the tag)")) {
    opts_.add_to(*app_);
    app_->add_option("--tag", tag_, "Follow each board's newest job carrying this tag (default: the running job)");
    app_->add_option("--interval", interval_s_, "Seconds between polls (default 0.5)")->check(CLI::PositiveNumber);
  }
  CLI::App* app() const { return app_; }

  int run(context& ctx) {
    const auto boards = opts_.boards(ctx);
    struct view {
      std::int64_t id = 0;
      std::string state = "?";
      std::int64_t done = 0, total = 0;
      nlohmann::json eta = nullptr;
    };
    std::mutex mutex;
    std::vector<view> views(boards.size());
    const auto poll = std::chrono::milliseconds(static_cast<int>(interval_s_ * 1000));
    std::vector<board_outcome> outcomes;
    bool all_done = false;
    std::thread worker([&] {
      outcomes = for_each_board(boards, [&](std::size_t i, context& c) {
        std::int64_t id = 0;
        if (!tag_.empty()) {
          const auto list = c.call("GET", "/v1/jobs?limit=1&tag=" + url_encode(tag_));
          const auto jobs = list.value("jobs", nlohmann::json::array());
          if (jobs.empty()) throw cli_error(exit_failure, "no job carries tag '" + tag_ + "'");
          id = jobs[0].value("id", std::int64_t{0});
        } else {
          const auto queue = c.call("GET", "/v1/health").value("queue", nlohmann::json::object());
          if (!queue.contains("running") || !queue["running"].is_number_integer())
            throw cli_error(exit_failure, "no job is running (give --tag T to follow a tagged one)");
          id = queue["running"].get<std::int64_t>();
        }
        for (;;) {
          const auto job = c.call("GET", "/v1/jobs/" + std::to_string(id));
          const auto p = job.value("progress", nlohmann::json::object());
          const auto state = job.value("state", std::string("?"));
          {
            std::lock_guard<std::mutex> lock(mutex);
            views[i] = {id, state, p.value("done", std::int64_t{0}), p.value("total", std::int64_t{0}),
                        p.value("eta_s", nlohmann::json())};
          }
          if (finished_state(state)) break;
          std::this_thread::sleep_for(poll);
        }
        if (views[i].state != "succeeded")
          throw cli_error(exit_failure, "job " + std::to_string(id) + " ended " + views[i].state);
      });
      std::lock_guard<std::mutex> lock(mutex);
      all_done = true;
    });
    const int width = stdout_terminal_width();
    std::size_t name_w = 0;
    for (const auto& b : boards) name_w = std::max(name_w, b.name.size());
    std::vector<std::string> printed(boards.size());
    bool drawn = false;
    for (bool last = false; !last;) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      std::lock_guard<std::mutex> lock(mutex);
      last = all_done;
      if (width > 0) {
        // A terminal: redraw every board's bar in place.
        if (drawn) std::cout << "\x1b[" << boards.size() << "A";
        for (std::size_t i = 0; i < boards.size(); ++i) {
          const auto& v = views[i];
          std::string name = boards[i].name;
          name.resize(name_w, ' ');
          const std::string line = v.id ? progress_bar(v.id, v.done, v.total, v.eta, width - static_cast<int>(name_w) - 2 - 12) + " " + v.state
                                        : std::string("waiting");
          std::cout << '\r' << name << "  " << line << "\x1b[K\n";
        }
        std::cout << std::flush;
        drawn = true;
      } else {
        // Piped: a line per board whenever its job's state or progress changes.
        for (std::size_t i = 0; i < boards.size(); ++i) {
          const auto& v = views[i];
          if (!v.id) continue;
          const std::string line = boards[i].name + ": " + progress_line(v.id, v.done, v.total, v.eta) + " " + v.state;
          if (line != printed[i]) std::cout << line << '\n' << std::flush;
          printed[i] = line;
        }
      }
    }
    worker.join();
    report_failures(boards, outcomes);
    return fleet_exit_code(outcomes);
  }

 private:
  CLI::App* app_;
  fleet_options opts_;
  std::string tag_;
  double interval_s_ = 0.5;
};

class fleet_results {
 public:
  explicit fleet_results(CLI::App& parent)
      : app_(parent.add_subcommand("results", "Every board's results of the jobs with --tag as one CSV (board, job_id columns)")) {
    opts_.add_to(*app_);
    app_->add_option("--tag", tags_, "The jobs carrying this tag (repeat for all of several)")->required();
    app_->add_option("--kind", kind_, "Only jobs of this kind (when the tags cover several)");
    app_->add_option("-o,--output", output_, "Directory: writes results.csv and provenance.json there (default: CSV on stdout)");
  }
  CLI::App* app() const { return app_; }

  int run(context& ctx) {
    const auto boards = opts_.boards(ctx);
    std::string tags;
    for (const auto& t : tags_) tags += (tags.empty() ? "" : ",") + t;
    std::string target = "/v1/results?format=csv&tags=" + url_encode(tags);
    if (!kind_.empty()) target += "&kind=" + url_encode(kind_);
    std::vector<std::string> csv(boards.size());
    std::vector<nlohmann::json> provenance(boards.size(), nlohmann::json::object());
    const auto outcomes = for_each_board(boards, [&](std::size_t i, context& c) {
      csv[i] = c.call_text(target);
      // Each job's provenance, for the ids the board's table holds.
      const auto rows = parse_csv(csv[i]);
      if (rows.empty()) return;
      std::size_t col = rows[0].size();
      for (std::size_t k = 0; k < rows[0].size(); ++k)
        if (rows[0][k] == "job_id") col = k;
      std::set<std::string> ids;
      for (std::size_t r = 1; r < rows.size(); ++r)
        if (col < rows[r].size() && !rows[r][col].empty()) ids.insert(rows[r][col]);
      for (const auto& id : ids)
        provenance[i][id] = c.call("GET", "/v1/jobs/" + url_encode(id)).value("provenance", nlohmann::json::object());
    });
    std::vector<std::pair<std::string, std::string>> answered;
    nlohmann::json all_provenance = nlohmann::json::object();
    for (std::size_t i = 0; i < boards.size(); ++i) {
      if (outcomes[i].code != exit_ok) continue;
      answered.emplace_back(boards[i].name, csv[i]);
      all_provenance[boards[i].name] = provenance[i];
    }
    const std::string merged = merge_board_csv(answered);
    if (output_.empty()) {
      std::cout << merged << std::flush;
    } else {
      std::error_code ec;
      std::filesystem::create_directories(output_, ec);
      if (ec) throw cli_error(exit_usage, "cannot create directory '" + output_ + "': " + ec.message());
      const auto dir = std::filesystem::path(output_);
      write_text_file((dir / "results.csv").string(), merged);
      write_text_file((dir / "provenance.json").string(), all_provenance.dump(2) + "\n");
      std::size_t rows = 0;
      for (char ch : merged) rows += ch == '\n';
      std::cout << "wrote " << (dir / "results.csv").string() << " (" << (rows ? rows - 1 : 0) << " rows from "
                << answered.size() << " of " << boards.size() << " boards) and " << (dir / "provenance.json").string()
                << std::endl;
    }
    report_failures(boards, outcomes);
    return fleet_exit_code(outcomes);
  }

 private:
  CLI::App* app_;
  fleet_options opts_;
  std::vector<std::string> tags_;
  std::string kind_;
  std::string output_;
};

class fleet_command final : public command {
 public:
  explicit fleet_command(CLI::App& parent)
      : app_(parent.add_subcommand("fleet", "Many boards at once (--hosts or ~/.config/jetperf/hosts): status, submit, watch, results")),
        status_(*app_),
        submit_(*app_),
        watch_(*app_),
        results_(*app_) {
    app_->require_subcommand(1);
  }
  CLI::App* app() const override { return app_; }
  bool prints_table() const override { return status_.app()->parsed() || results_.app()->parsed(); }

  int run(context& ctx) override {
    if (status_.app()->parsed()) return status_.run(ctx);
    if (submit_.app()->parsed()) return submit_.run(ctx);
    if (watch_.app()->parsed()) return watch_.run(ctx);
    return results_.run(ctx);
  }

 private:
  CLI::App* app_;
  fleet_status status_;
  fleet_submit submit_;
  fleet_watch watch_;
  fleet_results results_;
};

}  // namespace

std::unique_ptr<command> make_fleet_command(CLI::App& parent) { return std::make_unique<fleet_command>(parent); }

}  // namespace jetperf::client
