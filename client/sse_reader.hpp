#pragma once
// Incremental Server-Sent-Events parser: bytes in, whole events out (comments are dropped).
#include <functional>
#include <string>

namespace jetperf::client {

struct sse_event {
  std::string event = "message";
  std::string data;  ///< "data:" lines joined with '\n'
};

class sse_reader {
 public:
  /// Return false from the callback to stop; feed() then returns false too.
  using handler = std::function<bool(const sse_event&)>;

  explicit sse_reader(std::size_t max_line = 16u << 20) : max_line_(max_line) {}
  /// Consumes a chunk of the stream, dispatching every event it completes. Throws
  /// std::length_error when a line grows past the bound without ending.
  bool feed(const char* data, std::size_t size, const handler& on_event);

 private:
  bool line(const std::string& text, const handler& on_event);

  std::size_t max_line_;
  std::string pending_;  ///< bytes of an unfinished line
  sse_event current_;
  bool has_data_ = false;
};

}  // namespace jetperf::client
