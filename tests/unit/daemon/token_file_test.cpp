#include <gtest/gtest.h>

#include <sys/stat.h>

#include <string>

#include <support/temp_dir.hpp>

#include "token_file.hpp"

namespace jetperf::daemon {
namespace {

unsigned mode_of(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}

TEST(token_file, generated_with_mode_0600_and_reused) {
  test::temp_dir dir;
  const std::string path = dir.file("state/token");  // parent does not exist yet
  const std::string token = load_or_create_token(path);
  ASSERT_EQ(token.size(), 64u);
  EXPECT_EQ(token.find_first_not_of("0123456789abcdef"), std::string::npos) << token;
  EXPECT_EQ(mode_of(path), 0600u);
  EXPECT_EQ(mode_of(dir.file("state")), 0700u);
  EXPECT_EQ(test::read_file(path), token + "\n");

  EXPECT_EQ(load_or_create_token(path), token);
  EXPECT_EQ(mode_of(path), 0600u);
}

TEST(token_file, two_generated_tokens_differ) {
  EXPECT_NE(random_token(), random_token());
}

TEST(token_file, group_or_world_readable_file_is_refused) {
  test::temp_dir dir;
  const std::string path = dir.file("token");
  test::write_file(path, "secret\n");
  ASSERT_EQ(::chmod(path.c_str(), 0640), 0);
  try {
    load_or_create_token(path);
    FAIL() << "a group-readable token file was accepted";
  } catch (const token_error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("mode 0640"), std::string::npos) << msg;
    EXPECT_NE(msg.find(path), std::string::npos) << msg;
  }
  ASSERT_EQ(::chmod(path.c_str(), 0604), 0);
  EXPECT_THROW(load_or_create_token(path), token_error);
  ASSERT_EQ(::chmod(path.c_str(), 0600), 0);
  EXPECT_EQ(load_or_create_token(path), "secret");
}

TEST(token_file, empty_file_is_refused) {
  test::temp_dir dir;
  const std::string path = dir.file("token");
  test::write_file(path, "");
  ASSERT_EQ(::chmod(path.c_str(), 0600), 0);
  EXPECT_THROW(load_or_create_token(path), token_error);
}

TEST(token_file, whitespace_inside_the_token_is_refused_with_a_clear_message) {
  test::temp_dir dir;
  const std::string path = dir.file("token");
  for (const std::string text : {"abc def\n", "abc\tdef\n", "abc\x01" "def"}) {
    test::write_file(path, text);
    ASSERT_EQ(::chmod(path.c_str(), 0600), 0);
    try {
      load_or_create_token(path);
      FAIL() << "accepted " << text;
    } catch (const token_error& e) {
      EXPECT_NE(std::string(e.what()).find("whitespace or control characters inside the token"), std::string::npos)
          << e.what();
    }
  }
  // Trailing blanks and the newline are not part of the token.
  test::write_file(path, "abcdef  \n");
  EXPECT_EQ(load_or_create_token(path), "abcdef");
}

TEST(token_file, directory_in_place_of_the_file_is_refused) {
  test::temp_dir dir;
  EXPECT_THROW(load_or_create_token(dir.path()), token_error);
}

}  // namespace
}  // namespace jetperf::daemon
