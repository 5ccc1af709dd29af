#include <string>

#include <jetperf/api/board_views.hpp>
#include <jetperf/api/router.hpp>
#include <jetperf/api/routes.hpp>
#include <jetperf/api/sensor_card_view.hpp>
#include <jetperf/api/telemetry_view.hpp>
#include <jetperf/common/clock.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/platform/board_controller.hpp>
#include <jetperf/platform/nvpmodel_tool.hpp>
#include <jetperf/platform/reboot_plan.hpp>
#include <jetperf/telemetry/rail_role.hpp>

namespace jetperf::api {

namespace {

platform::board_controller& board_of(const route_request& r) {
  if (!r.svc.board) throw unavailable("no board control on this host");
  return *r.svc.board;
}

// Changes from the API would fight the running job's own settings (and its restore), so they
// wait until the runner is idle. Checked before the body, so a busy board always answers 409.
platform::board_controller& idle_board_of(const route_request& r) {
  auto& board = board_of(r);
  if (auto id = r.svc.jobs->running())
    throw conflict("job " + std::to_string(*id) + " is running; board settings can change once it has finished");
  return board;
}

// An empty body is fine for POST actions; anything else must be an empty JSON object.
void reject_body_fields(const route_request& r) {
  if (r.http.body.empty()) return;
  const auto body = r.json_body();
  if (!body.empty()) throw validation_error(body.begin().key(), "unknown field '" + body.begin().key() + "'", "unknown_field");
}

// The rails the sampler reads, each with its role beside its name; null without telemetry.
nlohmann::json rails_of(const route_request& r) {
  if (!r.svc.telemetry) return nullptr;
  nlohmann::json rails = nlohmann::json::array();
  for (const auto& c : r.svc.telemetry->channels()) {
    if (c.kind != telemetry::channel_kind::power || c.name.rfind("rail.", 0) != 0) continue;
    const std::string name = c.name.substr(5);
    rails.push_back({{"name", name}, {"role", telemetry::rail_role(name)}, {"source", c.source}});
  }
  return rails;
}

http_response board(const route_request& r) {
  r.query.reject_unknown({});
  auto& b = board_of(r);
  auto j = board_json(b.describe());
  j["rails"] = rails_of(r);
  nlohmann::json identity;
  if (r.svc.board_identity) identity = r.svc.board_identity();
  if (!identity.is_object()) identity = nlohmann::json::object();
  if (!identity.contains("simulated")) identity["simulated"] = false;
  if (!identity.contains("board")) identity["board"] = b.info().jetson ? std::string("jetson") : b.info().family;
  for (const auto& item : identity.items()) j[item.key()] = item.value();
  const auto card = api::latest_sensor_card(*r.svc.jobs, sensor_card_board_of(b), wall_ns());
  j["sensor_card"] = card ? *card : nlohmann::json();
  return json_response(200, j);
}

nlohmann::json modes_of(const platform::board_controller& b) { return power_modes_json(b.describe().modes); }

std::string valid_modes_text(const platform::board_controller& b) {
  std::string valid;
  if (b.conf())
    for (const auto& m : b.conf()->modes) valid += (valid.empty() ? "" : ", ") + std::to_string(m.id) + " " + m.name;
  return valid.empty() ? "none" : valid;
}

// Why the API does not switch to `id` now (it needs a reboot from the mode in effect), and what
// does; nullopt when it switches at once.
std::optional<std::string> reboot_refusal(const platform::board_controller& b, int id) {
  const auto offered = b.offered();
  bool needed = false;
  for (const auto& step : platform::reboot_steps(offered, {id})) needed = needed || (!step.restore && step.to == id);
  if (!needed) return std::nullopt;
  std::string why;
  if (offered.power_mode && b.conf())
    for (const auto& r : platform::reboot_reasons(*b.conf(), static_cast<int>(*offered.power_mode), id))
      why += (why.empty() ? "" : ", ") + r;
  const auto* mode = b.conf() ? b.conf()->find_mode(id) : nullptr;
  const std::string name = mode ? mode->name : std::to_string(id);
  return "switching to power mode " + offered.mode_label(id) + " changes GPU power gating" +
         (why.empty() ? "" : " (" + why + ")") +
         ", which nvpmodel applies only when the board boots, and jetperfd puts the API's changes back when it "
         "starts, so the boot would undo it. To measure in that mode, submit a job that allows the reboot (jetperf "
         "submit gemm ... --power-mode " + name + " --allow-reboot: jetperfd reboots the board and goes on after "
         "the boot); to make it the board's mode, run nvpmodel -m " + std::to_string(id) +
         " on the board (it asks to reboot)";
}

http_response get_power_mode(const route_request& r) {
  r.query.reject_unknown({});
  auto& b = board_of(r);
  auto j = power_mode_json(b.power_mode());
  j["modes"] = modes_of(b);
  return json_response(200, j);
}

http_response put_power_mode(const route_request& r) {
  r.query.reject_unknown({});
  auto& b = idle_board_of(r);
  const auto body = r.json_body();
  for (const auto& item : body.items())
    if (item.key() != "id" && item.key() != "name" && item.key() != "force")
      throw validation_error(item.key(), "unknown field '" + item.key() + "' (known: id, name, force)", "unknown_field");
  const bool has_id = body.contains("id");
  const bool has_name = body.contains("name");
  if (has_id == has_name) throw validation_error("id", "give exactly one of id or name", has_id ? "invalid_field" : "missing_field");
  bool force = false;
  if (body.contains("force")) {
    if (!body["force"].is_boolean()) throw validation_error("force", "force must be true or false");
    force = body["force"].get<bool>();
  }
  if (!b.conf()) throw unavailable("this board has no power modes (no nvpmodel.conf)");
  int id = -1;
  if (has_id) {
    const auto& v = body["id"];
    if (!v.is_number_integer()) throw validation_error("id", "id must be an integer mode id; valid: " + valid_modes_text(b));
    const auto wide = v.get<long long>();
    if (wide < 0 || wide > 1000 || !b.conf()->find_mode(static_cast<int>(wide)))
      throw validation_error("id", "power mode " + v.dump() + " is not offered; valid: " + valid_modes_text(b));
    id = static_cast<int>(wide);
  } else {
    const auto& v = body["name"];
    if (!v.is_string()) throw validation_error("name", "name must be a string; valid: " + valid_modes_text(b));
    for (const auto& m : b.conf()->modes)
      if (m.name == v.get<std::string>()) id = m.id;
    if (id < 0)
      throw validation_error("name", "power mode '" + v.get<std::string>() + "' is not offered; valid: " + valid_modes_text(b));
  }
  // A reboot-needing mode is not switched through the API, forced or not: the API's changes are
  // put back when jetperfd starts again, so the boot would undo it (the board rebooted for
  // nothing). The refusal says what does switch it: a job that allows the reboot, or nvpmodel on
  // the board. Forced, it is refused naming force; otherwise it is a conflict (409).
  const std::string field = has_id ? "id" : "name";
  if (const auto why = reboot_refusal(b, id)) {
    if (force) throw validation_error("force", *why, "reboot_required");
    throw conflict(*why, field);
  }
  // An NVPM ERROR is a platform_error (502); on it the controller has already put the previous
  // settings back.
  // The controller names its own setting (power_mode); the client sent id or name.
  nlohmann::json j;
  try {
    j = power_mode_json(b.set_power_mode(id, force));
  } catch (const conflict& e) {
    throw conflict(e.what(), e.field().empty() ? std::string() : field);
  } catch (const validation_error& e) {
    throw validation_error(field, e.what(), e.code());
  }
  j["modes"] = modes_of(b);
  return json_response(200, j);
}

nlohmann::json clocks_view(const platform::board_controller& b) {
  auto j = clock_state_json(b.clocks());
  // What a lock may ask for now: the values under the caps of the power mode in effect.
  const auto now = b.clock_limits();
  j["available"] = {{"gpu_hz", now.gpu_hz}, {"cpu_khz", now.cpu_khz}, {"emc_hz", now.emc_hz},
                    {"sensor_samples", b.offered().sensor_samples}};
  // The power sensors' averaging as it is now (a job's in_context points change it for a while).
  j["sensors"] = nlohmann::json::array();
  for (const auto& c : b.sensor_averaging())
    j["sensors"].push_back({{"dir", c.dir},
                            {"samples", c.samples},
                            {"update_interval_ms", c.update_interval_ms ? nlohmann::json(*c.update_interval_ms) : nlohmann::json()}});
  return j;
}

http_response get_clocks(const route_request& r) {
  r.query.reject_unknown({});
  return json_response(200, clocks_view(board_of(r)));
}

http_response put_clocks(const route_request& r) {
  r.query.reject_unknown({});
  auto& b = idle_board_of(r);
  const auto body = r.json_body();
  if (body.empty()) throw validation_error("body", "give at least one of gpu, cpu, emc", "missing_field");
  // Every clock is checked against the board (errors name gpu, cpu, emc) before anything changes;
  // the controller checks the resolved values again under its lock.
  b.set_clocks(read_clock_request(body, b.clock_frequencies(), b.clock_limits()));
  return json_response(200, clocks_view(b));
}

http_response restore_clocks(const route_request& r) {
  r.query.reject_unknown({});
  auto& b = idle_board_of(r);
  reject_body_fields(r);
  b.restore_clocks();
  return json_response(200, clocks_view(b));
}

}  // namespace

void register_board_routes(route_table& table) {
  // nvpmodel takes up to seconds on a board (a mode switch far longer), clock changes wait for
  // their read-back: off the io threads.
  const route_traits waits{false, /*may_wait=*/true};
  table.add("GET", "/v1/board", board, waits);
  table.add("GET", "/v1/power-mode", get_power_mode, waits);
  table.add("PUT", "/v1/power-mode", put_power_mode, waits);
  table.add("GET", "/v1/clocks", get_clocks, waits);
  table.add("PUT", "/v1/clocks", put_clocks, waits);
  table.add("POST", "/v1/clocks/restore", restore_clocks, waits);
}

}  // namespace jetperf::api
