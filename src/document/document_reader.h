// SPDX-License-Identifier: MIT
#pragma once
// DocumentReader: members of a saved document looked up by path and checked for their type,
// the first problem kept as the error (naming the path). Shared by the files of document/,
// each of which reads one part of a run's document (docs/json.md).
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "json/json_value.h"
#include "stats/histogram.h"
#include "stats/histogram_v2.h"

namespace hammer {

class DocumentReader {
 public:
  explicit DocumentReader(const JsonValue& root) : root_(root) {}

  const std::string& error() const { return error_; }
  bool failed() const { return !error_.empty(); }

  const JsonValue* at(const JsonValue* node, std::initializer_list<std::string_view> path) {
    return node == nullptr ? nullptr : node->at(path);
  }
  const JsonValue* at(std::initializer_list<std::string_view> path) { return root_.at(path); }
  const JsonValue* root() const { return &root_; }

  std::string path_text(std::string_view base, std::initializer_list<std::string_view> path) {
    std::string text(base);
    for (std::string_view step : path) {
      if (!text.empty()) text += '.';
      text += step;
    }
    return text;
  }

  void fail(std::string message) {
    if (error_.empty()) error_ = std::move(message);
  }

  int64_t integer(const JsonValue* base, std::string_view base_name,
                  std::initializer_list<std::string_view> path) {
    return read_as<int64_t>(base, base_name, path, "an integer",
                   [](const JsonValue& node) { return node.as_int(); });
  }
  int64_t integer(std::initializer_list<std::string_view> path) {
    return integer(&root_, "", path);
  }
  /// A number under `base` (named `base_name` in errors).
  double number(const JsonValue* base, std::string_view base_name,
                std::initializer_list<std::string_view> path) {
    return read_as<double>(base, base_name, path, "a number",
                   [](const JsonValue& node) { return node.as_double(); });
  }
  double number(std::initializer_list<std::string_view> path) { return number(&root_, "", path); }
  /// A number under `base`, or `absent` when the member is null (or missing).
  double number_or_null(const JsonValue* base, std::string_view base_name,
                        std::initializer_list<std::string_view> path, double absent) {
    const JsonValue* node = at(base, path);
    if (node == nullptr || node->is_null()) return absent;
    return number(base, base_name, path);
  }
  /// A boolean under `base`, required.
  bool boolean(const JsonValue* base, std::string_view base_name,
               std::initializer_list<std::string_view> path) {
    const JsonValue* node = at(base, path);
    if (node == nullptr || node->kind != JsonValue::Kind::boolean) {
      fail(path_text(base_name, path) + ": expected true or false");
      return false;
    }
    return node->boolean;
  }
  /// A boolean added within schema 1: false when absent; anything else there is an error.
  bool flag(std::initializer_list<std::string_view> path) {
    const JsonValue* node = at(path);
    if (node == nullptr) return false;
    if (node->kind != JsonValue::Kind::boolean) {
      fail(path_text("", path) + ": expected true or false");
    }
    return node->kind == JsonValue::Kind::boolean && node->boolean;
  }
  std::string text(std::initializer_list<std::string_view> path) {
    const JsonValue* node = at(path);
    if (node == nullptr || !node->is_string()) {
      fail(path_text("", path) + ": expected a string");
      return {};
    }
    return node->text;
  }
  Histogram histogram(const JsonValue* node, const std::string& name,
                      const std::string& key = "hdr") {
    const JsonValue* hdr = node ? node->find(key) : nullptr;
    if (hdr == nullptr || !hdr->is_string()) {
      fail(name + "." + key + ": expected an HdrHistogram V2 string");
      return Histogram();
    }
    auto decoded = decode_v2_base64(hdr->text);
    if (!decoded) {
      fail(name + "." + key + ": " + decoded.error());
      return Histogram();
    }
    return std::move(*decoded);
  }

 private:
  // The member at `path` under `base` as `as` reads it; 0, and the reader failed naming the
  // member and `expected`, when it is missing or of another type.
  template <typename T, typename As>
  T read_as(const JsonValue* base, std::string_view base_name,
            std::initializer_list<std::string_view> path, const char* expected, As as) {
    const JsonValue* node = at(base, path);
    const std::optional<T> value = node ? as(*node) : std::nullopt;
    if (!value) fail(path_text(base_name, path) + ": expected " + expected);
    return value.value_or(T{});
  }

  const JsonValue& root_;
  std::string error_;
};

}  // namespace hammer
