#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""h2_hostile_server: an HTTP/2 (h2c, prior knowledge) server that plays hostile servers.

The e2e tests run hammer's HTTP/2 client against it. The client sends the connection preface
("PRI * HTTP/2.0\\r\\n\\r\\nSM\\r\\n\\r\\n") and then frames, over plain TCP. The server sends its own
SETTINGS (per mode), ACKs the client's SETTINGS, answers PINGs, and answers every request
stream (HEADERS, possibly CONTINUATION, possibly DATA, up to END_STREAM) with a 200: a HEADERS
frame whose block is ":status 200" (static index 8) and a literal content-length, then one DATA
frame with END_STREAM carrying --body-bytes bytes. Request headers are never decoded (no HPACK
decoder here). Flow control is kept minimally: the response DATA waits for the client's windows,
and the server gives back the windows the client's request bodies use (except in zero-window).

--mode M:
  ok                  as above
  goaway-after        every --every N-th response (over all connections) is followed, on its
                      connection, by GOAWAY(last stream = that stream, NO_ERROR); streams above
                      it go unanswered, and the connection is closed ~100 ms later
  rst-every           every --every N-th request stream (over all connections) gets RST_STREAM
                      (INTERNAL_ERROR, or REFUSED_STREAM with --rst-code refused) instead
  zero-window         SETTINGS_INITIAL_WINDOW_SIZE 0 and never a WINDOW_UPDATE: requests without
                      a body are answered, requests with one never are (client-side timeouts)
  max-streams-1       SETTINGS_MAX_CONCURRENT_STREAMS 1; responses leave 5 ms after the request;
                      a stream opened while another is open gets RST_STREAM(REFUSED_STREAM) and,
                      if the client had ACKed our SETTINGS, counts as a violation
  continuation-flood  the answer is HEADERS without END_HEADERS then 10,000 empty CONTINUATION
                      frames, never ending the block; the connection then stays open, mute
  huge-headers        the answer's header block carries x-big with a 1 MiB value, split into
                      HEADERS + CONTINUATION frames of 16384 bytes at most
  ping-flood          100,000 PINGs per connection as fast as the socket takes them, besides
                      answering normally
  h1                  answers the preface with an HTTP/1.1 400 and closes
  settings-no-ack     never ACKs the client's SETTINGS, answers normally

Python stdlib only; per connection a reader thread, a writer thread (so that reading never
waits on a client that does not read) and, in max-streams-1 and ping-flood, one helper thread.

Prints "listening on HOST:PORT" (flushed) when ready and nothing else on stdout; exits 0 on
SIGTERM or SIGINT, after one summary line on stderr ("h2_hostile_server: mode M: answered N
responses, ...": streams, resets, GOAWAYs, max-streams violations, pings sent and ACKed).
"""

import argparse
import collections
import select
import socket
import struct
import sys
import threading
import time

import servers_common

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
RECV_BYTES = 64 * 1024

DATA, HEADERS, PRIORITY, RST_STREAM, SETTINGS, PUSH_PROMISE, PING, GOAWAY, WINDOW_UPDATE, \
    CONTINUATION = range(10)
END_STREAM = 0x1
ACK = 0x1
END_HEADERS = 0x4
PADDED = 0x8
PRIORITY_FLAG = 0x20

SETTINGS_MAX_CONCURRENT_STREAMS = 0x3
SETTINGS_INITIAL_WINDOW_SIZE = 0x4
SETTINGS_MAX_FRAME_SIZE = 0x5

NO_ERROR = 0x0
PROTOCOL_ERROR = 0x1
INTERNAL_ERROR = 0x2
REFUSED_STREAM = 0x7

DEFAULT_WINDOW = 65535
DEFAULT_MAX_FRAME = 16384
MAX_WINDOW = 2**31 - 1

MODES = ("ok", "goaway-after", "rst-every", "zero-window", "max-streams-1", "continuation-flood",
         "huge-headers", "ping-flood", "h1", "settings-no-ack", "pause")
H1_ANSWER = b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
GOAWAY_CLOSE_S = 0.1          # goaway-after: GOAWAY, then the connection closes this much later
MAX_STREAMS_DELAY_S = 0.005   # max-streams-1: each response leaves this long after its request
FLOOD_CONTINUATIONS = 10000   # continuation-flood
HUGE_VALUE_BYTES = 1 << 20    # huge-headers: the x-big value
HUGE_FRAME_BYTES = 16384      # huge-headers: the largest HEADERS / CONTINUATION frame sent
FLOOD_PINGS = 100000          # ping-flood, per connection
PING_BATCH = 512              # ping-flood: PINGs queued at a time
OUT_HIGH_WATER = 256 * 1024   # ping-flood queues more PINGs only below this many unsent bytes
OUT_LIMIT = 64 * 1024 * 1024  # the reader stops reading while more than this is unsent
LINGER_S = 2.0                # the most a closing connection waits for the client's EOF


def frame(kind, flags, stream_id, payload=b""):
    return struct.pack(">I", len(payload))[1:] + bytes((kind, flags)) + \
        struct.pack(">I", stream_id & 0x7fffffff) + payload


def hpack_int(value, prefix_bits, first_byte_flags=0):
    """RFC 7541 §5.1 integer with an N-bit prefix; first_byte_flags fills the bits above it."""
    limit = (1 << prefix_bits) - 1
    if value < limit:
        return bytes((first_byte_flags | value,))
    out = bytearray((first_byte_flags | limit,))
    value -= limit
    while value >= 128:
        out.append(value % 128 + 128)
        value //= 128
    out.append(value)
    return bytes(out)


def hpack_string(data):
    """A string literal without Huffman coding (RFC 7541 §5.2)."""
    return hpack_int(len(data), 7) + data


def response_block(body_bytes, huge):
    """:status 200 (static index 8), [x-big: 1 MiB], content-length (literal without indexing,
    static name index 28: 4-bit prefix, so 0x0f 0x0d)."""
    block = b"\x88"
    if huge:
        block += b"\x00" + hpack_string(b"x-big") + hpack_string(b"a" * HUGE_VALUE_BYTES)
    return block + hpack_int(28, 4) + hpack_string(str(body_bytes).encode())


def _readable(sock, timeout_s):
    """poll() rather than a socket timeout, which would apply to the writer's sendall too (and
    rather than select(), which fails on descriptors above 1023)."""
    poller = select.poll()
    poller.register(sock, select.POLLIN)
    return bool(poller.poll(max(0, int(timeout_s * 1000 + 0.999))))


class Totals:
    """What every connection counts, under one lock."""

    def __init__(self):
        self._lock = threading.Lock()
        self.responses = 0     # 200s whose HEADERS were sent
        self.streams = 0       # request streams completed (answered, reset, or held)
        self.resets = 0        # RST_STREAMs sent
        self.goaways = 0
        self.violations = 0    # max-streams-1: streams opened beyond the limit after the ACK
        self.early_refusals = 0  # ... and before the client ACKed our SETTINGS
        self.pings_sent = 0
        self.ping_acks = 0
        self.zero_window_data_bytes = 0
        self.paused_until = 0.0  # pause: no connection answers before this (time.monotonic())
        self.pauses = 0

    def next_stream(self):
        with self._lock:
            self.streams += 1
            return self.streams

    def next_response(self):
        with self._lock:
            self.responses += 1
            return self.responses

    def wait_out_pause(self):
        """pause: blocks until the server-wide stall (if any) is over."""
        with self._lock:
            wait = self.paused_until - time.monotonic()
        if wait > 0:
            time.sleep(wait)

    def start_pause(self, seconds):
        with self._lock:
            self.paused_until = time.monotonic() + seconds
            self.pauses += 1

    def add(self, name, amount=1):
        with self._lock:
            setattr(self, name, getattr(self, name) + amount)

    def summary(self, mode):
        with self._lock:
            return (f"h2_hostile_server: mode {mode}: answered {self.responses} responses, "
                    f"{self.streams} streams, {self.resets} resets, {self.goaways} goaways, "
                    f"{self.violations} max-streams violations "
                    f"({self.early_refusals} refused before the SETTINGS ACK), "
                    f"{self.pings_sent} pings sent, {self.ping_acks} ping acks, "
                    f"{self.zero_window_data_bytes} zero-window DATA bytes, "
                    f"{self.pauses} pauses")


class Stream:
    def __init__(self, window):
        self.send_window = window  # the client's window for our DATA on this stream
        self.body_received = 0
        self.request_done = False  # END_STREAM seen from the client
        self.open = True           # counts toward max concurrent streams until we end it
        self.body_left = b""       # the response body not sent yet


class Connection:
    """One client connection: the reader thread runs serve(); a writer thread sends `_out`."""

    def __init__(self, sock, options, totals):
        self.sock = sock
        self.opts = options
        self.totals = totals
        self.mode = options.mode
        self.lock = threading.Condition()
        self._out = collections.deque()
        self._out_bytes = 0
        self._writer_done = False  # a None in _out ends the writer (after what precedes it)
        self.closed = False
        self.streams = {}
        self.client_initial_window = DEFAULT_WINDOW
        self.client_max_frame = DEFAULT_MAX_FRAME
        self.conn_send_window = DEFAULT_WINDOW
        self.pending_data = collections.deque()  # stream ids whose DATA waits for a window
        self.settings_acked = False  # the client ACKed our SETTINGS
        self.muted = False           # continuation-flood: nothing more may be sent
        self.goaway_last = None      # goaway-after: the last stream id we answer
        self.close_at = None         # goaway-after: when the connection is closed
        self.highest_stream = 0      # the highest stream id the client has opened
        self.header_stream = None    # a header block in progress (CONTINUATIONs expected)
        self.header_end_stream = False
        self.delayed = collections.deque()  # max-streams-1: (due time, stream id)
        self.body = (b"hello, world\n" * (options.body_bytes // 13 + 1))[:options.body_bytes]
        self.block = response_block(options.body_bytes, self.mode == "huge-headers")

    # ---- output: everything is queued under self.lock, the writer thread sends it in order

    def _queue(self, data):
        if self.closed or self._writer_done:
            return
        self._out.append(data)
        self._out_bytes += len(data)
        self.lock.notify_all()

    def _queue_end(self):
        if not self._writer_done:
            self._writer_done = True
            self._out.append(None)
            self.lock.notify_all()

    def _write_loop(self, half_close):
        try:
            while True:
                with self.lock:
                    while not self._out:
                        self.lock.wait()
                    chunks = []
                    while self._out and self._out[0] is not None and len(chunks) < 256:
                        chunks.append(self._out.popleft())
                    ending = not chunks and self._out[0] is None
                if ending:
                    if half_close[0]:
                        self.sock.shutdown(socket.SHUT_WR)
                    return
                data = b"".join(chunks)
                self.sock.sendall(data)
                with self.lock:
                    self._out_bytes -= len(data)
                    self.lock.notify_all()
        except OSError:
            with self.lock:
                self.closed = True
                self.lock.notify_all()

    # ---- the reader

    def serve(self):
        half_close = [False]
        writer = threading.Thread(target=self._write_loop, args=(half_close,), daemon=True)
        writer.start()
        helpers = []
        try:
            if self.mode == "h1":
                self._serve_h1(half_close)
                return
            with self.lock:
                self._queue(frame(SETTINGS, 0, 0, self._own_settings()))
            if self.mode == "max-streams-1":
                helpers.append(threading.Thread(target=self._delay_loop, daemon=True))
            elif self.mode == "ping-flood":
                helpers.append(threading.Thread(target=self._ping_flood, daemon=True))
            for helper in helpers:
                helper.start()
            if self._read_frames():
                half_close[0] = True  # goaway-after: half-close, then wait for the client's EOF
                with self.lock:
                    self._queue_end()
                self._linger()
        except OSError:
            pass
        finally:
            with self.lock:
                self._queue_end()
                self.lock.notify_all()
            writer.join(LINGER_S)
            with self.lock:
                self.closed = True
                self.lock.notify_all()
            try:
                self.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            writer.join()
            for helper in helpers:
                helper.join()

    def _own_settings(self):
        if self.mode == "zero-window":
            return struct.pack(">HI", SETTINGS_INITIAL_WINDOW_SIZE, 0)
        if self.mode == "max-streams-1":
            return struct.pack(">HI", SETTINGS_MAX_CONCURRENT_STREAMS, 1)
        return b""

    def _serve_h1(self, half_close):
        received = b""
        while len(received) < len(PREFACE) and PREFACE.startswith(received):
            data = self.sock.recv(RECV_BYTES)
            if not data:
                return
            received += data
        half_close[0] = True
        with self.lock:
            self._queue(H1_ANSWER)
            self._queue_end()
        self._linger()

    def _linger(self):
        """Reads (and drops) until the client's EOF, for LINGER_S at most: closing with unread
        input would send an RST that can destroy what is still in flight to the client."""
        deadline = time.monotonic() + LINGER_S
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return
            if not _readable(self.sock, remaining) or not self.sock.recv(RECV_BYTES):
                return

    def _read_frames(self):
        """Reads and handles frames until EOF (returns False) or, in goaway-after, until it is
        time to close the connection (returns True)."""
        pending = b""
        preface_seen = False
        while True:
            with self.lock:
                while self._out_bytes > OUT_LIMIT and not self.closed:
                    self.lock.wait()
                if self.closed:
                    return False
                close_at = self.close_at
            if close_at is not None:
                remaining = close_at - time.monotonic()
                if remaining <= 0:
                    return True
                if not _readable(self.sock, remaining):
                    continue
            data = self.sock.recv(RECV_BYTES)
            if not data:
                return False
            pending += data
            if not preface_seen:
                if len(pending) < len(PREFACE):
                    if not PREFACE.startswith(pending):
                        return False
                    continue
                if not pending.startswith(PREFACE):
                    return False
                pending = pending[len(PREFACE):]
                preface_seen = True
            offset = 0
            with self.lock:
                while len(pending) - offset >= 9:
                    length = int.from_bytes(pending[offset:offset + 3], "big")
                    if len(pending) - offset < 9 + length:
                        break
                    kind, flags = pending[offset + 3], pending[offset + 4]
                    stream_id = int.from_bytes(pending[offset + 5:offset + 9], "big") & 0x7fffffff
                    payload = pending[offset + 9:offset + 9 + length]
                    offset += 9 + length
                    if not self._handle(kind, flags, stream_id, payload):
                        return False
            pending = pending[offset:]

    def _handle(self, kind, flags, stream_id, payload):
        """One frame from the client, under self.lock; False ends the connection."""
        if self.header_stream is not None and (kind != CONTINUATION or
                                               stream_id != self.header_stream):
            return False  # RFC 9113 §6.10: nothing may interleave a header block
        if kind == SETTINGS:
            if flags & ACK:
                self.settings_acked = True
                return True
            self._client_settings(payload)
            if self.mode != "settings-no-ack" and not self.muted:
                self._queue(frame(SETTINGS, ACK, 0))
        elif kind == PING:
            if flags & ACK:
                self.totals.add("ping_acks")
            elif not self.muted:
                self._queue(frame(PING, ACK, 0, payload))
        elif kind == HEADERS:
            if flags & PADDED:
                payload = payload[1:]  # the pad length; the block is not read anyway
            if flags & PRIORITY_FLAG:
                payload = payload[5:]
            if stream_id not in self.streams and stream_id > self.highest_stream:
                self.highest_stream = stream_id
                self._open_stream(stream_id)
            # Else trailers, or a block on a stream refused or finished (still framed: its
            # CONTINUATIONs follow; _headers_done ignores a stream it does not know).
            self.header_end_stream = bool(flags & END_STREAM)
            if flags & END_HEADERS:
                self._headers_done(stream_id)
            else:
                self.header_stream = stream_id
        elif kind == CONTINUATION:
            if self.header_stream != stream_id:
                return False
            if flags & END_HEADERS:
                self.header_stream = None
                self._headers_done(stream_id)
        elif kind == DATA:
            self._data(flags, stream_id, payload)
        elif kind == WINDOW_UPDATE:
            increment = int.from_bytes(payload[:4], "big") & 0x7fffffff
            if stream_id == 0:
                self.conn_send_window = min(MAX_WINDOW, self.conn_send_window + increment)
            elif stream_id in self.streams:
                stream = self.streams[stream_id]
                stream.send_window = min(MAX_WINDOW, stream.send_window + increment)
            self._flush_data()
        elif kind == RST_STREAM:
            self.streams.pop(stream_id, None)
        elif kind == GOAWAY:
            pass  # the client leaves; it closes the connection when it is done
        return True

    def _client_settings(self, payload):
        for i in range(0, len(payload) - 5, 6):
            ident, value = struct.unpack(">HI", payload[i:i + 6])
            if ident == SETTINGS_INITIAL_WINDOW_SIZE:
                delta = value - self.client_initial_window
                self.client_initial_window = value
                for stream in self.streams.values():
                    stream.send_window += delta
            elif ident == SETTINGS_MAX_FRAME_SIZE:
                self.client_max_frame = value
        self._flush_data()

    def _open_stream(self, stream_id):
        """A new request stream. False when it is refused (max-streams-1) or ignored (after a
        GOAWAY, above its last stream)."""
        if self.goaway_last is not None and stream_id > self.goaway_last:
            return False
        if self.mode == "max-streams-1" and any(s.open for s in self.streams.values()):
            self.totals.add("violations" if self.settings_acked else "early_refusals")
            self._reset(stream_id, REFUSED_STREAM)
            return False
        self.streams[stream_id] = Stream(self.client_initial_window)
        return True

    def _headers_done(self, stream_id):
        stream = self.streams.get(stream_id)
        if stream is not None and stream.open and self.header_end_stream:
            self._request_done(stream_id, stream)

    def _data(self, flags, stream_id, payload):
        stream = self.streams.get(stream_id)
        if self.mode == "zero-window":
            self.totals.add("zero_window_data_bytes", len(payload))
        elif payload and not self.muted:
            # Give the window back at once (request bodies are not kept).
            self._queue(frame(WINDOW_UPDATE, 0, 0, struct.pack(">I", len(payload))))
            if stream is not None and stream.open and not flags & END_STREAM:
                self._queue(frame(WINDOW_UPDATE, 0, stream_id, struct.pack(">I", len(payload))))
        if stream is None or not stream.open:
            return
        stream.body_received += len(payload)
        if flags & END_STREAM:
            self._request_done(stream_id, stream)

    def _request_done(self, stream_id, stream):
        """The client's END_STREAM: the request is complete, and is answered per mode."""
        stream.request_done = True
        if self.muted or (self.goaway_last is not None and stream_id > self.goaway_last):
            return
        if self.mode == "zero-window" and stream.body_received:
            self.totals.next_stream()
            return  # its body could not be sent in a zero window: never answered
        number = self.totals.next_stream()
        if self.mode == "rst-every" and number % self.opts.every == 0:
            del self.streams[stream_id]
            self._reset(stream_id, self.opts.rst_code)
            return
        if self.mode == "max-streams-1":
            self.delayed.append((time.monotonic() + MAX_STREAMS_DELAY_S, stream_id))
            self.lock.notify_all()
            return
        self._respond(stream_id, stream)

    def _reset(self, stream_id, code):
        self.totals.add("resets")
        self._queue(frame(RST_STREAM, 0, stream_id, struct.pack(">I", code)))

    def _respond(self, stream_id, stream):
        if self.mode == "pause":
            # The whole server stalls, as in a GC pause (pausing_server.py's HTTP/2 twin): every
            # connection waits out the pause before answering anything.
            self.totals.wait_out_pause()
        number = self.totals.next_response()
        if self.mode == "pause" and number % self.opts.every == 0:
            self.totals.start_pause(self.opts.pause_ms / 1000.0)
        if self.mode == "continuation-flood":
            self.muted = True  # a header block that never ends: nothing else may follow it
            self._queue(frame(HEADERS, 0, stream_id, self.block) +
                        frame(CONTINUATION, 0, stream_id) * FLOOD_CONTINUATIONS)
            return
        block = self.block
        if len(block) <= HUGE_FRAME_BYTES:
            self._queue(frame(HEADERS, END_HEADERS, stream_id, block))
        else:
            pieces = [block[i:i + HUGE_FRAME_BYTES] for i in range(0, len(block), HUGE_FRAME_BYTES)]
            out = [frame(HEADERS, 0, stream_id, pieces[0])]
            for i, piece in enumerate(pieces[1:], 1):
                out.append(frame(CONTINUATION, END_HEADERS if i == len(pieces) - 1 else 0,
                                 stream_id, piece))
            self._queue(b"".join(out))
        stream.body_left = self.body
        self.pending_data.append(stream_id)
        self._flush_data()
        if self.mode == "goaway-after" and number % self.opts.every == 0 and \
                self.goaway_last is None:
            self.goaway_last = stream_id
            self.close_at = time.monotonic() + GOAWAY_CLOSE_S
            self.totals.add("goaways")
            self._queue(frame(GOAWAY, 0, 0, struct.pack(">II", stream_id, NO_ERROR)))

    def _flush_data(self):
        """Sends the response bodies that the client's windows allow, in order."""
        while self.pending_data:
            stream_id = self.pending_data[0]
            stream = self.streams.get(stream_id)
            if stream is None:  # the client reset it
                self.pending_data.popleft()
                continue
            left = stream.body_left
            if left:
                size = min(len(left), self.conn_send_window, stream.send_window,
                           self.client_max_frame)
                if size <= 0:
                    return
            else:
                size = 0
            last = size == len(left)
            if last:
                stream.open = False
                del self.streams[stream_id]
                self.pending_data.popleft()
            self.conn_send_window -= size
            stream.send_window -= size
            stream.body_left = left[size:]
            self._queue(frame(DATA, END_STREAM if last else 0, stream_id, left[:size]))

    # ---- helper threads

    def _delay_loop(self):
        """max-streams-1: sends each response when its delay has passed."""
        with self.lock:
            while not self.closed:
                if not self.delayed:
                    self.lock.wait()
                    continue
                due, stream_id = self.delayed[0]
                remaining = due - time.monotonic()
                if remaining > 0:
                    self.lock.wait(remaining)
                    continue
                self.delayed.popleft()
                stream = self.streams.get(stream_id)
                if stream is not None:
                    self._respond(stream_id, stream)

    def _ping_flood(self):
        sent = 0
        while sent < FLOOD_PINGS:
            with self.lock:
                while self._out_bytes > OUT_HIGH_WATER and not self.closed:
                    self.lock.wait()
                if self.closed or self._writer_done or self.muted:
                    return
                batch = min(PING_BATCH, FLOOD_PINGS - sent)
                self._queue(b"".join(frame(PING, 0, 0, struct.pack(">Q", sent + i))
                                     for i in range(batch)))
            sent += batch
            self.totals.add("pings_sent", batch)


class Server(servers_common.ThreadedServer):
    def __init__(self, options, totals):
        super().__init__(options.host, options.port)
        self._options = options
        self._totals = totals

    def handle(self, sock):
        Connection(sock, self._options, self._totals).serve()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1", choices=["127.0.0.1"],
                        help="loopback only")
    parser.add_argument("--port", type=int, required=True, help="0 picks an ephemeral port")
    parser.add_argument("--mode", default="ok", choices=MODES)
    parser.add_argument("--every", type=int, default=None,
                        help="goaway-after (default 100) and rst-every (default 10): every N-th "
                             "response / stream, counted over all connections")
    parser.add_argument("--rst-code", default="internal", choices=["internal", "refused"],
                        help="rst-every: INTERNAL_ERROR (default) or REFUSED_STREAM")
    parser.add_argument("--body-bytes", type=int, default=13)
    parser.add_argument("--pause-ms", type=int, default=200,
                        help="pause: how long the server stalls every --every responses")
    args = parser.parse_args()
    if args.every is None:
        args.every = {"goaway-after": 100, "pause": 3000}.get(args.mode, 10)
    if args.every < 1 or args.body_bytes < 0 or not 0 <= args.port <= 65535:
        parser.error("--every must be at least 1, --port and --body-bytes must not be negative")
    args.rst_code = REFUSED_STREAM if args.rst_code == "refused" else INTERNAL_ERROR

    totals = Totals()
    status = servers_common.serve_until_stopped("h2_hostile_server", args.host, args.port,
                                                lambda: Server(args, totals))
    if status == 0:
        print(totals.summary(args.mode), file=sys.stderr, flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
