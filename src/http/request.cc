// SPDX-License-Identifier: MIT
// Request serialization and -H validation. Serialization runs once per run, so it favours
// plainness over speed; validation rejects anything that would change the framing of what is
// sent (a CR or LF smuggles in another header or a second request).
#include "http/request.h"

#include <cstdio>

#include "http/http_chars.h"
#include "http/request_file.h"

namespace hammer {
namespace {

using http_chars::names_equal;

bool has_header(const std::vector<std::string>& headers, std::string_view name) {
  for (const std::string& line : headers) {
    const size_t colon = line.find(':');
    if (colon != std::string::npos && names_equal(std::string_view(line).substr(0, colon), name)) {
      return true;
    }
  }
  return false;
}

std::string describe_byte(unsigned char c) {
  if (c == '\r') return "a carriage return (CR)";
  if (c == '\n') return "a line feed (LF)";
  char text[32];
  if (c < 0x20 || c == 0x7f) {
    std::snprintf(text, sizeof text, "control character 0x%02X", c);
  } else {
    std::snprintf(text, sizeof text, "'%c'", c);
  }
  return text;
}

// Methods whose requests carry a body by definition: an empty one is still announced.
bool method_expects_body(Method method) {
  return method == Method::post || method == Method::put || method == Method::patch;
}

}  // namespace

Method method_of(std::string_view name) {
  struct Named {
    std::string_view name;
    Method method;
  };
  static constexpr Named kNamed[] = {
      {"GET", Method::get},         {"HEAD", Method::head},       {"POST", Method::post},
      {"PUT", Method::put},         {"DELETE", Method::delete_},  {"OPTIONS", Method::options},
      {"TRACE", Method::trace},     {"PATCH", Method::patch},     {"CONNECT", Method::connect},
  };
  for (const Named& named : kNamed) {
    if (named.name == name) return named.method;
  }
  return Method::other;
}

bool is_idempotent(Method method) {
  switch (method) {
    case Method::get:
    case Method::head:
    case Method::put:
    case Method::delete_:
    case Method::options:
    case Method::trace:
      return true;
    case Method::post:
    case Method::patch:
    case Method::connect:
    case Method::other:
      return false;
  }
  return false;
}

std::string serialize_request_head(const RequestSpec& spec) {
  std::string out;
  out.reserve(128 + spec.path.size());
  out += spec.method;
  out += ' ';
  out += spec.path;
  out += " HTTP/1.1\r\n";
  if (!has_header(spec.headers, "host")) {
    out += "Host: ";
    out += spec.host_header;
    out += "\r\n";
  }
  for (const std::string& line : spec.headers) {
    out += line;
    out += "\r\n";
  }
  if ((!spec.body.empty() || method_expects_body(method_of(spec.method))) &&
      !has_header(spec.headers, "content-length") &&
      !has_header(spec.headers, "transfer-encoding")) {
    out += "Content-Length: ";
    out += std::to_string(spec.body.size());
    out += "\r\n";
  }
  if (!spec.keep_alive && !has_header(spec.headers, "connection")) out += "Connection: close\r\n";
  out += "\r\n";
  return out;
}

std::string serialize_request(const RequestSpec& spec) {
  std::string out = serialize_request_head(spec);
  out += spec.body;
  return out;
}

ConnectionOption connection_option(const std::vector<std::string>& headers) {
  bool keep_alive = false;
  for (const std::string& line : headers) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos ||
        !names_equal(std::string_view(line).substr(0, colon), "connection")) {
      continue;
    }
    std::string_view options = std::string_view(line).substr(colon + 1);
    for (;;) {
      const size_t comma = options.find(',');
      std::string_view option = options.substr(0, comma);
      while (!option.empty() && http_chars::is_space(static_cast<unsigned char>(option.front()))) {
        option.remove_prefix(1);
      }
      while (!option.empty() && http_chars::is_space(static_cast<unsigned char>(option.back()))) {
        option.remove_suffix(1);
      }
      if (names_equal(option, "close")) return ConnectionOption::close;
      keep_alive = keep_alive || names_equal(option, "keep-alive");
      if (comma == std::string_view::npos) break;
      options.remove_prefix(comma + 1);
    }
  }
  return keep_alive ? ConnectionOption::keep_alive : ConnectionOption::none;
}

std::string request_header_problem(const std::vector<std::string>& headers,
                                   std::string_view body) {
  int hosts = 0;
  for (const std::string& line : headers) {
    const size_t colon = line.find(':');
    if (colon != std::string::npos && names_equal(std::string_view(line).substr(0, colon), "host")) {
      ++hosts;
    }
  }
  if (hosts > 1) return "Host is given twice; a request has one Host";
  return framing_problem(headers, body);
}

Expected<HeaderField, std::string> validate_header(std::string_view line) {
  size_t k = 0;
  while (k < line.size() && http_chars::kTokenChar[static_cast<unsigned char>(line[k])]) ++k;
  if (k == line.size()) {
    return unexpected(std::string("expected 'Name: value', found no ':'"));
  }
  if (line[k] != ':') {
    const auto c = static_cast<unsigned char>(line[k]);
    if ((c == ' ' || c == '\t') && k == 0) {
      return unexpected(std::string("whitespace before the header name"));
    }
    if ((c == ' ' || c == '\t') && line.find(':') != std::string_view::npos) {
      return unexpected(std::string("whitespace between the header name and ':'"));
    }
    if (line.find(':') == std::string_view::npos) {
      return unexpected(std::string("expected 'Name: value', found no ':'"));
    }
    return unexpected("header name contains " + describe_byte(c) +
                      ", which is not allowed in a header name");
  }
  if (k == 0) return unexpected(std::string("empty header name before ':'"));
  HeaderField field;
  field.name = line.substr(0, k);
  std::string_view value = line.substr(k + 1);
  for (char ch : value) {
    const auto c = static_cast<unsigned char>(ch);
    if (!http_chars::kValueChar[c]) {
      return unexpected("header value contains " + describe_byte(c));
    }
  }
  while (!value.empty() && http_chars::is_space(static_cast<unsigned char>(value.front()))) {
    value.remove_prefix(1);
  }
  while (!value.empty() && http_chars::is_space(static_cast<unsigned char>(value.back()))) {
    value.remove_suffix(1);
  }
  field.value = value;
  return field;
}

std::string normalised_header(const HeaderField& field) {
  std::string header(field.name);
  header += ':';
  if (!field.value.empty()) {
    header += ' ';
    header += field.value;
  }
  return header;
}

Expected<std::string_view, std::string> validate_method(std::string_view method) {
  if (method.empty()) return unexpected(std::string("empty method"));
  for (char ch : method) {
    const auto c = static_cast<unsigned char>(ch);
    if (!http_chars::kTokenChar[c]) {
      return unexpected("method contains " + describe_byte(c) +
                        ", which is not allowed in a method");
    }
  }
  // Methods are case-sensitive (RFC 9110 9.1): "post" is not POST, and servers refuse it.
  static constexpr std::string_view kStandard[] = {"GET",  "HEAD",    "POST",  "PUT",  "DELETE",
                                                   "CONNECT", "OPTIONS", "TRACE", "PATCH"};
  for (std::string_view standard : kStandard) {
    if (method != standard && names_equal(method, standard)) {
      return unexpected("methods are case-sensitive: servers refuse '" + std::string(method) +
                        "' (400 or 501); write " + std::string(standard));
    }
  }
  return method;
}

}  // namespace hammer
