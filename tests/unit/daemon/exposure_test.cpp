// Who can reach the API, from the configuration.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>

#include "exposure.hpp"

namespace jetperf::daemon {
namespace {

bool has(const std::vector<std::string>& v, const std::string& x) { return std::find(v.begin(), v.end(), x) != v.end(); }

TEST(exposure, loopback_only_by_default_and_the_board_s_name_when_it_listens_beyond) {
  daemon_config c;
  auto hosts = allowed_hosts(c);
  EXPECT_TRUE(has(hosts, "localhost"));
  EXPECT_TRUE(has(hosts, "127.0.0.1"));
  EXPECT_TRUE(has(hosts, "::1"));
  char name[256] = {};
  ASSERT_EQ(::gethostname(name, sizeof name - 1), 0);
  EXPECT_FALSE(has(hosts, name)) << "loopback only: no other name";
  c.listen_host = "0.0.0.0";
  c.allowed_hosts = {"orin1.lab"};
  hosts = allowed_hosts(c);
  EXPECT_TRUE(has(hosts, name));
  EXPECT_TRUE(has(hosts, "orin1.lab"));
  EXPECT_FALSE(has(hosts, "0.0.0.0"));
  c.listen_host = "192.168.1.20";
  EXPECT_TRUE(has(allowed_hosts(c), "192.168.1.20"));
}

TEST(exposure, listening_beyond_loopback_without_tokens_for_reads_is_warned_about) {
  daemon_config c;
  EXPECT_TRUE(startup_warnings(c).empty());
  c.listen_host = "0.0.0.0";
  const auto w = startup_warnings(c);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("require_token_for_reads"), std::string::npos) << w[0];
  c.require_token_for_reads = true;
  EXPECT_TRUE(startup_warnings(c).empty());
}

TEST(exposure, allowed_hosts_and_stream_caps_are_read_from_the_config) {
  daemon_config c;
  set_config_value(c, "allowed_hosts", "orin1.lab, 10.0.0.5 ,orin1", "test");
  EXPECT_EQ(c.allowed_hosts, (std::vector<std::string>{"orin1.lab", "10.0.0.5", "orin1"}));
  EXPECT_THROW(set_config_value(c, "allowed_hosts", "http://x/", "test"), config_error);
  auto parsed = parse_command_line({"--config", "/dev/null", "--max-connections", "100"}).config;
  EXPECT_EQ(parsed.max_streams, 25u) << "a quarter of the connections";
  EXPECT_THROW(parse_command_line({"--config", "/dev/null", "--max-connections", "10", "--max-streams", "10"}),
               config_error);
}

}  // namespace
}  // namespace jetperf::daemon
