// SPDX-License-Identifier: MIT
#include "run/result.h"

#include <algorithm>

namespace hammer {

void WakeSummary::add(const WakeSummary& other) {
  sleeps += other.sleeps;
  through_traffic += other.through_traffic;
  stamped_reads += other.stamped_reads;
  unstamped_reads += other.unstamped_reads;
  clock_steps += other.clock_steps;
  largest_step_ns = std::max(largest_step_ns, other.largest_step_ns);
  stamps_refused = stamps_refused || other.stamps_refused;
  large_responses = large_responses || other.large_responses;
}

void RunResult::add(const RunResult& part) {
  corrected.add(part.corrected);
  uncorrected.add(part.uncorrected);
  connect_time.add(part.connect_time);
  handshake_time.add(part.handshake_time);
  tls.used = tls.used || part.tls.used;
  tls.verified = tls.verified && part.tls.verified;
  if (tls.version.empty()) {
    tls.version = part.tls.version;
    tls.cipher = part.tls.cipher;
    tls.alpn = part.tls.alpn;
  }
  tls.full_handshakes += part.tls.full_handshakes;
  tls.resumed_handshakes += part.tls.resumed_handshakes;
  tls.client_certificate_refused += part.tls.client_certificate_refused;
  if (tls.first_error.empty()) {
    tls.first_error = part.tls.first_error;
    tls.first_error_refusal = part.tls.first_error_refusal;
  }
  http2.add(part.http2);
  first_requests.add(part.first_requests);
  timeline.add(part.timeline);
  if (part.warmup) {
    if (!warmup) warmup = std::make_shared<RunResult>();
    warmup->add(*part.warmup);
  }
  if (part.ramp) {
    if (!ramp) ramp = std::make_shared<RunResult>();
    ramp->add(*part.ramp);
  }
  if (lines.size() < part.lines.size()) lines.resize(part.lines.size());
  for (size_t i = 0; i < part.lines.size(); ++i) lines[i].add(part.lines[i]);
  scheduled += part.scheduled;
  sent += part.sent;
  completed += part.completed;
  unsent += part.unsent;
  unsent_no_connection += part.unsent_no_connection;
  unsent_absent += part.unsent_absent;
  // Parts of one run (workers) carry none; shards each say their own: the latest answer of
  // any, and every request due after its own shard's last answer.
  last_answer_ns = std::max(last_answer_ns, part.last_answer_ns);
  unanswered_tail_ns = std::max(unanswered_tail_ns, part.unanswered_tail_ns);
  due_after_last_answer += part.due_after_last_answer;
  bytes_read += part.bytes_read;
  connects += part.connects;
  connects_out_of_ports += part.connects_out_of_ports;
  for (int i = 0; i < kErrorKindCount; ++i) errors[i] += part.errors[i];
  for (int i = 0; i < kStatusClassCount; ++i) status_classes[i] += part.status_classes[i];
  for (int i = 0; i < kStatusCodeLimit; ++i) status_codes[i] += part.status_codes[i];
  reconnects += part.reconnects;
  unsolicited += part.unsolicited;
  early_responses += part.early_responses;
  retried += part.retried;
  not_retried += part.not_retried;
  in_flight_at_stop += part.in_flight_at_stop;
  if (first_parse_error.empty()) first_parse_error = part.first_parse_error;
  if (first_socket_error.empty()) first_socket_error = part.first_socket_error;
  lag.add(part.lag);
  host.add(part.host);
  generator_cpu.add(part.generator_cpu);
  wakes.add(part.wakes);
  interrupted = interrupted || part.interrupted;
}

}  // namespace hammer
