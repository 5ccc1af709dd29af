#pragma once
// What GET / answers when there is no page to serve: a page for the person who opened the
// daemon's address in a browser (a JSON error body would read as a broken server), saying where
// the daemon looked, why that failed, and how to give it a page: install it, or pass --web-root.
#include <string>

namespace jetperf::api {

/// The HTML of that page. `web_root` is where the daemon looked ("" when none is configured),
/// `why` the reason its index.html was not read (shown as text; unused without a root).
std::string missing_page_html(const std::string& web_root, const std::string& why);

}  // namespace jetperf::api
