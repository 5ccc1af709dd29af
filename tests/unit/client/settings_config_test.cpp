// The client's config file (~/.config/jetperf/config) takes host, token and token_file; any other
// key is refused naming the file, the line and the key (a typo such as `hots =` was ignored, and
// the client went on to 127.0.0.1 with no word).
#include <gtest/gtest.h>

#include <string>

#include <support/temp_dir.hpp>

#include "cli_error.hpp"
#include "settings.hpp"

namespace jetperf::client {
namespace {

using test::temp_dir;
using test::write_file;

std::string refusal(const std::string& xdg) {
  try {
    resolve_settings(global_flags{}, [&xdg](const char* name) -> const char* {
      return std::string(name) == "XDG_CONFIG_HOME" ? xdg.c_str() : nullptr;
    });
  } catch (const cli_error& e) {
    EXPECT_EQ(e.code(), exit_usage);
    return e.what();
  }
  return "no error";
}

TEST(settings_config, known_keys_and_comments_are_read) {
  temp_dir dir;
  write_file(dir.file("jetperf/config"), "# lab board\nhost = orin1.lab:7070  # the AGX\n\ntoken = abc\n");
  EXPECT_EQ(refusal(dir.path()), "no error");
  const auto s = resolve_settings(global_flags{}, [&dir](const char* name) -> const char* {
    static std::string xdg;
    xdg = dir.path();
    return std::string(name) == "XDG_CONFIG_HOME" ? xdg.c_str() : nullptr;
  });
  EXPECT_EQ(s.target.text(), "orin1.lab:7070");
  EXPECT_EQ(s.token, "abc");
}

TEST(settings_config, an_unknown_key_is_refused_naming_file_line_and_key) {
  temp_dir dir;
  const auto conf = dir.file("jetperf/config");
  write_file(conf, "token = abc\nhots = orin1.lab\n");
  EXPECT_EQ(refusal(dir.path()), conf + ":2: hots: unknown key (the keys: host, token, token_file)");
  write_file(conf, "host orin1.lab\n");
  EXPECT_EQ(refusal(dir.path()), conf + ":1: expected 'key = value', got 'host orin1.lab' (the keys: host, token, token_file)");
}

TEST(settings_config, an_absent_file_is_fine) {
  temp_dir dir;
  EXPECT_EQ(refusal(dir.path()), "no error");
}

}  // namespace
}  // namespace jetperf::client
