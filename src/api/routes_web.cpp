#include <jetperf/api/missing_page.hpp>
#include <jetperf/api/router.hpp>
#include <jetperf/api/routes.hpp>
#include <jetperf/api/static_files.hpp>
#include <jetperf/common/errors.hpp>

namespace jetperf::api {

namespace {

// The page runs only its own files: no inline script or style, no other origin, no plugins, no
// framing; connect-src 'self' covers fetch and EventSource to the API. data: and blob: images
// are the plots' PNG export and the CSV download link.
constexpr const char* k_content_security_policy =
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'";

http_response file_response(const static_file& f, const char* cache_control) {
  http_response res;
  res.content_type = f.content_type;
  res.body = f.body;
  res.headers = {{"Content-Security-Policy", k_content_security_policy},
                 {"X-Content-Type-Options", "nosniff"},
                 {"Referrer-Policy", "no-referrer"},
                 {"Cache-Control", cache_control}};
  return res;
}

const std::string& web_root(const route_request& r) {
  if (r.svc.web_root.empty()) throw not_found("the web page is not installed (web_root is not set in jetperfd.conf)");
  return r.svc.web_root;
}

http_response index_page(const route_request& r) {
  r.query.reject_unknown({});
  try {
    // The page changes with the package: revalidate every load.
    return file_response(read_static_file(web_root(r), "index.html"), "no-cache");
  } catch (const not_found& e) {
    // A browser opened the daemon's address: answer with a page that says what to install or
    // which flag to pass, not a JSON error body.
    static_file missing{"", "text/html; charset=utf-8", missing_page_html(r.svc.web_root, e.what())};
    auto res = file_response(missing, "no-cache");
    res.status = 404;
    return res;
  }
}

http_response web_file(const route_request& r) {
  r.query.reject_unknown({});
  return file_response(read_static_file(web_root(r), r.path_params.at("path")), "no-cache");
}

// /javascript/ is where Debian's javascript-common serves /usr/share/javascript; the page asks
// for its libraries there, so the same URLs work behind Apache or nginx set up the Debian way.
http_response javascript_file(const route_request& r) {
  r.query.reject_unknown({});
  if (r.svc.javascript_dir.empty()) throw not_found("javascript_dir is not set in jetperfd.conf");
  return file_response(read_static_file(r.svc.javascript_dir, r.path_params.at("path")), "max-age=3600");
}

}  // namespace

void register_web_routes(route_table& table) {
  // Public like /v1/health: a browser cannot send a bearer token with a page load, and the files
  // are the package's own. The API calls the page makes still need the token where reads do.
  route_traits files{/*public_read=*/true};
  table.add("GET", "/", index_page, files);
  route_traits rest = files;
  rest.rest_of_path = true;
  table.add("GET", "/web/{path}", web_file, rest);
  table.add("GET", "/javascript/{path}", javascript_file, rest);
}

}  // namespace jetperf::api
