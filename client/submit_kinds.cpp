#include "submit_kind.hpp"

namespace jetperf::client {

std::vector<std::unique_ptr<submit_kind>> make_submit_kinds() {
  std::vector<std::unique_ptr<submit_kind>> kinds;
  kinds.push_back(make_idle_submit_kind());
  kinds.push_back(make_gemm_submit_kind());
  kinds.push_back(make_layers_submit_kind());
  kinds.push_back(make_multi_dnn_submit_kind());
  kinds.push_back(make_command_submit_kind());
  return kinds;
}

nlohmann::json parse_flag_value(const std::string& text) {
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) return text;
  return j;
}

}  // namespace jetperf::client
