// SPDX-License-Identifier: MIT
// `tls` read back (docs/json.md): what report/tls_report.cc wrote from RunResult::tls and the
// handshake-time histogram, so a saved https:// run prints its TLS lines again and merges.
#include "document/document_sections.h"

namespace hammer {
namespace {

// A string member that is null when there is nothing to say (no handshake succeeded).
std::string text_or_empty(DocumentReader& reader, const JsonValue& tls, std::string_view name) {
  const JsonValue* node = tls.find(name);
  if (node == nullptr || node->is_null()) return {};
  if (!node->is_string()) reader.fail("tls." + std::string(name) + ": expected a string or null");
  return node->is_string() ? node->text : std::string();
}

}  // namespace

void read_tls_section(DocumentReader& reader, RunResult& result) {
  const JsonValue* tls = reader.at({"tls"});
  if (tls == nullptr || tls->is_null()) return;
  if (!tls->is_object()) {
    reader.fail("tls: expected an object or null");
    return;
  }
  TlsSummary& out = result.tls;
  out.used = true;
  out.version = text_or_empty(reader, *tls, "version");
  out.cipher = text_or_empty(reader, *tls, "cipher");
  out.alpn = text_or_empty(reader, *tls, "alpn");
  out.first_error = text_or_empty(reader, *tls, "first_error");
  const JsonValue* verify = tls->find("verify");
  if (verify == nullptr || verify->kind != JsonValue::Kind::boolean) {
    reader.fail("tls.verify: expected true or false");
    return;
  }
  out.verified = verify->boolean;
  out.full_handshakes = reader.integer(tls, "tls", {"handshakes", "full"});
  out.resumed_handshakes = reader.integer(tls, "tls", {"handshakes", "resumed"});
  result.handshake_time = reader.histogram(tls->find("handshake_time"), "tls.handshake_time");
}

}  // namespace hammer
