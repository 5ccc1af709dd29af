// Words a user reads (README.md, docs/**/*.md, the web page) name what a format or a method is
// for, never the project's founding documents by their internal name: "seed 001's layout", "the
// seed's windows" and "the seeds' analyses" told a reader nothing (issue 59, item 9). A random
// generator's seed (`--seed`, "20 seeds") is a seed and stays. The client's --help strings are
// checked in its man page (tests/sim/client_reference_test.cpp). The generated column lists in
// docs/results.md are the kinds' column descriptions, which the golden jobs' views record
// (tests/fixtures/golden): their words change with that fixture, so they are skipped here.
#include <algorithm>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <support/temp_dir.hpp>
#include <support/test_paths.hpp>

namespace jetperf::test::tree {
namespace {

namespace fs = std::filesystem;

// The founding documents by their internal name: "seed 001", "the seed's", "the seeds'", "the seed".
const std::regex& internal_name() {
  static const std::regex re(R"((seeds? ?0\d\d)|(seeds?'s?)|(\bthe seeds?\b(?! of)))", std::regex::icase);
  return re;
}

// The text without the generated column lists (<!-- columns:KIND --> ... <!-- /columns:KIND -->).
// (A plain search: std::regex's [\s\S]*? recurses once per character and overflowed the stack of
// the ASan build over a long column list.)
std::string without_column_lists(std::string text) {
  const std::string open = "<!-- columns:", close = "<!-- /columns:";
  for (auto start = text.find(open); start != std::string::npos; start = text.find(open, start)) {
    const auto end = text.find(close, start);
    if (end == std::string::npos) break;
    const auto after = text.find("-->", end);
    if (after == std::string::npos) break;
    text.erase(start, after + 3 - start);
  }
  return text;
}

std::vector<fs::path> user_facing_files() {
  const fs::path root = source_dir();
  std::vector<fs::path> files = {root / "README.md", root / "web" / "index.html"};
  for (const auto& e : fs::recursive_directory_iterator(root / "docs"))
    if (e.path().extension() == ".md") files.push_back(e.path());
  return files;
}

TEST(doc_words, no_page_names_the_founding_documents_by_their_internal_name) {
  for (const auto& file : user_facing_files()) {
    const auto text = without_column_lists(read_file(file.string()));
    for (std::sregex_iterator it(text.begin(), text.end(), internal_name()), end; it != end; ++it) {
      const auto at = static_cast<std::size_t>(it->position());
      const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n');
      ADD_FAILURE() << file.lexically_relative(source_dir()).string() << ":" << line << ": '" << it->str()
                    << "': name what it is for (DNN stats' layout, PyTorch profiler traces, ...)";
    }
  }
}

TEST(doc_words, the_pattern_finds_the_internal_names_and_spares_a_generator_seed) {
  for (const std::string bad : {"the seed's layout", "seed 001's case", "the seeds' analyses", "Seed 004's analysis",
                                "where the seed runs it"})
    EXPECT_TRUE(std::regex_search(bad, internal_name())) << bad;
  for (const std::string fine : {"--seed 5", "`seed`", "20 seeds of a simulated GPU", "one seed gives the same mappings",
                                 "the seed of the next refit", "seeded"})
    EXPECT_FALSE(std::regex_search(fine, internal_name())) << fine;
}

}  // namespace
}  // namespace jetperf::test::tree
