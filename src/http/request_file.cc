// SPDX-License-Identifier: MIT
// The --requests file reader. Runs once at start-up, so it reads the whole file, checks every
// line and returns plain data; run/ serializes the lines once before the run (design: the hot
// path only writes bytes that already exist).
#include "http/request_file.h"

#include <cerrno>
#include <cstring>
#include <optional>

#include "core/escaped.h"
#include "http/http_chars.h"
#include "http/request.h"
#include "http/request_template.h"
#include "json/json_value.h"
#include "platform/files.h"

namespace hammer {
namespace {

constexpr std::string_view kMemberList = "path, method, headers, body, body_file, name";

using http_chars::names_equal;

std::string_view header_name(std::string_view line) { return line.substr(0, line.find(':')); }

std::string_view header_value(std::string_view line) {
  const size_t colon = line.find(':');
  std::string_view value = colon == std::string_view::npos ? std::string_view() : line.substr(colon + 1);
  while (!value.empty() && http_chars::is_space(static_cast<unsigned char>(value.front()))) {
    value.remove_prefix(1);
  }
  while (!value.empty() && http_chars::is_space(static_cast<unsigned char>(value.back()))) {
    value.remove_suffix(1);
  }
  return value;
}

// A body framed by chunked transfer coding: size lines, data, the last chunk, trailers.
bool well_formed_chunks(std::string_view body) {
  size_t pos = 0;
  for (;;) {
    const size_t start = pos;
    uint64_t size = 0;
    while (pos < body.size()) {
      const char c = body[pos];
      int digit = -1;
      if (c >= '0' && c <= '9') digit = c - '0';
      if (c >= 'a' && c <= 'f') digit = c - 'a' + 10;
      if (c >= 'A' && c <= 'F') digit = c - 'A' + 10;
      if (digit < 0) break;
      if (size > (UINT64_MAX >> 4)) return false;
      size = size * 16 + static_cast<uint64_t>(digit);
      ++pos;
    }
    if (pos == start) return false;
    const size_t line_end = body.find("\r\n", pos);  // chunk extensions are skipped
    if (line_end == std::string_view::npos) return false;
    pos = line_end + 2;
    if (size == 0) break;
    if (size > body.size() - pos || body.substr(pos + size, 2) != "\r\n") return false;
    pos += size + 2;
  }
  // Trailer fields, then the empty line that ends the message, and nothing after it.
  for (;;) {
    const size_t line_end = body.find("\r\n", pos);
    if (line_end == std::string_view::npos) return false;
    if (line_end == pos) return pos + 2 == body.size();
    pos = line_end + 2;
  }
}

struct LineError {
  std::string reason;
};

Expected<std::string, std::string> read_file_or_say_why(const std::string& path,
                                                        int64_t limit) {
  auto contents = read_whole_file(path, limit);
  if (contents) return std::move(*contents);
  if (contents.error() == EFBIG) return unexpected(quoted(path) + " is larger than the 64MB limit");
  return unexpected("cannot read " + quoted(path) + ": " + std::strerror(contents.error()));
}

constexpr std::string_view kJsonLinesHint =
    "; --requests takes JSON Lines: one whole object per line, ";

class LineReader {
 public:
  LineReader(std::string_view base_dir, const RequestDefaults& defaults, int64_t* body_bytes)
      : base_dir_(base_dir), defaults_(defaults), body_bytes_(body_bytes) {}

  Expected<RequestLine, std::string> read(std::string_view text, int64_t line_number) {
    // hammer's one strict reader: a member given twice ("path" twice: which one was meant?)
    // is refused there, named with its column.
    auto parsed = parse_json(text);
    if (!parsed) {
      // A JSON array, or an object spread over lines (an editor's or jq's default layout).
      std::string_view trimmed = text;
      trimmed.remove_prefix(std::min(trimmed.find_first_not_of(" \t"), trimmed.size()));
      trimmed = trimmed.substr(0, trimmed.find_last_not_of(" \t\r") + 1);
      const std::string_view form = trimmed.starts_with('[') ? "not a JSON array"
                                    : trimmed == "{"         ? "not one spread over lines"
                                                             : "";
      return unexpected("bad JSON: " + parsed.error() +
                        (form.empty() ? "" : std::string(kJsonLinesHint) + std::string(form)));
    }
    if (parsed->kind != JsonValue::Kind::object) {
      return unexpected("expected a JSON object ({\"path\": \"/...\"}), found " +
                        std::string(json_kind_name(parsed->kind)) +
                        (parsed->kind == JsonValue::Kind::array
                             ? std::string(kJsonLinesHint) + "not a JSON array"
                             : std::string()));
    }
    RequestLine line;
    line.line_number = line_number;
    line.method = defaults_.method;
    bool has_path = false;
    bool has_body = false;
    bool has_body_file = false;
    bool has_name = false;
    std::vector<std::string> own_headers;
    auto given = [&](std::string_view member) {
      return parsed->find(member) != nullptr;
    };
    if (given("body") && given("body_file")) {
      return unexpected(std::string("'body' and 'body_file' are both given; give one"));
    }
    for (const auto& [name, value] : parsed->members) {
      if (name == "headers") {
        if (value.kind != JsonValue::Kind::object) {
          return unexpected("'headers' must be an object of strings, found " +
                            std::string(json_kind_name(value.kind)));
        }
        if (auto failure = read_headers(value, own_headers)) return unexpected(*failure);
        continue;
      }
      if (name != "path" && name != "method" && name != "body" && name != "body_file" &&
          name != "name") {
        return unexpected("unknown member " + quoted(name) + " (members: " +
                          std::string(kMemberList) + ")");
      }
      if (value.kind != JsonValue::Kind::string) {
        return unexpected(quoted(name) + " must be a string, found " +
                          std::string(json_kind_name(value.kind)));
      }
      if (name == "path") {
        if (auto failure = check_path(value.text)) return unexpected(*failure);
        line.path = value.text;
        has_path = true;
      } else if (name == "method") {
        if (auto method = validate_method(value.text); !method) {
          return unexpected("method " + quoted(value.text) + ": " + method.error());
        }
        line.method = value.text;
      } else if (name == "body") {
        line.body = value.text;
        has_body = true;
      } else if (name == "body_file") {
        auto body = read_body_file(value.text);
        if (!body) return unexpected(body.error());
        line.body = std::move(*body);
        has_body_file = true;
      } else {  // name
        if (value.text.empty()) return unexpected(std::string("'name' is empty"));
        if (auto failure = check_name(value.text)) return unexpected(*failure);
        line.name = value.text;
        has_name = true;
      }
    }
    if (!has_path) return unexpected(std::string("missing member 'path' (e.g. {\"path\": \"/\"})"));
    if (!has_body && !has_body_file) line.body = defaults_.body;
    if (!has_name) line.name = line.path;
    *body_bytes_ += static_cast<int64_t>(line.body.size());
    if (*body_bytes_ > kMaxRequestFileBytes) {
      return unexpected(std::string("the bodies add up to more than the 64MB limit"));
    }

    // -H defaults first, less those the line replaces (by name, case-insensitively).
    for (const std::string& header : defaults_.headers) {
      bool replaced = false;
      for (const std::string& own : own_headers) {
        replaced = replaced || names_equal(header_name(header), header_name(own));
      }
      if (!replaced) line.headers.push_back(header);
    }
    line.headers.insert(line.headers.end(), own_headers.begin(), own_headers.end());
    if (std::string problem = framing_problem(line.headers, line.body); !problem.empty()) {
      return unexpected(problem);
    }
    return line;
  }

 private:
  static std::optional<std::string> check_path(std::string_view path) {
    if (path.empty() || path.front() != '/') {
      return "path must start with '/', got " + quoted(path);
    }
    for (size_t k = 0; k < path.size(); ++k) {
      k = placeholder_end(path, k);  // {{csv key}}: its space is not the path's
      if (k >= path.size()) break;
      const char ch = path[k];
      const auto c = static_cast<unsigned char>(ch);
      if (c <= 0x20 || c >= 0x7f) {
        return "path " + quoted(path) + " contains " +
               (c == ' ' ? std::string("a space") : "byte " + quoted(std::string(1, ch))) +
               "; percent-encode it (e.g. %20)";
      }
    }
    return std::nullopt;
  }

  static std::optional<std::string> check_name(std::string_view name) {
    for (char ch : name) {
      const auto c = static_cast<unsigned char>(ch);
      if (c < 0x20 || c == 0x7f) return "'name' " + quoted(name) + " contains a control character";
    }
    return std::nullopt;
  }

  static std::optional<std::string> read_headers(const JsonValue& object,
                                                 std::vector<std::string>& out) {
    for (size_t k = 0; k < object.members.size(); ++k) {
      const auto& [name, value] = object.members[k];
      if (value.kind != JsonValue::Kind::string) {
        return "header " + quoted(name) + " must have a string value, found " +
               std::string(json_kind_name(value.kind));
      }
      for (size_t j = 0; j < k; ++j) {
        if (names_equal(object.members[j].key, name)) {
          return "header " + quoted(name) + " is given twice";
        }
      }
      const std::string line = name + ": " + value.text;
      auto field = validate_header(line);
      if (!field || field->name != name) {
        return "header " + quoted(name) + ": " +
               (field ? std::string("header name contains ':'") : field.error());
      }
      out.push_back(normalised_header(*field));
    }
    return std::nullopt;
  }

  Expected<std::string, std::string> read_body_file(const std::string& path) const {
    if (path.empty()) return unexpected(std::string("'body_file' is empty"));
    const std::string full =
        (path.front() == '/' || base_dir_.empty()) ? path : std::string(base_dir_) + "/" + path;
    auto contents = read_file_or_say_why(full, kMaxRequestFileBytes);
    if (!contents) return unexpected("body_file: " + contents.error());
    return contents;
  }

  std::string_view base_dir_;
  const RequestDefaults& defaults_;
  int64_t* body_bytes_;
};

}  // namespace

std::string framing_problem(const std::vector<std::string>& headers, std::string_view body) {
  const std::string* content_length = nullptr;
  const std::string* transfer_encoding = nullptr;
  for (const std::string& line : headers) {
    const std::string_view name = header_name(line);
    if (names_equal(name, "content-length")) {
      if (content_length != nullptr) return "Content-Length is given twice";
      content_length = &line;
    } else if (names_equal(name, "transfer-encoding")) {
      if (transfer_encoding != nullptr) return "Transfer-Encoding is given twice";
      transfer_encoding = &line;
    }
  }
  if (content_length != nullptr && transfer_encoding != nullptr) {
    return "Content-Length and Transfer-Encoding are both given; a request has one framing";
  }
  if (content_length != nullptr) {
    const std::string_view value = header_value(*content_length);
    const bool digits = !value.empty() && value.size() <= 18 &&
                        value.find_first_not_of("0123456789") == std::string_view::npos;
    if (!digits) return "Content-Length " + quoted(value) + " is not a whole number";
    if (std::stoll(std::string(value)) != static_cast<long long>(body.size())) {
      return "Content-Length " + std::string(value) + " contradicts the body of " +
             std::to_string(body.size()) + " bytes";
    }
  }
  if (transfer_encoding != nullptr) {
    const std::string_view value = header_value(*transfer_encoding);
    if (!names_equal(value, "chunked")) {
      return "Transfer-Encoding " + quoted(value) +
             " is not supported; give chunked (with a body in chunks) or Content-Length";
    }
    if (!well_formed_chunks(body)) {
      return "Transfer-Encoding chunked, but the body is not well-formed chunks ending in "
             "0\\r\\n\\r\\n";
    }
  }
  return {};
}

Expected<std::vector<RequestLine>, std::string> parse_request_file(
    std::string_view text, std::string_view label, std::string_view base_dir,
    const RequestDefaults& defaults) {
  std::vector<RequestLine> lines;
  int64_t body_bytes = 0;
  LineReader reader(base_dir, defaults, &body_bytes);
  if (text.starts_with("\xEF\xBB\xBF")) {
    return unexpected(std::string(label) + ":1: the file starts with a UTF-8 byte-order mark "
                                           "(EF BB BF); save it as UTF-8 without one");
  }
  int64_t line_number = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    ++line_number;
    const size_t end = text.find('\n', pos);
    std::string_view line = text.substr(pos, end == std::string_view::npos ? end : end - pos);
    pos = end == std::string_view::npos ? text.size() : end + 1;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;  // empty line
    const std::string where = std::string(label) + ":" + std::to_string(line_number) + ": ";
    if (lines.size() == kMaxRequestLines) {
      return unexpected(where + "more than " + std::to_string(kMaxRequestLines) +
                        " requests (the limit of one file)");
    }
    auto request = reader.read(line, line_number);
    if (!request) return unexpected(where + request.error());
    lines.push_back(std::move(*request));
  }
  if (lines.empty()) {
    return unexpected(std::string(label) + ": no requests (every line is empty); one JSON "
                      "object per line, e.g. {\"path\": \"/\"}");
  }
  return lines;
}

Expected<std::vector<RequestLine>, std::string> load_request_file(
    const std::string& path, const RequestDefaults& defaults) {
  auto text = read_file_or_say_why(path, kMaxRequestFileBytes);
  if (!text) return unexpected(text.error());
  const size_t slash = path.rfind('/');
  const std::string base_dir =
      slash == std::string::npos ? std::string() : (slash == 0 ? "/" : path.substr(0, slash));
  return parse_request_file(*text, path, base_dir, defaults);
}

}  // namespace hammer
