// Bytes from outside made text JSON can hold: valid UTF-8 unchanged, anything else U+FFFD, and a
// tail cut inside a character starts at the next one.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include <jetperf/common/utf8.hpp>

using jetperf::utf8_tail;
using jetperf::valid_utf8;

TEST(utf8, valid_text_comes_back_unchanged) {
  for (const std::string s : {"", "plain ascii", "caf\xC3\xA9", "\xE2\x82\xAC 5", "\xF0\x9F\x98\x80 smile", "\xEF\xBF\xBD"})
    EXPECT_EQ(valid_utf8(s), s);
}

TEST(utf8, each_byte_of_a_malformed_sequence_becomes_one_replacement) {
  const std::string r = "\xEF\xBF\xBD";
  EXPECT_EQ(valid_utf8("a\xFFz"), "a" + r + "z");
  EXPECT_EQ(valid_utf8("\x80"), r);                          // a stray continuation byte
  EXPECT_EQ(valid_utf8("\xC3"), r);                          // cut short at the end
  EXPECT_EQ(valid_utf8("\xC3(x"), r + "(x");                 // cut short before ASCII
  EXPECT_EQ(valid_utf8("\xC0\xAF"), r + r);                  // overlong '/'
  EXPECT_EQ(valid_utf8("\xED\xA0\x80"), r + r + r);          // a surrogate
  EXPECT_EQ(valid_utf8("\xF4\x90\x80\x80"), r + r + r + r);  // past U+10FFFF
  // Whatever comes in, what comes out is text JSON can write.
  std::string all;
  for (int b = 0; b < 256; ++b) all += static_cast<char>(b);
  EXPECT_NO_THROW(nlohmann::json(valid_utf8(all + all)).dump());
}

TEST(utf8, a_tail_cut_inside_a_character_starts_at_the_next_one) {
  std::string e_acute;
  for (int i = 0; i < 3000; ++i) e_acute += "\xC3\xA9";
  // The last 4096 bytes of 6000 start on the second byte of an é: dropped, not replaced.
  const auto tail = utf8_tail(std::string_view(e_acute).substr(e_acute.size() - 4095));
  EXPECT_EQ(tail.size(), 4094u);
  EXPECT_EQ(tail.substr(0, 2), "\xC3\xA9");
  EXPECT_EQ(utf8_tail("\xA9\xA9\xA9\xA9x"), "\xEF\xBF\xBDx");  // at most three are a cut character
  EXPECT_EQ(utf8_tail("whole"), "whole");
}
