// GET / and its files (routes_web.cpp over static_files.cpp): served from the configured web root
// and javascript dir only, GET only, with the page's Content-Security-Policy and nosniff, the
// right Content-Type, and nothing reachable outside the roots (.., hidden names, symlinks out,
// unserved types, oversized files).
#include <sys/stat.h>
#include <unistd.h>

#include <support/temp_dir.hpp>

#include <jetperf/api/static_files.hpp>

#include "api_fixture.hpp"

namespace jetperf::test {
namespace {

class web_routes : public api_fixture {
 protected:
  web_routes() {
    write_file(web_.file("index.html"), "<!doctype html><title>jetperf</title>");
    write_file(web_.file("js/main.js"), "export const x = 1;\n");
    write_file(web_.file("jetperf.css"), "body{}\n");
    write_file(web_.file("notes.sh"), "echo no\n");
    write_file(web_.file(".hidden.js"), "secret\n");
    write_file(js_.file("dygraphs/dygraph.min.js"), "var Dygraph = 1;\n");
    write_file(outside_.file("secret.js"), "outside\n");
    // Debian's javascript dir links inside itself (dygraphs/dist -> .); a link out must not work.
    ::symlink(".", js_.file("dygraphs/dist").c_str());
    ::symlink(outside_.file("secret.js").c_str(), web_.file("js/escape.js").c_str());
    ::symlink(outside_.path().c_str(), js_.file("elsewhere").c_str());
  }

  api::router& make_web_router(const std::string& web_root, const std::string& javascript_dir) {
    api::services s;
    s.jobs = service_.get();
    s.hub = &hub_;
    s.auth.token = k_token;
    s.auth.require_for_reads = true;  // the page's files stay public even then
    s.web_root = web_root;
    s.javascript_dir = javascript_dir;
    router_ = std::make_unique<api::router>(std::move(s));
    return *router_;
  }

  api::http_response get(const std::string& target) {
    if (!router_) make_web_router(web_.path(), js_.path());
    return router().handle(request("GET", target, {}, /*with_token=*/false));
  }

  temp_dir web_, js_, outside_;
};

TEST_F(web_routes, index_and_files_are_served_with_their_type_and_the_strict_policy) {
  auto res = get("/");
  ASSERT_EQ(res.status, 200) << res.body;
  EXPECT_EQ(res.body, "<!doctype html><title>jetperf</title>");
  EXPECT_EQ(res.content_type, "text/html; charset=utf-8");
  const auto csp = header_of(res, "Content-Security-Policy");
  EXPECT_NE(csp.find("default-src 'self'"), std::string::npos) << csp;
  EXPECT_NE(csp.find("script-src 'self';"), std::string::npos) << csp;
  EXPECT_NE(csp.find("object-src 'none'"), std::string::npos) << csp;
  EXPECT_NE(csp.find("frame-ancestors 'none'"), std::string::npos) << csp;
  EXPECT_EQ(csp.find("unsafe-inline"), std::string::npos) << csp;
  EXPECT_EQ(csp.find("unsafe-eval"), std::string::npos) << csp;
  EXPECT_EQ(header_of(res, "X-Content-Type-Options"), "nosniff");

  res = get("/web/js/main.js");
  ASSERT_EQ(res.status, 200) << res.body;
  EXPECT_EQ(res.content_type, "text/javascript; charset=utf-8");
  EXPECT_EQ(res.body, "export const x = 1;\n");
  EXPECT_EQ(get("/web/jetperf.css").content_type, "text/css; charset=utf-8");
  res = get("/javascript/dygraphs/dygraph.min.js");
  ASSERT_EQ(res.status, 200) << res.body;
  EXPECT_EQ(res.body, "var Dygraph = 1;\n");
  EXPECT_EQ(header_of(res, "X-Content-Type-Options"), "nosniff");
  // A link inside the javascript dir is followed.
  EXPECT_EQ(get("/javascript/dygraphs/dist/dygraph.min.js").status, 200);
}

TEST_F(web_routes, nothing_outside_the_roots_or_of_another_type_is_served) {
  for (const char* target :
       {"/web/../index.html", "/web/js/../../index.html", "/web/%2e%2e/index.html", "/web/.hidden.js", "/web/notes.sh",
        "/web/js/escape.js", "/javascript/elsewhere/secret.js", "/javascript/../web/index.html", "/web//etc/passwd",
        "/web/js", "/web/missing.js", "/javascript/dygraphs/../../../etc/passwd", "/web/js/main.js/", "/index.html"}) {
    const auto res = get(target);
    EXPECT_EQ(res.status, 404) << target << ": " << res.body;
    EXPECT_NE(res.body.find("\"not_found\""), std::string::npos) << target;
    EXPECT_EQ(res.body.find("outside\n"), std::string::npos) << target;
  }
}

TEST_F(web_routes, only_get_and_an_unset_root_says_the_page_is_not_installed) {
  make_web_router(web_.path(), js_.path());
  auto res = router().handle(request("POST", "/web/js/main.js", "{}"));
  EXPECT_EQ(res.status, 405);
  EXPECT_EQ(header_of(res, "Allow"), "GET, HEAD");
  EXPECT_EQ(router().handle(request("DELETE", "/")).status, 405);

  make_web_router("", "");
  res = get("/");
  EXPECT_EQ(res.status, 404);
  EXPECT_EQ(res.content_type, "text/html; charset=utf-8");
  EXPECT_NE(res.body.find("no web root is configured"), std::string::npos) << res.body;
  EXPECT_NE(res.body.find("--web-root"), std::string::npos) << res.body;
}

// A daemon whose page is missing answers a browser with a page: where it looked, why it failed,
// what to install or which flag to pass. The API and the page's own files keep their JSON 404s.
TEST_F(web_routes, a_missing_page_is_an_html_page_saying_what_to_install_or_pass) {
  temp_dir parent;
  const std::string root = parent.file("we<b>&\"web");  // escaped on the page, not markup
  ASSERT_EQ(::mkdir(root.c_str(), 0755), 0);
  make_web_router(root, js_.path());
  const auto res = get("/");
  EXPECT_EQ(res.status, 404);
  EXPECT_EQ(res.content_type, "text/html; charset=utf-8");
  EXPECT_EQ(res.body.rfind("<!doctype html>", 0), 0u) << res.body;
  const std::string shown = parent.path() + "/we&lt;b&gt;&amp;&quot;web/index.html";
  EXPECT_NE(res.body.find("it looked for <code>" + shown + "</code> (" + shown + " not found)"), std::string::npos)
      << res.body;
  EXPECT_EQ(res.body.find("we<b>"), std::string::npos) << res.body;
  EXPECT_NE(res.body.find("<h1>The jetperf web page is not installed</h1>"), std::string::npos) << res.body;
  EXPECT_NE(res.body.find("sudo cmake --install build"), std::string::npos) << res.body;
  EXPECT_NE(res.body.find("--web-root /path/to/jetperf/web"), std::string::npos) << res.body;
  EXPECT_NE(res.body.find("web_root = /path/to/jetperf/web"), std::string::npos) << res.body;
  // The same strict policy as the page: the answer carries no inline script or style.
  EXPECT_NE(header_of(res, "Content-Security-Policy").find("script-src 'self';"), std::string::npos);
  EXPECT_EQ(res.body.find("<script"), std::string::npos);
  EXPECT_EQ(res.body.find("style"), std::string::npos);

  const auto asset = get("/web/js/main.js");
  EXPECT_EQ(asset.status, 404);
  EXPECT_EQ(asset.content_type, "application/json");
  EXPECT_EQ(json_of(asset)["error"]["code"], "not_found");
  const auto api = router().handle(request("GET", "/v1/no-such-thing", {}, /*with_token=*/false));
  EXPECT_EQ(api.status, 404);
  EXPECT_EQ(api.content_type, "application/json");
  EXPECT_EQ(json_of(api)["error"]["code"], "not_found");
}

TEST_F(web_routes, a_missing_library_is_named_with_the_file_looked_for) {
  const auto res = get("/javascript/chart.js/chart.min.js");
  EXPECT_EQ(res.status, 404);
  EXPECT_EQ(json_of(res)["error"]["message"], js_.path() + "/chart.js/chart.min.js not found");
}

TEST_F(web_routes, files_above_the_size_bound_are_refused) {
  write_file(web_.file("big.js"), std::string(4096, 'x'));
  EXPECT_EQ(api::read_static_file(web_.path(), "big.js", 4096).body.size(), 4096u);
  try {
    api::read_static_file(web_.path(), "big.js", 4095);
    ADD_FAILURE() << "a file over the bound was read";
  } catch (const not_found& e) {
    EXPECT_NE(std::string(e.what()).find("larger than 4095 bytes"), std::string::npos) << e.what();
  }
  EXPECT_EQ(api::static_content_type("a/b.min.js"), "text/javascript; charset=utf-8");
  EXPECT_EQ(api::static_content_type("a.js/b"), "");
  EXPECT_EQ(api::static_content_type("x.exe"), "");
}

}  // namespace
}  // namespace jetperf::test
