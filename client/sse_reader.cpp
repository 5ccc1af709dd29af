#include "sse_reader.hpp"

#include <stdexcept>

namespace jetperf::client {

bool sse_reader::feed(const char* data, std::size_t size, const handler& on_event) {
  pending_.append(data, size);
  std::size_t start = 0;
  for (;;) {
    const auto nl = pending_.find('\n', start);
    if (nl == std::string::npos) break;
    std::size_t end = nl;
    if (end > start && pending_[end - 1] == '\r') --end;
    const bool go_on = line(pending_.substr(start, end - start), on_event);
    start = nl + 1;
    if (!go_on) {
      pending_.erase(0, start);
      return false;
    }
  }
  pending_.erase(0, start);
  // A line without an end would grow without bound.
  if (pending_.size() > max_line_) throw std::length_error("an event-stream line is longer than " + std::to_string(max_line_) + " bytes");
  return true;
}

bool sse_reader::line(const std::string& text, const handler& on_event) {
  if (text.empty()) {
    // A blank line dispatches the event being built (if it carried data).
    bool go_on = true;
    if (has_data_) go_on = on_event(current_);
    current_ = sse_event{};
    has_data_ = false;
    return go_on;
  }
  if (text[0] == ':') return true;
  const auto colon = text.find(':');
  const std::string field = text.substr(0, colon);
  std::string value = colon == std::string::npos ? std::string() : text.substr(colon + 1);
  if (!value.empty() && value[0] == ' ') value.erase(0, 1);
  if (field == "event") {
    current_.event = value;
  } else if (field == "data") {
    if (has_data_) current_.data += '\n';
    current_.data += value;
    has_data_ = true;
  }
  return true;
}

}  // namespace jetperf::client
