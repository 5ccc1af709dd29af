#pragma once
// The one way the store writes a JSON value: bytes that are not valid UTF-8 (a program's
// output, a trace's names) become U+FFFD instead of failing the write, so no row, point or span
// is lost for odd bytes. Readers get valid JSON back.
#include <string>

#include <nlohmann/json.hpp>

namespace jetperf::store::detail {

inline std::string json_text(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace jetperf::store::detail
