#include <jetperf/common/utf8.hpp>

namespace jetperf {

namespace {

constexpr const char* k_replacement = "\xEF\xBF\xBD";  // U+FFFD

bool continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

// The length of the well-formed sequence at s[i] (RFC 3629, Unicode table 3-7), 0 when there is none.
std::size_t sequence_at(std::string_view s, std::size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) return 1;
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
  if (c >= 0xC2 && c <= 0xDF) n = 2;
  else if (c == 0xE0) n = 3, lo = 0xA0;
  else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) n = 3;
  else if (c == 0xED) n = 3, hi = 0x9F;  // no surrogates
  else if (c == 0xF0) n = 4, lo = 0x90;
  else if (c >= 0xF1 && c <= 0xF3) n = 4;
  else if (c == 0xF4) n = 4, hi = 0x8F;  // nothing past U+10FFFF
  else return 0;
  if (i + n > s.size()) return 0;
  const auto second = static_cast<unsigned char>(s[i + 1]);
  if (second < lo || second > hi) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if (!continuation(static_cast<unsigned char>(s[i + k]))) return 0;
  return n;
}

}  // namespace

std::string valid_utf8(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (std::size_t i = 0; i < bytes.size();) {
    const auto n = sequence_at(bytes, i);
    if (n == 0) {
      out += k_replacement;
      ++i;
    } else {
      out.append(bytes.data() + i, n);
      i += n;
    }
  }
  return out;
}

std::string utf8_tail(std::string_view tail) {
  std::size_t skip = 0;
  while (skip < 3 && skip < tail.size() && continuation(static_cast<unsigned char>(tail[skip]))) ++skip;
  return valid_utf8(tail.substr(skip));
}

}  // namespace jetperf
