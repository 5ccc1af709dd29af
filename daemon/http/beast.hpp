#pragma once
// Short names for Beast, as in the Beast examples.
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace jetperf::daemon {

namespace beast = boost::beast;
namespace http = beast::http;

}  // namespace jetperf::daemon
