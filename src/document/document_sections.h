// SPDX-License-Identifier: MIT
#pragma once
// The parts of a run's (or a sweep's) document that run_document.cc leaves to files of their own, each read
// through the same DocumentReader (the first problem names its member). Internal to document/.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/config.h"
#include "document/document_reader.h"
#include "document/fleet_summary.h"
#include "run/result.h"
#include "sweep/slo.h"

namespace hammer {

/// Why the document is not one this hammer reads (not hammer's, no `hammer` member; a
/// `hammer.schema` other than 1), in one line; empty when it is.
std::string unreadable_header(DocumentReader& reader);

/// `config`: the flags the run (or sweep) was given, into `config` (its shard and start are a
/// single run's, read by run_document.cc).
void read_config_section(DocumentReader& reader, Config& config);

/// `tls` (an https:// run's handshakes, version, cipher, ALPN, first failure and handshake-time
/// histogram) into result.tls and result.handshake_time; null or absent: a plain-HTTP run.
void read_tls_section(DocumentReader& reader, RunResult& result);

/// `config.tls` (an https:// run's -k, --cacert, --cert, --key, --tls-min, --tls-max,
/// --tls-resume) into `out`; null or absent: the defaults (http://, or an older document).
void read_tls_config(DocumentReader& reader, TlsConfig& out);

/// `http2` (an --http2 run's streams allowed, sessions, GOAWAY and RST_STREAM by code, frame
/// overhead, first errors and time-to-first-byte histogram) into result.http2; null or
/// absent: an HTTP/1.1 run (or a document from before the member).
void read_http2_section(DocumentReader& reader, RunResult& result);

/// `slo`: the --slo limits the run was judged by, as typed values (never text parsed again);
/// empty when the run had none.
std::vector<SloLimit> read_slo_limits(DocumentReader& reader);

/// One {key, limit, unit} entry (named `name` in errors); nullopt, with the reader failed,
/// when it is not one.
std::optional<SloLimit> read_slo_limit(DocumentReader& reader, const JsonValue& entry,
                                       const std::string& name);

/// An array of SLO outcomes ({key, limit, unit, measured, pass, censored, unjudged}, as
/// write_slo_json() writes them), such as a sweep step's `slo`; null or absent: none.
std::vector<SloOutcome> read_slo_outcomes(DocumentReader& reader, const JsonValue* slo,
                                          const std::string& name);

/// The online CPUs of the machine that ran it, as the generator verdict's figures name them;
/// 0 when no verdict does (only that verdict's advice depends on them).
int64_t read_machine_cpus(DocumentReader& reader);

/// `fleet`: a merged document's shards (what `hammer merge` printed as its table); none for a
/// single run's document.
std::optional<FleetSummary> read_fleet_section(DocumentReader& reader);

}  // namespace hammer
