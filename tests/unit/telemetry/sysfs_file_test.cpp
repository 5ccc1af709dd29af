#include <jetperf/telemetry/detail/sysfs_file.hpp>

#include <climits>
#include <string>

#include <gtest/gtest.h>

#include <jetperf/common/errors.hpp>
#include <support/temp_dir.hpp>

namespace jetperf::telemetry {
namespace {

// The message of the platform_error read_int throws for `content` (in t's file "value"), or ""
// when it does not throw.
std::string refusal(const test::temp_dir& t, const std::string& content) {
  const std::string p = t.file("value");
  test::write_file(p, content);
  try {
    detail::sysfs_file(p).read_int();
  } catch (const platform_error& e) {
    return e.what();
  }
  return "";
}

std::optional<long long> value_of(const test::temp_dir& t, const std::string& content) {
  test::write_file(t.file("value"), content);
  return detail::sysfs_file(t.file("value")).read_int();
}

TEST(sysfs_file, reads_integers_as_the_kernel_prints_them) {
  test::temp_dir t;
  EXPECT_EQ(value_of(t, "5000\n"), 5000);
  EXPECT_EQ(value_of(t, "  -22\n"), -22);
  EXPECT_EQ(value_of(t, "+7"), 7);
  EXPECT_EQ(value_of(t, "9223372036854775807\n"), LLONG_MAX);
  EXPECT_EQ(value_of(t, "-9223372036854775808\n"), LLONG_MIN);
  // Nothing to read (an offline sensor's empty file, a file that cannot be opened): no sample.
  EXPECT_EQ(value_of(t, ""), std::nullopt);
  EXPECT_EQ(detail::sysfs_file(t.file("missing")).read_int(), std::nullopt);
}

TEST(sysfs_file, a_value_beyond_64_bits_is_an_error_naming_the_path) {
  test::temp_dir t;
  const std::string path = t.file("value");
  EXPECT_EQ(refusal(t, "99999999999999999999999\n"),
            path + ": value out of the 64-bit range: '99999999999999999999999'");
  EXPECT_EQ(refusal(t, "9223372036854775808\n"), path + ": value out of the 64-bit range: '9223372036854775808'");
  EXPECT_EQ(refusal(t, "-9223372036854775809\n"), path + ": value out of the 64-bit range: '-9223372036854775809'");
  // Longer than the read buffer: refused whole, not parsed from its first 63 digits.
  EXPECT_EQ(refusal(t, std::string(80, '1') + "\n"),
            path + ": not an integer (too long): '" + std::string(32, '1') + "...'");
}

TEST(sysfs_file, garbage_is_an_error_naming_the_path) {
  test::temp_dir t;
  const std::string path = t.file("value");
  EXPECT_EQ(refusal(t, "12abc\n"), path + ": not an integer: '12abc'");
  EXPECT_EQ(refusal(t, "N/A\n"), path + ": not an integer: 'N/A'");
  EXPECT_EQ(refusal(t, "-\n"), path + ": not an integer: '-'");
  EXPECT_EQ(refusal(t, "1 2\n"), path + ": not an integer: '1 2'");
}

}  // namespace
}  // namespace jetperf::telemetry
