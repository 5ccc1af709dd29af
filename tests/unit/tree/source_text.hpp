#pragma once
// C++ sources read as text by the architecture check: their string literals, their code with the
// comments taken out, and which literal spells a board path.
#include <string>
#include <utility>
#include <vector>

namespace jetperf::test::tree {

/// String literals of C++ source with their 1-based line; comments, character literals, digit
/// separators and #include lines are skipped, raw strings read whole.
std::vector<std::pair<int, std::string>> string_literals(const std::string& source);

/// `source` with every comment replaced by blanks (newlines kept, so lines and offsets stay);
/// string and character literals are kept as they are.
std::string without_comments(const std::string& source);

/// A /sys or /proc path, or one of sysfs's folders under another root ("host/sys/devices/...").
bool is_board_path(const std::string& text);

/// is_board_path, or a device node (/dev, /dev/...) or /proc itself: what only platform opens.
bool is_board_file(const std::string& text);

}  // namespace jetperf::test::tree
