#include <jetperf/api/sensor_card_view.hpp>

#include <jetperf/platform/sensor_averaging.hpp>

namespace jetperf::api {
namespace {

// The channel figures the board's view and provenance carry (the job's results have them all).
const char* const k_channel_fields[] = {"channel", "update_period_ms", "window_ms", "lag_ms", "resolution_mw", "cached"};

std::string text_of(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

nlohmann::json channels_of(const nlohmann::json& metrics) {
  nlohmann::json channels = nlohmann::json::array();
  for (const auto& row : metrics.value("channels", nlohmann::json::array())) {
    nlohmann::json c = nlohmann::json::object();
    for (const char* f : k_channel_fields) c[f] = row.value(f, nlohmann::json());
    channels.push_back(std::move(c));
  }
  return channels;
}

}  // namespace

sensor_card_board sensor_card_board_of(const platform::board_controller& board) {
  return {board.info().l4t, platform::describe_sensor_averaging(board.sensor_averaging())};
}

std::optional<nlohmann::json> latest_sensor_card(const jobs::job_service& jobs, const sensor_card_board& board,
                                                 std::int64_t now_ns) {
  store::job_filter filter;
  filter.kind = "sensor";
  filter.state = store::job_state::succeeded;
  filter.limit = 1;
  const auto found = jobs.list(filter, nullptr);
  if (found.empty()) return std::nullopt;
  const auto& job = found.front();
  const auto points = jobs.points(job.id);
  if (points.empty()) return std::nullopt;
  // The CPU's wave is the card (the in_context estimator's start); the GPU's, where the job made
  // one, beside it as gpu_channels.
  const auto of_load = [&points](const char* load) -> const store::point_record* {
    for (const auto& p : points)
      if (p.status == "ok" && p.params.value("load", std::string("cpu")) == load) return &p;
    return nullptr;
  };
  const auto* cpu = of_load("cpu");
  const auto& m = (cpu ? *cpu : points.front()).metrics;
  nlohmann::json card;
  card["job_id"] = job.id;
  card["age_s"] = static_cast<double>(now_ns - job.finished_ns) * 1e-9;
  const auto board_part = job.provenance.find("board");
  const std::string l4t = board_part != job.provenance.end() ? text_of(*board_part, "l4t") : std::string();
  const std::string averaging = text_of(m, "averaging");
  card["l4t"] = l4t;
  card["averaging"] = m.value("averaging", nlohmann::json());
  nlohmann::json because = nlohmann::json::array();
  if (l4t != board.l4t) because.push_back("l4t");
  if (averaging != board.averaging) because.push_back("sensor_configuration");
  card["stale"] = !because.empty();
  card["stale_because"] = because;
  card["read_p50_us"] = m.value("read_p50_us", nlohmann::json());
  card["read_p99_us"] = m.value("read_p99_us", nlohmann::json());
  card["channels"] = channels_of(m);
  if (const auto* gpu = of_load("gpu")) card["gpu_channels"] = channels_of(gpu->metrics);
  return card;
}

std::optional<measure::sensor_facts> sensor_card_facts(const jobs::job_service& jobs, const sensor_card_board& board,
                                                       const std::string& channel, bool same_averaging,
                                                       std::size_t max_jobs) {
  store::job_filter filter;
  filter.kind = "sensor";
  filter.state = store::job_state::succeeded;
  filter.limit = static_cast<std::int64_t>(max_jobs);
  for (const auto& job : jobs.list(filter, nullptr)) {
    const auto board_part = job.provenance.find("board");
    if (board_part == job.provenance.end() || text_of(*board_part, "l4t") != board.l4t) continue;
    for (const auto& p : jobs.points(job.id)) {
      if (p.status != "ok" || p.params.value("load", std::string("cpu")) != "cpu") continue;
      const bool same = text_of(p.metrics, "averaging") == board.averaging;
      if (same_averaging && !same) continue;
      for (const auto& row : p.metrics.value("channels", nlohmann::json::array())) {
        if (row.value("channel", std::string()) != channel) continue;
        const auto number = [&row](const char* k) {
          const auto it = row.find(k);
          return it != row.end() && it->is_number() ? it->get<double>() * 1e-3 : 0.0;
        };
        const double window_s = number("window_ms"), delay_s = number("delay_ms");
        // A card that could not fit the step says nothing of the window and delay.
        if (!(window_s > 0) || !row.contains("delay_ms") || !row["delay_ms"].is_number()) continue;
        measure::sensor_facts f;
        f.window_s = window_s;
        f.delay_s = delay_s;
        f.window_source = "card";
        f.card_job_id = job.id;
        if (same) {
          f.period_s = number("update_period_ms");
          if (f.period_s > 0) f.period_source = "card";
        }
        return f;
      }
    }
  }
  return std::nullopt;
}

}  // namespace jetperf::api
