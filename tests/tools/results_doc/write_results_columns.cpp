// Writes each registered kind's column list into docs/results.md, between its markers (see
// column_lists.hpp). Usage: write_results_columns PATH/TO/docs/results.md
// (or: cmake --build build --target results_doc_columns).
#include <cstdio>
#include <exception>
#include <fstream>
#include <sstream>

#include "column_lists.hpp"

int main(int argc, char** argv) {
  using namespace jetperf::test::results_doc;
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s docs/results.md\n", argv[0]);
    return 2;
  }
  const std::string path = argv[1];
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "%s: cannot read\n", path.c_str());
    return 1;
  }
  std::ostringstream text;
  text << in.rdbuf();
  std::string doc = text.str();
  try {
    const auto registry = daemon_kinds();
    const auto stale = stale_kinds(doc, registry);
    for (const auto& kind : registry.kinds()) doc = with_block(doc, kind, column_list_markdown(registry.get(kind)));
    if (!stale.empty()) {
      std::ofstream out(path, std::ios::binary | std::ios::trunc);
      out << doc;
      if (!out.flush()) {
        std::fprintf(stderr, "%s: cannot write\n", path.c_str());
        return 1;
      }
    }
    std::printf("%s: %zu of %zu kinds' column lists rewritten\n", path.c_str(), stale.size(), registry.kinds().size());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", path.c_str(), e.what());
    return 1;
  }
  return 0;
}
