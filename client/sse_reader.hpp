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

  /// Consumes a chunk of the stream, dispatching every event it completes.
  bool feed(const char* data, std::size_t size, const handler& on_event);

 private:
  bool line(const std::string& text, const handler& on_event);

  std::string pending_;  ///< bytes of an unfinished line
  sse_event current_;
  bool has_data_ = false;
};

}  // namespace jetperf::client
