// SPDX-License-Identifier: MIT
#include "http2/request_block.h"

#include <array>
#include <cctype>
#include <vector>

namespace hammer::http2 {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool connection_specific(std::string_view name, std::string_view value) {
  static constexpr std::array<std::string_view, 5> kForbidden = {
      "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade"};
  for (const std::string_view forbidden : kForbidden) {
    if (name == forbidden) return true;
  }
  return name == "te" && lower(value) != "trailers";
}

bool method_defines_a_body(std::string_view method) {
  return method == "POST" || method == "PUT" || method == "PATCH";
}

}  // namespace

std::vector<std::string> connection_specific_names(const std::vector<std::string>& headers) {
  std::vector<std::string> names;
  for (const std::string& line : headers) {
    const auto parsed = validate_header(line);
    if (!parsed.has_value() || !connection_specific(lower(parsed.value().name), parsed.value().value)) {
      continue;
    }
    const std::string name(parsed.value().name);
    bool seen = false;
    for (const std::string& known : names) seen = seen || lower(known) == lower(name);
    if (!seen) names.push_back(name);
  }
  return names;
}

std::string encode_request_block(const RequestSpec& spec, bool https, HpackEncodeOptions options) {
  std::string authority = spec.host_header;
  bool has_content_length = false;
  std::vector<std::pair<std::string, std::string_view>> fields;
  for (const std::string& line : spec.headers) {
    const auto parsed = validate_header(line);
    if (!parsed.has_value()) continue;  // -H lines are validated at option parsing
    std::string name = lower(parsed.value().name);
    const std::string_view value = parsed.value().value;
    if (name == "host") {
      authority = std::string(value);
      continue;
    }
    if (connection_specific(name, value)) continue;
    if (name == "content-length") has_content_length = true;
    fields.emplace_back(std::move(name), value);
  }
  std::string block;
  hpack_encode_field(block, ":method", spec.method, options);
  hpack_encode_field(block, ":scheme", https ? "https" : "http", options);
  hpack_encode_field(block, ":authority", authority, options);
  hpack_encode_field(block, ":path", spec.path, options);
  for (const auto& [name, value] : fields) hpack_encode_field(block, name, value, options);
  if (!has_content_length && (!spec.body.empty() || method_defines_a_body(spec.method))) {
    hpack_encode_field(block, "content-length", std::to_string(spec.body.size()), options);
  }
  return block;
}

}  // namespace hammer::http2
