#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""pausing_server: an HTTP/1.1 server that stalls like a stop-the-world GC pause.

It answers every request quickly with a small 200, except that every N-th response (counted
over all connections) freezes the WHOLE server for P ms: the thread that takes response N sets
a global "paused until" time, and every connection thread waits for it to pass before it
answers anything. This is the target of design.md §1: a closed-loop generator sends nothing
during the pause and so never times it; hammer's corrected latencies must show it, and the
expected percentiles follow from pause / period arithmetic.

Python stdlib only, raw sockets and one thread per connection (http.server costs too much per
request to reach a few thousand req/s). Pipelined and partial requests are handled: heads are
parsed up to CRLFCRLF and request bodies skipped by Content-Length.

    pausing_server.py --port 8082 --pause-ms 200 --every 3000

GET /__pausing_server/count answers how many responses the server has counted so far (the body
is the number), at once and without counting itself: tests compare it with what hammer counted.
GET /__pausing_server/overrun answers, in whole milliseconds, the most that a response held by a
stall left after the stall's end: the server's own lateness (its threads waking one after
another, later still on a busy machine), which the pause / period arithmetic leaves out. Tests
widen their margin by it rather than blame the generator for it.

Prints "listening on HOST:PORT" (flushed) when ready; exits 0 on SIGTERM or SIGINT.
"""

import argparse
import socket
import sys
import threading
import time

import servers_common

MAX_HEAD_BYTES = 64 * 1024
COUNT_PATH = b"/__pausing_server/count"
OVERRUN_PATH = b"/__pausing_server/overrun"
RECV_BYTES = 64 * 1024


class PauseClock:
    """The global response counter and the 'paused until' time, under one lock."""

    def __init__(self, every, pause_s):
        self._lock = threading.Lock()
        self._every = every
        self._pause_s = pause_s
        self._count = 0
        self._paused_until = 0.0
        self._max_overrun_s = 0.0

    def count(self):
        with self._lock:
            return self._count

    def max_overrun_ms(self):
        with self._lock:
            return int(self._max_overrun_s * 1000 + 0.999)

    def wait_turn(self):
        """Counts one response and blocks while the server is paused (including this pause).
        Returns the end of the stall it waited out, or 0.0 when it did not wait."""
        with self._lock:
            self._count += 1
            if self._every > 0 and self._count % self._every == 0:
                self._paused_until = time.monotonic() + self._pause_s
            paused_until = self._paused_until
        waited = False
        while True:
            remaining = paused_until - time.monotonic()
            if remaining <= 0:
                return paused_until if waited else 0.0
            waited = True
            time.sleep(remaining)

    def note_sent(self, stall_end):
        """A response held until stall_end has just been written: keeps how late it left."""
        overrun = time.monotonic() - stall_end
        with self._lock:
            self._max_overrun_s = max(self._max_overrun_s, overrun)


def make_response(body_bytes, closing, head_only):
    body = (b"Hello, World!" * (body_bytes // 13 + 1))[:body_bytes]
    head = (b"HTTP/1.1 200 OK\r\nServer: hammer-pausing-server\r\n"
            b"Content-Type: text/plain\r\nContent-Length: " + str(body_bytes).encode() + b"\r\n")
    if closing:
        head += b"Connection: close\r\n"
    head += b"\r\n"
    return head if head_only else head + body


def count_response(count):
    body = str(count).encode() + b"\n"
    return (b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " +
            str(len(body)).encode() + b"\r\n\r\n" + body)


def control_path(head):
    """COUNT_PATH or OVERRUN_PATH when the request asks for one of them, else None."""
    parts = head.split(b"\r\n", 1)[0].split(b" ")
    if len(parts) == 3 and parts[0] == b"GET" and parts[1] in (COUNT_PATH, OVERRUN_PATH):
        return parts[1]
    return None


def parse_head(head):
    """Returns (content_length, wants_close, is_head) or None for a request we refuse."""
    lines = head.split(b"\r\n")
    request_line = lines[0]
    wants_close = request_line.endswith(b"HTTP/1.0")
    is_head = request_line.startswith(b"HEAD ")
    content_length = 0
    for line in lines[1:]:
        name, sep, value = line.partition(b":")
        if not sep:
            continue
        name = name.strip().lower()
        value = value.strip()
        if name == b"content-length":
            if not value.isdigit():
                return None
            content_length = int(value)
        elif name == b"transfer-encoding":
            return None  # chunked request bodies are not decoded here
        elif name == b"connection":
            lowered = value.lower()
            if b"close" in lowered:
                wants_close = True
            elif b"keep-alive" in lowered:
                wants_close = False
    return content_length, wants_close, is_head


class Server(servers_common.ThreadedServer):
    def __init__(self, host, port, pause_clock, body_bytes):
        super().__init__(host, port)
        self._clock = pause_clock
        self._responses = {(closing, head_only): make_response(body_bytes, closing, head_only)
                           for closing in (False, True) for head_only in (False, True)}

    def handle(self, connection):
        pending = b""
        body_remaining = 0
        while True:
            data = connection.recv(RECV_BYTES)
            if not data:
                return
            pending += data
            out = []
            closing = False
            held_until = 0.0  # the end of a stall that held a response in `out`
            while not closing:
                if body_remaining:
                    skipped = min(body_remaining, len(pending))
                    pending = pending[skipped:]
                    body_remaining -= skipped
                    if body_remaining:
                        break
                head_end = pending.find(b"\r\n\r\n")
                if head_end < 0:
                    if len(pending) > MAX_HEAD_BYTES:
                        return
                    break
                head = pending[:head_end]
                request = parse_head(head)
                pending = pending[head_end + 4:]
                if request is None:
                    return
                body_remaining, closing, is_head = request
                control = control_path(head)
                if control is not None:
                    figure = (self._clock.count() if control == COUNT_PATH
                              else self._clock.max_overrun_ms())
                    out.append(count_response(figure))
                    continue
                held_until = max(held_until, self._clock.wait_turn())
                out.append(self._responses[(closing, is_head)])
            if out:
                connection.sendall(b"".join(out))
                if held_until:
                    self._clock.note_sent(held_until)
            if closing:
                # Half-close, then wait for the peer's EOF: closing with unread input would
                # send an RST that can destroy the response still in flight.
                connection.shutdown(socket.SHUT_WR)
                while connection.recv(RECV_BYTES):
                    pass
                return


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True, help="0 picks an ephemeral port")
    parser.add_argument("--pause-ms", type=float, default=200.0)
    parser.add_argument("--every", type=int, default=3000,
                        help="stall after every N-th response, counted over all connections")
    parser.add_argument("--body-bytes", type=int, default=13)
    args = parser.parse_args()
    if args.pause_ms < 0 or args.every < 0 or args.body_bytes < 0 or not 0 <= args.port <= 65535:
        parser.error("--port, --pause-ms, --every and --body-bytes must not be negative")

    return servers_common.serve_until_stopped(
        "pausing_server", args.host, args.port,
        lambda: Server(args.host, args.port, PauseClock(args.every, args.pause_ms / 1000.0),
                       args.body_bytes))


if __name__ == "__main__":
    sys.exit(main())
