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

// config.tls: the run's TLS flags (added within schema 1: absent in older documents, which
// keep the defaults). A version it does not know is refused: the flags would be misread.
void read_tls_config(DocumentReader& reader, TlsConfig& out) {
  const JsonValue* tls = reader.at({"config", "tls"});
  if (tls == nullptr || tls->is_null()) return;
  if (!tls->is_object()) {
    reader.fail("config.tls: expected an object or null");
    return;
  }
  const auto flag = [&](std::string_view name, bool& to) {
    const JsonValue* node = tls->find(name);
    if (node == nullptr || node->kind != JsonValue::Kind::boolean) {
      reader.fail("config.tls." + std::string(name) + ": expected true or false");
      return;
    }
    to = node->boolean;
  };
  const auto path = [&](std::string_view name, std::string& to) {
    const JsonValue* node = tls->find(name);
    if (node == nullptr || node->is_null()) return;
    if (!node->is_string()) reader.fail("config.tls." + std::string(name) + ": expected a string or null");
    if (node->is_string()) to = node->text;
  };
  const auto version = [&](std::string_view name, TlsVersion& to) {
    const JsonValue* node = tls->find(name);
    for (TlsVersion known : {TlsVersion::tls1_2, TlsVersion::tls1_3}) {
      if (node != nullptr && node->is_string() && node->text == tls_version_text(known)) {
        to = known;
        return;
      }
    }
    reader.fail("config.tls." + std::string(name) + ": expected \"1.2\" or \"1.3\"");
  };
  flag("insecure", out.insecure);
  path("cacert", out.ca_file);
  path("cert", out.cert_file);
  path("key", out.key_file);
  version("min", out.min_version);
  version("max", out.max_version);
  flag("resume", out.resume);
}

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
  if (tls->find("client_certificate_refused") != nullptr) {  // absent in older documents
    out.client_certificate_refused = reader.integer(tls, "tls", {"client_certificate_refused"});
  }
  result.handshake_time = reader.histogram(tls->find("handshake_time"), "tls.handshake_time");
}

}  // namespace hammer
