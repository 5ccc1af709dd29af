#pragma once
// Text from outside (a program's output, a marker line, a file) is bytes: JSON can only hold
// valid UTF-8, and a row that cannot be written is a measurement lost. These make such bytes text.
#include <string>
#include <string_view>

namespace jetperf {

/// `bytes` with every byte that does not belong to a well-formed UTF-8 sequence (a stray
/// continuation byte, a truncated or overlong sequence, a surrogate, a value past U+10FFFF)
/// replaced by U+FFFD; valid text comes back unchanged.
std::string valid_utf8(std::string_view bytes);

/// The tail of a longer text, kept by bytes: without the continuation bytes (at most three) of a
/// character whose start was cut off, then made valid_utf8.
std::string utf8_tail(std::string_view tail);

}  // namespace jetperf
