// jetperf health: is the daemon up, and what does it say about itself.
#include <iostream>

#include "command.hpp"
#include "output.hpp"

namespace jetperf::client {

namespace {

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
    for (const auto& [k, v] : j.items())
      if (k != "status") std::cout << "  " << k << ": " << format_cell(v) << '\n';
    return 0;
  }

 private:
  CLI::App* app_;
};

}  // namespace

std::unique_ptr<command> make_health_command(CLI::App& parent) { return std::make_unique<health_command>(parent); }

}  // namespace jetperf::client
