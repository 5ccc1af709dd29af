// jetperf health: is the daemon up, and what does it say about itself.
#include <cstdio>
#include <iostream>
#include <string>

#include "command.hpp"
#include "output.hpp"

namespace jetperf::client {

namespace {

std::string megabytes(const nlohmann::json& bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f MB", bytes.is_number() ? bytes.get<double>() / 1e6 : 0.0);
  return buf;
}

// "database 412.0 MB, 9120.4 MB free; full-rate samples back 2.3 days (kept 7, then 1 s records to 90)"
std::string storage_line(const nlohmann::json& s) {
  char days[96];
  const auto& full = s.value("full_rate_days", nlohmann::json());
  std::snprintf(days, sizeof days, "full-rate samples back %.1f days", full.is_number() ? full.get<double>() : 0.0);
  return "database " + megabytes(s.value("database_bytes", nlohmann::json())) + ", " +
         megabytes(s.value("disk_free_bytes", nlohmann::json())) + " free; " +
         (full.is_number() ? std::string(days) : std::string("no full-rate samples")) + " (kept " +
         format_cell(s.value("retention_full_days", nlohmann::json())) + ", then 1 s records to " +
         format_cell(s.value("retention_days", nlohmann::json())) + " days)";
}

class health_command final : public command {
 public:
  explicit health_command(CLI::App& parent) : app_(parent.add_subcommand("health", "Check that the daemon answers")) {}
  CLI::App* app() const override { return app_; }

  int run(context& ctx) override {
    const auto j = ctx.call("GET", "/v1/health");
    if (ctx.config().json) {
      std::cout << j.dump(2) << '\n';
      return 0;
    }
    std::cout << ctx.config().target.text() << ": " << (j.contains("status") ? format_cell(j["status"]) : "ok") << '\n';
    for (const auto& [k, v] : j.items()) {
      if (k == "status") continue;
      if (k == "storage" && v.is_object()) {
        std::cout << "  storage: " << storage_line(v) << '\n';
        continue;
      }
      std::cout << "  " << k << ": " << format_cell(v) << '\n';
    }
    return 0;
  }

 private:
  CLI::App* app_;
};

}  // namespace

std::unique_ptr<command> make_health_command(CLI::App& parent) { return std::make_unique<health_command>(parent); }

}  // namespace jetperf::client
