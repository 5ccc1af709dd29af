// The HTTP layer's defences against lock-out and slow clients: event streams under their own cap
// (in all and per address), the last connections kept for requests with the token, handlers that
// wait run off the io threads (and a full work queue answers 503), slow stream readers bounded,
// and requests whose body length cannot be known refused. Every error carries error.field.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

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

api::http_response ok(const std::string& what) {
  api::http_response res;
  res.body = nlohmann::json{{"ok", what}}.dump();
  return res;
}

nlohmann::json error_of(const boost::beast::http::response<boost::beast::http::string_body>& res) {
  return nlohmann::json::parse(res.body())["error"];
}

// /events answers an event stream; the channels are kept for the test.
struct streams {
  std::mutex mutex;
  std::vector<std::shared_ptr<api::sse_channel>> channels;
  api::http_response operator()(const api::http_request& r) {
    if (r.target != "/events") return ok(r.target);
    api::http_response res;
    res.content_type = "text/event-stream";
    res.stream = std::make_shared<api::sse_channel>();
    std::lock_guard<std::mutex> lock(mutex);
    channels.push_back(res.stream);
    return res;
  }
};

TEST(http_limits, event_streams_have_their_own_cap_in_all_and_per_address) {
  auto o = test::loopback_options(1);
  o.max_streams = 3;
  o.max_streams_per_address = 2;
  auto state = std::make_shared<streams>();
  http_server server(o, [state](const api::http_request& r) { return (*state)(r); });
  server.start();
  std::vector<std::unique_ptr<raw_client>> open;
  for (int i = 0; i < 2; ++i) {
    open.push_back(std::make_unique<raw_client>(server.local_port()));
    ASSERT_TRUE(open.back()->send(raw_client::request("GET", "/events")));
    EXPECT_EQ(open.back()->read_until("\r\n\r\n").rfind("HTTP/1.1 200", 0), 0u);
  }
  EXPECT_TRUE(eventually([&] { return server.open_streams() == 2u; }));
  // A third stream from the same address is refused, and its channel closed for its producers.
  raw_client third(server.local_port());
  ASSERT_TRUE(third.send(raw_client::request("GET", "/events")));
  const auto refused = third.read_response();
  EXPECT_EQ(refused.result_int(), 503);
  EXPECT_EQ(error_of(refused)["code"], "unavailable");
  EXPECT_TRUE(error_of(refused).contains("field"));
  EXPECT_NE(error_of(refused)["message"].get<std::string>().find("from 127.0.0.1"), std::string::npos);
  EXPECT_EQ(refused[boost::beast::http::field::retry_after], "10");
  EXPECT_TRUE(eventually([&] {
    std::lock_guard<std::mutex> lock(state->mutex);
    return state->channels.size() == 3 && state->channels[2]->closed();
  }));
  // Plain requests still get through.
  raw_client plain(server.local_port());
  ASSERT_TRUE(plain.send(raw_client::request("GET", "/health")));
  EXPECT_EQ(plain.read_response().result_int(), 200);
  // A stream that ends frees its slot.
  open[0]->close();
  EXPECT_TRUE(eventually([&] { return server.open_streams() == 1u; }));
  raw_client again(server.local_port());
  ASSERT_TRUE(again.send(raw_client::request("GET", "/events")));
  EXPECT_EQ(again.read_until("\r\n\r\n").rfind("HTTP/1.1 200", 0), 0u);
}

TEST(http_limits, the_last_connections_are_kept_for_requests_with_the_token) {
  auto o = test::loopback_options(1);
  o.max_connections = 4;
  o.reserved_connections = 1;
  o.work_threads = 4;
  test::busy_gate gate;
  request_handlers h = gate.handlers([](const api::http_request& r) { return ok(r.target); });
  h.authenticated = [](const api::http_request& r) { return r.header("authorization") == "Bearer good"; };
  http_server server(o, h);
  server.start();
  // Three readers being served hold every slot but the reserved one.
  std::vector<std::unique_ptr<raw_client>> busy;
  for (int i = 0; i < 3; ++i) {
    busy.push_back(std::make_unique<raw_client>(server.local_port()));
    ASSERT_TRUE(busy.back()->send(raw_client::request("GET", "/hold")));
  }
  ASSERT_TRUE(eventually([&] { return server.waiting_requests() == 3u; }));
  raw_client anonymous(server.local_port());
  ASSERT_TRUE(anonymous.send(raw_client::request("GET", "/v1/health")));
  const auto refused = anonymous.read_response();
  EXPECT_EQ(refused.result_int(), 503);
  EXPECT_NE(error_of(refused)["message"].get<std::string>().find("token"), std::string::npos);
  anonymous.close();
  EXPECT_TRUE(eventually([&] { return server.open_connections() == 3u; }));
  raw_client holder(server.local_port());
  ASSERT_TRUE(holder.send(raw_client::request("POST", "/v1/jobs", "{}", "Authorization: Bearer good\r\n")));
  EXPECT_EQ(holder.read_response().result_int(), 200);
  // Once they are answered they idle as keep-alives: a tokenless reader on the kept slot is
  // served, and the keep-alive that has waited longest gives its slot up for it (issue 58:
  // idle keep-alives locked every tokenless reader out).
  gate.release();
  for (auto& b : busy) EXPECT_EQ(b->read_response().result_int(), 200);
  holder.close();
  ASSERT_TRUE(eventually([&] { return server.open_connections() == 3u; }));
  std::this_thread::sleep_for(200ms);  // idle past the silent mark
  raw_client reader(server.local_port());
  ASSERT_TRUE(reader.send(raw_client::request("GET", "/v1/health")));
  EXPECT_EQ(reader.read_response().result_int(), 200);
  // The reader holds its slot, and one of the three keep-alives gave its own up.
  EXPECT_TRUE(eventually([&] { return server.open_connections() == 3u; })) << server.open_connections();
}

// Sockets that send nothing (300 of them kept the token holder out 13 times in 15): when every
// slot is taken the one that has waited longest for its first request is closed for the
// newcomer, and none holds a slot past header_timeout.
TEST(http_limits, sockets_that_send_nothing_make_room_for_the_token_holder) {
  auto o = test::loopback_options(1);
  o.max_connections = 4;
  o.reserved_connections = 1;
  o.limits.header_timeout = std::chrono::seconds(30);  // room is made by closing, not by the timeout
  o.work_threads = 4;
  test::busy_gate gate;
  request_handlers h = gate.handlers([](const api::http_request& r) { return ok(r.target); });
  h.authenticated = [](const api::http_request& r) { return r.header("authorization") == "Bearer good"; };
  http_server server(o, h);
  server.start();
  std::vector<std::unique_ptr<raw_client>> silent;
  for (int i = 0; i < 4; ++i) {
    silent.push_back(std::make_unique<raw_client>(server.local_port()));
    ASSERT_TRUE(eventually([&] { return server.open_connections() == static_cast<std::size_t>(i + 1); }));
  }
  // Each holder stays connected: every round finds the slots full again.
  std::vector<std::unique_ptr<raw_client>> holders;
  for (int round = 0; round < 3; ++round) {
    holders.push_back(std::make_unique<raw_client>(server.local_port()));
    auto& holder = *holders.back();
    ASSERT_TRUE(holder.send(raw_client::request("POST", "/v1/jobs", "{}", "Authorization: Bearer good\r\n")));
    EXPECT_EQ(holder.read_response().result_int(), 200) << "round " << round;
    // The oldest silent socket was closed to make room, the others kept: its read ends at the
    // server's close (read_to_eof throws at the client's 5 s receive timeout, long before the
    // 30 s header timeout would close it).
    EXPECT_EQ(silent[static_cast<std::size_t>(round)]->read_to_eof(), "") << "round " << round;
  }
  // A connection whose request is being served is never closed for another: with every slot
  // held by busy ones, a newcomer over the limit is answered 503 as before.
  silent[3]->close();
  holders.clear();
  ASSERT_TRUE(eventually([&] { return server.open_connections() == 0u; }));
  std::vector<std::unique_ptr<raw_client>> served;
  for (int i = 0; i < 4; ++i) {
    served.push_back(std::make_unique<raw_client>(server.local_port()));
    ASSERT_TRUE(served.back()->send(raw_client::request("GET", "/hold", "", "Authorization: Bearer good\r\n")));
  }
  ASSERT_TRUE(eventually([&] { return server.waiting_requests() == 4u; }));
  raw_client over(server.local_port());
  ASSERT_TRUE(over.send(raw_client::request("GET", "/x", "", "Authorization: Bearer good\r\n")));
  EXPECT_EQ(over.read_response().result_int(), 503);
  gate.release();
  for (auto& s : served) EXPECT_EQ(s->read_response().result_int(), 200);
}

TEST(http_limits, a_connection_that_sends_no_request_is_closed_after_the_header_timeout) {
  auto o = test::loopback_options(1);
  o.limits.header_timeout = std::chrono::milliseconds(300);
  http_server server(o, [](const api::http_request& r) { return ok(r.target); });
  server.start();
  raw_client silent(server.local_port());
  ASSERT_TRUE(eventually([&] { return server.open_connections() == 1u; }));
  EXPECT_EQ(silent.read_to_eof(), "");
  EXPECT_TRUE(eventually([&] { return server.open_connections() == 0u; }));
  // One that asks in time is served, and then waits the keep-alive idle timeout, not this one.
  raw_client prompt(server.local_port());
  ASSERT_TRUE(prompt.send(raw_client::request("GET", "/a")));
  EXPECT_EQ(prompt.read_response().result_int(), 200);
  std::this_thread::sleep_for(std::chrono::milliseconds(600));
  ASSERT_TRUE(prompt.send(raw_client::request("GET", "/b")));
  EXPECT_EQ(prompt.read_response().result_int(), 200);
}

TEST(http_limits, a_handler_that_waits_runs_off_the_io_thread) {
  // One io thread: were /slow answered on it, /quick could not be read until /slow returned, and
  // /slow returns only once /quick was answered.
  std::mutex m;
  std::condition_variable cv;
  bool quick_done = false;
  request_handlers h;
  h.handle = [&](const api::http_request& r) {
    if (r.target == "/slow") {
      std::unique_lock<std::mutex> lock(m);
      cv.wait_for(lock, 10s, [&] { return quick_done; });
      return ok(quick_done ? "after quick" : "timed out");
    }
    return ok("quick");
  };
  h.blocking = [](const api::http_request& r) { return r.target == "/slow"; };
  http_server server(test::loopback_options(1), h);
  server.start();
  raw_client slow(server.local_port()), quick(server.local_port());
  ASSERT_TRUE(slow.send(raw_client::request("GET", "/slow")));
  ASSERT_TRUE(quick.send(raw_client::request("GET", "/quick")));
  EXPECT_EQ(quick.read_response().result_int(), 200);
  {
    std::lock_guard<std::mutex> lock(m);
    quick_done = true;
  }
  cv.notify_all();
  const auto res = slow.read_response();
  EXPECT_EQ(nlohmann::json::parse(res.body())["ok"], "after quick");
  // The connection stays usable for the next request.
  ASSERT_TRUE(slow.send(raw_client::request("GET", "/quick")));
  EXPECT_EQ(slow.read_response().result_int(), 200);
}

TEST(http_limits, requests_that_wait_beyond_the_queue_get_503) {
  auto o = test::loopback_options(1);
  o.work_threads = 1;
  o.max_queued_work = 1;
  std::mutex m;
  std::condition_variable cv;
  bool release = false;
  int started = 0;
  request_handlers h;
  h.handle = [&](const api::http_request&) {
    std::unique_lock<std::mutex> lock(m);
    ++started;
    cv.notify_all();
    cv.wait_for(lock, 10s, [&] { return release; });
    return ok("done");
  };
  h.blocking = [](const api::http_request&) { return true; };
  http_server server(o, h);
  server.start();
  raw_client running(server.local_port()), queued(server.local_port()), third(server.local_port());
  ASSERT_TRUE(running.send(raw_client::request("GET", "/1")));
  {
    std::unique_lock<std::mutex> lock(m);
    ASSERT_TRUE(cv.wait_for(lock, 5s, [&] { return started == 1; }));
  }
  ASSERT_TRUE(queued.send(raw_client::request("GET", "/2")));
  // The second is queued once the pool holds it; the third finds the queue full.
  ASSERT_TRUE(eventually([&] { return server.waiting_requests() == 2u; }));
  ASSERT_TRUE(third.send(raw_client::request("GET", "/3")));
  const auto res = third.read_response();
  EXPECT_EQ(res.result_int(), 503);
  EXPECT_TRUE(error_of(res).contains("field"));
  {
    std::lock_guard<std::mutex> lock(m);
    release = true;
  }
  cv.notify_all();
  EXPECT_EQ(running.read_response().result_int(), 200);
  EXPECT_EQ(queued.read_response().result_int(), 200);
}

TEST(http_limits, a_stalled_reader_costs_at_most_the_stream_bound) {
  auto o = test::loopback_options(1);
  o.limits.stream_buffer_bytes = 64 * 1024;
  auto state = std::make_shared<streams>();
  http_server server(o, [state](const api::http_request& r) { return (*state)(r); });
  server.start();
  raw_client reader(server.local_port());
  ASSERT_TRUE(reader.send(raw_client::request("GET", "/events")));
  reader.read_until("\r\n\r\n");
  ASSERT_TRUE(eventually([&] {
    std::lock_guard<std::mutex> lock(state->mutex);
    return !state->channels.empty();
  }));
  auto telemetry = state->channels[0];
  // The client reads nothing more: 20 MB of periodic frames later, the channel holds at most its
  // bound (the socket's own buffers hold the rest of what was written).
  const std::string frame(10 * 1024, 'x');
  for (int i = 0; i < 2000; ++i) telemetry->push("telemetry", frame, false, /*droppable=*/true);
  EXPECT_LE(telemetry->queued_bytes(), 64u * 1024 + frame.size() + 64);
  EXPECT_GT(telemetry->dropped(), 1000u);
  EXPECT_FALSE(telemetry->closed());

  // Frames that must not be dropped (a job's events) overflow the bound: the stream ends.
  raw_client job_reader(server.local_port());
  ASSERT_TRUE(job_reader.send(raw_client::request("GET", "/events")));
  job_reader.read_until("\r\n\r\n");
  ASSERT_TRUE(eventually([&] {
    std::lock_guard<std::mutex> lock(state->mutex);
    return state->channels.size() == 2;
  }));
  auto events = state->channels[1];
  for (int i = 0; i < 2000 && !events->closed(); ++i) events->push("point", frame);
  EXPECT_TRUE(eventually([&] { return events->closed(); }));
  EXPECT_TRUE(eventually([&] { return server.open_streams() == 1u; }));
}

TEST(http_limits, a_transfer_encoding_that_does_not_end_in_chunked_is_refused) {
  http_server server(test::loopback_options(1), [](const api::http_request& r) {
    api::http_response res;
    res.body = nlohmann::json{{"body", r.body}}.dump();
    return res;
  });
  server.start();
  raw_client client(server.local_port());
  ASSERT_TRUE(client.send("POST /x HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: gzip\r\n\r\nabc"));
  const auto res = client.read_response();
  EXPECT_EQ(res.result_int(), 400);
  EXPECT_EQ(error_of(res)["field"], "Transfer-Encoding");
  // chunked last is the one framing a server can read.
  raw_client good(server.local_port());
  ASSERT_TRUE(good.send("POST /x HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"));
  const auto fine = good.read_response();
  EXPECT_EQ(fine.result_int(), 200);
  EXPECT_EQ(nlohmann::json::parse(fine.body())["body"], "abc");
}

TEST(http_limits, errors_of_the_http_layer_name_a_field_or_null) {
  auto o = test::loopback_options(1);
  o.max_connections = 1;
  o.reserved_connections = 0;
  test::busy_gate gate;
  http_server server(o, gate.handlers([](const api::http_request& r) { return ok(r.target); }));
  server.start();
  raw_client first(server.local_port());
  ASSERT_TRUE(first.send(raw_client::request("GET", "/hold")));
  ASSERT_TRUE(eventually([&] { return server.waiting_requests() == 1u; }));
  raw_client over(server.local_port());
  ASSERT_TRUE(over.send(raw_client::request("GET", "/b")));
  const auto res = over.read_response();
  EXPECT_EQ(res.result_int(), 503);
  ASSERT_TRUE(error_of(res).contains("field"));
  EXPECT_TRUE(error_of(res)["field"].is_null());
  gate.release();
  EXPECT_EQ(first.read_response().result_int(), 200);
  first.close();
  EXPECT_TRUE(eventually([&] { return server.open_connections() == 0u; }));
  raw_client big(server.local_port());
  ASSERT_TRUE(big.send("POST /x HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2000000\r\n\r\n"));
  const auto too_big = big.read_response();
  EXPECT_EQ(too_big.result_int(), 413);
  EXPECT_EQ(error_of(too_big)["field"], "body");
}

}  // namespace
}  // namespace jetperf::daemon
