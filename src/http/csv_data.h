// SPDX-License-Identifier: MIT
#pragma once
// --data FILE.csv: the values {{csv NAME}} placeholders take (http/request_template.h). RFC 4180:
// fields separated by commas, records by CRLF or LF, a field in double quotes may hold commas,
// line breaks and "" for a quote. The first record names the columns. Parsed once at setup;
// the rows are then read-only for the whole run.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.h"

namespace hammer {

/// Largest --data file: it is held in memory for the whole run.
inline constexpr int64_t kMaxDataFileBytes = 64 * 1024 * 1024;

struct CsvData {
  std::vector<std::string> columns;             // the header row
  std::vector<std::vector<std::string>> rows;   // every row has columns.size() fields
  std::vector<int64_t> row_lines;               // the file line each row starts on (1-based)

  /// The column named exactly `name`, or -1.
  int32_t column_of(std::string_view name) const;
  /// The header's names for a message, each quoted (a name may hold a comma or a space):
  /// 'id', 'name'.
  std::string quoted_columns() const;
  /// The longest value of column `column`, in bytes.
  size_t widest(int32_t column) const;
};

/// Parses a whole file's text. `label` names the file in messages; an error is one line,
/// "LABEL:LINE:COLUMN: reason" (an unterminated quote, a row with too many or too few fields,
/// a quote inside an unquoted field, an empty or repeated column name, no rows).
Expected<CsvData, std::string> parse_csv(std::string_view text, std::string_view label);

/// Reads `path` and parses it as above.
Expected<CsvData, std::string> load_csv(const std::string& path);

}  // namespace hammer
