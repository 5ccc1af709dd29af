// Phase markers: the line format, the socket that receives them (stamped on receipt, bounded),
// their pairing into phases, and the phases' column. (Each phase's time and energy from the
// samples over its intervals is the protocol's: tests/unit/measure/phases_protocol_test.cpp.)
#include <gtest/gtest.h>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>

#include <jetperf/store/cell_json.hpp>
#include <jetperf/common/clock.hpp>
#include <jetperf/kinds/command/marker_socket.hpp>
#include <jetperf/kinds/command/phases.hpp>
#include <support/eventually.hpp>
#include <support/temp_dir.hpp>

using namespace jetperf;
using namespace jetperf::kinds;

namespace {

std::string why_not(const std::string& line) {
  std::string why;
  EXPECT_FALSE(parse_marker_line(line, 0, &why).has_value()) << line;
  return why;
}

marker at(marker::type what, const std::string& name, std::int64_t t) {
  marker m;
  m.what = what;
  m.name = name;
  m.t_ns = t;
  return m;
}

void send_to(const std::string& path, const std::string& text) {
  const int fd = ::socket(AF_UNIX, SOCK_DGRAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strcpy(addr.sun_path, path.c_str());
  const auto n = ::sendto(fd, text.data(), text.size(), 0, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  ::close(fd);
  ASSERT_EQ(n, static_cast<ssize_t>(text.size())) << std::strerror(errno);
}

}  // namespace

TEST(command_markers, parse_the_three_forms_with_attributes_and_the_client_stamp) {
  const auto b = parse_marker_line("begin load", 42, nullptr);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->what, marker::type::begin);
  EXPECT_EQ(b->name, "load");
  EXPECT_EQ(b->t_ns, 42);
  EXPECT_FALSE(b->client_t_ns);
  const auto e = parse_marker_line("end load ts=123456789", 43, nullptr);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->what, marker::type::end);
  EXPECT_EQ(*e->client_t_ns, 123456789);
  const auto m = parse_marker_line("mark step  i=3 loss=0.25 ts=7", 44, nullptr);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->what, marker::type::mark);
  EXPECT_EQ(m->attributes(), (std::map<std::string, std::string>{{"i", "3"}, {"loss", "0.25"}}));
  EXPECT_EQ(m->attrs, "i=3 loss=0.25");
  EXPECT_EQ(*m->client_t_ns, 7);
}

TEST(command_markers, malformed_lines_are_refused_with_the_reason) {
  EXPECT_NE(why_not("begin").find("expected"), std::string::npos);
  EXPECT_NE(why_not("start load").find("unknown marker"), std::string::npos);
  EXPECT_NE(why_not("begin lo$ad").find("bad name"), std::string::npos);
  EXPECT_NE(why_not("begin load i=3").find("only 'mark'"), std::string::npos);
  EXPECT_NE(why_not("mark step ts=-5").find("ts must be"), std::string::npos);
  EXPECT_NE(why_not("mark step novalue").find("key=value"), std::string::npos);
  EXPECT_NE(why_not("begin " + std::string(200, 'a')).find("bad name"), std::string::npos);
  EXPECT_NE(why_not("mark x " + std::string(2000, 'a')).find("longer than"), std::string::npos);
  std::string many = "mark step";
  for (int i = 0; i < 17; ++i) many += " k" + std::to_string(i) + "=1";
  EXPECT_NE(why_not(many).find("more than 16"), std::string::npos);
}

TEST(command_markers, pairs_nested_begins_by_name_and_names_the_unpaired_ones) {
  const auto pairs = pair_markers({at(marker::type::begin, "a", 10), at(marker::type::begin, "a", 20),
                                   at(marker::type::end, "a", 30), at(marker::type::end, "a", 50),
                                   at(marker::type::end, "b", 55), at(marker::type::mark, "m", 56),
                                   at(marker::type::mark, "m", 57), at(marker::type::begin, "c", 60)},
                                  100);
  ASSERT_EQ(pairs.intervals.size(), 3u);
  EXPECT_EQ(pairs.intervals[0].t_start_ns, 10);  // the outer a
  EXPECT_EQ(pairs.intervals[0].t_end_ns, 50);
  EXPECT_EQ(pairs.intervals[1].t_start_ns, 20);  // the inner a
  EXPECT_EQ(pairs.intervals[1].t_end_ns, 30);
  EXPECT_EQ(pairs.intervals[2].name, "c");
  EXPECT_EQ(pairs.intervals[2].t_end_ns, 100);
  EXPECT_FALSE(pairs.intervals[2].closed);
  EXPECT_EQ(pairs.marks.at("m"), 2u);
  EXPECT_EQ(pairs.problems, (std::vector<std::string>{"end without begin: b",
                                                      "begin without end: c (closed at the end of the run)"}));
}

TEST(command_markers, the_phases_column_holds_each_phases_figures) {
  measure::phases_result r;
  auto& busy = r.phases["busy"];
  busy.count = 2;
  busy.time_s = 0.5;
  busy.power_w = 10.0;
  busy.energy_j = 5.0;
  busy.rail_power_w["CPU"] = 6.0;
  busy.rail_energy_j["CPU"] = 3.0;
  busy.samples = 6;
  busy.unclosed = 1;
  r.phases["load"].count = 1;  // no power figures: nulls
  const auto j = jetperf::to_json(phases_record(r));
  EXPECT_EQ(j["busy"], (nlohmann::json{{"count", 2},
                                       {"time_s", 0.5},
                                       {"power_w", 10.0},
                                       {"energy_j", 5.0},
                                       {"dynamic_energy_j", nullptr},
                                       {"rail_power_w", {{"CPU", 6.0}}},
                                       {"rail_energy_j", {{"CPU", 3.0}}},
                                       {"samples", 6},
                                       {"unclosed", 1}}));
  EXPECT_TRUE(j["load"]["power_w"].is_null());
  EXPECT_TRUE(j["load"]["energy_j"].is_null());
  EXPECT_EQ(j["load"]["rail_energy_j"], nlohmann::json::object());
}

TEST(command_markers, the_socket_stamps_each_marker_on_receipt_and_take_returns_everything_sent_before) {
  test::temp_dir dir;
  marker_socket sock(dir.file("job.markers"), std::nullopt, 100);
  const auto before = monotonic_ns();
  send_to(sock.path(), "begin load\nend load ts=5\n");
  send_to(sock.path(), "mark step i=1");
  send_to(sock.path(), "bogus line");
  const auto batch = sock.take();
  ASSERT_EQ(batch.markers.size(), 3u);
  EXPECT_EQ(batch.markers[0].what, marker::type::begin);
  EXPECT_GE(batch.markers[0].t_ns, before);
  EXPECT_LE(batch.markers[2].t_ns, monotonic_ns());
  EXPECT_EQ(*batch.markers[1].client_t_ns, 5);
  EXPECT_EQ(batch.malformed, 1u);
  ASSERT_EQ(batch.errors.size(), 1u);
  EXPECT_NE(batch.errors[0].find("unknown marker 'bogus'"), std::string::npos);
  EXPECT_TRUE(sock.take().markers.empty());
}

TEST(command_markers, the_socket_keeps_at_most_its_limit_and_counts_the_rest) {
  test::temp_dir dir;
  marker_socket sock(dir.file("job.markers"), std::nullopt, 10);
  for (int i = 0; i < 25; ++i) send_to(sock.path(), "mark tick");
  const auto batch = sock.take();
  EXPECT_EQ(batch.markers.size(), 10u);
  EXPECT_EQ(batch.dropped, 15u);
}

TEST(command_markers, the_socket_keeps_at_most_its_bytes_of_names_and_attributes_and_counts_the_rest) {
  test::temp_dir dir;
  marker_socket sock(dir.file("job.markers"), std::nullopt, 100000);
  // 16 attributes of 56 bytes each: a line of about 950 bytes, four to a datagram.
  std::string line = "mark step";
  for (int k = 0; k < 16; ++k) line += " k" + std::to_string(10 + k) + "=" + std::string(52, 'v');
  const std::size_t lines = 22000;  // about 20 MB: past the 16 MiB a run keeps
  for (std::size_t i = 0; i < lines; i += 4) send_to(sock.path(), line + "\n" + line + "\n" + line + "\n" + line);
  const auto batch = sock.take();
  EXPECT_LE(batch.bytes, k_max_marker_bytes_per_run);
  EXPECT_GT(batch.bytes, k_max_marker_bytes_per_run - line.size());
  EXPECT_EQ(batch.markers.size() + batch.dropped, lines);
  EXPECT_GT(batch.dropped, 3000u);
  EXPECT_EQ(batch.markers.back().attributes().size(), 16u);
}

TEST(command_markers, the_socket_file_is_private_and_removed_with_the_socket) {
  test::temp_dir dir;
  const auto path = dir.file("job.markers");
  {
    marker_socket sock(path, std::nullopt, 10);
    struct stat st {};
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_TRUE(S_ISSOCK(st.st_mode));
    EXPECT_EQ(st.st_mode & 0777, 0600u);
  }
  EXPECT_NE(::access(path.c_str(), F_OK), 0);
}
