#pragma once
// A Chrome DevTools Protocol session with one page of a headless chromium, over a Boost.Beast
// websocket: commands with their answers, and the page's console errors, the browser's own error
// entries (Content-Security-Policy refusals, failed loads) and uncaught exceptions collected from
// the events that arrive meanwhile (Runtime.enable and Log.enable are sent at connection).
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace jetperf::test {

class cdp_client {
 public:
  /// Attaches to the first page target of the browser whose DevTools listen on 127.0.0.1:`port`;
  /// enables Runtime and Page. Throws std::runtime_error.
  explicit cdp_client(int port);
  ~cdp_client();
  cdp_client(const cdp_client&) = delete;
  cdp_client& operator=(const cdp_client&) = delete;

  /// Sends one command and returns its result; throws with the protocol's error or on timeout.
  nlohmann::json call(const std::string& method, const nlohmann::json& params = nlohmann::json::object(),
                      std::chrono::milliseconds timeout = std::chrono::seconds(30));
  /// The value of a JavaScript expression in the page (promises awaited, returned by value);
  /// throws with the exception's text when it throws.
  nlohmann::json evaluate(const std::string& expression, std::chrono::milliseconds timeout = std::chrono::seconds(30));
  /// Polls `expression` until it is true; false when `timeout` passes first.
  bool wait_until(const std::string& expression, std::chrono::milliseconds timeout);
  /// Navigates and waits for the load event.
  void navigate(const std::string& url);
  /// A PNG of the viewport, written to `path`.
  void screenshot(const std::string& path);
  /// console.error calls, the browser's error entries ("log (security): Applying inline style
  /// violates ...") and uncaught exceptions seen so far, one line each.
  const std::vector<std::string>& errors() const { return errors_; }

 private:
  /// Reads one message (until `deadline`); events are recorded, answers returned.
  nlohmann::json read_message(std::chrono::steady_clock::time_point deadline);
  void record_event(const nlohmann::json& message);

  struct connection;
  std::unique_ptr<connection> conn_;
  long next_id_ = 1;
  std::vector<std::string> errors_;
  bool loaded_ = false;  ///< a Page.loadEventFired arrived since the last navigate
};

}  // namespace jetperf::test
