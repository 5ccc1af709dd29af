// jetperf top: live telemetry (GET /v1/telemetry/stream), like tegrastats or jtop. On a terminal
// the view is redrawn in place; otherwise each update is one plain line (for logs and tests).
// Ctrl-C ends it at the next update, with the terminal left tidy.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <optional>
#include <sstream>

#include "cli_error.hpp"
#include "command.hpp"
#include "output.hpp"

namespace jetperf::client {

namespace {

std::atomic<bool> g_interrupted{false};

extern "C" void on_sigint(int) { g_interrupted.store(true); }

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// One reading in its usual display unit: W with 2 decimals, clocks in MHz, C with 1 decimal.
std::string value_text(const nlohmann::json& c) {
  const auto v = c.value("value", nlohmann::json());
  if (!v.is_number()) return "-";
  const double x = v.get<double>();
  const auto unit = c.value("unit", std::string());
  if (unit == "W") return fixed(x, 2) + " W";
  if (unit == "mW") return fixed(x / 1000.0, 2) + " W";
  if (unit == "Hz") return fixed(x / 1e6, 0) + " MHz";
  if (unit == "kHz") return fixed(x / 1e3, 0) + " MHz";
  if (unit == "C") return fixed(x, 1) + " C";
  if (unit == "%") return fixed(x, 0) + " %";
  return format_number(x) + (unit.empty() ? "" : " " + unit);
}

// "rail.VDD_GPU_SOC" -> "VDD_GPU_SOC", "power.total" -> "total".
std::string short_name(const std::string& name) {
  const auto dot = name.find('.');
  return dot == std::string::npos ? name : name.substr(dot + 1);
}

struct group {
  const char* label;
  const char* kind;
};
const group k_groups[] = {{"power", "power"}, {"clocks", "clock"}, {"temps", "temperature"},
                          {"util", "utilisation"}, {"other", "other"}};

class top_view {
 public:
  top_view(std::string host, bool tty, int width) : host_(std::move(host)), tty_(tty), width_(width) {}

  void set_rate(const nlohmann::json& health) {
    if (health.is_object() && health.contains("achieved_rate_hz") && health["achieved_rate_hz"].is_number())
      rate_hz_ = health["achieved_rate_hz"].get<double>();
  }

  void draw(const nlohmann::json& frame, std::int64_t update) {
    const auto channels = frame.value("channels", nlohmann::json::array());
    if (!tty_) {
      std::string line = "update " + std::to_string(update);
      for (const auto& c : channels) {
        if (!c.is_object()) continue;
        auto text = value_text(c);
        text.erase(std::remove(text.begin(), text.end(), ' '), text.end());
        // Clock and utilisation names repeat ("clock.gpu", "util.gpu"): they keep their prefix.
        const auto kind = c.value("kind", std::string());
        const auto name = c.value("name", std::string("?"));
        line += " " + (kind == "power" || kind == "temperature" ? short_name(name) : name) + "=" + text;
      }
      if (rate_hz_) line += " sampler=" + fixed(*rate_hz_, 1) + "Hz";
      std::cout << line << std::endl;
      return;
    }
    std::ostringstream out;
    // Home, then each line cleared to its end: no flicker from clearing the whole screen.
    out << "\x1b[H" << "jetperf top  " << host_ << "  sampler "
        << (rate_hz_ ? fixed(*rate_hz_, 1) + " Hz" : std::string("?")) << "  update " << update
        << "  (Ctrl-C quits)\x1b[K\n\x1b[K\n";
    for (const auto& g : k_groups) {
      std::string line;
      std::string label = g.label;
      label.resize(8, ' ');
      std::string current = label;
      // The total is the headline of the power line.
      std::vector<nlohmann::json> members;
      for (const auto& c : channels)
        if (c.is_object() && c.value("kind", std::string()) == g.kind) members.push_back(c);
      std::stable_partition(members.begin(), members.end(),
                            [](const nlohmann::json& c) { return c.value("name", std::string()) == "power.total"; });
      for (const auto& c : members) {
        const std::string item = short_name(c.value("name", std::string("?"))) + " " + value_text(c) + "   ";
        if (current.size() + item.size() > static_cast<std::size_t>(width_) && current.size() > label.size()) {
          line += current + "\x1b[K\n";
          current = std::string(label.size(), ' ');
        }
        current += item;
      }
      if (current.size() > label.size()) line += current + "\x1b[K\n";
      out << line;
    }
    out << "\x1b[J";
    std::cout << out.str() << std::flush;
  }

  void start() {
    if (tty_) std::cout << "\x1b[?25l\x1b[2J" << std::flush;  // hide the cursor, clear once
  }
  void end() {
    if (tty_) std::cout << "\x1b[?25h" << std::flush;
  }

 private:
  std::string host_;
  bool tty_;
  int width_;
  std::optional<double> rate_hz_;
};

class top_command final : public command {
 public:
  explicit top_command(CLI::App& parent)
      : app_(parent.add_subcommand("top", "Live telemetry: rails, total power, clocks, temperatures, utilisation")) {
    app_->add_option("-n,--count", count_, "Stop after this many updates (default: until Ctrl-C)")
        ->check(CLI::PositiveNumber);
    app_->add_option("-i,--interval-ms", interval_ms_, "Milliseconds between updates (100-10000, default 500)")
        ->check(CLI::Range(100, 10000));
  }
  CLI::App* app() const override { return app_; }

  int run(context& ctx) override {
    const int width = stdout_terminal_width();
    const bool tty = width > 0 && !ctx.config().json;
    top_view view(ctx.config().target.text(), tty, width);
    // The sampler's health is not in the stream frames; it is read beside it now and then.
    http_client side(ctx.config().target, ctx.config().token,
                     std::chrono::milliseconds(static_cast<std::int64_t>(std::ceil(ctx.config().timeout_s * 1000.0))));
    auto refresh_rate = [&] {
      try {
        const auto reply = side.request("GET", "/v1/telemetry");
        if (reply.status == 200) {
          const auto j = nlohmann::json::parse(reply.body, nullptr, false);
          if (j.is_object()) view.set_rate(j.value("health", nlohmann::json()));
        }
      } catch (const cli_error&) {
        // The stream itself reports a daemon that went away.
      }
    };
    refresh_rate();
    auto last_refresh = std::chrono::steady_clock::now();

    struct sigaction sa {};
    sa.sa_handler = on_sigint;
    sa.sa_flags = SA_RESETHAND;  // a second Ctrl-C ends it at once
    sigemptyset(&sa.sa_mask);
    struct sigaction old {};
    sigaction(SIGINT, &sa, &old);

    std::int64_t updates = 0;
    view.start();
    http_reply reply;
    try {
      reply = ctx.http().stream("/v1/telemetry/stream?interval_ms=" + std::to_string(interval_ms_),
                                [&](const sse_event& e) {
                                  if (g_interrupted.load()) return false;
                                  if (e.event != "sample") return true;
                                  const auto frame = nlohmann::json::parse(e.data, nullptr, false);
                                  if (frame.is_discarded()) return true;
                                  ++updates;
                                  if (ctx.config().json) {
                                    std::cout << frame.dump() << std::endl;
                                  } else {
                                    if (std::chrono::steady_clock::now() - last_refresh > std::chrono::seconds(5)) {
                                      refresh_rate();
                                      last_refresh = std::chrono::steady_clock::now();
                                    }
                                    view.draw(frame, updates);
                                  }
                                  return !(count_ > 0 && updates >= count_) && !g_interrupted.load();
                                });
    } catch (...) {
      view.end();
      sigaction(SIGINT, &old, nullptr);
      throw;
    }
    view.end();
    sigaction(SIGINT, &old, nullptr);
    throw_if_error(reply);
    if (count_ > 0 && updates < count_ && !g_interrupted.load())
      throw cli_error(exit_connect, "the telemetry stream ended after " + std::to_string(updates) + " updates");
    return exit_ok;
  }

 private:
  CLI::App* app_;
  std::int64_t count_ = 0;
  int interval_ms_ = 500;
};

}  // namespace

std::unique_ptr<command> make_top_command(CLI::App& parent) { return std::make_unique<top_command>(parent); }

}  // namespace jetperf::client
