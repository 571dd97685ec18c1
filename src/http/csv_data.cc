// SPDX-License-Identifier: MIT
// RFC 4180 reading for --data. Runs once at setup; favours plain code and exact positions in
// its messages over speed.
#include "http/csv_data.h"

#include <algorithm>

#include "platform/files.h"

namespace hammer {
namespace {

std::string where(std::string_view label, int64_t line, int64_t column) {
  return std::string(label) + ":" + std::to_string(line) + ":" + std::to_string(column) + ": ";
}

}  // namespace

int32_t CsvData::column_of(std::string_view name) const {
  for (size_t k = 0; k < columns.size(); ++k) {
    if (columns[k] == name) return static_cast<int32_t>(k);
  }
  return -1;
}

std::string CsvData::quoted_columns() const {
  std::string list;
  for (const std::string& column : columns) list += (list.empty() ? "'" : ", '") + column + "'";
  return list;
}

size_t CsvData::widest(int32_t column) const {
  size_t widest = 0;
  for (const auto& row : rows) widest = std::max(widest, row[static_cast<size_t>(column)].size());
  return widest;
}

Expected<CsvData, std::string> parse_csv(std::string_view text, std::string_view label) {
  CsvData data;
  std::vector<std::string> record;
  std::string field;
  int64_t line = 1;
  int64_t column = 1;
  int64_t record_line = 1;
  size_t k = 0;
  // A spreadsheet's "CSV UTF-8" export starts with a byte order mark; left in, it would be
  // part of the first column's name, and {{csv id}} would miss "\xEF\xBB\xBFid".
  if (text.substr(0, 3) == "\xEF\xBB\xBF") k = 3;
  bool header_done = false;
  // One record per iteration; `k` walks the text.
  while (k < text.size()) {
    record.clear();
    record_line = line;
    bool end_of_record = false;
    while (!end_of_record) {
      field.clear();
      if (k < text.size() && text[k] == '"') {
        const int64_t quote_line = line;
        const int64_t quote_column = column;
        ++k;
        ++column;
        bool closed = false;
        while (k < text.size()) {
          const char c = text[k];
          if (c == '"') {
            if (k + 1 < text.size() && text[k + 1] == '"') {
              field += '"';
              k += 2;
              column += 2;
              continue;
            }
            ++k;
            ++column;
            closed = true;
            break;
          }
          field += c;
          ++k;
          if (c == '\n') {
            ++line;
            column = 1;
          } else {
            ++column;
          }
        }
        if (!closed) {
          return unexpected(where(label, quote_line, quote_column) +
                            "unterminated quote: this quoted field has no closing '\"'");
        }
        if (k < text.size() && text[k] != ',' && text[k] != '\n' && text[k] != '\r') {
          return unexpected(where(label, line, column) +
                            "expected ',' or the end of the line after a quoted field");
        }
      } else {
        while (k < text.size() && text[k] != ',' && text[k] != '\n' && text[k] != '\r') {
          if (text[k] == '"') {
            return unexpected(where(label, line, column) +
                              "'\"' inside an unquoted field; quote the whole field and write \"\"");
          }
          field += text[k];
          ++k;
          ++column;
        }
      }
      record.push_back(field);
      if (k < text.size() && text[k] == ',') {
        ++k;
        ++column;
        continue;
      }
      // The end of the record: CRLF, LF, a lone CR, or the end of the text.
      if (k < text.size() && text[k] == '\r') ++k;
      if (k < text.size() && text[k] == '\n') ++k;
      ++line;
      column = 1;
      end_of_record = true;
    }
    if (record.size() == 1 && record[0].empty()) continue;  // an empty line
    if (!header_done) {
      for (size_t c = 0; c < record.size(); ++c) {
        if (record[c].empty()) {
          return unexpected(where(label, record_line, 1) + "column " + std::to_string(c + 1) +
                            " of the header row has no name");
        }
        for (size_t d = 0; d < c; ++d) {
          if (record[d] == record[c]) {
            return unexpected(where(label, record_line, 1) + "column name '" + record[c] +
                              "' is given twice in the header row");
          }
        }
      }
      data.columns = record;
      header_done = true;
      continue;
    }
    if (record.size() != data.columns.size()) {
      return unexpected(where(label, record_line, 1) + "this row has " +
                        std::to_string(record.size()) + " fields; the header row names " +
                        std::to_string(data.columns.size()) + " columns");
    }
    data.rows.push_back(record);
    data.row_lines.push_back(record_line);
  }
  if (!header_done) return unexpected(std::string(label) + ": empty file; expected a header row");
  if (data.rows.empty()) {
    return unexpected(std::string(label) + ": no rows after the header row");
  }
  return data;
}

Expected<CsvData, std::string> load_csv(const std::string& path) {
  auto text = read_bounded_file(path, kMaxDataFileBytes, "64 MB");
  if (!text) return unexpected(path + ": " + text.error());
  return parse_csv(*text, path);
}

}  // namespace hammer
