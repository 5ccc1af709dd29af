#include <support/cdp_client.hpp>

#include <fstream>
#include <stdexcept>
#include <thread>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include <support/http_client.hpp>

namespace jetperf::test {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;

struct cdp_client::connection {
  net::io_context ioc;
  websocket::stream<net::ip::tcp::socket> ws{ioc};
  beast::flat_buffer buffer;
  bool reading = false;  ///< an async_read is pending
  bool done = false;     ///< ... and has completed with `ec`
  beast::error_code ec;
};

namespace {

std::string base64_decode(const std::string& in) {
  static const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  unsigned value = 0;
  int bits = 0;
  for (char c : in) {
    const auto at = alphabet.find(c);
    if (at == std::string::npos) continue;  // '=' padding and line breaks
    value = (value << 6) | static_cast<unsigned>(at);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((value >> bits) & 0xff);
    }
  }
  return out;
}

// "ws://127.0.0.1:PORT/devtools/page/ID" of the first page target.
std::string page_path(int port) {
  http_client http(port);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    const auto r = http.request("GET", "/json/list");
    const auto list = nlohmann::json::parse(r.body, nullptr, false);
    if (list.is_array())
      for (const auto& t : list)
        if (t.value("type", "") == "page" && t.contains("webSocketDebuggerUrl")) {
          const std::string url = t["webSocketDebuggerUrl"];
          const auto slash = url.find('/', std::string("ws://").size());
          if (slash != std::string::npos) return url.substr(slash);
        }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  throw std::runtime_error("chromium lists no page target on port " + std::to_string(port));
}

}  // namespace

cdp_client::cdp_client(int port) : conn_(std::make_unique<connection>()) {
  const auto path = page_path(port);
  net::ip::tcp::endpoint at(net::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port));
  conn_->ws.next_layer().connect(at);
  // Screenshots arrive as one base64 message of a few MiB.
  conn_->ws.read_message_max(std::size_t{256} << 20);
  conn_->ws.handshake("127.0.0.1:" + std::to_string(port), path);
  call("Runtime.enable");
  call("Page.enable");
  // The browser's own console errors: Content-Security-Policy refusals, failed loads.
  call("Log.enable");
}

cdp_client::~cdp_client() {
  beast::error_code ec;
  conn_->ws.close(websocket::close_code::normal, ec);
}

nlohmann::json cdp_client::read_message(std::chrono::steady_clock::time_point deadline) {
  // Asio's synchronous reads have no timeout: read asynchronously and run the loop until the
  // message or the deadline. A read still pending at the deadline stays pending for the next call
  // (cancelling it would leave the websocket unusable).
  auto& c = *conn_;
  if (!c.reading) {
    c.reading = true;
    c.done = false;
    c.buffer.clear();
    c.ws.async_read(c.buffer, [&c](beast::error_code e, std::size_t) {
      c.ec = e;
      c.done = true;
    });
  }
  while (!c.done) {
    const auto left = deadline - std::chrono::steady_clock::now();
    if (left <= std::chrono::nanoseconds(0)) return nullptr;
    c.ioc.restart();
    c.ioc.run_one_for(left);
  }
  c.reading = false;
  if (c.ec) throw std::runtime_error("DevTools websocket: " + c.ec.message());
  auto message = nlohmann::json::parse(beast::buffers_to_string(c.buffer.data()), nullptr, false);
  if (message.is_discarded()) throw std::runtime_error("DevTools sent a message that is not JSON");
  return message;
}

void cdp_client::record_event(const nlohmann::json& m) {
  const std::string method = m.value("method", "");
  if (method == "Page.loadEventFired") loaded_ = true;
  if (method == "Runtime.consoleAPICalled" && m["params"].value("type", "") == "error") {
    std::string line = "console.error:";
    for (const auto& a : m["params"]["args"]) line += " " + (a.contains("value") ? a["value"].dump() : a.value("description", "?"));
    errors_.push_back(line);
  }
  if (method == "Log.entryAdded" && m["params"]["entry"].value("level", "") == "error") {
    const auto& e = m["params"]["entry"];
    errors_.push_back("log (" + e.value("source", "") + "): " + e.value("text", "") +
                      (e.contains("url") ? " " + e.value("url", "") : std::string()));
  }
  if (method == "Runtime.exceptionThrown") {
    const auto& d = m["params"]["exceptionDetails"];
    errors_.push_back("exception: " + d.value("text", "") + " " +
                      (d.contains("exception") ? d["exception"].value("description", "") : std::string()));
  }
}

nlohmann::json cdp_client::call(const std::string& method, const nlohmann::json& params, std::chrono::milliseconds timeout) {
  const long id = next_id_++;
  conn_->ws.text(true);
  conn_->ws.write(net::buffer(nlohmann::json{{"id", id}, {"method", method}, {"params", params}}.dump()));
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const auto m = read_message(deadline);
    if (m.is_null()) throw std::runtime_error(method + ": no answer within " + std::to_string(timeout.count()) + " ms");
    if (!m.contains("id")) {
      record_event(m);
      continue;
    }
    if (m["id"] != id) continue;
    if (m.contains("error")) throw std::runtime_error(method + ": " + m["error"].dump());
    return m.value("result", nlohmann::json::object());
  }
}

nlohmann::json cdp_client::evaluate(const std::string& expression, std::chrono::milliseconds timeout) {
  const auto r = call("Runtime.evaluate",
                      {{"expression", expression}, {"awaitPromise", true}, {"returnByValue", true}}, timeout);
  if (r.contains("exceptionDetails")) {
    const auto& d = r["exceptionDetails"];
    throw std::runtime_error("page threw: " + (d.contains("exception") ? d["exception"].value("description", d.dump()) : d.dump()) +
                             "\nin: " + expression.substr(0, 300));
  }
  return r["result"].value("value", nlohmann::json());
}

bool cdp_client::wait_until(const std::string& expression, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (evaluate("Boolean(" + expression + ")") == true) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

void cdp_client::navigate(const std::string& url) {
  loaded_ = false;
  const auto r = call("Page.navigate", {{"url", url}});
  if (r.contains("errorText")) throw std::runtime_error("navigate " + url + ": " + r["errorText"].get<std::string>());
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!loaded_) {
    const auto m = read_message(deadline);
    if (m.is_null()) throw std::runtime_error("navigate " + url + ": no load event within 30 s");
    if (!m.contains("id")) record_event(m);
  }
}

void cdp_client::screenshot(const std::string& path) {
  const auto r = call("Page.captureScreenshot", {{"format", "png"}});
  std::ofstream out(path, std::ios::binary);
  out << base64_decode(r.value("data", ""));
  if (!out) throw std::runtime_error("cannot write " + path);
}

}  // namespace jetperf::test
