// A body produced in pieces (api::body_source), through the real server: the header goes out
// once, chunked, then every piece in order and the last chunk; the next piece is asked for only
// once the previous one is written, so a client that stops reading stops the producer; a client
// that goes away mid-body, or a source that throws, ends that answer alone and the server goes
// on serving others.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

#include <jetperf/api/body_source.hpp>

#include <support/eventually.hpp>

#include "http/http_server.hpp"
#include "loopback_options.hpp"
#include "raw_client.hpp"

namespace jetperf::daemon {
namespace {

using jetperf::test::eventually;
using test::raw_client;
using namespace std::chrono_literals;

// Counts what the server asked of it; `pieces` pieces of `size` bytes ("<i>:" then dots), or
// without end when `pieces` is 0; throws at piece `throw_at` when it is set.
struct counted_source : api::body_source {
  struct counters {
    std::atomic<int> produced{0};
    std::atomic<int> destroyed{0};
  };
  counted_source(std::shared_ptr<counters> c, int pieces, std::size_t size, int throw_at = -1)
      : c_(std::move(c)), pieces_(pieces), size_(size), throw_at_(throw_at) {}
  ~counted_source() override { ++c_->destroyed; }
  bool next(std::string& out) override {
    const int i = c_->produced++;
    if (i == throw_at_) throw std::runtime_error("the store went away");
    out = std::to_string(i) + ":";
    out.resize(size_, '.');
    return pieces_ == 0 || i + 1 < pieces_;
  }
  std::shared_ptr<counters> c_;
  int pieces_;
  std::size_t size_;
  int throw_at_;
};

std::string expected_body(int pieces, std::size_t size) {
  std::string all;
  for (int i = 0; i < pieces; ++i) {
    std::string p = std::to_string(i) + ":";
    p.resize(size, '.');
    all += p;
  }
  return all;
}

// A server that answers /body with a source the test set up, anything else with "ok".
struct fixture {
  std::shared_ptr<counted_source::counters> counters = std::make_shared<counted_source::counters>();
  int pieces = 50;
  std::size_t size = 1000;
  int throw_at = -1;
  std::unique_ptr<http_server> server;

  /// A client that has sent `request` (GET /body by default); the first starts the server, so
  /// that its threads see the fields as the test set them.
  std::unique_ptr<raw_client> ask(const std::string& request = raw_client::request("GET", "/body")) {
    if (!server) start();
    auto client = std::make_unique<raw_client>(server->local_port());
    EXPECT_TRUE(client->send(request));
    return client;
  }
  /// Another request on a connection of its own is answered.
  void expect_serves() {
    raw_client other(server->local_port());
    ASSERT_TRUE(other.send(raw_client::request("GET", "/other")));
    EXPECT_EQ(other.read_response().body(), "ok");
  }

 private:
  void start() {
    server = std::make_unique<http_server>(test::loopback_options(2), [this](const api::http_request& r) {
      api::http_response res;
      if (r.target != "/body") {
        res.body = "ok";
        return res;
      }
      res.headers.emplace_back("Content-Disposition", "attachment; filename=\"t.json\"");
      res.chunks = std::make_shared<counted_source>(counters, pieces, size, throw_at);
      return res;
    });
    server->start();
  }
};

struct parsed {
  bool whole = false;  ///< the answer ended where it should (the last chunk came)
  std::string body;
};

parsed parse(const std::string& all) {
  boost::beast::http::response_parser<boost::beast::http::string_body> parser;
  parser.body_limit(boost::none);
  parser.eager(true);
  boost::beast::error_code ec;
  parser.put(boost::asio::buffer(all), ec);
  return {parser.is_done(), parser.is_done() ? parser.get().body() : std::string()};
}

TEST(chunked_stream, the_header_goes_once_then_every_piece_as_a_chunk) {
  fixture f;
  auto client = f.ask();
  const std::string all = client->read_to_eof();
  client->close();
  const std::string head = all.substr(0, all.find("\r\n\r\n") + 4);
  EXPECT_EQ(head.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << head;
  EXPECT_NE(head.find("Transfer-Encoding: chunked\r\n"), std::string::npos) << head;
  EXPECT_NE(head.find("Content-Type: application/json\r\n"), std::string::npos) << head;
  EXPECT_NE(head.find("Content-Disposition: attachment; filename=\"t.json\"\r\n"), std::string::npos) << head;
  EXPECT_NE(head.find("Connection: close\r\n"), std::string::npos) << head;
  EXPECT_EQ(head.find("Content-Length"), std::string::npos) << head;
  const auto got = parse(all);
  ASSERT_TRUE(got.whole);
  EXPECT_EQ(got.body, expected_body(50, 1000));
  EXPECT_EQ(f.counters->produced, 50);
  EXPECT_TRUE(eventually([&] { return f.counters->destroyed == 1; }));
  EXPECT_TRUE(eventually([&] { return f.server->open_connections() == 0; }));
}

TEST(chunked_stream, a_client_that_stops_reading_stops_the_producer) {
  fixture f;
  f.pieces = 0;  // without end
  f.size = 64 * 1024;
  auto client = f.ask();
  client->read_until("\r\n\r\n");
  // The socket buffers fill, then the writes wait: the count settles far below an endless body.
  int settled = -1;
  ASSERT_TRUE(eventually([&] {
    const int before = f.counters->produced;
    std::this_thread::sleep_for(200ms);
    if (f.counters->produced != before) return false;
    settled = before;
    return true;
  }, 10s));
  EXPECT_LT(settled, 1000) << "pieces of 64 KiB made for a client that reads nothing";
  std::cerr << "pieces of 64 KiB made for a client that reads nothing: " << settled << "\n";
  std::this_thread::sleep_for(200ms);
  EXPECT_EQ(f.counters->produced, settled);
  f.expect_serves();
  // Going away mid-body ends the answer and drops the source.
  client->close();
  EXPECT_TRUE(eventually([&] { return f.counters->destroyed == 1; }, 10s));
  EXPECT_TRUE(eventually([&] { return f.server->open_connections() == 0; }, 10s));
  f.expect_serves();
}

TEST(chunked_stream, a_client_that_goes_away_after_some_of_the_body_leaves_the_server_serving) {
  fixture f;
  f.pieces = 0;
  f.size = 4096;
  for (int round = 0; round < 5; ++round) {
    auto client = f.ask();
    client->read_until("3:");  // a few pieces in
    client->close();
    EXPECT_TRUE(eventually([&] { return f.counters->destroyed == round + 1; }, 10s)) << "round " << round;
    f.expect_serves();
  }
  EXPECT_TRUE(eventually([&] { return f.server->open_connections() == 0; }, 10s));
}

TEST(chunked_stream, a_source_that_throws_ends_the_body_unfinished) {
  fixture f;
  f.throw_at = 3;
  auto client = f.ask();
  const std::string all = client->read_to_eof();
  // The pieces before it arrived; the last chunk never did.
  EXPECT_FALSE(parse(all).whole);
  EXPECT_NE(all.find("2:..."), std::string::npos);
  EXPECT_TRUE(eventually([&] { return f.counters->destroyed == 1; }));
  f.expect_serves();
}

TEST(chunked_stream, http10_body_is_delimited_by_close) {
  fixture f;
  f.pieces = 5;
  f.size = 10;
  auto client = f.ask("GET /body HTTP/1.0\r\n\r\n");
  const std::string all = client->read_to_eof();
  EXPECT_EQ(all.find("Transfer-Encoding"), std::string::npos) << all;
  EXPECT_EQ(all.substr(all.find("\r\n\r\n") + 4), expected_body(5, 10));
}

}  // namespace
}  // namespace jetperf::daemon
