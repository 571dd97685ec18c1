// SPDX-License-Identifier: MIT
// ClientSession against a scripted server: the server's frames are built as bytes
// (frame_testing.h), what the session queues is read back frame by frame, and each stream's end
// is what the recording sink saw.
#include "http2/client_session.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "http2/client_preface.h"
#include "http2/frame_testing.h"
#include "http2/hpack_encoder.h"

namespace hammer::http2 {
namespace {

using testing::frame_bytes;
using testing::setting;
using testing::u32;

constexpr uint8_t kData = 0, kHeaders = 1, kRst = 3, kSettings = 4, kPing = 6, kGoaway = 7,
                  kWindowUpdate = 8;
constexpr uint8_t kEndStream = 0x1, kEndHeaders = 0x4;
const std::string kStatus200 = "\x88";  // static index 8, :status 200

struct Event {
  std::string what;  // "first", "response", "reset", "refused"
  int32_t slot;
  int64_t value;  // status, or error code
  bool operator==(const Event&) const = default;
};

class RecordingSink final : public StreamSink {
 public:
  void on_first_byte(int32_t slot) override { events.push_back({"first", slot, 0}); }
  void on_response(int32_t slot, int status) override {
    events.push_back({"response", slot, status});
  }
  void on_stream_reset(int32_t slot, uint32_t code, bool by_peer) override {
    events.push_back({by_peer ? "reset" : "reset-by-us", slot, code});
  }
  void on_stream_refused(int32_t slot, bool) override { events.push_back({"refused", slot, 0}); }
  std::vector<Event> events;
};

struct SentFrame {
  uint8_t type;
  uint8_t flags;
  uint32_t stream;
  std::string payload;
};

// Takes everything the session queued, past the preface, as frames.
std::vector<SentFrame> drain(ClientSession& session) {
  const std::span<const char> out = session.pending_output();
  std::string bytes(out.data(), out.size());
  session.consume_output(out.size());
  std::vector<SentFrame> frames;
  size_t at = 0;
  if (bytes.starts_with(kClientPreface)) at = kClientPreface.size();
  while (at + kFrameHeaderBytes <= bytes.size()) {
    const auto* p = reinterpret_cast<const uint8_t*>(bytes.data() + at);
    const size_t length = (size_t{p[0]} << 16) | (size_t{p[1]} << 8) | p[2];
    const uint32_t stream =
        ((uint32_t{p[5]} << 24) | (uint32_t{p[6]} << 16) | (uint32_t{p[7]} << 8) | p[8]) &
        kStreamIdMask;
    frames.push_back({p[3], p[4], stream, bytes.substr(at + kFrameHeaderBytes, length)});
    at += kFrameHeaderBytes + length;
  }
  EXPECT_EQ(at, bytes.size()) << "a partial frame in the output";
  return frames;
}

std::vector<SentFrame> of_type(const std::vector<SentFrame>& frames, uint8_t type) {
  std::vector<SentFrame> out;
  for (const SentFrame& f : frames) {
    if (f.type == type) out.push_back(f);
  }
  return out;
}

uint32_t be32(const std::string& s, size_t at = 0) {
  const auto* p = reinterpret_cast<const uint8_t*>(s.data() + at);
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
}

class ClientSessionTest : public ::testing::Test {
 protected:
  explicit ClientSessionTest(int32_t streams = 10) : session_(limits(streams)) {
    session_.expect_block(block_.size());
    session_.start(client_preface(ClientSettings{}));
  }
  static SessionLimits limits(int32_t streams) {
    SessionLimits limits;
    limits.max_streams = streams;
    return limits;
  }
  SessionError feed(const std::string& bytes) {
    return session_.receive(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), sink_);
  }
  void settle(const std::string& settings = "") {
    ASSERT_EQ(feed(frame_bytes(kSettings, 0, 0, settings)), SessionError::none);
    ASSERT_TRUE(session_.settled());
  }
  int32_t open(std::string_view body = {}) {
    EXPECT_TRUE(session_.can_open());
    return session_.open_stream(std::span<const uint8_t>(block_), body);
  }
  static std::string response(uint32_t stream, const std::string& body = "hi") {
    return frame_bytes(kHeaders, kEndHeaders, stream, kStatus200) +
           frame_bytes(kData, kEndStream, stream, body);
  }

  std::vector<uint8_t> block_{0x82, 0x86, 0x84};  // GET http /
  ClientSession session_;
  RecordingSink sink_;
};

TEST_F(ClientSessionTest, QueuesThePrefaceAndOpensNoStreamBeforeTheServersSettings) {
  const std::span<const char> out = session_.pending_output();
  ASSERT_GE(out.size(), kClientPreface.size());
  EXPECT_EQ(std::string_view(out.data(), kClientPreface.size()), kClientPreface);
  EXPECT_FALSE(session_.settled());
  EXPECT_FALSE(session_.can_open());
  drain(session_);
  settle();
  const std::vector<SentFrame> sent = drain(session_);
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(sent[0].type, kSettings);
  EXPECT_EQ(sent[0].flags, 0x1) << "a SETTINGS ACK";
  EXPECT_TRUE(session_.can_open());
}

TEST_F(ClientSessionTest, AResponseEndsItsStreamWithItsStatus) {
  drain(session_);
  settle();
  drain(session_);
  const int32_t slot = open();
  const std::vector<SentFrame> sent = drain(session_);
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(sent[0].type, kHeaders);
  EXPECT_EQ(sent[0].stream, 1u);
  EXPECT_EQ(sent[0].flags, kEndStream | kEndHeaders);
  EXPECT_EQ(sent[0].payload, std::string("\x82\x86\x84"));
  EXPECT_EQ(session_.open_streams(), 1);
  ASSERT_EQ(feed(response(1, "hello")), SessionError::none);
  EXPECT_EQ(sink_.events, (std::vector<Event>{{"first", slot, 0}, {"response", slot, 200}}));
  EXPECT_EQ(session_.open_streams(), 0);
  EXPECT_EQ(session_.counts().data_bytes, 5);
}

TEST_F(ClientSessionTest, StreamsAnsweredOutOfOrderEachReachTheirOwnSlot) {
  settle();
  const int32_t a = open(), b = open(), c = open();
  EXPECT_NE(a, b);
  EXPECT_NE(b, c);
  const std::vector<SentFrame> headers = of_type(drain(session_), kHeaders);
  ASSERT_EQ(headers.size(), 3u);
  EXPECT_EQ(headers[0].stream, 1u);
  EXPECT_EQ(headers[1].stream, 3u);
  EXPECT_EQ(headers[2].stream, 5u);
  ASSERT_EQ(feed(response(5) + response(1) + response(3)), SessionError::none);
  std::vector<int32_t> answered;
  for (const Event& e : sink_.events) {
    if (e.what == "response") answered.push_back(e.slot);
  }
  EXPECT_EQ(answered, (std::vector<int32_t>{c, a, b}));
}

TEST_F(ClientSessionTest, EverySplitOfTheServersBytesGivesTheSameEnds) {
  settle();
  const int32_t a = open(), b = open();
  const std::string bytes = frame_bytes(kHeaders, kEndHeaders, 3, kStatus200) +
                            frame_bytes(kData, 0, 3, "abc") + response(1) +
                            frame_bytes(kData, kEndStream, 3, "de");
  ASSERT_EQ(feed(bytes), SessionError::none);
  const std::vector<Event> whole = sink_.events;
  ASSERT_EQ(whole, (std::vector<Event>{{"first", b, 0}, {"first", a, 0}, {"response", a, 200},
                                       {"response", b, 200}}));
  for (size_t cut = 1; cut < bytes.size(); ++cut) {
    ClientSession session(limits(10));
    session.expect_block(block_.size());
    session.start(client_preface(ClientSettings{}));
    RecordingSink sink;
    const std::string settings = frame_bytes(kSettings, 0, 0, "");
    session.receive(reinterpret_cast<const uint8_t*>(settings.data()), settings.size(), sink);
    session.open_stream(std::span<const uint8_t>(block_), {});
    session.open_stream(std::span<const uint8_t>(block_), {});
    const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
    ASSERT_EQ(session.receive(p, cut, sink), SessionError::none) << "cut at " << cut;
    ASSERT_EQ(session.receive(p + cut, bytes.size() - cut, sink), SessionError::none);
    EXPECT_EQ(sink.events, whole) << "cut at " << cut;
  }
}

TEST_F(ClientSessionTest, TheServersConcurrencyLimitBoundsTheStreams) {
  settle(setting(0x3, 1));
  EXPECT_EQ(session_.peer_max_concurrent_streams(), 1u);
  EXPECT_EQ(session_.allowed_streams(), 1);
  open();
  EXPECT_FALSE(session_.can_open());
  ASSERT_EQ(feed(response(1)), SessionError::none);
  EXPECT_TRUE(session_.can_open());
}

TEST_F(ClientSessionTest, GoawayRefusesTheStreamsAboveItsLastIdAndLetsTheRestFinish) {
  settle();
  const int32_t s1 = open(), s3 = open(), s5 = open(), s7 = open();
  ASSERT_EQ(feed(frame_bytes(kGoaway, 0, 0, u32(3) + u32(0))), SessionError::none);
  EXPECT_TRUE(session_.draining());
  EXPECT_FALSE(session_.can_open());
  EXPECT_EQ(sink_.events, (std::vector<Event>{{"refused", s5, 0}, {"refused", s7, 0}}));
  sink_.events.clear();
  ASSERT_EQ(feed(response(1) + response(3)), SessionError::none);
  EXPECT_EQ(sink_.events, (std::vector<Event>{{"first", s1, 0}, {"response", s1, 200},
                                              {"first", s3, 0}, {"response", s3, 200}}));
  EXPECT_EQ(session_.open_streams(), 0);
  EXPECT_EQ(session_.counts().goaways, 1);
  EXPECT_EQ(session_.counts().refused, 2);
}

TEST_F(ClientSessionTest, ResetStreamsAreRefusedWhenUnprocessedAndResetOtherwise) {
  settle();
  const int32_t a = open(), b = open();
  ASSERT_EQ(feed(frame_bytes(kRst, 0, 1, u32(0x7)) + frame_bytes(kRst, 0, 3, u32(0x2))),
            SessionError::none);
  EXPECT_EQ(sink_.events, (std::vector<Event>{{"refused", a, 0}, {"reset", b, 2}}));
  EXPECT_EQ(session_.counts().resets_received, 2);
  EXPECT_EQ(session_.open_streams(), 0);
}

TEST_F(ClientSessionTest, APingIsAnsweredWithItsOwnData) {
  settle();
  drain(session_);
  ASSERT_EQ(feed(frame_bytes(kPing, 0, 0, "12345678")), SessionError::none);
  const std::vector<SentFrame> sent = drain(session_);
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(sent[0].type, kPing);
  EXPECT_EQ(sent[0].flags, 0x1);
  EXPECT_EQ(sent[0].payload, "12345678");
  ASSERT_EQ(feed(frame_bytes(kPing, 0x1, 0, "12345678")), SessionError::none);
  EXPECT_TRUE(drain(session_).empty()) << "an ACK is not answered";
}

TEST_F(ClientSessionTest, AnHttp1AnswerToThePrefaceIsNotHttp2) {
  EXPECT_EQ(feed("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"),
            SessionError::not_http2);
  EXPECT_TRUE(session_.failed());
  EXPECT_FALSE(session_.can_open());
}

TEST_F(ClientSessionTest, AFirstFrameOtherThanSettingsIsAProtocolError) {
  EXPECT_EQ(feed(frame_bytes(kPing, 0, 0, "12345678")), SessionError::protocol);
}

TEST_F(ClientSessionTest, ALargeBodyFlowsWithWindowUpdates) {
  settle();
  open();
  drain(session_);
  std::string bytes = frame_bytes(kHeaders, kEndHeaders, 1, kStatus200);
  const std::string chunk(16384, 'x');
  constexpr int kChunks = 200;  // 3.2 MiB: past the stream's 1 MiB and the connection's 16 MiB/2
  int updates = 0;
  ASSERT_EQ(feed(bytes), SessionError::none);
  for (int i = 0; i < kChunks; ++i) {
    ASSERT_EQ(feed(frame_bytes(kData, i + 1 == kChunks ? kEndStream : 0, 1, chunk)),
              SessionError::none)
        << "chunk " << i;
    updates += static_cast<int>(of_type(drain(session_), kWindowUpdate).size());
  }
  EXPECT_GE(updates, 6) << "stream updates every 512 KiB, and the connection's";
  EXPECT_EQ(sink_.events.back(), (Event{"response", 0, 200}));
  EXPECT_EQ(session_.counts().data_bytes, int64_t{kChunks} * 16384);
}

TEST_F(ClientSessionTest, DataPastTheStreamWindowResetsOnlyThatStream) {
  SessionLimits small = limits(10);
  small.ours.initial_window_size = 100;  // the server may send 100 octets before an update
  ClientSession session(small);
  session.expect_block(block_.size());
  session.start(client_preface(small.ours));
  RecordingSink sink;
  const std::string bytes = frame_bytes(kSettings, 0, 0, "") +
                            frame_bytes(kHeaders, kEndHeaders, 1, kStatus200) +
                            frame_bytes(kData, 0, 1, std::string(101, 'x')) + response(3);
  session.receive(reinterpret_cast<const uint8_t*>(bytes.data()), 9, sink);  // the SETTINGS
  const int32_t first = session.open_stream(std::span<const uint8_t>(block_), {});
  const int32_t second = session.open_stream(std::span<const uint8_t>(block_), {});
  EXPECT_EQ(session.receive(reinterpret_cast<const uint8_t*>(bytes.data()) + 9, bytes.size() - 9,
                            sink),
            SessionError::none);
  EXPECT_EQ(sink.events, (std::vector<Event>{{"first", first, 0}, {"reset-by-us", first, 0x3},
                                             {"first", second, 0}, {"response", second, 200}}));
}

TEST_F(ClientSessionTest, ARequestBodyWaitsForTheServersWindow) {
  settle(setting(0x4, 0));  // SETTINGS_INITIAL_WINDOW_SIZE 0
  drain(session_);
  open("0123456789");
  std::vector<SentFrame> sent = drain(session_);
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(sent[0].type, kHeaders);
  EXPECT_EQ(sent[0].flags & kEndStream, 0) << "the body is still to come";
  ASSERT_EQ(feed(frame_bytes(kWindowUpdate, 0, 1, u32(4))), SessionError::none);
  sent = drain(session_);
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(sent[0].payload, "0123");
  EXPECT_EQ(sent[0].flags & kEndStream, 0);
  ASSERT_EQ(feed(frame_bytes(kWindowUpdate, 0, 1, u32(100))), SessionError::none);
  sent = drain(session_);
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(sent[0].payload, "456789");
  EXPECT_EQ(sent[0].flags & kEndStream, kEndStream);
}

TEST_F(ClientSessionTest, ABadHeaderBlockEndsTheConnectionWithCompressionError) {
  settle();
  open();
  drain(session_);
  EXPECT_EQ(feed(frame_bytes(kHeaders, kEndHeaders, 1, "\xff\xff\xff\xff\xff\xff\xff")),
            SessionError::compression);
  const std::vector<SentFrame> sent = drain(session_);
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(sent[0].type, kGoaway);
  EXPECT_EQ(be32(sent[0].payload, 4), 0x9u);
}

TEST_F(ClientSessionTest, AResponseWithoutStatusIsResetAsMalformed) {
  settle();
  const int32_t slot = open();
  ASSERT_EQ(feed(frame_bytes(kHeaders, kEndHeaders | kEndStream, 1, "\x84")),  // :path /
            SessionError::none);
  EXPECT_EQ(sink_.events.back(), (Event{"reset-by-us", slot, 0x1}));
}

TEST_F(ClientSessionTest, InformationalHeadersAreFollowedByTheFinalOne) {
  settle();
  const int32_t slot = open();
  std::string continue_block;
  hpack_encode_field(continue_block, ":status", "100");
  ASSERT_EQ(feed(frame_bytes(kHeaders, kEndHeaders, 1, continue_block) + response(1)),
            SessionError::none);
  EXPECT_EQ(sink_.events, (std::vector<Event>{{"first", slot, 0}, {"response", slot, 200}}));
}

TEST_F(ClientSessionTest, ACancelledStreamSendsCancelAndItsLateAnswerIsIgnored) {
  settle();
  const int32_t slot = open();
  drain(session_);
  session_.cancel(slot);
  EXPECT_EQ(session_.open_streams(), 0);
  const std::vector<SentFrame> sent = drain(session_);
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(sent[0].type, kRst);
  EXPECT_EQ(be32(sent[0].payload), 0x8u);
  const int64_t overhead_before = session_.counts().frame_overhead_bytes;
  ASSERT_EQ(feed(response(1, "late body")), SessionError::none);
  EXPECT_TRUE(sink_.events.empty());
  // The late body is data, not frame overhead (it read as 1.47 GB of overhead): only the
  // frames' own bytes are.
  EXPECT_EQ(session_.counts().data_bytes, 9);
  EXPECT_EQ(session_.counts().frame_overhead_bytes - overhead_before,
            static_cast<int64_t>(response(1, "late body").size()) - 9);
}

TEST_F(ClientSessionTest, AStreamTheServerMadeUpIsAProtocolError) {
  settle();
  EXPECT_EQ(feed(frame_bytes(kHeaders, kEndHeaders, 2, kStatus200)), SessionError::protocol);
}

TEST_F(ClientSessionTest, AStreamHeldLongTakesNoNewStreamsSlot) {
  settle();
  const int32_t held = open();  // stream 1, never answered here
  drain(session_);
  for (uint32_t id = 3; id < 400; id += 2) {
    const int32_t slot = open();
    ASSERT_NE(slot, held);
    const std::vector<SentFrame> headers = of_type(drain(session_), kHeaders);
    ASSERT_EQ(headers.size(), 1u);
    ASSERT_EQ(feed(response(headers[0].stream)), SessionError::none);
    ASSERT_EQ(sink_.events.back(), (Event{"response", slot, 200}));
    ASSERT_EQ(session_.open_streams(), 1) << "stream " << id;
  }
  EXPECT_TRUE(session_.is_open(held));
  EXPECT_EQ(session_.open_streams(), 1);
}

TEST_F(ClientSessionTest, APingFloodTheClientCannotAnswerEndsAsAFlood) {
  settle();
  const std::string ping = frame_bytes(kPing, 0, 0, "12345678");
  SessionError error = SessionError::none;
  for (int i = 0; i < 100'000 && error == SessionError::none; ++i) error = feed(ping);
  EXPECT_EQ(error, SessionError::flood);
}

TEST_F(ClientSessionTest, StartForgetsTheLastSocket) {
  settle(setting(0x3, 1));
  open();
  session_.start(client_preface(ClientSettings{}));
  EXPECT_EQ(session_.open_streams(), 0);
  EXPECT_FALSE(session_.settled());
  EXPECT_EQ(session_.peer_max_concurrent_streams(), UINT32_MAX);
  settle();
  drain(session_);
  open();
  const std::vector<SentFrame> headers = of_type(drain(session_), kHeaders);
  ASSERT_EQ(headers.size(), 1u);
  EXPECT_EQ(headers[0].stream, 1u) << "ids start again on a new socket";
}

}  // namespace
}  // namespace hammer::http2
