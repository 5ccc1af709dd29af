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

}  // namespace jetperf::api
