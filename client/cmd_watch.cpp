// jetperf watch ID: follows a job's event stream until the job ends. On a terminal a one-line
// progress bar is redrawn in place; otherwise (pipes, logs) plain lines are printed.
#include <sys/ioctl.h>
#include <unistd.h>

#include <chrono>
#include <iostream>
#include <thread>

#include "cli_error.hpp"
#include "command.hpp"
#include "output.hpp"
#include "watch_interrupt.hpp"

namespace jetperf::client {

namespace {

bool is_terminal_state(const std::string& s) {
  return s == "succeeded" || s == "partial" || s == "failed" || s == "cancelled" || s == "interrupted";
}

int terminal_width() {
  winsize ws{};
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20) return ws.ws_col;
  return 80;
}

std::string state_of(const nlohmann::json& j) {
  return j.is_object() && j.contains("state") && j["state"].is_string() ? j["state"].get<std::string>() : std::string();
}

// Renders the stream for a person or a log; remembers the final state.
class watcher {
 public:
  watcher(std::int64_t id, bool json, bool tty) : id_(id), json_(json), tty_(tty) {}

  bool on_event(const sse_event& e) {
    const auto data = nlohmann::json::parse(e.data, nullptr, false);
    if (json_) {
      std::cout << nlohmann::json{{"event", e.event}, {"data", data.is_discarded() ? nlohmann::json(e.data) : data}}.dump()
                << std::endl;
    }
    if (data.is_discarded()) return true;
    if (e.event == "progress") {
      progress(data.value("done", std::int64_t{0}), data.value("total", std::int64_t{0}),
               data.value("eta_s", nlohmann::json()), data.value("eta_basis", nlohmann::json()));
    } else if (e.event == "state") {
      const auto s = state_of(data);
      if (!s.empty()) state(s);
    } else if (e.event == "end") {
      final_state_ = state_of(data);
      return false;
    }
    return true;
  }

  /// Shows a job snapshot (from GET) as progress.
  void show(const nlohmann::json& job) {
    const auto p = job.value("progress", nlohmann::json::object());
    const auto done = p.value("done", std::int64_t{0});
    const auto total = p.value("total", std::int64_t{0});
    auto eta = p.value("eta_s", nlohmann::json());
    // A finished job has no ETA; show 0 rather than "?".
    if (eta.is_null() && done >= total) eta = 0;
    progress(done, total, eta, p.value("eta_basis", nlohmann::json()));
  }

  void state(const std::string& s) {
    if (s == state_) return;
    state_ = s;
    if (json_ || tty_) return;
    std::cout << "job " << id_ << ": " << s << std::endl;
  }

  void finish(const nlohmann::json& job) {
    const auto s = state_of(job);
    if (json_) return;
    if (tty_ && drawn_) std::cout << '\n';
    const bool has_error =
        job.contains("error") && job["error"].is_string() && !job["error"].get<std::string>().empty();
    // A plain log already has "job N: <state>" from the state event; say it once.
    if (!tty_ && !has_error && s == state_) return;
    std::cout << "job " << id_ << ": " << s;
    if (has_error) std::cout << ": " << job["error"].get<std::string>();
    std::cout << std::endl;
  }

  const std::string& final_state() const { return final_state_; }

 private:
  void progress(std::int64_t done, std::int64_t total, const nlohmann::json& eta, const nlohmann::json& basis) {
    if (json_) return;
    if (tty_) {
      std::cout << '\r' << progress_bar(id_, done, total, eta, terminal_width(), basis) << "\x1b[K" << std::flush;
      drawn_ = true;
      return;
    }
    if (done == last_done_ && total == last_total_) return;
    last_done_ = done;
    last_total_ = total;
    std::cout << progress_line(id_, done, total, eta, basis) << std::endl;
  }

  std::int64_t id_;
  bool json_, tty_;
  bool drawn_ = false;
  std::string state_, final_state_;
  std::int64_t last_done_ = -1, last_total_ = -1;
};

class watch_command final : public command {
 public:
  explicit watch_command(CLI::App& parent) : app_(parent.add_subcommand("watch", "Follow a job until it ends")) {
    app_->add_option("id", id_, "Job id")->required()->check(job_id_check());
  }
  CLI::App* app() const override { return app_; }
  int run(context& ctx) override { return watch_job(ctx, id_); }

 private:
  CLI::App* app_;
  std::int64_t id_ = 0;
};

}  // namespace

int watch_job(context& ctx, std::int64_t id) {
  const std::string path = "/v1/jobs/" + std::to_string(id);
  const bool tty = isatty(STDOUT_FILENO) != 0 && std::getenv("TERM") && std::string(std::getenv("TERM")) != "dumb";
  watcher w(id, ctx.config().json, tty);
  // Ctrl-C stops the watching, not the job: say so, and how to stop the job.
  const watch_interrupt_guard interrupt(id, tty && !ctx.config().json);
  auto job = ctx.call("GET", path);
  bool followed = false;
  // The stream may end without an `end` event (daemon restart, proxy): look again and reconnect.
  while (!is_terminal_state(state_of(job))) {
    followed = true;
    w.state(state_of(job));
    w.show(job);
    const auto reply = ctx.http().stream(path + "/events", [&w](const sse_event& e) { return w.on_event(e); });
    throw_if_error(reply);
    job = ctx.call("GET", path);
    if (!w.final_state().empty() && !is_terminal_state(state_of(job))) {
      // `end` arrived before the job row was updated; trust the event.
      job["state"] = w.final_state();
    }
    if (!is_terminal_state(state_of(job))) std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  // The last progress frame may have raced the end of the stream: show where the job ended.
  if (followed) w.show(job);
  w.finish(job);
  return state_of(job) == "succeeded" ? exit_ok : exit_failure;
}

std::unique_ptr<command> make_watch_command(CLI::App& parent) { return std::make_unique<watch_command>(parent); }

}  // namespace jetperf::client
