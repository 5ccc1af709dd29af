// The README's facts about the daemon, checked against the daemon: its table of job kinds lists
// exactly the kinds GET /v1/kinds serves (the README once left out `sensor`), and its count of
// simulated profiles is the number of built-in profiles (it once said six of eight); the shipped
// config names every profile where it lists them. A new kind or profile fails here until the
// README says so.
#include <column_lists.hpp>

#include <algorithm>
#include <map>
#include <regex>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include <jetperf/sim/board_profile.hpp>
#include <support/temp_dir.hpp>
#include <support/test_paths.hpp>

namespace jetperf::test {
namespace {

std::string readme() { return read_file(source_dir() + "/README.md"); }

// The kinds in the README's "| kind | what it measures |" table, by their links into docs/jobs.md.
std::set<std::string> readme_kinds(const std::string& text) {
  const auto start = text.find("| kind | what it measures |");
  if (start == std::string::npos) return {};
  const auto end = text.find("\n\n", start);
  const std::string table = text.substr(start, end - start);
  static const std::regex row(R"(\n\| \[`([a-z_]+)`\]\(docs/jobs\.md#([a-z_]+)\) \|)");
  std::set<std::string> kinds;
  for (std::sregex_iterator it(table.begin(), table.end(), row), stop; it != stop; ++it) {
    EXPECT_EQ((*it)[1], (*it)[2]) << "the README's row of kind " << (*it)[1] << " links another kind's section";
    kinds.insert((*it)[1]);
  }
  return kinds;
}

TEST(readme_facts, the_kinds_table_lists_every_kind_the_daemon_serves_and_no_other) {
  const auto registered = results_doc::daemon_kinds().kinds();
  const auto listed = readme_kinds(readme());
  EXPECT_EQ(listed, std::set<std::string>(registered.begin(), registered.end()))
      << "README.md's table of job kinds differs from the kinds jetperfd registers (daemon/kinds.cpp)";
}

TEST(readme_facts, the_count_of_simulated_profiles_is_the_number_of_built_in_profiles) {
  static const std::map<std::string, std::size_t> numbers = {
      {"four", 4}, {"five", 5}, {"six", 6}, {"seven", 7}, {"eight", 8}, {"nine", 9}, {"ten", 10}, {"eleven", 11}, {"twelve", 12}};
  const auto text = readme();
  std::smatch m;
  ASSERT_TRUE(std::regex_search(text, m, std::regex(R"(\(`sim:orin-agx` by default, ([a-z]+) profiles)")))
      << "README.md no longer says how many simulated profiles there are";
  const auto said = numbers.find(m[1]);
  ASSERT_NE(said, numbers.end()) << m[1];
  EXPECT_EQ(said->second, sim::board_profiles().size()) << "README.md says " << m[1] << " simulated profiles";
}

TEST(readme_facts, the_shipped_config_names_every_profile_where_it_lists_them) {
  const auto conf = read_file(source_dir() + "/deploy/jetperfd.conf");
  for (const auto& p : sim::board_profiles()) {
    const std::string word = p.name;
    std::size_t lists = 0;
    for (std::size_t at = conf.find(word); at != std::string::npos; at = conf.find(word, at + 1)) {
      const char before = at > 0 ? conf[at - 1] : ' ';
      const char after = at + word.size() < conf.size() ? conf[at + word.size()] : ' ';
      if ((before == ' ' || before == '(') && (after == ',' || after == ')' || after == '.')) ++lists;
    }
    EXPECT_GE(lists, 2u) << "deploy/jetperfd.conf's lists of simulated profiles leave out " << word;
  }
}

}  // namespace
}  // namespace jetperf::test
