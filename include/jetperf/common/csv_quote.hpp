#pragma once
// One CSV cell from text, shared by every CSV writer (the API's results, the trace breakdown).
#include <string>

namespace jetperf {

/// Text as one cell: formula characters neutralised (a leading apostrophe before = + - @, tab or
/// CR, which a spreadsheet would run), quoted as RFC 4180 requires (comma, quote, CR or LF).
std::string csv_quote(const std::string& text);

}  // namespace jetperf
