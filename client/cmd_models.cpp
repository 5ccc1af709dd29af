// jetperf models [show NAME [--granularity op|block] [--batch N]]: the daemon's model zoo, and
// one network's layer table as a `layers` job would measure it.
#include <iostream>

#include "cli_error.hpp"
#include "command.hpp"
#include "output.hpp"

namespace jetperf::client {

namespace {

nlohmann::json field(const nlohmann::json& j, const char* key) {
  return j.is_object() && j.contains(key) ? j[key] : nlohmann::json();
}

// 4089184000 -> "4.089": billions, compact.
std::string giga(const nlohmann::json& v) {
  if (!v.is_number()) return "-";
  return format_number(v.get<double>() / 1e9);
}

// [1, 2048] -> "[1, 2048]", as the daemon's messages print shapes.
std::string shape_text(const nlohmann::json& s) {
  if (!s.is_array()) return "-";
  std::string out = "[";
  for (std::size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + format_cell(s[i]);
  return out + "]";
}

std::string shapes_text(const nlohmann::json& list) {
  if (!list.is_array() || list.empty()) return "-";
  std::string out;
  for (const auto& s : list) out += (out.empty() ? "" : " ") + shape_text(s);
  return out;
}

// torchvision publishes efficientnet_b1/b2 MACs at their own crop sizes (240, 288); say so, since
// the GMACS column is always at 224.
std::string published_gmacs(const nlohmann::json& m) {
  const auto text = format_cell(field(m, "published_gmacs"));
  const auto& res = field(m, "published_resolution");
  return res.is_number() && res.get<std::int64_t>() != 224 ? text + "@" + std::to_string(res.get<std::int64_t>())
                                                           : text;
}

// CSV (`format` csv) is the table alone: the header row even when there are no rows.
std::string zoo_table(const nlohmann::json& j, const std::string& format) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& m : field(j, "models")) {
    if (!m.is_object()) continue;
    rows.push_back({format_cell(field(m, "name")), format_cell(field(m, "params")), giga(field(m, "macs")),
                    format_cell(field(m, "blocks")), format_cell(field(m, "ops")),
                    format_cell(field(m, "functional_layer_count")), format_cell(field(m, "published_params")),
                    published_gmacs(m)});
  }
  const std::vector<std::string> header = {"NAME",       "PARAMS", "GMACS", "BLOCKS", "OPS", "FUNCTIONAL_LAYERS",
                                           "PUBLISHED_PARAMS", "PUBLISHED_GMACS"};
  if (format == "csv") return format_csv(header, rows);
  if (rows.empty()) return "no models\n";
  return format_table(header, rows) +
         std::to_string(rows.size()) + " networks (GMACs per 3x224x224 sample)\n";
}

std::string layer_table(const nlohmann::json& j, const std::string& format) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& l : field(j, "layers")) {
    if (!l.is_object()) continue;
    rows.push_back({format_cell(field(l, "index")), format_cell(field(l, "name")), format_cell(field(l, "type")),
                    shapes_text(field(l, "input_shapes")), shape_text(field(l, "output_shape")),
                    format_cell(field(l, "params")), format_cell(field(l, "macs"))});
  }
  const std::vector<std::string> header = {"INDEX", "NAME", "TYPE", "INPUT_SHAPES", "OUTPUT_SHAPE", "PARAMS", "MACS"};
  if (format == "csv") return format_csv(header, rows);
  std::string out = rows.empty() ? std::string("no layers\n") : format_table(header, rows);
  out += format_cell(field(j, "name")) + ": " + std::to_string(rows.size()) + " layers (" +
         format_cell(field(j, "granularity")) + ", batch " + format_cell(field(j, "batch")) + "), " +
         format_cell(field(j, "params")) + " params, " + giga(field(j, "macs")) + " GMACs, " +
         giga(field(j, "flops")) + " GFLOPs per sample\n";
  return out;
}

class models_command final : public command {
 public:
  explicit models_command(CLI::App& parent)
      : app_(parent.add_subcommand("models", "List the model zoo, or show one network's layers: models show NAME")) {
    app_->require_subcommand(0, 1);
    show_ = app_->add_subcommand("show", "One network's layer table (shapes with the batch in front)");
    show_->fallthrough();
    show_->add_option("name", name_, "Network name (see `jetperf models`)")->required();
    show_->add_option("--granularity", granularity_, "block or op (default block)")
        ->check(CLI::IsMember({"block", "op"}));
    show_->add_option("--batch", batch_, "Batch size for the shapes (default 1)")->check(CLI::PositiveNumber);
  }
  CLI::App* app() const override { return app_; }
  bool prints_table() const override { return true; }

  int run(context& ctx) override {
    nlohmann::json j;
    if (show_->parsed()) {
      std::string target = "/v1/models/" + url_encode(name_) + "?granularity=" + url_encode(granularity_);
      if (batch_ > 0) target += "&batch=" + std::to_string(batch_);
      j = ctx.call("GET", target);
      if (!ctx.config().json) std::cout << layer_table(j, ctx.config().format);
    } else {
      j = ctx.call("GET", "/v1/models");
      if (!ctx.config().json) std::cout << zoo_table(j, ctx.config().format);
    }
    if (ctx.config().json) std::cout << j.dump(2) << '\n';
    return exit_ok;
  }

 private:
  CLI::App* app_;
  CLI::App* show_ = nullptr;
  std::string name_;
  std::string granularity_ = "block";
  std::int64_t batch_ = 0;
};

}  // namespace

std::unique_ptr<command> make_models_command(CLI::App& parent) { return std::make_unique<models_command>(parent); }

}  // namespace jetperf::client
