// SPDX-License-Identifier: MIT
#pragma once
// What an https:// run's report says of TLS: the text lines and the JSON `tls` member
// (docs/json.md). A plain-HTTP run prints nothing and writes `"tls": null`.
#include <cstdint>
#include <string>
#include <vector>

#include "report/json_writer.h"
#include "report/report_input.h"

namespace hammer {

/// The text report's TLS lines, without their newlines (the HTML page lists them too): none
/// for a plain-HTTP run. `failed`: the failed handshakes (errors.tls).
std::vector<std::string> tls_lines(const TlsSummary& tls, const Histogram& handshake,
                                   int64_t failed);

/// "TLS            1.3 TLS_AES_256_GCM_SHA384, ALPN http/1.1; 12 handshakes: 4 full, 8 resumed",
/// the handshake-time line, the verification off (-k) and the first failure's reason.
void append_tls_text(const ReportInput& input, std::string& out);

/// The member "tls": null for http://; else version, cipher, alpn, verify, the handshake
/// counts, the first failure and the handshake-time histogram.
void write_tls_json(const ReportInput& input, JsonWriter& json);

}  // namespace hammer
