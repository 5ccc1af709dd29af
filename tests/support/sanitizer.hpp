#pragma once
// What a sanitizer build (JETPERF_SANITIZE, cmake/sanitizers.cmake) changes for the tests: which
// sanitizer it is, and finding the reports of the programs the tests start (jetperfd, jetperf),
// whose findings would otherwise end up unread in a log or a captured stderr.
#include <string>

namespace jetperf::test {

/// "address" or "thread" in a sanitizer build, "" otherwise (from JETPERF_SANITIZER, set by
/// tests/CMakeLists.txt).
std::string sanitizer_build();

/// The first sanitizer report in a program's output (ASan, LSan, TSan or UBSan: from the line
/// that opens it to its SUMMARY line), or "" when there is none.
std::string sanitizer_report(const std::string& output);

}  // namespace jetperf::test
