#include "board_csv_merge.hpp"

#include <map>

namespace jetperf::client {

std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string cell;
  bool quoted = false;
  bool any = false;  // the current record has begun
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        cell += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cell += c;
      }
      continue;
    }
    if (c == '"') {
      quoted = true;
      any = true;
    } else if (c == ',') {
      row.push_back(std::move(cell));
      cell.clear();
      any = true;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      if (any || !cell.empty()) {
        row.push_back(std::move(cell));
        rows.push_back(std::move(row));
      }
      row.clear();
      cell.clear();
      any = false;
    } else {
      cell += c;
      any = true;
    }
  }
  if (any || !cell.empty()) {
    row.push_back(std::move(cell));
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string csv_cell(const std::string& value) {
  if (value.find_first_of(",\"\r\n") == std::string::npos) return value;
  std::string out = "\"";
  for (char c : value) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string merge_board_csv(const std::vector<std::pair<std::string, std::string>>& boards) {
  std::vector<std::string> header{"board"};
  std::map<std::string, std::size_t> column;
  std::vector<std::vector<std::vector<std::string>>> tables;
  for (const auto& [name, text] : boards) {
    tables.push_back(parse_csv(text));
    if (tables.back().empty()) continue;
    for (const auto& h : tables.back().front())
      if (column.emplace(h, header.size()).second) header.push_back(h);
  }
  std::string out;
  for (std::size_t i = 0; i < header.size(); ++i) out += (i ? "," : "") + csv_cell(header[i]);
  out += "\n";
  for (std::size_t b = 0; b < boards.size(); ++b) {
    const auto& table = tables[b];
    if (table.empty()) continue;
    const auto& own = table.front();
    for (std::size_t r = 1; r < table.size(); ++r) {
      std::vector<std::string> cells(header.size());
      cells[0] = boards[b].first;
      for (std::size_t c = 0; c < own.size() && c < table[r].size(); ++c) cells[column.at(own[c])] = table[r][c];
      for (std::size_t i = 0; i < cells.size(); ++i) out += (i ? "," : "") + csv_cell(cells[i]);
      out += "\n";
    }
  }
  return out;
}

}  // namespace jetperf::client
