// SPDX-License-Identifier: MIT
#include "report/tls_report.h"

#include "report/format.h"
#include "report/json_report.h"

namespace hammer {

std::vector<std::string> tls_lines(const TlsSummary& tls, const Histogram& handshake,
                                   int64_t failed) {
  std::vector<std::string> lines;
  if (!tls.used) return lines;
  const int64_t handshakes = tls.full_handshakes + tls.resumed_handshakes;
  if (!tls.version.empty()) {
    lines.push_back("TLS            " + tls.version + " " + tls.cipher + ", ALPN " +
                    (tls.alpn.empty() ? std::string("none") : tls.alpn) + "; " +
                    format_count(handshakes) +
                    (handshakes == 1 ? " handshake: " : " handshakes: ") +
                    format_count(tls.full_handshakes) + " full, " +
                    format_count(tls.resumed_handshakes) + " resumed");
  }
  if (handshake.total_count() > 0) {
    lines.push_back("Handshake      p50 " + format_duration_ns(handshake.value_at_percentile(50)) +
                    ", p99 " + format_duration_ns(handshake.value_at_percentile(99)) + ", max " +
                    format_duration_ns(handshake.max()) + " (TLS, after the TCP connect)");
  }
  if (!tls.verified) {
    lines.push_back(
        "TLS            certificates not verified (-k): the server's identity is unchecked");
  }
  if (failed > 0) {
    lines.push_back("TLS failures   " + format_count(failed) +
                    (failed == 1 ? " handshake failed, " : " handshakes failed, the first: ") +
                    tls.first_error);
  }
  return lines;
}

void append_tls_text(const ReportInput& input, std::string& out) {
  for (const std::string& line : tls_lines(input.result.tls, input.result.handshake_time,
                                           input.result.error_count(ErrorKind::tls))) {
    out += line + "\n";
  }
}

void write_tls_json(const ReportInput& input, JsonWriter& json) {
  const TlsSummary& tls = input.result.tls;
  json.object_or_null("tls", tls.used, [&] {
    json.member_or_null("version", !tls.version.empty(), tls.version);
    json.member_or_null("cipher", !tls.cipher.empty(), tls.cipher);
    json.member_or_null("alpn", !tls.alpn.empty(), tls.alpn);
    json.member("verify", tls.verified);
    json.key("handshakes").begin_object();
    json.member("full", tls.full_handshakes);
    json.member("resumed", tls.resumed_handshakes);
    json.member("failed", input.result.error_count(ErrorKind::tls));
    json.end_object();
    json.member_or_null("first_error", !tls.first_error.empty(), tls.first_error);
    json.member("client_certificate_refused", tls.client_certificate_refused);
    json.key("handshake_time");
    write_histogram(input.config, 0, input.result.handshake_time, json);
  });
}

}  // namespace hammer
