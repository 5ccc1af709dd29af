#include <jetperf/api/missing_page.hpp>

namespace jetperf::api {

namespace {

std::string escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace

std::string missing_page_html(const std::string& web_root, const std::string& why) {
  const std::string looked =
      web_root.empty() ? std::string("no web root is configured")
                       : "it looked for <code>" + escaped(web_root) + "/index.html</code> (" + escaped(why) + ")";
  // No inline style or script: the page's Content-Security-Policy applies to this one too.
  return "<!doctype html>\n"
         "<html lang=\"en\">\n"
         "<head><meta charset=\"utf-8\"><title>jetperf: the web page is not installed</title></head>\n"
         "<body>\n"
         "<h1>The jetperf web page is not installed</h1>\n"
         "<p id=\"why\">jetperfd is running and its API answers under <a href=\"/v1/health\">/v1/</a>, but it has "
         "no page to show here: " + looked + ".</p>\n"
         "<p>To serve the page, do one of these and reload:</p>\n"
         "<ul>\n"
         "<li>install it: <code>sudo cmake --install build</code> in the source tree, or the jetperf Debian package "
         "(<code>sudo apt install ./jetperf_*.deb</code>), puts it where jetperfd looks by default;</li>\n"
         "<li>or point jetperfd at the source tree's page: start it with <code>--web-root /path/to/jetperf/web</code>, "
         "or set <code>web_root = /path/to/jetperf/web</code> in <code>/etc/jetperf/jetperfd.conf</code>.</li>\n"
         "</ul>\n"
         "<p>The page's plots use Debian's <code>libjs-dygraphs</code> and <code>libjs-chart.js</code> "
         "(<code>sudo apt install libjs-dygraphs libjs-chart.js</code>; <code>--javascript-dir</code> if they live "
         "elsewhere than <code>/usr/share/javascript</code>).</p>\n"
         "</body>\n"
         "</html>\n";
}

}  // namespace jetperf::api
