// SPDX-License-Identifier: MIT
#pragma once
// Templated requests: {{seq}}, {{random A B}}, {{uuid}}, {{intended_ms}} and {{csv NAME}} in a
// request's path, headers and body (docs/templates.md). A template is compiled once at setup
// into fixed bytes and fields; render() fills one request into a buffer the caller sized with
// max_bytes() at setup, so the hot path writes bytes and never allocates. Every value is a pure
// function of the request's slot (and the seed), so a request sent again after a polite close
// goes out with the same bytes.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/data_order.h"
#include "core/expected.h"
#include "http/csv_data.h"
#include "http/request.h"

namespace hammer {

enum class FieldKind : uint8_t { seq, random, uuid, intended_ms, csv, content_length };

struct TemplateField {
  FieldKind kind = FieldKind::seq;
  int64_t low = 0;     // random: the range, inclusive
  int64_t high = 0;
  int32_t column = 0;  // csv: the column
  size_t literal_begin = 0;  // the fixed bytes before the field: literal_[begin, end)
  size_t literal_end = 0;
};

/// A template's mistake: where in its text (0-based byte offset) and what.
struct TemplateError {
  size_t offset = 0;
  std::string reason;
};

/// What one request's fields are filled from.
struct TemplateValues {
  int64_t seq = 0;          // the request's global slot (open loop) or send number (closed)
  int64_t intended_ms = 0;  // Unix ms of its intended send time (closed loop: actual)
  int64_t content_length = 0;
};

/// Where {{csv}} values come from and which row a request takes.
struct TemplateData {
  const CsvData* csv = nullptr;  // null: no --data
  DataOrder order = DataOrder::sequential;
  uint64_t seed = 0;             // --seed: {{random}}, {{uuid}} and random rows
};

class TextTemplate {
 public:
  /// Compiles `text`. `internal` admits {{content_length}} (hammer's own, for a templated
  /// body's Content-Length); users' text is compiled without it.
  static Expected<TextTemplate, TemplateError> compile(std::string_view text,
                                                       const TemplateData& data,
                                                       bool internal = false);
  bool has_fields() const { return !fields_.empty(); }
  /// The most bytes render() writes.
  size_t max_bytes() const { return max_bytes_; }
  /// True when some field is a {{csv}} one.
  bool uses_csv() const;
  /// The columns its {{csv}} fields read.
  std::vector<int32_t> csv_columns() const;
  /// Fills the template into `out` (max_bytes() long); returns the bytes written. `salt` keeps
  /// two templates of one request from drawing the same random numbers.
  size_t render(const TemplateValues& values, const TemplateData& data, uint64_t salt,
                char* out) const;

 private:
  std::string literal_;  // the fixed bytes, with {{{{ already one {{
  std::vector<TemplateField> fields_;
  size_t tail_begin_ = 0;  // the fixed bytes after the last field
  size_t max_bytes_ = 0;
};

/// A whole request's template: its head (request line, headers, blank line) and body. When
/// the body has fields, the head carries a Content-Length computed per request.
class RequestTemplate {
 public:
  /// `spec` as serialize_request_head() takes it (its path, headers and body may hold
  /// placeholders, already checked by check_template_text). A templated body with a
  /// Content-Length or Transfer-Encoding among the headers is refused (the reason in words).
  static Expected<RequestTemplate, std::string> compile(const RequestSpec& spec,
                                                        const TemplateData& data);
  size_t max_bytes() const { return head_.max_bytes() + body_.max_bytes(); }
  /// Fills one request into `out` (max_bytes() long); the body stays where `fixed_body`
  /// points when it has no fields.
  RequestBytes render(TemplateValues values, const TemplateData& data, std::string_view fixed_body,
                      char* out) const;

 private:
  TextTemplate head_;
  TextTemplate body_;
  bool body_templated_ = false;
};

/// Where the placeholder that opens at `k` ends (just past its "}}"), or `k` when none opens
/// there: the URL and path checks skip a placeholder's words ({{random 1 6}} has spaces).
size_t placeholder_end(std::string_view text, size_t k);

/// True when `text` holds a placeholder (a "{{" that is not "{{{{").
bool has_placeholder(std::string_view text);
/// True when `text` is a template: a placeholder, or a "{{{{" that stands for "{{".
bool is_template(std::string_view text);
/// True when a request body is text (UTF-8 without a NUL byte), the only bodies placeholders
/// are read in: a binary body (an image, random bytes for an upload) is sent byte for byte,
/// though 4 KB of random bytes hold a "{{" one time in sixteen.
bool body_is_text(std::string_view body);
/// is_template for a body: a text body that is a template.
inline bool is_body_template(std::string_view body) {
  return body_is_text(body) && is_template(body);
}

/// Checks `text` as a template; an error names the 1-based column in `text`:
/// "column C: reason".
std::string check_template_text(std::string_view text, const TemplateData& data);

/// The row request `seq` takes: in order, or drawn from the seed.
int64_t template_row(int64_t seq, const TemplateData& data);

}  // namespace hammer
