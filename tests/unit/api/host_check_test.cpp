// The API answers only to the names the board is known by (a page that rebinds its own name to the
// board's address gets 403), and refuses changes sent by web pages of other origins.
#include <jetperf/api/host_check.hpp>

#include "api_fixture.hpp"

namespace jetperf::test {
namespace {

class host_check_test : public api_fixture {
 protected:
  api::router& with_hosts(std::vector<std::string> hosts) {
    api::services s;
    s.jobs = service_.get();
    s.hub = &hub_;
    s.auth.token = k_token;
    s.auth.allowed_hosts = std::move(hosts);
    router_ = std::make_unique<api::router>(std::move(s));
    return *router_;
  }
};

TEST(host_of_authority, strips_the_port_brackets_and_case) {
  EXPECT_EQ(api::host_of_authority("Orin1.Lab:7070"), "orin1.lab");
  EXPECT_EQ(api::host_of_authority("[::1]:7070"), "::1");
  EXPECT_EQ(api::host_of_authority("::1"), "::1");
  EXPECT_EQ(api::host_of_authority("localhost"), "localhost");
}

TEST_F(host_check_test, a_name_the_board_does_not_answer_to_is_refused_on_every_route) {
  auto& r = with_hosts({"localhost", "127.0.0.1", "::1", "orin1.lab"});
  for (const std::string host : {"localhost:7070", "127.0.0.1:7070", "[::1]:7070", "ORIN1.lab:7070"}) {
    auto req = request("GET", "/v1/health");
    req.headers["host"] = host;
    EXPECT_EQ(r.handle(req).status, 200) << host;
  }
  // What a DNS-rebinding page sends: its own name, resolved to the board.
  for (const std::string target : {"/v1/health", "/v1/jobs", "/v1/nope"}) {
    auto req = request("GET", target);
    req.headers["host"] = "evil.example:7070";
    const auto res = r.handle(req);
    EXPECT_EQ(res.status, 403) << target;
    EXPECT_EQ(json_of(res)["error"]["code"], "host_not_allowed");
    EXPECT_EQ(json_of(res)["error"]["field"], "Host");
  }
  // HTTP/1.0 clients may send no Host at all: no browser does.
  EXPECT_EQ(r.handle(request("GET", "/v1/health")).status, 200);
}

TEST_F(host_check_test, a_change_from_a_page_of_another_origin_is_refused) {
  auto& r = with_hosts({"localhost", "127.0.0.1"});
  const std::string body = R"({"kind":"idle","spec":{"duration_s":0.1}})";
  auto post = [&](const std::string& origin) {
    auto req = request("POST", "/v1/jobs", body);
    req.headers["host"] = "localhost:7070";
    if (!origin.empty()) req.headers["origin"] = origin;
    return r.handle(req);
  };
  for (const std::string origin : {"http://evil.example", "http://localhost:3000", "null", "https://localhost:7070"}) {
    const auto res = post(origin);
    EXPECT_EQ(res.status, 403) << origin;
    EXPECT_EQ(json_of(res)["error"]["code"], "cross_origin") << origin;
    EXPECT_EQ(json_of(res)["error"]["field"], "Origin");
  }
  EXPECT_EQ(post("http://localhost:7070").status, 201) << "the API's own page";
  EXPECT_EQ(post("").status, 201) << "curl and jetperf send no Origin";
  // Reads are the Host check's: a cross-origin page cannot read them without CORS anyway.
  auto get = request("GET", "/v1/jobs");
  get.headers["host"] = "localhost:7070";
  get.headers["origin"] = "http://evil.example";
  EXPECT_EQ(r.handle(get).status, 200);
}

}  // namespace
}  // namespace jetperf::test
