#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <support/temp_dir.hpp>
#include <support/test_paths.hpp>

#include "daemon_config.hpp"

namespace jetperf::daemon {
namespace {

using test::read_file;
using test::temp_dir;
using test::write_file;

std::string error_of(const std::vector<std::string>& args) {
  try {
    parse_command_line(args);
  } catch (const config_error& e) {
    return e.what();
  }
  return "no error";
}

TEST(daemon_config, defaults_without_any_file) {
  temp_dir dir;
  // A --config must exist; point the default elsewhere by giving an empty existing file.
  write_file(dir.file("empty.conf"), "# nothing\n\n");
  const auto cl = parse_command_line({"--config", dir.file("empty.conf")});
  EXPECT_FALSE(cl.exit_now);
  EXPECT_EQ(cl.config.listen_host, "127.0.0.1");
  EXPECT_EQ(cl.config.listen_port, 7070);
  EXPECT_EQ(cl.config.db_path, "/var/lib/jetperf/jetperf.db");
  EXPECT_EQ(cl.config.token_file, "/var/lib/jetperf/token");
  EXPECT_EQ(cl.config.board, "auto");
  EXPECT_EQ(cl.config.log_level, spdlog::level::info);
  EXPECT_FALSE(cl.config.require_token_for_reads);
  EXPECT_EQ(cl.config.sysfs_root, "/");
  EXPECT_EQ(cl.config.sim_dir, "/var/lib/jetperf/sim");
  EXPECT_EQ(cl.config.max_connections, 256u);
  EXPECT_EQ(cl.config.threads, 2u);
  EXPECT_TRUE(cl.config.ready_file.empty());
  EXPECT_FALSE(cl.config.restore_only);
}

TEST(daemon_config, file_values_then_flags_override) {
  temp_dir dir;
  const auto conf = dir.file("jetperfd.conf");
  write_file(conf,
             "# jetperfd test config\n"
             "listen = 0.0.0.0:8080   # all interfaces\n"
             "db = /tmp/x.db\n"
             "token_file = \"/tmp/tok\"\n"
             "board = sim:orin\n"
             "log_level = debug\n"
             "require_token_for_reads = yes\n"
             "sysfs_root = /srv/root\n"
             "nvpmodel = /opt/nvpmodel\n"
             "tegrastats = /opt/tegrastats\n"
             "sim_dir = /tmp/sim#1\n"
             "max_connections = 16\n"
             "command_max_processes = 200\n"
             "command_max_memory_mb = 2048\n"
             "threads = 4\n");
  auto cl = parse_command_line({"--config", conf});
  EXPECT_EQ(cl.config.listen_host, "0.0.0.0");
  EXPECT_EQ(cl.config.listen_port, 8080);
  EXPECT_EQ(cl.config.db_path, "/tmp/x.db");
  EXPECT_EQ(cl.config.token_file, "/tmp/tok");
  EXPECT_EQ(cl.config.board, "sim:orin");
  EXPECT_EQ(cl.config.log_level, spdlog::level::debug);
  EXPECT_TRUE(cl.config.require_token_for_reads);
  EXPECT_EQ(cl.config.sysfs_root, "/srv/root");
  EXPECT_EQ(cl.config.nvpmodel_path, "/opt/nvpmodel");
  EXPECT_EQ(cl.config.tegrastats_path, "/opt/tegrastats");
  EXPECT_EQ(cl.config.sim_dir, "/tmp/sim#1");  // '#' not after whitespace is not a comment
  EXPECT_EQ(cl.config.max_connections, 16u);
  EXPECT_EQ(cl.config.threads, 4u);
  EXPECT_EQ(cl.config.command_max_processes, 200);
  EXPECT_EQ(cl.config.command_max_memory_mb, 2048);

  // Flags win over the file, whatever their position relative to --config.
  cl = parse_command_line({"--listen", "127.0.0.1:0", "--config", conf, "--board=host",
                           "--require-token-for-reads=false", "--max-connections", "3",
                           "--log-level", "off", "--ready-file", "/tmp/ready", "--restore-only",
                           "--db", ":memory:", "--threads=1"});
  EXPECT_EQ(cl.config.listen_host, "127.0.0.1");
  EXPECT_EQ(cl.config.listen_port, 0);
  EXPECT_EQ(cl.config.board, "host");
  EXPECT_FALSE(cl.config.require_token_for_reads);
  EXPECT_EQ(cl.config.max_connections, 3u);
  EXPECT_EQ(cl.config.log_level, spdlog::level::off);
  EXPECT_EQ(cl.config.ready_file, "/tmp/ready");
  EXPECT_TRUE(cl.config.restore_only);
  EXPECT_EQ(cl.config.db_path, ":memory:");
  EXPECT_EQ(cl.config.threads, 1u);
  EXPECT_EQ(cl.config.token_file, "/tmp/tok");  // not overridden: from the file
}

TEST(daemon_config, ipv6_listen_address) {
  temp_dir dir;
  write_file(dir.file("c.conf"), "listen = [::1]:9000\n");
  const auto cl = parse_command_line({"--config", dir.file("c.conf")});
  EXPECT_EQ(cl.config.listen_host, "::1");
  EXPECT_EQ(cl.config.listen_port, 9000);
  EXPECT_EQ(cl.config.listen_text(), "[::1]:9000");
}

TEST(daemon_config, file_errors_name_file_line_and_key) {
  temp_dir dir;
  const auto conf = dir.file("bad.conf");
  struct bad_case {
    std::string text;
    std::string expected;
  };
  const std::vector<bad_case> cases = {
      {"# ok\nlisten_port = 1\n", conf + ":2: listen_port: unknown key"},
      {"listen = localhost\n", conf + ":1: listen: 'localhost' is not HOST:PORT"},
      {"listen = :80\n", conf + ":1: listen: ':80' has no host"},
      {"listen = 1.2.3.4:70000\n", conf + ":1: listen: '70000' is out of range 0..65535"},
      {"listen = 1.2.3.4:http\n", conf + ":1: listen: 'http' is not a whole number"},
      {"board = tx3\n", conf + ":1: board: 'tx3' is not one of auto, sim:PROFILE, sim:PATH.json, jetson, dgpu, host"},
      {"board = sim:\n", conf + ":1: board: 'sim:' is not one of"},
      {"log_level = verbose\n", conf + ":1: log_level: 'verbose' is not one of"},
      {"require_token_for_reads = maybe\n",
       conf + ":1: require_token_for_reads: 'maybe' is not a boolean"},
      {"sysfs_root = relative/path\n", conf + ":1: sysfs_root: 'relative/path' is not an absolute"},
      {"max_connections = 0\n", conf + ":1: max_connections: '0' is out of range 1..100000"},
      {"max_connections = -5\n", conf + ":1: max_connections: '-5' is not a whole number"},
      {"threads = 1000\n", conf + ":1: threads: '1000' is out of range 1..64"},
      {"command_max_processes = 3\n", conf + ":1: command_max_processes: '3' is out of range 16..1000000"},
      {"command_max_memory_mb = 10\n", conf + ":1: command_max_memory_mb: '10' is out of range 64..1073741824"},
      {"db =\n", conf + ":1: db: must not be empty"},
      {"\n\njust words\n", conf + ":3: expected 'key = value', got 'just words'"},
      {"= 5\n", conf + ":1: missing key before '='"},
      {"threads = 2\nthreads = 3\n", conf + ":2: threads: duplicate key"},
      {"ready_file = /tmp/r\n", conf + ":1: ready_file: unknown key"},
  };
  for (const auto& c : cases) {
    write_file(conf, c.text);
    const std::string err = error_of({"--config", conf});
    EXPECT_EQ(err.rfind(c.expected, 0), 0u) << "config:\n" << c.text << "error: " << err;
  }
}

TEST(daemon_config, flag_errors_name_the_flag) {
  temp_dir dir;
  write_file(dir.file("e.conf"), "");
  const std::string conf = dir.file("e.conf");
  EXPECT_EQ(error_of({"--config", conf, "--listen", "nohost"}),
            "--listen: value: 'nohost' is not HOST:PORT");
  EXPECT_EQ(error_of({"--config", conf, "--max-connections", "lots"}),
            "--max-connections: value: 'lots' is not a whole number");
  EXPECT_EQ(error_of({"--config", conf, "--frobnicate"}), "--frobnicate: unknown option (see --help)");
  EXPECT_EQ(error_of({"--config", conf, "--token_file", "/x"}),
            "--token_file: unknown option (see --help)");
  EXPECT_EQ(error_of({"--config", conf, "--db"}), "--db: missing value");
  EXPECT_EQ(error_of({"--config", conf, "stray"}), "unexpected argument 'stray' (see --help)");
  EXPECT_EQ(error_of({"--config", conf, "--restore-only=perhaps"}).rfind("--restore-only: ", 0), 0u);
}

TEST(daemon_config, missing_explicit_file_is_an_error) {
  temp_dir dir;
  const std::string err = error_of({"--config", dir.file("absent.conf")});
  EXPECT_EQ(err.rfind(dir.file("absent.conf") + ": cannot read config file", 0), 0u) << err;
}

TEST(daemon_config, help_and_version_exit_early) {
  auto cl = parse_command_line({"--help", "--bogus"});
  EXPECT_TRUE(cl.exit_now);
  EXPECT_NE(cl.exit_text.find("--listen HOST:PORT"), std::string::npos);
  cl = parse_command_line({"--version"});
  EXPECT_TRUE(cl.exit_now);
  EXPECT_EQ(cl.exit_text.rfind("jetperfd ", 0), 0u);
}

TEST(daemon_config, set_config_value_validates_like_the_file) {
  daemon_config c;
  set_config_value(c, "listen", "10.0.0.1:1", "test");
  EXPECT_EQ(c.listen_host, "10.0.0.1");
  EXPECT_EQ(c.listen_port, 1);
  EXPECT_THROW(set_config_value(c, "nope", "1", "test"), config_error);
}

// The config the package ships (deploy/jetperfd.conf, installed as /etc/jetperf/jetperfd.conf)
// names only keys the daemon knows, and names all of them: a user who uncomments a line gets a
// key that works, and a typo stops the daemon with the key, the file and the line named.
std::string shipped_conf() { return test::source_dir() + "/deploy/jetperfd.conf"; }

// The keys of the shipped file's "# key = value" lines (every key is shown commented out).
std::set<std::string> keys_shown(const std::string& text) {
  static const std::regex line(R"(^#\s*([a-z_]+)\s*=)");
  std::set<std::string> keys;
  std::istringstream in(text);
  std::string l;
  std::smatch m;
  while (std::getline(in, l))
    if (std::regex_search(l, m, line)) keys.insert(m[1]);
  return keys;
}

TEST(daemon_config_shipped, every_key_the_shipped_file_shows_is_known_and_every_known_key_is_shown) {
  const auto shown = keys_shown(read_file(shipped_conf()));
  const auto known = config_file_keys();
  for (const auto& k : shown)
    EXPECT_TRUE(std::find(known.begin(), known.end(), k) != known.end())
        << "deploy/jetperfd.conf shows '" << k << "', which jetperfd refuses as an unknown key";
  for (const auto& k : known) EXPECT_EQ(shown.count(k), 1u) << "deploy/jetperfd.conf does not show key '" << k << "'";
}

TEST(daemon_config_shipped, the_shipped_file_as_installed_parses_to_the_defaults) {
  const auto cl = parse_command_line({"--config", shipped_conf()});
  EXPECT_EQ(cl.config.listen_text(), "127.0.0.1:7070");
  EXPECT_EQ(cl.config.max_connections, 256u);
}

TEST(daemon_config_shipped, a_typo_stops_the_daemon_naming_the_key_the_file_the_line_and_the_likely_key) {
  temp_dir dir;
  const auto conf = dir.file("jetperfd.conf");
  write_file(conf, "# a lab's settings\nlisten = 0.0.0.0:7070\nmax_conections = 64\n");
  EXPECT_EQ(error_of({"--config", conf}),
            conf + ":3: max_conections: unknown key (did you mean 'max_connections'?)");
  write_file(conf, "frobnicate = 1\n");
  EXPECT_EQ(error_of({"--config", conf}), conf + ":1: frobnicate: unknown key");
}

}  // namespace
}  // namespace jetperf::daemon
