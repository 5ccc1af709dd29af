// Uploads (request_handlers::body_to_file) on loopback: the body goes to a daemon-named file in
// upload_dir as it arrives, past the 1 MiB body limit and up to upload_limit; past that, 413
// naming body and no file left; a request the admit check refuses is answered before its body;
// `Expect: 100-continue` is answered; every other route keeps the 1 MiB limit.
#include <gtest/gtest.h>

#include <dirent.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <atomic>
#include <csignal>
#include <fstream>
#include <iterator>
#include <string>

#include <nlohmann/json.hpp>

#include <support/eventually.hpp>
#include <support/temp_dir.hpp>

#include "http/http_server.hpp"
#include "raw_client.hpp"

namespace jetperf::daemon {
namespace {

using jetperf::test::eventually;
using jetperf::test::temp_dir;
using test::raw_client;

int files_in(const std::string& dir) {
  int n = 0;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (const dirent* e = ::readdir(d)) n += e->d_name[0] != '.';
    ::closedir(d);
  }
  return n;
}

struct upload_server {
  temp_dir dir;
  std::unique_ptr<http_server> server;
  std::string seen_file, seen_content;
  std::size_t seen_body = 0;
  std::atomic<std::uint64_t> stored{0};

  /// `budget`: the disk all uploads share (upload_space); 0: none.
  explicit upload_server(std::uint64_t budget = 0) {
    http_server_options o;
    o.host = "127.0.0.1";
    o.port = 0;
    o.threads = 1;
    o.nice_increment = 0;
    o.limits.upload_limit = 2 << 20;
    o.upload_dir = dir.path();
    if (budget > 0) o.uploads = std::make_shared<upload_space>(budget, [this] { return stored.load(); }, dir.path());
    request_handlers h;
    h.handle = [this](const api::http_request& r) {
      seen_file = r.body_file;
      seen_body = r.body.size();
      std::ifstream in(r.body_file, std::ios::binary);
      seen_content.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
      api::http_response res;
      res.body = nlohmann::json{{"bytes", seen_content.size()}, {"body", r.body.size()}}.dump();
      return res;
    };
    h.body_to_file = [](const api::http_request& r) { return r.method == "POST" && r.target == "/upload"; };
    h.admit = [](const api::http_request& r) -> std::optional<api::http_response> {
      if (r.header("authorization") == "Bearer good") return std::nullopt;
      api::http_response res;
      res.status = 401;
      res.body = R"({"error":{"code":"unauthorized","message":"token","field":"Authorization"}})";
      return res;
    };
    server = std::make_unique<http_server>(o, h);
    server->start();
  }
};

const std::string k_auth = "Authorization: Bearer good\r\n";

TEST(http_upload, a_body_past_one_mebibyte_streams_to_a_file_that_goes_after_the_answer) {
  upload_server s;
  std::string body(3 << 19, 'a');  // 1.5 MiB
  body[12345] = 'b';
  raw_client client(s.server->local_port());
  ASSERT_TRUE(client.send(raw_client::request("POST", "/upload", body, k_auth)));
  const auto res = client.read_response();
  ASSERT_EQ(res.result_int(), 200) << res.body();
  EXPECT_EQ(nlohmann::json::parse(res.body())["bytes"], body.size());
  EXPECT_EQ(s.seen_body, 0u);
  EXPECT_EQ(s.seen_content, body);
  EXPECT_EQ(s.seen_file.rfind(s.dir.path() + "/upload-", 0), 0u) << s.seen_file;
  EXPECT_TRUE(eventually([&] { return files_in(s.dir.path()) == 0; })) << "the handler did not keep it";
  // The connection stays usable, and other routes keep the 1 MiB limit.
  ASSERT_TRUE(client.send(raw_client::request("POST", "/other", std::string((1 << 20) + 1, 'x'), k_auth)));
  const auto other = client.read_response();
  EXPECT_EQ(other.result_int(), 413);
}

TEST(http_upload, past_the_upload_limit_is_413_naming_body_and_leaves_no_file) {
  upload_server s;
  raw_client client(s.server->local_port());
  client.send(raw_client::request("POST", "/upload", std::string((2 << 20) + 1, 'x'), k_auth));
  const auto res = client.read_response();
  EXPECT_EQ(res.result_int(), 413);
  const auto j = nlohmann::json::parse(res.body());
  EXPECT_EQ(j["error"]["field"], "body");
  EXPECT_NE(j["error"]["message"].get<std::string>().find(std::to_string(2 << 20)), std::string::npos);
  EXPECT_TRUE(s.seen_file.empty()) << "the handler never ran";
  EXPECT_TRUE(eventually([&] { return files_in(s.dir.path()) == 0; }));
}

TEST(http_upload, a_refused_upload_is_answered_on_its_header_and_continue_is_sent) {
  upload_server s;
  raw_client refused(s.server->local_port());
  // Only the header and no body: the answer must come anyway.
  ASSERT_TRUE(refused.send("POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000000\r\n\r\n"));
  const auto r = refused.read_response();
  EXPECT_EQ(r.result_int(), 401);
  EXPECT_FALSE(r.keep_alive());
  EXPECT_EQ(files_in(s.dir.path()), 0);

  raw_client client(s.server->local_port());
  ASSERT_TRUE(client.send("POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\n" + k_auth +
                          "Expect: 100-continue\r\nContent-Length: 5\r\n\r\n"));
  EXPECT_EQ(client.read_response().result_int(), 100);
  ASSERT_TRUE(client.send("hello"));
  const auto ok = client.read_response();
  EXPECT_EQ(ok.result_int(), 200);
  EXPECT_EQ(s.seen_content, "hello");
}

TEST(http_upload, uploads_in_flight_and_stored_share_the_disk_budget_and_past_it_get_409_at_once) {
  upload_server s(2 << 20);  // 2 MiB for all of them
  s.stored = 256 << 10;      // 0.25 MiB stored already
  raw_client first(s.server->local_port());
  // 1.5 MiB declared, a part of it sent: it holds its whole length while it arrives.
  ASSERT_TRUE(first.send("POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\n" + k_auth + "Content-Length: " +
                         std::to_string(3 << 19) + "\r\n\r\n" + std::string(1000, 'a')));
  EXPECT_TRUE(eventually([&] { return files_in(s.dir.path()) == 1; }));
  raw_client second(s.server->local_port());
  ASSERT_TRUE(second.send("POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\n" + k_auth + "Content-Length: " +
                          std::to_string(512 << 10) + "\r\n\r\n"));
  const auto refused = second.read_response();
  EXPECT_EQ(refused.result_int(), 409);
  const auto error = nlohmann::json::parse(refused.body())["error"];
  EXPECT_EQ(error["field"], "body");
  const auto message = error["message"].get<std::string>();
  EXPECT_NE(message.find("max_trace_disk_mb"), std::string::npos) << message;
  EXPECT_NE(message.find("in flight (2 MiB)"), std::string::npos) << message;  // 1.5 MiB, rounded up

  ASSERT_TRUE(first.send(std::string((3 << 19) - 1000, 'a')));
  EXPECT_EQ(first.read_response().result_int(), 200);
  // Answered, the first one's reservation is gone: a 0.5 MiB upload fits again.
  raw_client third(s.server->local_port());
  ASSERT_TRUE(third.send(raw_client::request("POST", "/upload", std::string(512 << 10, 'c'), k_auth)));
  EXPECT_EQ(third.read_response().result_int(), 200);
  // Stored data counts too: with 1.9 MiB stored, 0.5 MiB does not fit.
  s.stored = 1900 << 10;
  raw_client fourth(s.server->local_port());
  ASSERT_TRUE(fourth.send(raw_client::request("POST", "/upload", std::string(512 << 10, 'd'), k_auth)));
  EXPECT_EQ(fourth.read_response().result_int(), 409);
}

TEST(http_upload, an_upload_whose_file_cannot_be_written_is_answered_507_and_leaves_no_file) {
  // A file size limit of 1 MiB on this process (the server's sessions run in it): writing the
  // upload's second MiB fails with EFBIG, as a full disk fails with ENOSPC.
  struct rlimit before {};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &before), 0);
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  upload_server s;
  struct rlimit limited = before;
  limited.rlim_cur = 1 << 20;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &limited), 0);
  raw_client client(s.server->local_port());
  client.send(raw_client::request("POST", "/upload", std::string(3 << 19, 'x'), k_auth));
  const auto res = client.read_response();
  ::setrlimit(RLIMIT_FSIZE, &before);
  std::signal(SIGXFSZ, old_handler);
  EXPECT_EQ(res.result_int(), 507);
  const auto error = nlohmann::json::parse(res.body())["error"];
  EXPECT_EQ(error["code"], "insufficient_storage");
  EXPECT_EQ(error["field"], "body");
  EXPECT_TRUE(s.seen_file.empty()) << "the handler never ran";
  EXPECT_TRUE(eventually([&] { return files_in(s.dir.path()) == 0; }));
}

}  // namespace
}  // namespace jetperf::daemon
