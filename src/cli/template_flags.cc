// SPDX-License-Identifier: MIT
// The command line's side of templates: the flags, and naming the place of a template's
// mistake in words the user can find (the file, its line, the column).
#include "cli/template_flags.h"

#include <algorithm>
#include <memory>

#include "http/request_template.h"

namespace hammer {
namespace {

// "column C" of a one-line text, or "line L, column C" inside a body of several lines.
std::string position(std::string_view text, std::string_view problem) {
  // check_template_text says "column C: reason", C counted over the whole text.
  if (problem.rfind("column ", 0) != 0) return std::string(problem);
  const size_t colon = problem.find(':');
  const size_t offset = std::stoul(std::string(problem.substr(7, colon - 7))) - 1;
  const std::string_view before = text.substr(0, offset);
  const size_t lines = static_cast<size_t>(std::count(before.begin(), before.end(), '\n'));
  if (lines == 0) return std::string(problem);
  const size_t line_start = before.rfind('\n') + 1;
  return "line " + std::to_string(lines + 1) + ", column " +
         std::to_string(offset - line_start + 1) + std::string(problem.substr(colon));
}

std::string describe_value_byte(unsigned char c) {
  if (c == '\r') return "a carriage return";
  if (c == '\n') return "a line feed";
  if (c == ' ') return "a space";
  return "control character " + std::to_string(c);
}

// A {{csv}} value that would change the framing where it lands: a line break in a path or a
// header, a space in the request target.
std::optional<std::string> check_csv_values(const TextTemplate& compiled, const CsvData& csv,
                                            const std::string& data_path, bool in_path,
                                            std::string_view where) {
  for (int32_t column : compiled.csv_columns()) {
    for (size_t row = 0; row < csv.rows.size(); ++row) {
      const std::string& value = csv.rows[row][static_cast<size_t>(column)];
      for (size_t k = 0; k < value.size(); ++k) {
        const auto c = static_cast<unsigned char>(value[k]);
        const bool bad = c < 0x20 ? c != '\t' || in_path : c == 0x7f || (in_path && c == ' ');
        if (!bad) continue;
        return data_path + ":" + std::to_string(csv.row_lines[row]) + ": column '" +
               csv.columns[static_cast<size_t>(column)] + "' holds " + describe_value_byte(c) +
               ", which cannot go in " + std::string(where);
      }
    }
  }
  return std::nullopt;
}

std::optional<std::string> check_text(std::string_view text, const TemplateData& data,
                                      const Config& config, bool in_head, bool in_path,
                                      const std::string& where) {
  if (!is_template(text)) return std::nullopt;
  if (const std::string problem = check_template_text(text, data); !problem.empty()) {
    return where + " " + position(text, problem);
  }
  if (in_head && data.csv != nullptr) {
    auto compiled = TextTemplate::compile(text, data);
    if (auto bad = check_csv_values(*compiled, *data.csv, config.data_path, in_path, where)) {
      return bad;
    }
  }
  return std::nullopt;
}

// True when `test` holds for some text a request is made of: the URL's path, a header, the
// body (a text one: a binary body is never a template), or those of each --requests line.
template <class Test>
bool any_request_text(const Config& config, Test&& test) {
  const auto body = [&](std::string_view text) { return body_is_text(text) && test(text); };
  if (config.requests.empty()) {
    if (test(config.target.path) || body(config.body)) return true;
    for (const std::string& header : config.headers) {
      if (test(header)) return true;
    }
    return false;
  }
  for (const RequestLine& line : config.requests) {
    if (test(line.path) || body(line.body)) return true;
    for (const std::string& header : line.headers) {
      if (test(header)) return true;
    }
  }
  return false;
}

bool any_placeholder(const Config& config) {
  return any_request_text(config, [](std::string_view text) { return is_template(text); });
}

// Some {{csv NAME}} reads --data (every text already checked: each compiles).
bool any_csv_field(const Config& config, const TemplateData& data) {
  return any_request_text(config, [&](std::string_view text) {
    if (!is_template(text)) return false;
    auto compiled = TextTemplate::compile(text, data);
    return compiled && compiled->uses_csv();
  });
}

// --data given and no {{csv NAME}} reading it: the file would be loaded and silently ignored.
std::optional<std::string> unread_data(const Config& config, const TemplateData& data) {
  if (data.csv == nullptr || any_csv_field(config, data)) return std::nullopt;
  return "--data: " + config.data_path + ": no {{csv NAME}} placeholder reads it (its columns: " +
         data.csv->quoted_columns() + "); use one in the URL, a header or the body, or drop --data";
}

}  // namespace

std::optional<UsageError> parse_data_order(std::string_view flag, std::string_view value,
                                           DataOrder& order) {
  if (value == "sequential") {
    order = DataOrder::sequential;
  } else if (value == "random") {
    order = DataOrder::random;
  } else {
    return flag_error(flag, "expected sequential or random", value);
  }
  return std::nullopt;
}

std::optional<std::string> check_templates(const Config& config) {
  std::unique_ptr<CsvData> csv;
  if (!config.data_path.empty()) {
    auto loaded = load_csv(config.data_path);
    if (!loaded) return "--data: " + loaded.error();
    csv = std::make_unique<CsvData>(std::move(*loaded));
  }
  TemplateData data;
  data.csv = csv.get();
  data.order = config.data_order;
  data.seed = config.arrival.seed;
  if (config.http2 && any_placeholder(config)) {
    return std::string("--http2: placeholders ({{seq}}, {{csv NAME}} ...) are sent over HTTP/1.1 "
                       "only for now; drop --http2 or the placeholders");
  }
  if (config.requests.empty()) {
    if (auto bad = check_text(config.target.path, data, config, true, true, "URL path")) return bad;
    for (const std::string& header : config.headers) {
      if (auto bad = check_text(header, data, config, true, false, "--header '" + header + "'")) {
        return bad;
      }
    }
    const std::string body_label =
        config.body_path.empty() ? std::string("--body") : "--body " + config.body_path + ":";
    if (body_is_text(config.body)) {
      if (auto bad = check_text(config.body, data, config, false, false, body_label)) return bad;
    }
    return unread_data(config, data);
  }
  for (const RequestLine& line : config.requests) {
    const std::string at = "--requests " + config.requests_path + ":" +
                           std::to_string(line.line_number) + ":";
    if (auto bad = check_text(line.path, data, config, true, true, at + " path")) return bad;
    for (const std::string& header : line.headers) {
      const std::string name = header.substr(0, header.find(':'));
      if (auto bad = check_text(header, data, config, true, false, at + " header " + name)) {
        return bad;
      }
    }
    if (body_is_text(line.body)) {
      if (auto bad = check_text(line.body, data, config, false, false, at + " body")) return bad;
    }
  }
  return unread_data(config, data);
}

}  // namespace hammer
