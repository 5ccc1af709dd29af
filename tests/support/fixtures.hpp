#pragma once
// Real board outputs and the project's own nvpmodel.conf files in tests/fixtures (provenance in
// tests/fixtures/PROVENANCE.md). They are part of the repository: a test whose fixture is missing
// fails naming the file, it never skips.
#include <string>
#include <vector>

#include <support/test_paths.hpp>

namespace jetperf::test {

/// The whole fixture file, or "" when it does not exist.
std::string fixture_text(const std::string& name);
/// The first line of a fixture (without its newline), or "" when it does not exist.
std::string fixture_line(const std::string& name);
/// Names of the fixture files that start with `prefix`, sorted.
std::vector<std::string> fixture_names(const std::string& prefix);

}  // namespace jetperf::test

/// Declares `var` with the fixture's text, or fails the test naming the missing (or empty) file.
#define JETPERF_LOAD_FIXTURE(var, name)                        \
  const std::string var = ::jetperf::test::fixture_text(name); \
  if (var.empty())                                             \
  FAIL() << "fixture " << (name) << " missing or empty in " << ::jetperf::test::fixtures_dir()
