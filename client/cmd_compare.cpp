// jetperf compare ID --by PARAM: a gemm job's points compared along one parameter: tensor cores
// on vs off, or the most efficient value of a clock or power mode for each other setting.
#include <iostream>

#include "command.hpp"
#include "output.hpp"
#include "summary_view.hpp"

namespace jetperf::client {

namespace {

const char* const k_metric_keys[] = {"gflops_on", "gflops_off", "gflops_ratio", "gflops_per_w_on", "gflops_per_w_off",
                                     "gflops_per_w_ratio", "tensor_used_on", "best_gflops_per_w", "best_gflops",
                                     "best_gflops_per_dynamic_w", "left_out", "values"};

std::string compare_table(const nlohmann::json& j, const std::string& by) {
  std::vector<std::string> header;
  if (by == "tensor")
    header = {"params", "gflops_on", "gflops_off", "gflops_ratio", "gflops_per_w_on", "gflops_per_w_off",
              "gflops_per_w_ratio"};
  else
    // The winner by GFLOP/s/W drawn and by GFLOP/s/W over idle, and how many points the verdict
    // left out (contended or short of their precision target).
    header = {"params", "best_" + by, "best_gflops_per_w", "best_gflops", "best_" + by + "_over_idle",
              "best_gflops_per_dynamic_w", "left_out", by + " values"};
  std::vector<std::string> skip(std::begin(k_metric_keys), std::end(k_metric_keys));
  skip.push_back(by);
  skip.push_back("best_" + by);
  skip.push_back("best_" + by + "_over_idle");
  std::vector<std::vector<std::string>> rows;
  for (const auto& r : j.value("rows", nlohmann::json::array())) {
    if (!r.is_object()) continue;
    std::vector<std::string> cells{format_params(r, skip)};
    for (std::size_t c = 1; c < header.size(); ++c) {
      if (header[c] == by + " values") {
        // How many settings the best was picked from.
        const auto values = r.value("values", nlohmann::json::array());
        cells.push_back(values.is_array() ? std::to_string(values.size()) : "-");
      } else {
        cells.push_back(format_cell(r.value(header[c], nlohmann::json())));
      }
    }
    rows.push_back(std::move(cells));
  }
  if (rows.empty()) return "no comparable points (by " + by + ")\n";
  return format_table(header, rows);
}

class compare_command final : public command {
 public:
  explicit compare_command(CLI::App& parent)
      : app_(parent.add_subcommand("compare", "Compare a gemm job's points along one parameter")) {
    app_->add_option("id", id_, "Job id")->required()->check(CLI::PositiveNumber);
    // Any parameter a gemm point has, as the daemon's compare takes them.
    app_->add_option("--by", by_,
                     "tensor, a clock (gpu_freq_hz, cpu_freq_khz, emc_freq_hz), power_mode, dtype, device, m, n, k "
                     "or repeat")
        ->required()
        ->check(CLI::IsMember({"tensor", "gpu_freq_hz", "cpu_freq_khz", "emc_freq_hz", "power_mode", "dtype", "device",
                               "m", "n", "k", "repeat"}));
  }
  CLI::App* app() const override { return app_; }

  int run(context& ctx) override {
    const auto j = ctx.call("GET", "/v1/jobs/" + std::to_string(id_) + "/compare?by=" + url_encode(by_));
    if (ctx.config().json)
      std::cout << j.dump(2) << '\n';
    else
      std::cout << compare_table(j, by_) << caveat_lines(j);
    return 0;
  }

 private:
  CLI::App* app_;
  std::int64_t id_ = 0;
  std::string by_;
};

}  // namespace

std::unique_ptr<command> make_compare_command(CLI::App& parent) { return std::make_unique<compare_command>(parent); }

}  // namespace jetperf::client
