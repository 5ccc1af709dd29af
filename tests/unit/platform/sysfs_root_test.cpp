#include <jetperf/platform/sysfs_root.hpp>

#include <filesystem>

#include <gtest/gtest.h>

#include <jetperf/common/errors.hpp>
#include <support/temp_dir.hpp>

using jetperf::platform_error;
using jetperf::platform::sysfs_root;

TEST(sysfs_root, reads_writes_and_names_paths_in_errors) {
  jetperf::test::temp_dir tmp;
  jetperf::test::write_file(tmp.file("sys/a/value"), "1300500000\n");
  sysfs_root root(tmp.path() + "/");
  EXPECT_EQ(root.host_path("/sys/a/value"), tmp.path() + "/sys/a/value");
  EXPECT_EQ(root.read("/sys/a/value"), "1300500000");
  EXPECT_EQ(root.read_int("/sys/a/value"), 1300500000LL);
  root.write("/sys/a/value", "42");
  EXPECT_EQ(jetperf::test::read_file(tmp.file("sys/a/value")), "42\n");
  EXPECT_TRUE(root.exists("/sys/a/value"));
  EXPECT_TRUE(root.is_directory("/sys/a"));
  EXPECT_FALSE(root.try_read("/sys/missing"));
  try {
    root.read("/sys/missing");
    FAIL() << "expected platform_error";
  } catch (const platform_error& e) {
    EXPECT_NE(std::string(e.what()).find(tmp.path() + "/sys/missing"), std::string::npos) << e.what();
  }
  // sysfs attributes are never created by a write.
  EXPECT_THROW(root.write("/sys/a/new_file", "1"), platform_error);
  EXPECT_FALSE(root.exists("/sys/a/new_file"));
  jetperf::test::write_file(tmp.file("sys/a/text"), "schedutil\n");
  EXPECT_THROW(root.read_int("/sys/a/text"), platform_error);
  EXPECT_FALSE(root.try_read_int("/sys/a/text"));
}

TEST(sysfs_root, lists_sorted_and_resolves_links_inside_the_root) {
  jetperf::test::temp_dir tmp;
  namespace fs = std::filesystem;
  jetperf::test::write_file(tmp.file("sys/devices/platform/17000000.gpu/devfreq_dev/cur_freq"), "1\n");
  jetperf::test::write_file(tmp.file("sys/devices/b/x"), "1\n");
  fs::create_directories(tmp.file("sys/class/devfreq"));
  // An absolute link must be taken relative to the root, not the host.
  fs::create_symlink("/sys/devices/platform/17000000.gpu/devfreq_dev", tmp.file("sys/class/devfreq/17000000.gpu"));
  fs::create_symlink("../../devices/b", tmp.file("sys/class/devfreq/a.rel"));
  sysfs_root root(tmp.path());
  EXPECT_EQ(root.list("/sys/class/devfreq"), (std::vector<std::string>{"17000000.gpu", "a.rel"}));
  EXPECT_TRUE(root.list("/sys/none").empty());
  EXPECT_EQ(root.resolve("/sys/class/devfreq/17000000.gpu"), std::string("/sys/devices/platform/17000000.gpu/devfreq_dev"));
  EXPECT_EQ(root.resolve("/sys/class/devfreq/a.rel/x"), std::string("/sys/devices/b/x"));
  EXPECT_FALSE(root.resolve("/sys/class/devfreq/none"));
  sysfs_root real("/");
  EXPECT_EQ(real.host_path("/proc/meminfo"), "/proc/meminfo");
}
