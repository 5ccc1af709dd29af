#include <support/sanitizer.hpp>

#include <initializer_list>

namespace jetperf::test {

std::string sanitizer_build() {
#ifdef JETPERF_SANITIZER
  return JETPERF_SANITIZER;
#else
  return "";
#endif
}

std::string sanitizer_report(const std::string& output) {
  // Every report ends with "SUMMARY: <Tool>Sanitizer: <kind> ..." (print_summary defaults on);
  // it opens with "==PID==ERROR: ...Sanitizer", "WARNING: ThreadSanitizer" or, for UBSan,
  // "FILE:LINE:COL: runtime error:".
  auto summary = output.find("SUMMARY: ");
  while (summary != std::string::npos) {
    const auto eol = output.find('\n', summary);
    const std::string line = output.substr(summary, eol == std::string::npos ? std::string::npos : eol - summary);
    if (line.find("Sanitizer") != std::string::npos) {
      std::size_t begin = std::string::npos;
      for (const char* opener : {"ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "WARNING: ThreadSanitizer",
                                 "ERROR: ThreadSanitizer", "runtime error:"}) {
        const auto at = output.rfind(opener, summary);
        if (at != std::string::npos && (begin == std::string::npos || at > begin)) begin = at;
      }
      if (begin == std::string::npos) begin = summary;
      // From the start of the opening line.
      const auto line_start = output.rfind('\n', begin);
      begin = line_start == std::string::npos ? 0 : line_start + 1;
      return output.substr(begin, (eol == std::string::npos ? output.size() : eol) - begin);
    }
    summary = output.find("SUMMARY: ", summary + 1);
  }
  return "";
}

}  // namespace jetperf::test
