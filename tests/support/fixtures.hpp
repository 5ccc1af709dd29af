#pragma once
// The real board outputs in ../shared/jetson/fixtures: tests read them by name and skip, with a
// message, where ../shared is absent (a checkout without it still builds and passes).
#include <string>

#include <support/test_paths.hpp>

namespace jetperf::test {

/// The whole fixture file, or "" when it does not exist.
std::string fixture_text(const std::string& name);

}  // namespace jetperf::test

/// Declares `var` with the fixture's text, or skips the test naming the missing file.
#define JETPERF_LOAD_FIXTURE(var, name)                  \
  const std::string var = ::jetperf::test::fixture_text(name); \
  if (var.empty())                                       \
  GTEST_SKIP() << "fixture " << (name) << " not found under " << ::jetperf::test::fixtures_dir()
