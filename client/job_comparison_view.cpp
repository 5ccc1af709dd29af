#include "job_comparison_view.hpp"

#include "output.hpp"

namespace jetperf::client {

namespace {

std::string interval_text(const nlohmann::json& ci) {
  if (!ci.is_array() || ci.size() != 2 || !ci[0].is_number() || !ci[1].is_number()) return "-";
  return format_number(ci[0].get<double>()) + " .. " + format_number(ci[1].get<double>());
}

std::string mean_text(const nlohmann::json& side, const std::string& unit) {
  const auto mean = side.is_object() ? side.value("mean", nlohmann::json()) : nlohmann::json();
  return format_cell(mean) + (unit.empty() ? "" : " " + unit);
}

std::string verdict_text(const nlohmann::json& m) {
  std::string v = m.value("verdict", std::string("?"));
  if (m.value("regressed", false)) v += " (regressed)";
  const std::string test = m.value("test", std::string());
  if (test == "none") v += ", no spread to test";
  return v;
}

std::string bound(const nlohmann::json& ci, std::size_t i) {
  return ci.is_array() && ci.size() == 2 ? ci[i].dump() : std::string();
}

std::string comparison_csv(const nlohmann::json& c) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& p : c.value("pairs", nlohmann::json::array()))
    for (const auto& m : p.value("metrics", nlohmann::json::array())) {
      const auto ci = m.value("ratio_ci95", nlohmann::json());
      const auto mean = [&](const char* side) {
        const auto s = m.value(side, nlohmann::json::object());
        return s.is_object() ? s.value("mean", nlohmann::json()).dump() : std::string();
      };
      rows.push_back({format_params(p.value("params", nlohmann::json::object())), m.value("metric", std::string()),
                      m.value("unit", std::string()), mean("a"), mean("b"), m.value("ratio", nlohmann::json()).dump(),
                      bound(ci, 0), bound(ci, 1),
                      m.value("test", std::string()), m.value("verdict", std::string()),
                      m.value("regressed", false) ? "true" : "false"});
    }
  return format_csv({"point", "metric", "unit", "a_mean", "b_mean", "ratio", "ratio_lo", "ratio_hi", "test", "verdict",
                     "regressed"},
                    rows);
}

}  // namespace

std::string format_job_comparison(const nlohmann::json& c, const std::string& format) {
  if (format == "csv") return comparison_csv(c);
  std::vector<std::vector<std::string>> rows;
  for (const auto& p : c.value("pairs", nlohmann::json::array())) {
    const auto point = format_params(p.value("params", nlohmann::json::object()));
    for (const auto& m : p.value("metrics", nlohmann::json::array())) {
      const std::string unit = m.value("unit", std::string());
      rows.push_back({point, m.value("metric", std::string()), mean_text(m.value("a", nlohmann::json()), unit),
                      mean_text(m.value("b", nlohmann::json()), unit), format_cell(m.value("ratio", nlohmann::json())),
                      interval_text(m.value("ratio_ci95", nlohmann::json())), verdict_text(m)});
    }
  }
  const auto job = [&](const char* side) {
    return "job " + format_cell(c.value(side, nlohmann::json::object()).value("job_id", nlohmann::json()));
  };
  std::string out = rows.empty() ? "no points of the two jobs ran with the same parameters\n"
                                 : format_table({"point", "metric", job("a"), job("b"), "b/a", "95%", "verdict"}, rows);
  const auto only_a = c.value("only_in_a", 0), only_b = c.value("only_in_b", 0);
  if (only_a > 0 || only_b > 0)
    out += "unpaired: " + std::to_string(only_a) + " point(s) only in " + job("a") + ", " + std::to_string(only_b) +
           " only in " + job("b") + "\n";
  const auto regressions = c.value("regressions", 0);
  out += regressions > 0 ? std::to_string(regressions) + " metric(s) slower beyond the noise and the threshold (" +
                               format_number(c.value("threshold", 0.0) * 100) + "%)\n"
                         : "no regression beyond the noise and the threshold (" +
                               format_number(c.value("threshold", 0.0) * 100) + "%)\n";
  return out;
}

}  // namespace jetperf::client
