#pragma once
// Short names for Asio, as in the Beast examples.
#include <boost/asio.hpp>

namespace jetperf::daemon {

namespace net = boost::asio;
using tcp = net::ip::tcp;

}  // namespace jetperf::daemon
