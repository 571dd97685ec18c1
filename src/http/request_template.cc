// SPDX-License-Identifier: MIT
// Compiling templates (once, at setup: plain code, errors in words) and rendering them (per
// request: fixed-size writes into a buffer sized at setup, no allocation).
#include "http/request_template.h"

#include <charconv>
#include <cstring>

#include "core/utf8.h"
#include "http/http_chars.h"

namespace hammer {
namespace {

constexpr size_t kNumberBytes = 20;  // an int64 in decimal, sign included
constexpr size_t kUuidBytes = 36;

// splitmix64: a good 64-bit mix, so a value is a pure function of (seed, slot, field).
uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

uint64_t draw(uint64_t seed, int64_t seq, uint64_t salt) {
  return mix(mix(seed ^ mix(static_cast<uint64_t>(seq))) ^ salt);
}

size_t decimal_width(int64_t value) {
  char text[kNumberBytes];
  return static_cast<size_t>(std::to_chars(text, text + sizeof text, value).ptr - text);
}

size_t put_number(int64_t value, char* out) {
  return static_cast<size_t>(std::to_chars(out, out + kNumberBytes, value).ptr - out);
}

std::vector<std::string_view> words_of(std::string_view inside) {
  std::vector<std::string_view> words;
  size_t k = 0;
  while (k < inside.size()) {
    while (k < inside.size() && (inside[k] == ' ' || inside[k] == '\t')) ++k;
    const size_t begin = k;
    while (k < inside.size() && inside[k] != ' ' && inside[k] != '\t') ++k;
    if (k > begin) words.push_back(inside.substr(begin, k - begin));
  }
  return words;
}

bool parse_integer(std::string_view word, int64_t* value) {
  const char* end = word.data() + word.size();
  const auto parsed = std::from_chars(word.data(), end, *value);
  return parsed.ec == std::errc() && parsed.ptr == end;
}

Expected<TemplateField, std::string> parse_field(std::string_view inside, const TemplateData& data,
                                                 bool internal) {
  const std::vector<std::string_view> words = words_of(inside);
  if (words.empty()) return unexpected(std::string("empty placeholder {{}}"));
  const std::string_view name = words[0];
  TemplateField field;
  auto no_arguments = [&](FieldKind kind) -> Expected<TemplateField, std::string> {
    if (words.size() != 1) {
      return unexpected("{{" + std::string(name) + "}} takes no arguments");
    }
    field.kind = kind;
    return field;
  };
  if (name == "seq") return no_arguments(FieldKind::seq);
  if (name == "uuid") return no_arguments(FieldKind::uuid);
  if (name == "intended_ms") return no_arguments(FieldKind::intended_ms);
  if (internal && name == "content_length") return no_arguments(FieldKind::content_length);
  if (name == "random") {
    if (words.size() != 3) {
      return unexpected(std::string("{{random A B}} takes two whole numbers, A <= B"));
    }
    if (!parse_integer(words[1], &field.low) || !parse_integer(words[2], &field.high)) {
      return unexpected("{{random A B}}: expected two whole numbers, got '" +
                        std::string(words[1]) + "' and '" + std::string(words[2]) + "'");
    }
    if (field.low > field.high) {
      return unexpected("{{random A B}}: A (" + std::string(words[1]) + ") is above B (" +
                        std::string(words[2]) + ")");
    }
    field.kind = FieldKind::random;
    return field;
  }
  if (name == "csv") {
    if (words.size() != 2) return unexpected(std::string("{{csv NAME}} takes one column name"));
    if (data.csv == nullptr) {
      return unexpected("{{csv " + std::string(words[1]) + "}} needs --data FILE.csv");
    }
    field.column = data.csv->column_of(words[1]);
    if (field.column < 0) {
      return unexpected("{{csv " + std::string(words[1]) + "}}: --data has no column '" +
                        std::string(words[1]) + "' (its columns: " + data.csv->quoted_columns() +
                        ")");
    }
    field.kind = FieldKind::csv;
    return field;
  }
  return unexpected("unknown placeholder {{" + std::string(name) +
                    "}}; known: seq, random A B, uuid, intended_ms, csv NAME ({{{{ is a "
                    "literal {{)");
}

size_t field_width(const TemplateField& field, const TemplateData& data) {
  switch (field.kind) {
    case FieldKind::seq:
    case FieldKind::intended_ms:
    case FieldKind::content_length:
      return kNumberBytes;
    case FieldKind::random:
      return std::max(decimal_width(field.low), decimal_width(field.high));
    case FieldKind::uuid:
      return kUuidBytes;
    case FieldKind::csv:
      return data.csv->widest(field.column);
  }
  return 0;
}

void put_uuid(uint64_t high, uint64_t low, char* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  uint8_t bytes[16];
  for (int k = 0; k < 8; ++k) {
    bytes[k] = static_cast<uint8_t>(high >> (56 - 8 * k));
    bytes[8 + k] = static_cast<uint8_t>(low >> (56 - 8 * k));
  }
  bytes[6] = static_cast<uint8_t>((bytes[6] & 0x0f) | 0x40);  // version 4 (RFC 9562 §5.4)
  bytes[8] = static_cast<uint8_t>((bytes[8] & 0x3f) | 0x80);  // the variant
  size_t at = 0;
  for (int k = 0; k < 16; ++k) {
    if (k == 4 || k == 6 || k == 8 || k == 10) out[at++] = '-';
    out[at++] = kHex[bytes[k] >> 4];
    out[at++] = kHex[bytes[k] & 0x0f];
  }
}

}  // namespace

size_t placeholder_end(std::string_view text, size_t k) {
  if (text.substr(k, 2) != "{{" || text.substr(k, 4) == "{{{{") return k;
  const size_t close = text.find("}}", k + 2);
  return close == std::string_view::npos ? k : close + 2;
}

bool has_placeholder(std::string_view text) {
  size_t k = 0;
  while ((k = text.find("{{", k)) != std::string_view::npos) {
    if (text.substr(k, 4) == "{{{{") {
      k += 4;
      continue;
    }
    return true;
  }
  return false;
}

bool is_template(std::string_view text) {
  return has_placeholder(text) || text.find("{{{{") != std::string_view::npos;
}

bool body_is_text(std::string_view body) {
  for (size_t i = 0; i < body.size();) {
    const size_t length = body[i] == '\0' ? 0 : utf8_sequence_length(body, i);
    if (length == 0) return false;
    i += length;
  }
  return true;
}

Expected<TextTemplate, TemplateError> TextTemplate::compile(std::string_view text,
                                                            const TemplateData& data,
                                                            bool internal) {
  TextTemplate compiled;
  size_t k = 0;
  size_t literal_begin = 0;
  while (k < text.size()) {
    if (text.substr(k, 4) == "{{{{") {
      compiled.literal_ += "{{";
      k += 4;
      continue;
    }
    if (text.substr(k, 2) != "{{") {
      compiled.literal_ += text[k];
      ++k;
      continue;
    }
    const size_t close = text.find("}}", k + 2);
    if (close == std::string_view::npos) {
      return unexpected(TemplateError{k, "'{{' without a closing '}}' (write {{{{ for a literal {{)"});
    }
    auto field = parse_field(text.substr(k + 2, close - k - 2), data, internal);
    if (!field) return unexpected(TemplateError{k, field.error()});
    field->literal_begin = literal_begin;
    field->literal_end = compiled.literal_.size();
    literal_begin = compiled.literal_.size();
    compiled.max_bytes_ += field_width(*field, data);
    compiled.fields_.push_back(*field);
    k = close + 2;
  }
  compiled.tail_begin_ = literal_begin;
  compiled.max_bytes_ += compiled.literal_.size();
  return compiled;
}

bool TextTemplate::uses_csv() const {
  for (const TemplateField& field : fields_) {
    if (field.kind == FieldKind::csv) return true;
  }
  return false;
}

std::vector<int32_t> TextTemplate::csv_columns() const {
  std::vector<int32_t> columns;
  for (const TemplateField& field : fields_) {
    if (field.kind == FieldKind::csv) columns.push_back(field.column);
  }
  return columns;
}

size_t TextTemplate::render(const TemplateValues& values, const TemplateData& data,
                            uint64_t salt, char* out) const {
  size_t at = 0;
  int64_t row = -1;
  for (size_t k = 0; k < fields_.size(); ++k) {
    const TemplateField& field = fields_[k];
    const size_t fixed = field.literal_end - field.literal_begin;
    std::memcpy(out + at, literal_.data() + field.literal_begin, fixed);
    at += fixed;
    switch (field.kind) {
      case FieldKind::seq:
        at += put_number(values.seq, out + at);
        break;
      case FieldKind::intended_ms:
        at += put_number(values.intended_ms, out + at);
        break;
      case FieldKind::content_length:
        at += put_number(values.content_length, out + at);
        break;
      case FieldKind::random: {
        const uint64_t span = static_cast<uint64_t>(field.high) - static_cast<uint64_t>(field.low);
        const uint64_t drawn = draw(data.seed, values.seq, salt * 1024 + k);
        const uint64_t offset = span == UINT64_MAX ? drawn : drawn % (span + 1);
        at += put_number(static_cast<int64_t>(static_cast<uint64_t>(field.low) + offset), out + at);
        break;
      }
      case FieldKind::uuid:
        put_uuid(draw(data.seed, values.seq, salt * 1024 + k),
                 draw(data.seed, values.seq, salt * 1024 + k + 512), out + at);
        at += kUuidBytes;
        break;
      case FieldKind::csv: {
        if (row < 0) row = template_row(values.seq, data);
        const std::string& value =
            data.csv->rows[static_cast<size_t>(row)][static_cast<size_t>(field.column)];
        std::memcpy(out + at, value.data(), value.size());
        at += value.size();
        break;
      }
    }
  }
  const size_t tail = literal_.size() - tail_begin_;
  std::memcpy(out + at, literal_.data() + tail_begin_, tail);
  return at + tail;
}

int64_t template_row(int64_t seq, const TemplateData& data) {
  const auto rows = static_cast<int64_t>(data.csv->rows.size());
  if (data.order == DataOrder::random) {
    return static_cast<int64_t>(draw(data.seed, seq, 0x5eed) % static_cast<uint64_t>(rows));
  }
  return seq % rows;
}

std::string check_template_text(std::string_view text, const TemplateData& data) {
  auto compiled = TextTemplate::compile(text, data);
  if (compiled) return {};
  return "column " + std::to_string(compiled.error().offset + 1) + ": " + compiled.error().reason;
}

Expected<RequestTemplate, std::string> RequestTemplate::compile(const RequestSpec& spec,
                                                                const TemplateData& data) {
  RequestTemplate compiled;
  // A binary body is no template (body_is_text): it goes out as it is, whatever its bytes.
  auto body = TextTemplate::compile(is_body_template(spec.body) ? spec.body : std::string_view(),
                                    data);
  if (!body) return unexpected("body column " + std::to_string(body.error().offset + 1) + ": " +
                               body.error().reason);
  compiled.body_templated_ = body->has_fields();
  RequestSpec head_spec = spec;
  if (compiled.body_templated_) {
    for (const std::string& line : spec.headers) {
      const size_t colon = line.find(':');
      const std::string_view name = std::string_view(line).substr(0, colon);
      if (http_chars::names_equal(name, "content-length") ||
          http_chars::names_equal(name, "transfer-encoding")) {
        return unexpected(std::string(name) +
                          " with a templated body: hammer sets Content-Length per request");
      }
    }
    head_spec.headers.push_back("Content-Length: {{content_length}}");
    compiled.body_ = std::move(*body);
  }
  // Braces in the serialized head come only from the user's path and headers (checked with
  // check_template_text) and the Content-Length line above.
  auto head = TextTemplate::compile(serialize_request_head(head_spec), data, /*internal=*/true);
  if (!head) return unexpected(head.error().reason);
  compiled.head_ = std::move(*head);
  return compiled;
}

RequestBytes RequestTemplate::render(TemplateValues values, const TemplateData& data,
                                     std::string_view fixed_body, char* out) const {
  std::string_view body = fixed_body;
  if (body_templated_) {
    char* body_out = out + head_.max_bytes();
    const size_t body_bytes = body_.render(values, data, 1, body_out);
    body = std::string_view(body_out, body_bytes);
  }
  values.content_length = static_cast<int64_t>(body.size());
  const size_t head_bytes = head_.render(values, data, 0, out);
  return RequestBytes(std::string_view(out, head_bytes), body);
}

}  // namespace hammer
