#include <mutex>
#include <string>

#include <jetperf/api/model_views.hpp>
#include <jetperf/api/router.hpp>
#include <jetperf/api/routes.hpp>
#include <jetperf/common/errors.hpp>
#include <jetperf/models/network_builder.hpp>
#include <jetperf/models/network_json.hpp>
#include <jetperf/models/zoo.hpp>

namespace jetperf::api {

namespace {

// The largest batch a layer table is shown for: shapes only, but a bound keeps the numbers sane.
constexpr std::int64_t k_max_batch = 4096;

// Building every zoo network takes milliseconds; the list never changes, so it is built once
// (a function-local static is initialised thread-safely).
const nlohmann::json& zoo_summaries() {
  static const nlohmann::json summaries = [] {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& e : models::zoo()) {
      // At the resolution torchvision published it at, as a layers job runs it by default.
      auto j = network_summary_json(models::build_model(e.name, e.published_resolution));
      j["published_params"] = e.published_params;
      j["published_gmacs"] = e.published_gmacs;
      j["published_resolution"] = e.published_resolution;
      list.push_back(std::move(j));
    }
    return list;
  }();
  return summaries;
}

http_response list(const route_request& r) {
  r.query.reject_unknown({});
  return json_response(200, {{"models", zoo_summaries()}});
}

http_response show(const route_request& r) {
  r.query.reject_unknown({"granularity", "batch", "input_size"});
  const auto& name = r.path_params.at("name");
  const auto* entry = models::find_model(name);
  if (!entry) throw not_found("unknown model '" + name + "'; known models: " + models::zoo_names(), "name");
  models::granularity g = models::granularity::block;
  if (auto text = r.query.get("granularity")) {
    try {
      g = models::parse_granularity(*text);
    } catch (const std::invalid_argument&) {
      throw validation_error("granularity", "granularity must be op or block, got '" + *text + "'");
    }
  }
  const auto batch = r.query.integer("batch", 1, k_max_batch, 1);
  // The network at another input size, as a layers job's spec.input_size runs it.
  const auto size = r.query.integer("input_size", 8, 8192, entry->published_resolution);
  try {
    return json_response(200, layer_table_json(models::build_model(name, size), g, batch));
  } catch (const models::shape_error& e) {
    throw validation_error("input_size", name + " cannot run at " + std::to_string(size) + "x" + std::to_string(size) +
                                             " pixels: " + e.what());
  }
}

}  // namespace

void register_model_routes(route_table& table) {
  table.add("GET", "/v1/models", list);
  table.add("GET", "/v1/models/{name}", show);
}

}  // namespace jetperf::api
