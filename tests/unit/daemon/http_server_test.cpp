#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include <jetperf/api/sse_channel.hpp>

#include <support/eventually.hpp>

#include "http/http_server.hpp"
#include "busy_gate.hpp"
#include "loopback_options.hpp"
#include "raw_client.hpp"

namespace jetperf::daemon {
namespace {

using jetperf::test::eventually;
using test::raw_client;
using namespace std::chrono_literals;

// An echo handler: tells the client what the server made of its request.
api::http_response echo(const api::http_request& r) {
  api::http_response res;
  res.body = nlohmann::json{{"method", r.method},
                            {"target", r.target},
                            {"x_test", r.header("x-test")},
                            {"has_upper_case_name", r.headers.count("X-Test") != 0},
                            {"remote", r.remote},
                            {"body_size", r.body.size()}}
                 .dump();
  res.headers.emplace_back("X-Extra", "1");
  return res;
}

TEST(http_server, binds_an_ephemeral_port) {
  http_server server(test::loopback_options(2), echo);
  server.start();
  EXPECT_NE(server.local_port(), 0);
  EXPECT_EQ(server.local_address(), "127.0.0.1:" + std::to_string(server.local_port()));
}

TEST(http_server, bind_failure_names_the_address) {
  http_server first(test::loopback_options(2), echo);
  first.start();
  auto o = test::loopback_options(2);
  o.port = first.local_port();
  http_server second(o, echo);
  try {
    second.start();
    FAIL() << "binding a used port succeeded";
  } catch (const std::system_error& e) {
    EXPECT_NE(std::string(e.what()).find(first.local_address()), std::string::npos) << e.what();
  }
}

TEST(http_server, keep_alive_serves_many_requests_on_one_connection) {
  std::atomic<int> calls{0};
  http_server server(test::loopback_options(2), [&](const api::http_request& r) {
    ++calls;
    return echo(r);
  });
  server.start();
  raw_client client(server.local_port());
  ASSERT_TRUE(client.connected());
  for (int i = 0; i < 3; ++i) {
    const std::string body = std::string(static_cast<std::size_t>(i) * 10, 'b');
    ASSERT_TRUE(client.send(raw_client::request("POST", "/v1/echo?i=" + std::to_string(i), body,
                                                "X-Test: Hello\r\n")));
    const auto res = client.read_response();
    EXPECT_EQ(res.result_int(), 200);
    EXPECT_TRUE(res.keep_alive());
    EXPECT_EQ(res[boost::beast::http::field::content_type], "application/json");
    EXPECT_EQ(std::string(res[boost::beast::http::field::server]).rfind("jetperfd/", 0), 0u);
    EXPECT_EQ(res["X-Extra"], "1");
    const auto j = nlohmann::json::parse(res.body());
    EXPECT_EQ(j["method"], "POST");
    EXPECT_EQ(j["target"], "/v1/echo?i=" + std::to_string(i));
    EXPECT_EQ(j["x_test"], "Hello");
    EXPECT_EQ(j["has_upper_case_name"], false);
    EXPECT_EQ(j["remote"].get<std::string>().rfind("127.0.0.1:", 0), 0u);
    EXPECT_EQ(j["body_size"], body.size());
  }
  EXPECT_EQ(calls.load(), 3);
  EXPECT_EQ(server.open_connections(), 1u);
}

// A HEAD answer is the GET's header, its Content-Length the GET body's, and no body: the next
// answer on the connection parses whole.
TEST(http_server, head_answers_the_header_alone) {
  http_server server(test::loopback_options(2), [](const api::http_request& r) {
    api::http_response res;
    res.body = std::string(1000, 'x');
    res.headers.emplace_back("X-Method", r.method);
    return res;
  });
  server.start();
  raw_client client(server.local_port());
  ASSERT_TRUE(client.send(raw_client::request("HEAD", "/v1/health") + raw_client::request("GET", "/v1/health")));
  const auto head = client.read_until("\r\n\r\n");
  EXPECT_EQ(head.rfind("HTTP/1.1 200", 0), 0u) << head;
  EXPECT_NE(head.find("Content-Length: 1000\r\n"), std::string::npos) << head;
  EXPECT_NE(head.find("X-Method: HEAD\r\n"), std::string::npos) << head;
  // What follows the header is the GET's answer, not a body.
  const auto both = client.read_until("\r\n\r\n", 2);
  const auto second = both.substr(both.find("\r\n\r\n") + 4);
  EXPECT_EQ(second.rfind("HTTP/1.1 200", 0), 0u) << second.substr(0, 80);
}

TEST(http_server, pipelined_requests_are_answered_in_order) {
  http_server server(test::loopback_options(2), echo);
  server.start();
  raw_client client(server.local_port());
  ASSERT_TRUE(client.send(raw_client::request("GET", "/a") + raw_client::request("GET", "/b")));
  EXPECT_EQ(nlohmann::json::parse(client.read_response().body())["target"], "/a");
  EXPECT_EQ(nlohmann::json::parse(client.read_response().body())["target"], "/b");
}

TEST(http_server, connection_close_is_honoured) {
  http_server server(test::loopback_options(2), echo);
  server.start();
  raw_client client(server.local_port());
  ASSERT_TRUE(client.send(raw_client::request("GET", "/x", {}, "Connection: close\r\n")));
  const auto res = client.read_response();
  EXPECT_EQ(res.result_int(), 200);
  EXPECT_FALSE(res.keep_alive());
  EXPECT_EQ(client.read_to_eof(), "");
}

TEST(http_server, body_over_one_mebibyte_gets_413) {
  std::atomic<int> calls{0};
  http_server server(test::loopback_options(2), [&](const api::http_request& r) {
    ++calls;
    return echo(r);
  });
  server.start();
  {
    // Exactly at the limit is accepted.
    raw_client client(server.local_port());
    ASSERT_TRUE(client.send(raw_client::request("POST", "/v1/jobs", std::string(1 << 20, 'x'))));
    const auto res = client.read_response();
    EXPECT_EQ(res.result_int(), 200);
    EXPECT_EQ(nlohmann::json::parse(res.body())["body_size"], 1 << 20);
  }
  raw_client client(server.local_port());
  ASSERT_TRUE(client.send(raw_client::request("POST", "/v1/jobs", std::string((1 << 20) + 1, 'x'))));
  const auto res = client.read_response();
  EXPECT_EQ(res.result_int(), 413);
  EXPECT_FALSE(res.keep_alive());
  const auto j = nlohmann::json::parse(res.body());
  EXPECT_EQ(j["error"]["code"], "payload_too_large");
  EXPECT_EQ(j["error"]["field"], "body");
  EXPECT_FALSE(j["error"]["message"].get<std::string>().empty());
  EXPECT_EQ(calls.load(), 1);
}

TEST(http_server, header_over_eight_kibibytes_gets_431) {
  http_server server(test::loopback_options(2), echo);
  server.start();
  {
    raw_client client(server.local_port());
    ASSERT_TRUE(client.send(
        raw_client::request("GET", "/", {}, "X-Big: " + std::string(6000, 'h') + "\r\n")));
    EXPECT_EQ(client.read_response().result_int(), 200);
  }
  raw_client client(server.local_port());
  ASSERT_TRUE(client.send(
      raw_client::request("GET", "/", {}, "X-Big: " + std::string(9000, 'h') + "\r\n")));
  const auto res = client.read_response();
  EXPECT_EQ(res.result_int(), 431);
  EXPECT_EQ(nlohmann::json::parse(res.body())["error"]["code"], "header_too_large");
}

TEST(http_server, malformed_request_gets_400) {
  http_server server(test::loopback_options(2), echo);
  server.start();
  raw_client client(server.local_port());
  ASSERT_TRUE(client.send("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: banana\r\n\r\n"));
  const auto res = client.read_response();
  EXPECT_EQ(res.result_int(), 400);
  EXPECT_EQ(nlohmann::json::parse(res.body())["error"]["code"], "bad_request");
}

TEST(http_server, throwing_handler_gets_500_and_server_survives) {
  http_server server(test::loopback_options(2), [](const api::http_request& r) -> api::http_response {
    if (r.target == "/boom") throw std::runtime_error("boom");
    return echo(r);
  });
  server.start();
  raw_client client(server.local_port());
  ASSERT_TRUE(client.send(raw_client::request("GET", "/boom")));
  const auto res = client.read_response();
  EXPECT_EQ(res.result_int(), 500);
  EXPECT_EQ(nlohmann::json::parse(res.body())["error"]["code"], "internal");
  ASSERT_TRUE(client.send(raw_client::request("GET", "/ok")));
  EXPECT_EQ(client.read_response().result_int(), 200);
}

TEST(http_server, connections_over_the_limit_get_503) {
  auto o = test::loopback_options(2);
  o.max_connections = 2;
  test::busy_gate gate;
  http_server server(o, gate.handlers(echo));
  server.start();
  // Two requests being served hold both slots (idle keep-alives would give theirs up).
  raw_client a(server.local_port());
  raw_client b(server.local_port());
  ASSERT_TRUE(a.send(raw_client::request("GET", "/hold")));
  ASSERT_TRUE(b.send(raw_client::request("GET", "/hold")));
  ASSERT_TRUE(eventually([&] { return server.waiting_requests() == 2u; }));
  EXPECT_EQ(server.open_connections(), 2u);

  raw_client c(server.local_port());
  ASSERT_TRUE(c.send(raw_client::request("GET", "/c")));
  const auto res = c.read_response();
  EXPECT_EQ(res.result_int(), 503);
  EXPECT_EQ(nlohmann::json::parse(res.body())["error"]["code"], "unavailable");

  gate.release();
  EXPECT_EQ(a.read_response().result_int(), 200);
  EXPECT_EQ(b.read_response().result_int(), 200);
  a.close();
  ASSERT_TRUE(eventually([&] { return server.open_connections() == 1; }));
  raw_client d(server.local_port());
  ASSERT_TRUE(d.send(raw_client::request("GET", "/d")));
  EXPECT_EQ(d.read_response().result_int(), 200);
}

// A handler that answers /events with a channel the test feeds.
struct sse_fixture {
  std::mutex mutex;
  std::shared_ptr<api::sse_channel> channel;

  request_handler handler() {
    return [this](const api::http_request& r) {
      if (r.target != "/events") return echo(r);
      api::http_response res;
      res.content_type = "text/event-stream";
      res.stream = std::make_shared<api::sse_channel>();
      std::lock_guard<std::mutex> lock(mutex);
      channel = res.stream;
      return res;
    };
  }
  std::shared_ptr<api::sse_channel> get() {
    std::lock_guard<std::mutex> lock(mutex);
    return channel;
  }
  /// Opens /events through `client`, reads the response head and waits for the handler's
  /// channel: nullptr when the request could not be sent or no channel came.
  std::shared_ptr<api::sse_channel> open(raw_client& client) {
    if (!client.send(raw_client::request("GET", "/events"))) return nullptr;
    client.read_until("\r\n\r\n");
    return eventually([&] { return get() != nullptr; }) ? get() : nullptr;
  }
};

TEST(http_server, sse_frames_arrive_in_order_and_the_stream_closes_when_finished) {
  sse_fixture f;
  http_server server(test::loopback_options(2), f.handler());
  server.start();
  raw_client client(server.local_port());
  ASSERT_TRUE(client.send(raw_client::request("GET", "/events")));
  const std::string head = client.read_until("\r\n\r\n");
  EXPECT_EQ(head.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << head;
  EXPECT_NE(head.find("Content-Type: text/event-stream\r\n"), std::string::npos) << head;
  EXPECT_NE(head.find("Cache-Control: no-cache\r\n"), std::string::npos) << head;
  EXPECT_NE(head.find("Transfer-Encoding: chunked\r\n"), std::string::npos) << head;
  EXPECT_EQ(head.find("Content-Length"), std::string::npos) << head;
  ASSERT_TRUE(eventually([&] { return f.get() != nullptr; }));
  auto channel = f.get();

  channel->push("progress", "{\"n\":1}");
  client.read_until("{\"n\":1}");  // arrives before the next push: really streamed
  for (int i = 2; i <= 50; ++i) channel->push("progress", "{\"n\":" + std::to_string(i) + "}");
  channel->push("done", "{}", /*last=*/true);
  const std::string all = client.read_to_eof();

  // Re-parse the chunked body and check every frame, in order.
  boost::beast::http::response_parser<boost::beast::http::string_body> parser;
  boost::beast::error_code ec;
  parser.eager(true);
  parser.put(boost::asio::buffer(all), ec);
  ASSERT_FALSE(ec) << ec.message();
  ASSERT_TRUE(parser.is_done());
  std::string expected;
  for (int i = 1; i <= 50; ++i) expected += "event: progress\ndata: {\"n\":" + std::to_string(i) + "}\n\n";
  expected += "event: done\ndata: {}\n\n";
  EXPECT_EQ(parser.get().body(), expected);
  EXPECT_TRUE(eventually([&] { return server.open_connections() == 0; }));
}

TEST(http_server, sse_sends_keep_alive_comments) {
  sse_fixture f;
  auto o = test::loopback_options(2);
  o.limits.sse_keepalive = 30ms;
  http_server server(o, f.handler());
  server.start();
  raw_client client(server.local_port());
  ASSERT_TRUE(client.send(raw_client::request("GET", "/events")));
  const std::string got = client.read_until(": keep-alive\n\n");
  EXPECT_NE(got.find(": keep-alive\n\n"), std::string::npos);
}

TEST(http_server, sse_client_disconnect_closes_the_channel) {
  sse_fixture f;
  http_server server(test::loopback_options(2), f.handler());
  server.start();
  {
    raw_client client(server.local_port());
    ASSERT_NE(f.open(client), nullptr);
    EXPECT_FALSE(f.get()->closed());
  }
  EXPECT_TRUE(eventually([&] { return f.get()->closed(); }));
  EXPECT_TRUE(eventually([&] { return server.open_connections() == 0; }));
}

TEST(http_server, stop_closes_open_streams) {
  sse_fixture f;
  auto server = std::make_unique<http_server>(test::loopback_options(2), f.handler());
  server->start();
  raw_client client(server->local_port());
  ASSERT_NE(f.open(client), nullptr);
  server->stop();
  EXPECT_TRUE(f.get()->closed());
  client.read_to_eof();  // returns: the server closed the connection
}

// A producer thread (the telemetry feed, the job runner) may be pushing while the server stops:
// once stop() has closed a stream's channel nothing may post into the io_context any more, which
// is destroyed next. A sanitizer build (JETPERF_SANITIZE) reports a post into the freed
// io_context; each round gives the timing another chance to show it.
TEST(http_server, stop_while_a_producer_pushes_leaves_nothing_posting) {
  for (int round = 0; round < 20; ++round) {
    sse_fixture f;
    auto server = std::make_unique<http_server>(test::loopback_options(2), f.handler());
    server->start();
    raw_client client(server->local_port());
    ASSERT_NE(f.open(client), nullptr);
    auto channel = f.get();
    std::atomic<bool> done{false};
    std::atomic<long> pushes{0};
    std::thread producer([&] {
      while (!done) {
        channel->push("sample", "{}", /*last=*/false, /*droppable=*/true);
        ++pushes;
      }
    });
    const bool pushing = eventually([&] { return pushes.load() > 1000; });
    server.reset();
    const bool closed = channel->closed();
    done = true;
    producer.join();
    ASSERT_TRUE(pushing);
    ASSERT_TRUE(closed) << "round " << round;
  }
}

TEST(http_server, http10_stream_is_delimited_by_close) {
  sse_fixture f;
  http_server server(test::loopback_options(2), f.handler());
  server.start();
  raw_client client(server.local_port());
  ASSERT_TRUE(client.send("GET /events HTTP/1.0\r\n\r\n"));
  client.read_until("\r\n\r\n");
  ASSERT_TRUE(eventually([&] { return f.get() != nullptr; }));
  f.get()->push("a", "1", /*last=*/true);
  const std::string all = client.read_to_eof();
  EXPECT_EQ(all.substr(all.find("\r\n\r\n") + 4), "event: a\ndata: 1\n\n");
}

TEST(http_server, io_threads_are_niced) {
  const auto self_tid = static_cast<id_t>(::syscall(SYS_gettid));
  const int base = ::getpriority(PRIO_PROCESS, self_tid);
  auto o = test::loopback_options(2);
  o.nice_increment = 5;
  http_server server(o, [](const api::http_request&) {
    api::http_response res;
    const auto tid = static_cast<id_t>(::syscall(SYS_gettid));
    res.body = std::to_string(::getpriority(PRIO_PROCESS, tid));
    return res;
  });
  server.start();
  raw_client client(server.local_port());
  ASSERT_TRUE(client.send(raw_client::request("GET", "/nice")));
  EXPECT_EQ(client.read_response().body(), std::to_string(std::min(base + 5, 19)));
  // The test's own thread is untouched.
  EXPECT_EQ(::getpriority(PRIO_PROCESS, self_tid), base);
}

}  // namespace
}  // namespace jetperf::daemon
