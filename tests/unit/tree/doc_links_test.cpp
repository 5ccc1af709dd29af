// The documentation's links over the real tree: every relative link in README.md,
// CONTRIBUTING.md and docs/**/*.md names a file or folder that exists, and a `#anchor` into a
// markdown file names one of its headings (as GitHub makes their anchors). The README stays a
// front door: at most 250 lines. Small trees written here hold each kind of broken link.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <support/temp_dir.hpp>
#include <support/test_paths.hpp>

namespace jetperf::test::tree {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> lines_of(const fs::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool is_fence(const std::string& line) {
  const auto first = line.find_first_not_of(' ');
  return first != std::string::npos && (line.compare(first, 3, "```") == 0 || line.compare(first, 3, "~~~") == 0);
}

// A line with its inline code spans (`...`) taken out: a link shown as code is not a link.
std::string without_code_spans(const std::string& line) {
  std::string out;
  bool in_code = false;
  for (char c : line) {
    if (c == '`') {
      in_code = !in_code;
      continue;
    }
    if (!in_code) out += c;
  }
  return out;
}

// GitHub's anchor for a heading: lower case; letters, digits, '-' and '_' kept (bytes beyond
// ASCII too), spaces made '-', everything else dropped.
std::string anchor_of(const std::string& heading) {
  std::string out;
  for (unsigned char c : heading) {
    if (std::isalnum(c) || c == '-' || c == '_' || c >= 0x80)
      out += static_cast<char>(std::tolower(c));
    else if (c == ' ')
      out += '-';
  }
  return out;
}

// The anchors of a markdown file's headings (ATX, outside fenced code), repeats numbered -1, -2.
std::set<std::string> anchors_of(const fs::path& file) {
  std::set<std::string> anchors;
  std::map<std::string, int> seen;
  bool in_fence = false;
  for (const auto& line : lines_of(file)) {
    if (is_fence(line)) in_fence = !in_fence;
    if (in_fence || line.empty() || line[0] != '#') continue;
    const auto text_start = line.find_first_not_of('#');
    if (text_start == std::string::npos || text_start > 6 || line[text_start] != ' ') continue;
    std::string text = line.substr(text_start + 1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '#')) text.pop_back();
    const std::string a = anchor_of(text);
    const int n = seen[a]++;
    anchors.insert(n == 0 ? a : a + "-" + std::to_string(n));
  }
  return anchors;
}

// Every relative link of one markdown file that does not resolve, as "file:line: target (why)".
std::vector<std::string> broken_links_of(const fs::path& root, const fs::path& file) {
  static const std::regex link(R"(\]\(([^)\s]+)(\s+"[^"]*")?\))");
  std::vector<std::string> broken;
  bool in_fence = false;
  int number = 0;
  for (const auto& raw : lines_of(file)) {
    ++number;
    if (is_fence(raw)) in_fence = !in_fence;
    if (in_fence) continue;
    const std::string line = without_code_spans(raw);
    for (auto it = std::sregex_iterator(line.begin(), line.end(), link); it != std::sregex_iterator(); ++it) {
      const std::string target = (*it)[1].str();
      if (target.find("://") != std::string::npos || target.rfind("mailto:", 0) == 0) continue;
      const auto hash = target.find('#');
      const std::string path = target.substr(0, hash);
      const std::string anchor = hash == std::string::npos ? "" : target.substr(hash + 1);
      const fs::path resolved = path.empty() ? file : (file.parent_path() / path).lexically_normal();
      const std::string where =
          fs::relative(file, root).string() + ":" + std::to_string(number) + ": " + target;
      if (!fs::exists(resolved)) {
        broken.push_back(where + " (no such file)");
        continue;
      }
      if (anchor.empty() || resolved.extension() != ".md" || fs::is_directory(resolved)) continue;
      if (!anchors_of(resolved).count(anchor)) broken.push_back(where + " (no such heading)");
    }
  }
  return broken;
}

// The documentation's markdown files: README.md, CONTRIBUTING.md and every .md under docs/.
std::vector<fs::path> doc_files(const fs::path& root) {
  std::vector<fs::path> files;
  for (const char* name : {"README.md", "CONTRIBUTING.md"})
    if (fs::exists(root / name)) files.push_back(root / name);
  if (fs::is_directory(root / "docs"))
    for (const auto& e : fs::recursive_directory_iterator(root / "docs"))
      if (e.is_regular_file() && e.path().extension() == ".md") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<std::string> broken_links(const fs::path& root) {
  std::vector<std::string> broken;
  for (const auto& f : doc_files(root)) {
    auto b = broken_links_of(root, f);
    broken.insert(broken.end(), b.begin(), b.end());
  }
  return broken;
}

std::string joined(const std::vector<std::string>& lines) {
  std::ostringstream out;
  for (const auto& l : lines) out << l << "\n";
  return out.str();
}

TEST(doc_links, every_relative_link_resolves) {
  const fs::path root(source_dir());
  ASSERT_TRUE(fs::exists(root / "README.md"));
  ASSERT_TRUE(fs::is_directory(root / "docs"));
  const auto broken = broken_links(root);
  EXPECT_TRUE(broken.empty()) << broken.size() << " broken links:\n" << joined(broken);
}

TEST(doc_links, the_docs_are_linked_from_the_readme) {
  const fs::path root(source_dir());
  std::ifstream in(root / "README.md");
  const std::string readme((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const auto& f : doc_files(root)) {
    const std::string rel = fs::relative(f, root).string();
    if (rel.rfind("docs/", 0) != 0 || rel.find('/', 5) != std::string::npos) continue;  // docs/*.md
    EXPECT_NE(readme.find("(" + rel), std::string::npos) << rel << " is not linked from README.md";
  }
}

TEST(readme, is_at_most_250_lines) {
  const auto lines = lines_of(fs::path(source_dir()) / "README.md");
  EXPECT_GT(lines.size(), 0u);
  EXPECT_LE(lines.size(), 250u) << "README.md is the front door; reference goes to docs/";
}

TEST(doc_links, anchors_are_made_as_github_makes_them) {
  EXPECT_EQ(anchor_of("The sensor's window, made shorter (`sensor_samples`)"),
            "the-sensors-window-made-shorter-sensor_samples");
  EXPECT_EQ(anchor_of("A timeline of every job (`jetperf trace ID`)"), "a-timeline-of-every-job-jetperf-trace-id");
  EXPECT_EQ(anchor_of("in_context (2026-11-27)"), "in_context-2026-11-27");
  EXPECT_EQ(anchor_of("The arm64 cross build in its own chroot (issue #40, \"Everyday costs\", item 5)"),
            "the-arm64-cross-build-in-its-own-chroot-issue-40-everyday-costs-item-5");
}

TEST(doc_links, finds_a_missing_file_and_a_missing_heading) {
  temp_dir t;
  write_file(t.file("README.md"),
             "# r\n\nSee [a](docs/a.md), [b](docs/b.md), [a's x](docs/a.md#x), [a's y](docs/a.md#y),\n"
             "[here](#r), [there](#nowhere), [web](https://example.com/missing.md).\n");
  write_file(t.file("docs/a.md"), "# A\n\n## X\n\n[up](../README.md) [self](#a) [gone](../src/none.cpp)\n");
  const auto broken = broken_links(t.path());
  EXPECT_EQ(broken, (std::vector<std::string>{
                        "README.md:3: docs/b.md (no such file)",
                        "README.md:3: docs/a.md#y (no such heading)",
                        "README.md:4: #nowhere (no such heading)",
                        "docs/a.md:5: ../src/none.cpp (no such file)",
                    }))
      << joined(broken);
}

TEST(doc_links, links_shown_as_code_are_not_links) {
  temp_dir t;
  write_file(t.file("README.md"), "# r\n\n`[a](missing.md)`\n\n```md\n[b](missing.md)\n```\n\n## r\n\n[second](#r-1)\n");
  EXPECT_TRUE(broken_links(t.path()).empty()) << joined(broken_links(t.path()));
}

}  // namespace
}  // namespace jetperf::test::tree
