#include <jetperf/platform/nvpmodel_tool.hpp>

#include <gtest/gtest.h>

#include <jetperf/common/errors.hpp>

#include "board_tree.hpp"
#include <support/temp_dir.hpp>

using namespace jetperf::platform;
using namespace std::chrono_literals;

namespace {

const char* conf_text = R"(< PARAM TYPE=FILE NAME=TPC_POWER_GATING >
TPC_PG_MASK /sys/devices/gpu.0/tpc_pg_mask
< PARAM TYPE=CLOCK NAME=GPU >
MAX_FREQ /sys/devices/gpu/max_freq
< POWER_MODEL ID=0 NAME=MAXN >
TPC_POWER_GATING TPC_PG_MASK 0
GPU MAX_FREQ -1
< POWER_MODEL ID=1 NAME=MODE_15W >
TPC_POWER_GATING TPC_PG_MASK 248
GPU MAX_FREQ 420750000
< POWER_MODEL ID=2 NAME=MODE_30W >
TPC_POWER_GATING TPC_PG_MASK 0
GPU MAX_FREQ 624750000
< PM_CONFIG DEFAULT=2 >
)";

const std::vector<std::string> names{"MAXN", "MODE_15W", "MODE_30W"};

}  // namespace

TEST(nvpmodel_tool, query_and_set) {
  jetperf::test::temp_dir tmp;
  nvpmodel_tool tool(jetperf::test::make_fake_nvpmodel(tmp.path(), names, 2), 10s);
  auto q = tool.query();
  EXPECT_EQ(q.mode_id, 2);
  EXPECT_EQ(q.mode_name, "MODE_30W");
  auto conf = parse_nvpmodel_conf(conf_text);
  tool.set_mode(0, &conf, false);
  EXPECT_EQ(tool.query().mode_id, 0);
  EXPECT_EQ(jetperf::test::read_file(tmp.file("mode")), "0\n");
  EXPECT_THROW(tool.set_mode(7, &conf, false), jetperf::validation_error);
}

TEST(nvpmodel_tool, nvpm_error_becomes_platform_error_with_the_message) {
  jetperf::test::temp_dir tmp;
  nvpmodel_tool tool(jetperf::test::make_fake_nvpmodel(tmp.path(), names, 2), 10s);
  jetperf::test::write_file(tmp.file("error"), "NVPM ERROR: Error opening /sys/devices/gpu.0/fbp_pg_mask: 13\n");
  try {
    tool.set_mode(0, nullptr, false);
    FAIL() << "expected platform_error";
  } catch (const jetperf::platform_error& e) {
    EXPECT_NE(std::string(e.what()).find("fbp_pg_mask: 13"), std::string::npos) << e.what();
  }
  EXPECT_EQ(jetperf::test::read_file(tmp.file("mode")), "2\n");
}

TEST(nvpmodel_tool, non_zero_exit_and_missing_program) {
  jetperf::test::temp_dir tmp;
  nvpmodel_tool tool(jetperf::test::make_fake_nvpmodel(tmp.path(), names, 2), 10s);
  EXPECT_THROW(tool.dump_config(), jetperf::platform_error);  // the fake rejects -p with exit 1
  nvpmodel_tool missing(tmp.file("no-such-nvpmodel"), 1s);
  EXPECT_THROW(missing.query(), jetperf::platform_error);
}

TEST(nvpmodel_tool, reboot_needing_mode_refused_unless_forced) {
  jetperf::test::temp_dir tmp;
  nvpmodel_tool tool(jetperf::test::make_fake_nvpmodel(tmp.path(), names, 2, {1}), 10s);
  auto conf = parse_nvpmodel_conf(conf_text);
  try {
    tool.set_mode(1, &conf, false);
    FAIL() << "expected conflict";
  } catch (const jetperf::conflict& e) {
    EXPECT_NE(std::string(e.what()).find("TPC_PG_MASK 0 -> 248"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("reboot"), std::string::npos);
  }
  EXPECT_EQ(jetperf::test::read_file(tmp.file("mode")), "2\n");
  // Without a conf the tool cannot predict it, but nvpmodel's prompt (no YES on stdin) is caught.
  EXPECT_THROW(tool.set_mode(1, nullptr, false), jetperf::conflict);
  EXPECT_EQ(jetperf::test::read_file(tmp.file("mode")), "2\n");
  tool.set_mode(1, &conf, true);
  EXPECT_EQ(jetperf::test::read_file(tmp.file("mode")), "1\n");
  EXPECT_NE(jetperf::test::read_file(tmp.file("calls")).find("stdin:YES"), std::string::npos);
}
