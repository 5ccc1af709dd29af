#pragma once
// A cell as compact JSON text, spelt exactly as nlohmann::json's dump() spells the same value:
// what a refusal quotes of a spec's value ("unknown dtype 3", "got [1,2]"), so that messages read
// as they did when specs were JSON, without the middle naming the JSON library.
#include <string>

#include <jetperf/common/cell.hpp>

namespace jetperf {

/// No spaces; a record's keys sorted (as a JSON object holds them); an integer as its digits; a
/// double as json_number_text; a string quoted and escaped as JSON.
std::string json_text(const cell& c);

/// A double as JSON writes it: the shortest text that reads back as the same double, with ".0"
/// on a whole number ("2.0"), in exponent form outside 1e-5 < |v| < 1e15 ("1e+20", "1e-05");
/// "-0.0" for negative zero; "null" for NaN and the infinities (JSON has no such number).
std::string json_number_text(double v);

/// A string quoted as JSON: ", \ and the control characters escaped (\n, \t, ..., \u001f), every
/// other byte (UTF-8 included) as it is.
std::string json_quoted(const std::string& s);

}  // namespace jetperf
