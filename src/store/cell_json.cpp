#include <jetperf/store/cell_json.hpp>

#include <type_traits>

namespace jetperf {

namespace {

template <class Json>
Json json_of(const cell& c) {
  return std::visit(
      [](const auto& v) -> Json {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same<T, std::monostate>::value) {
          return Json();
        } else if constexpr (std::is_same<T, cell_list>::value) {
          Json out = Json::array();
          for (const auto& item : v) out.push_back(json_of<Json>(item));
          return out;
        } else if constexpr (std::is_same<T, record>::value) {
          Json out = Json::object();
          for (const auto& e : v) out[e.first] = json_of<Json>(e.second);
          return out;
        } else {
          return Json(v);
        }
      },
      c.value());
}

template <class Json>
cell from_json(const Json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::boolean: return cell(j.template get<bool>());
    case nlohmann::json::value_t::number_integer: return cell(j.template get<std::int64_t>());
    case nlohmann::json::value_t::number_unsigned: return cell(static_cast<std::int64_t>(j.template get<std::uint64_t>()));
    case nlohmann::json::value_t::number_float: return cell(j.template get<double>());
    case nlohmann::json::value_t::string: return cell(j.template get<std::string>());
    case nlohmann::json::value_t::array: {
      cell_list out;
      out.reserve(j.size());
      for (const auto& item : j) out.push_back(from_json(item));
      return cell(std::move(out));
    }
    case nlohmann::json::value_t::object: {
      record out;
      for (auto it = j.begin(); it != j.end(); ++it) out.set(it.key(), from_json(it.value()));
      return cell(std::move(out));
    }
    default: return cell();
  }
}

}  // namespace

nlohmann::json to_json(const cell& c) { return json_of<nlohmann::json>(c); }
nlohmann::json to_json(const record& r) { return json_of<nlohmann::json>(cell(r)); }
nlohmann::json to_json(const row& r) { return to_json(r.cells()); }
nlohmann::ordered_json to_ordered_json(const cell& c) { return json_of<nlohmann::ordered_json>(c); }
cell cell_of(const nlohmann::json& j) { return from_json(j); }
cell cell_of(const nlohmann::ordered_json& j) { return from_json(j); }

record record_of(const nlohmann::json& j) {
  auto c = from_json(j);
  return c.is_record() ? c.as_record() : record();
}

row row_of(const nlohmann::json& j) { return row(record_of(j)); }

}  // namespace jetperf
