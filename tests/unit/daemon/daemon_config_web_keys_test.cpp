// The web page's keys: web_root and javascript_dir, their defaults (the install prefix's
// share/jetperf/web, Debian's /usr/share/javascript), file and flag spelling, absolute paths only,
// and --help naming both.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <support/temp_dir.hpp>

#include "daemon_config.hpp"

namespace jetperf::daemon {
namespace {

TEST(daemon_config_web_keys, defaults_are_the_installed_page_and_debians_javascript_dir) {
  const auto cl = parse_command_line({"--config", "/dev/null"});
  EXPECT_EQ(cl.config.javascript_dir, "/usr/share/javascript");
  EXPECT_EQ(cl.config.web_root, default_web_root());
  const std::string suffix = "/share/jetperf/web";
  const auto installed = installed_web_root();
  ASSERT_GT(installed.size(), suffix.size());
  EXPECT_EQ(installed.front(), '/');
  EXPECT_EQ(installed.substr(installed.size() - suffix.size()), suffix) << installed;
  // Installed or not, the default holds the page (this build's source tree has it).
  EXPECT_TRUE(std::ifstream(default_web_root() + "/index.html").good()) << default_web_root();
}

TEST(daemon_config_web_keys, a_daemon_run_from_its_build_tree_serves_the_source_trees_page) {
  jetperf::test::temp_dir dir;
  const std::string installed = dir.file("prefix/share/jetperf/web"), source = dir.file("src/web");
  std::filesystem::create_directories(installed);
  std::filesystem::create_directories(source);
  EXPECT_EQ(pick_web_root(installed, source, true), installed) << "neither has the page: the installed one is named";
  EXPECT_EQ(pick_web_root(installed, source, false), installed);
  std::ofstream(source + "/index.html") << "<!doctype html>";
  EXPECT_EQ(pick_web_root(installed, source, true), source);
  EXPECT_EQ(pick_web_root(installed, source, false), source) << "not installed yet: the source tree's page";
  std::ofstream(installed + "/index.html") << "<!doctype html>";
  EXPECT_EQ(pick_web_root(installed, source, true), source) << "run from the build tree: its own page, not an older install";
  EXPECT_EQ(pick_web_root(installed, source, false), installed) << "an installed daemon serves the installed page";
}

TEST(daemon_config_web_keys, a_daemon_knows_whether_it_runs_from_its_build_tree) {
  EXPECT_TRUE(in_build_tree("/src/build/daemon/jetperfd", "/src/build"));
  EXPECT_FALSE(in_build_tree("/usr/sbin/jetperfd", "/src/build"));
  EXPECT_FALSE(in_build_tree("/src/build2/daemon/jetperfd", "/src/build")) << "a prefix of a name is not its folder";
  EXPECT_FALSE(in_build_tree("/src/build", "/src/build"));
  EXPECT_FALSE(in_build_tree("/src/build/daemon/jetperfd", ""));
}

TEST(daemon_config_web_keys, file_then_flags) {
  jetperf::test::temp_dir dir;
  const std::string conf = dir.file("j.conf");
  std::ofstream(conf) << "web_root = /srv/page\njavascript_dir = /opt/js\n";
  auto cl = parse_command_line({"--config", conf});
  EXPECT_EQ(cl.config.web_root, "/srv/page");
  EXPECT_EQ(cl.config.javascript_dir, "/opt/js");
  cl = parse_command_line({"--config", conf, "--web-root", "/src/jetperf/web", "--javascript-dir=/tmp/js"});
  EXPECT_EQ(cl.config.web_root, "/src/jetperf/web");
  EXPECT_EQ(cl.config.javascript_dir, "/tmp/js");
}

TEST(daemon_config_web_keys, relative_or_empty_paths_are_refused_and_help_names_the_keys) {
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"--web-root", "web"}, {"--web-root", ""}, {"--javascript-dir", "usr/share/javascript"}}) {
    std::vector<std::string> all = {"--config", "/dev/null"};
    all.insert(all.end(), args.begin(), args.end());
    try {
      parse_command_line(all);
      ADD_FAILURE() << args[0] << " '" << args[1] << "' was accepted";
    } catch (const config_error& e) {
      EXPECT_NE(std::string(e.what()).find("is not an absolute path"), std::string::npos) << e.what();
    }
  }
  const auto help = usage_text();
  EXPECT_NE(help.find("--web-root PATH"), std::string::npos);
  EXPECT_NE(help.find("--javascript-dir PATH"), std::string::npos);
  EXPECT_NE(help.find(installed_web_root()), std::string::npos);
  EXPECT_NE(help.find(default_web_root()), std::string::npos) << "installed or not, the default is named";
}

}  // namespace
}  // namespace jetperf::daemon
