// Replays tricky inputs (the kind the libFuzzer targets in tests/fuzz find) through the tegrastats
// line parser: each input must parse or throw the typed error.
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <jetperf/common/errors.hpp>
#include <jetperf/tegrastats/tegrastats_parser.hpp>
#include <tegrastats_json.hpp>
#include <support/fixtures.hpp>

namespace jetperf::telemetry {
namespace {

std::vector<std::string> tricky_inputs() {
  const std::string full =
      "RAM 1601/7854MB (lfb 1304x4MB) CPU [0%@2035,off] EMC_FREQ 0%@1866 GR3D_FREQ 0%@1300 APE 150 "
      "MTS fg 0% bg 2% BCPU@35C thermal@34.2C VDD_IN 2152/2152 VDD_GPU_SOC 2340mW/2300mW/4000mW";
  std::vector<std::string> v = {
      "", " ", "\t\r\n", "RAM", "RAM ", "RAM 1/", "RAM 1/2", "RAM 1/2MB (lfb", "RAM 1/2MB (lfb 3x", "SWAP 1/2MB (cached",
      "IRAM 0/252kB(lfb", "IRAM 0/252kB (lfb 252kB", "CPU [", "CPU []", "CPU [,]", "CPU [off,", "CPU [1%@]", "CPU [%@]",
      "cpu [", "cpu []@", "cpu [1%]@", "EMC_FREQ %@", "EMC_FREQ 1%@", "GR3D_FREQ @[", "GR3D_FREQ @[]", "GR3D_FREQ 1%@[",
      "GR3D_FREQ 1%@[1,", "GR3D_FREQ 1%@[,]", "GR3D2_FREQ %@", "MTS fg", "MTS fg 1% bg", "@C", "@@C", "a@C", "a@/C",
      "a@1/C", "a@-C", "VDD 1/", "VDD /", "VDD 1//2", "VDD 1/2/3/4", "VDD 1mW/2W", "APE", "APE off", "APE %@",
      "RAM 99999999999999999999999999/1MB", "RAM 1.0000000000000000000000001/2MB",
      "RAM -99999999999999999999999999999999999999.5/1MB", "VDD_IN 1e308/1e308", "x@123456789012345678901234567890C",
      std::string("RAM 1/2MB\0 VDD 1/2", 18), std::string("\0\0\0", 3), std::string("RAM 1/2MB VDD\0 1/2", 18),
      "\xff\xfe RAM 1/2MB", "RAM\t1/2MB\tVDD_IN\t1/2",
      // Found by fuzz_tegrastats_line: a non-UTF-8 byte in a timestamp made the JSON form's dump() throw.
      "0\xee-11-2025 10:36:27 RAM 4321/62801MB", "11-21-2025 1\xee:36:27 RAM 4321/62801MB",
  };
  // Every prefix of a full line: a line cut off anywhere (a partial read of the tegrastats pipe).
  for (std::size_t n = 0; n <= full.size(); ++n) v.push_back(full.substr(0, n));
  // Very long lines: many fields, one huge token, a huge number.
  std::string many;
  for (int i = 0; i < 20000; ++i) many += " R" + std::to_string(i) + " 1/2";
  v.push_back("RAM 1/2MB" + many);
  v.push_back("RAM 1/2MB X@" + std::string(100000, '9') + "C");
  v.push_back("RAM " + std::string(100000, '1') + "/2MB");
  v.push_back(std::string(100000, '@'));
  return v;
}

// What the parser keeps of a line it did not understand is bounded, printable text.
void expect_printable_unparsed(const tegrastats_record& r) {
  for (const auto& u : r.unparsed) {
    EXPECT_FALSE(u.empty());
    EXPECT_LE(u.size(), 200u);
    for (char c : u) EXPECT_TRUE(c >= 0x20 && c < 0x7f) << static_cast<int>(static_cast<unsigned char>(c));
  }
}

TEST(TegrastatsRobustness, TrickyLinesParseOrThrowValidationError) {
  std::size_t parsed = 0, rejected = 0, with_unparsed = 0;
  tegrastats_record reused;
  for (const auto& line : tricky_inputs()) {
    try {
      auto r = parse_tegrastats_line(line);
      ++parsed;
      if (!r.unparsed.empty()) ++with_unparsed;
      expect_printable_unparsed(r);
      EXPECT_FALSE(client::tegrastats_record_json(r).dump().empty());  // strings copied from the line are valid UTF-8
      // The reusing form agrees with the fresh one, whatever the reused record held before.
      std::string error;
      ASSERT_TRUE(try_parse_tegrastats_line(line, reused, error)) << line.substr(0, 80);
      EXPECT_EQ(client::tegrastats_record_json(reused).dump(), client::tegrastats_record_json(r).dump());
    } catch (const validation_error& e) {
      ++rejected;
      EXPECT_EQ(e.field(), "line");
    }
  }
  // Every outcome occurs: lines with nothing readable are rejected, well-formed prefixes parse, and
  // prefixes cut inside a field keep the cut field as unparsed text.
  EXPECT_GT(parsed, 100u);
  EXPECT_GT(with_unparsed, 50u);
  EXPECT_GT(rejected, 40u);
}

TEST(TegrastatsRobustness, LinesWithNothingReadableAreRejected) {
  for (const char* line : {"", "CPU []", "GR3D_FREQ @[]", "EMC_FREQ %@", "a@C", "VDD 1/2/3/4", "(lfb 1x2MB)", "MTS fg"}) {
    EXPECT_THROW(parse_tegrastats_line(line), validation_error) << line;
  }
  // One readable field is enough; the broken rest is kept.
  auto r = parse_tegrastats_line("RAM 1/2MB (lfb");
  EXPECT_EQ(r.unparsed, (std::vector<std::string>{"(lfb"}));
}

TEST(TegrastatsRobustness, LongNumbersKeepTheirMagnitude) {
  auto r = parse_tegrastats_line("RAM 12345678901234567890123/1.0000000000000000000000001MB");
  ASSERT_TRUE(r.ram_used_mb && r.ram_total_mb);
  EXPECT_NEAR(*r.ram_used_mb / 1.2345678901234567e22, 1.0, 1e-12);
  EXPECT_DOUBLE_EQ(*r.ram_total_mb, 1.0);
  auto big = parse_tegrastats_line("RAM 1/2MB X@" + std::string(400, '9') + "C");
  ASSERT_EQ(big.temps.size(), 1u);
  ASSERT_TRUE(big.temps[0].celsius);
  EXPECT_GT(*big.temps[0].celsius, 1e30);
}

// A record reused across lines of different layouts (the sensor reuses one) must hold exactly
// what a fresh parse of the current line gives: no rail, temperature or engine left over.
TEST(TegrastatsRobustness, ReusedRecordMatchesFreshParseForEveryFixturePair) {
  std::vector<std::string> lines;
  for (const auto& name : test::fixture_names("tegrastats_")) {
    std::ifstream in(test::fixtures_dir() + "/" + name);
    std::string line;
    while (std::getline(in, line))
      if (!line.empty()) lines.push_back(line);
  }
  ASSERT_GE(lines.size(), 4u) << "tegrastats fixture lines in " << test::fixtures_dir();
  lines.push_back("RAM 1/2MB APE 150 MTS fg 1% bg 2% a@1/2C b@-256C VDD 1/2/3");
  lines.push_back("RAM 1/2MB VDD 1/2 a@3C");
  lines.push_back("RAM 1/2MB (lfb 3x4GB) XYZ??? NVDLA0 5%@[1,2] x@[3,4] BAR [1] VDD 1/2");
  lines.push_back("RAM 1/2MB CPU [1%@2,x] QQQ? VDD 1/2/3");
  for (const auto& first : lines) {
    for (const auto& second : lines) {
      tegrastats_record r;
      std::string error;
      ASSERT_TRUE(try_parse_tegrastats_line(first, r, error)) << error;
      ASSERT_TRUE(try_parse_tegrastats_line(second, r, error)) << error;
      auto fresh = parse_tegrastats_line(second);
      EXPECT_EQ(client::tegrastats_record_json(r).dump(), client::tegrastats_record_json(fresh).dump());
      EXPECT_EQ(flatten_tegrastats(r), flatten_tegrastats(fresh));
      EXPECT_EQ(r.unparsed, fresh.unparsed);
      ASSERT_EQ(r.engines.size(), fresh.engines.size());
      for (std::size_t i = 0; i < r.engines.size(); ++i) {
        EXPECT_EQ(r.engines[i].name, fresh.engines[i].name);
        EXPECT_EQ(r.engines[i].freqs_mhz, fresh.engines[i].freqs_mhz);
        EXPECT_EQ(r.engines[i].freq_mhz, fresh.engines[i].freq_mhz);
        EXPECT_EQ(r.engines[i].util_pct, fresh.engines[i].util_pct);
        EXPECT_EQ(r.engines[i].fg_pct, fresh.engines[i].fg_pct);
        EXPECT_EQ(r.engines[i].bg_pct, fresh.engines[i].bg_pct);
      }
      ASSERT_EQ(r.temps.size(), fresh.temps.size());
      for (std::size_t i = 0; i < r.temps.size(); ++i) EXPECT_EQ(r.temps[i].max_celsius, fresh.temps[i].max_celsius);
      EXPECT_EQ(r.timestamp, fresh.timestamp);
    }
  }
}

}  // namespace
}  // namespace jetperf::telemetry
