#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks the test target servers in tools/ with raw sockets, before hammer's e2e tests trust them.

The e2e suite reads hammer's numbers against these servers; if a server mis-framed a pipelined
response or paused only one connection, hammer would be blamed for it. Timing checks here are
lower bounds only (a pause of P ms cannot answer in less than P ms), never upper bounds, so a
loaded machine cannot make them fail.

    TEST_SERVER=build/.../tools/test_server PAUSING_SERVER=tools/pausing_server.py \
        python3 tests/tools/servers_test.py [-k name]
    python3 tests/tools/servers_test.py H2HostileServerTest   # needs no build (nor variable)
"""

import os
import signal
import socket
import subprocess
import sys
import time
import unittest

READY_TIMEOUT_S = 10.0


class RunningServer:
    """Starts a server on an ephemeral port and waits for its "listening on" line."""

    def __init__(self, argv, stderr=None):
        self.process = subprocess.Popen(argv + ["--port", "0"], stdout=subprocess.PIPE,
                                        stderr=stderr, text=True)
        self.stderr = ""  # what stop() read, when stderr is subprocess.PIPE
        line = self.process.stdout.readline()
        if not line.startswith("listening on "):
            self.process.kill()
            raise AssertionError(f"{argv[0]} did not start: {line!r}")
        self.port = int(line.rsplit(":", 1)[1])

    def connect(self):
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=READY_TIMEOUT_S)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return sock

    def stop(self):
        """SIGTERM, and the exit status (the servers must exit 0 on it)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            status = self.process.wait(timeout=READY_TIMEOUT_S)
            if self.process.stderr is not None and not self.process.stderr.closed:
                self.stderr += self.process.stderr.read()  # a line or so: the pipe never fills
            return status
        finally:
            self.process.stdout.close()
            if self.process.stderr is not None:
                self.process.stderr.close()


def read_response(sock, buffered):
    """Reads one response; returns (status, headers dict, body, rest of the buffer)."""
    while b"\r\n\r\n" not in buffered:
        chunk = sock.recv(65536)
        if not chunk:
            raise AssertionError(f"connection closed mid-response: {buffered!r}")
        buffered += chunk
    head, _, buffered = buffered.partition(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    status = int(lines[0].split(" ")[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers, buffered


def read_body(sock, buffered, length):
    while len(buffered) < length:
        chunk = sock.recv(65536)
        if not chunk:
            raise AssertionError("connection closed mid-body")
        buffered += chunk
    return buffered[:length], buffered[length:]


def exchange(sock, requests, count, head_flags=None):
    """Sends raw bytes (possibly several pipelined requests); reads `count` responses."""
    sock.sendall(requests)
    responses, buffered = [], b""
    for i in range(count):
        status, headers, buffered = read_response(sock, buffered)
        length = 0 if head_flags and head_flags[i] else int(headers.get("content-length", "0"))
        body, buffered = read_body(sock, buffered, length)
        responses.append((status, headers, body))
    return responses, buffered


def assert_eof(test, sock):
    sock.settimeout(READY_TIMEOUT_S)
    test.assertEqual(sock.recv(65536), b"")


GET = b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"


class ServerContract:
    """Behaviour both servers share; subclasses say how to start one."""

    def start(self, *flags):
        raise NotImplementedError

    def setUp(self):
        self.servers = []

    def tearDown(self):
        for server in self.servers:
            self.assertEqual(server.stop(), 0)

    def server(self, *flags):
        server = self.start(*flags)
        self.servers.append(server)
        return server

    def test_answers_pipelined_requests_in_order_with_bodies_skipped(self):
        server = self.server()
        with server.connect() as sock:
            requests = (GET + b"POST /a HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello" +
                        b"HEAD / HTTP/1.1\r\n\r\n" + GET)
            responses, rest = exchange(sock, requests, 4, head_flags=[False, False, True, False])
            self.assertEqual([status for status, _, _ in responses], [200] * 4)
            self.assertEqual(responses[0][2], b"Hello, World!")
            self.assertEqual(responses[2][1]["content-length"], "13")
            self.assertEqual(responses[2][2], b"")  # HEAD: the length is announced, not sent
            self.assertEqual(rest, b"")

    def test_reassembles_a_request_sent_one_byte_at_a_time(self):
        server = self.server()
        with server.connect() as sock:
            request = b"POST /x HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc"
            for i in range(len(request)):
                sock.sendall(request[i:i + 1])
            responses, _ = exchange(sock, GET, 2)
            self.assertEqual([status for status, _, _ in responses], [200, 200])

    def test_honours_connection_close_and_ignores_what_follows(self):
        server = self.server()
        with server.connect() as sock:
            request = b"GET / HTTP/1.1\r\nConnection: close\r\n\r\n" + GET
            responses, rest = exchange(sock, request, 1)
            self.assertEqual(responses[0][1]["connection"], "close")
            self.assertEqual(rest, b"")
            assert_eof(self, sock)

    def test_sends_the_requested_body_size(self):
        server = self.server("--body-bytes", "100000")
        with server.connect() as sock:
            responses, _ = exchange(sock, GET, 1)
            self.assertEqual(len(responses[0][2]), 100000)

    def test_survives_a_client_that_leaves_mid_request(self):
        server = self.server()
        with server.connect() as sock:
            sock.sendall(b"GET / HTTP/1.1\r\nHost")
        with server.connect() as sock:  # a zero linger time makes close() send an RST
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
            sock.sendall(b"POST / HTTP/1.1\r\nContent-Length: 100\r\n\r\nabc")
        with server.connect() as sock:
            responses, _ = exchange(sock, GET, 1)
            self.assertEqual(responses[0][0], 200)


class TestServerTest(ServerContract, unittest.TestCase):
    def start(self, *flags):
        return RunningServer([os.environ["TEST_SERVER"], *flags])

    def test_serves_many_connections_on_several_threads(self):
        server = self.server("--threads", "3")
        sockets = [server.connect() for _ in range(200)]
        try:
            for sock in sockets:
                sock.sendall(GET)
            for sock in sockets:
                responses, _ = exchange(sock, b"", 1)
                self.assertEqual(responses[0][0], 200)
        finally:
            for sock in sockets:
                sock.close()

    def test_close_mode_closes_after_every_response(self):
        server = self.server("--mode", "close")
        with server.connect() as sock:
            responses, _ = exchange(sock, GET + GET, 1)
            self.assertEqual(responses[0][1]["connection"], "close")
            assert_eof(self, sock)

    def test_close_every_closes_after_the_nth_response_of_a_connection(self):
        server = self.server("--close-every", "3")
        with server.connect() as sock:
            responses, _ = exchange(sock, GET * 3, 3)
            self.assertEqual([headers.get("connection") for _, headers, _ in responses],
                             [None, None, "close"])
            assert_eof(self, sock)

    def test_status_mode_answers_the_given_status(self):
        server = self.server("--mode", "status", "--status", "503")
        with server.connect() as sock:
            responses, _ = exchange(sock, GET, 1)
            self.assertEqual(responses[0][0], 503)

    def test_silent_mode_reads_but_never_answers(self):
        server = self.server("--mode", "silent")
        with server.connect() as sock:
            sock.sendall(GET * 3)
            sock.settimeout(0.3)
            with self.assertRaises(socket.timeout):
                sock.recv(1)

    def test_capacity_mode_spends_the_service_time_on_every_request(self):
        server = self.server("--mode", "capacity", "--service-us", "5000")
        with server.connect() as sock:
            start = time.monotonic()
            exchange(sock, GET * 20, 20)
            self.assertGreaterEqual(time.monotonic() - start, 20 * 0.005)

    def test_paced_capacity_mode_finishes_requests_on_the_clock(self):
        # 20 pipelined requests arrive together: each finishes 5 ms after the one before, so
        # never sooner than 100 ms in all.
        server = self.server("--mode", "capacity", "--service-us", "5000",
                             "--service-kind", "paced")
        with server.connect() as sock:
            start = time.monotonic()
            responses, _ = exchange(sock, GET * 20, 20)
            self.assertEqual([status for status, _, _ in responses], [200] * 20)
            self.assertGreaterEqual(time.monotonic() - start, 20 * 0.005)

    def test_refuses_a_port_another_server_listens_on(self):
        server = self.server("--threads", "2")
        result = subprocess.run([os.environ["TEST_SERVER"], "--port", str(server.port)],
                                capture_output=True, text=True, timeout=READY_TIMEOUT_S)
        self.assertEqual(result.returncode, 2)
        self.assertIn("Address already in use", result.stderr)

    def test_rejects_a_bad_flag_naming_it(self):
        result = subprocess.run([os.environ["TEST_SERVER"], "--port", "abc"],
                                capture_output=True, text=True)
        self.assertEqual(result.returncode, 1)
        self.assertIn("--port", result.stderr)
        self.assertIn("'abc'", result.stderr)


class PausingServerTest(ServerContract, unittest.TestCase):
    def start(self, *flags):
        flags = list(flags)
        if "--every" not in flags:
            flags += ["--every", "1000000"]
        return RunningServer([sys.executable, os.environ["PAUSING_SERVER"], *flags])

    def test_every_nth_response_waits_for_the_pause(self):
        server = self.server("--every", "4", "--pause-ms", "300")
        with server.connect() as sock:
            exchange(sock, GET * 3, 3)
            start = time.monotonic()
            exchange(sock, GET, 1)
            self.assertGreaterEqual(time.monotonic() - start, 0.3)

    def test_the_pause_stalls_every_connection(self):
        server = self.server("--every", "2", "--pause-ms", "400")
        with server.connect() as first, server.connect() as second:
            exchange(first, GET, 1)
            started = time.monotonic()
            first.sendall(GET)  # response 2: starts the pause
            time.sleep(0.1)     # let the server count it; if it has not, 'second' pauses itself
            second_sent = time.monotonic()
            exchange(second, GET, 1)
            # Either 'second' waited out the pause 'first' started (>= 0.3 s here), or it was
            # counted first and waited out its own pause (0.4 s): both are >= 0.25 s.
            self.assertGreaterEqual(time.monotonic() - second_sent, 0.25)
            exchange(first, b"", 1)
            self.assertGreaterEqual(time.monotonic() - started, 0.4)


H2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
H2_DATA, H2_HEADERS, H2_RST_STREAM, H2_SETTINGS, H2_PING, H2_GOAWAY, H2_WINDOW_UPDATE, \
    H2_CONTINUATION = 0, 1, 3, 4, 6, 7, 8, 9
H2_END_STREAM = H2_ACK = 0x1
H2_END_HEADERS = 0x4
# :method GET, :scheme http, :path /, :authority www.example.com (RFC 7541 C.3.1).
H2_GET_BLOCK = b"\x82\x86\x84\x41\x0f" + b"www.example.com"


def h2_frame(kind, flags, stream_id, payload=b""):
    return (len(payload).to_bytes(3, "big") + bytes((kind, flags)) +
            stream_id.to_bytes(4, "big") + payload)


def h2_get(stream_id):
    return h2_frame(H2_HEADERS, H2_END_STREAM | H2_END_HEADERS, stream_id, H2_GET_BLOCK)


class H2Client:
    """A raw-socket HTTP/2 client: the preface, an empty SETTINGS, then whatever a test sends."""

    def __init__(self, server, first=b""):
        self.sock = server.connect()
        self.sock.settimeout(5.0)
        self.buffered = b""
        self.sock.sendall(H2_PREFACE + h2_frame(H2_SETTINGS, 0, 0) + first)

    def close(self):
        self.sock.close()

    def read_frame(self):
        """(type, flags, stream id, payload), or None at EOF."""
        while True:
            if len(self.buffered) >= 9:
                length = int.from_bytes(self.buffered[:3], "big")
                if len(self.buffered) >= 9 + length:
                    head, payload = self.buffered[:9], self.buffered[9:9 + length]
                    self.buffered = self.buffered[9 + length:]
                    return (head[3], head[4], int.from_bytes(head[5:9], "big") & 0x7fffffff,
                            payload)
            chunk = self.sock.recv(65536)
            if not chunk:
                return None
            self.buffered += chunk

    def frames_until(self, done, skip_settings=True):
        """Frames read until done(frame) is true (that one included); SETTINGS left out."""
        frames = []
        while True:
            received = self.read_frame()
            if received is None:
                raise AssertionError(f"EOF after {frames!r}")
            if not (skip_settings and received[0] == H2_SETTINGS):
                frames.append(received)
            if done(received):
                return frames


def h2_ended(stream_id):
    return lambda f: f[2] == stream_id and f[0] in (H2_DATA, H2_HEADERS) and f[1] & H2_END_STREAM


class H2HostileServerTest(unittest.TestCase):
    def setUp(self):
        self.servers, self.clients = [], []

    def tearDown(self):
        for client in self.clients:
            client.close()
        for server in self.servers:
            self.assertEqual(server.stop(), 0)

    def server(self, *flags):
        path = os.environ.get("H2_HOSTILE_SERVER") or os.path.join(
            os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "h2_hostile_server.py")
        server = RunningServer([sys.executable, path, *flags], stderr=subprocess.PIPE)
        self.servers.append(server)
        return server

    def client(self, server, first=b""):
        client = H2Client(server, first)
        self.clients.append(client)
        return client

    def assert_ok_response(self, frames, stream_id, body=b"hello, world\n"):
        self.assertEqual(frames[0], (H2_HEADERS, H2_END_HEADERS, stream_id,
                                     b"\x88\x0f\x0d" + bytes((len(str(len(body))),)) +
                                     str(len(body)).encode()))
        self.assertEqual(frames[1:], [(H2_DATA, H2_END_STREAM, stream_id, body)])

    def test_ok_sends_settings_acks_ours_and_answers_200(self):
        server = self.server()
        client = self.client(server, h2_get(1))
        settings = [client.read_frame(), client.read_frame()]
        self.assertIn((H2_SETTINGS, 0, 0, b""), settings)   # its own, empty
        self.assertIn((H2_SETTINGS, H2_ACK, 0, b""), settings)  # the ACK of ours
        self.assert_ok_response(client.frames_until(h2_ended(1)), 1)

    def test_ok_answers_pings_a_body_and_continuation_and_the_body_size(self):
        server = self.server("--body-bytes", "20000")
        request = (h2_frame(H2_PING, 0, 0, b"12345678") +
                   h2_frame(H2_HEADERS, 0, 1, H2_GET_BLOCK[:3]) +
                   h2_frame(H2_CONTINUATION, 0, 1, H2_GET_BLOCK[3:5]) +
                   h2_frame(H2_CONTINUATION, H2_END_HEADERS, 1, H2_GET_BLOCK[5:]) +
                   h2_frame(H2_DATA, 0, 1, b"abc") + h2_frame(H2_DATA, H2_END_STREAM, 1, b"de"))
        client = self.client(server, request)
        frames = client.frames_until(h2_ended(1))
        self.assertIn((H2_PING, H2_ACK, 0, b"12345678"), frames)
        data = [f for f in frames if f[0] == H2_DATA]
        # 20000 bytes: at most 16384 a frame (the default SETTINGS_MAX_FRAME_SIZE)
        self.assertEqual([len(f[3]) for f in data], [16384, 3616])
        self.assertEqual(b"".join(f[3] for f in data),
                         (b"hello, world\n" * 2000)[:20000])
        self.assertIn((H2_WINDOW_UPDATE, 0, 0, (3).to_bytes(4, "big")), frames)

    def test_goaway_after_one_names_the_answered_stream_and_closes(self):
        server = self.server("--mode", "goaway-after", "--every", "1")
        client = self.client(server, h2_get(1) + h2_get(3))
        frames = client.frames_until(lambda f: f[0] == H2_GOAWAY)
        self.assert_ok_response(frames[:-1], 1)
        self.assertEqual(frames[-1], (H2_GOAWAY, 0, 0, (1).to_bytes(4, "big") + bytes(4)))
        self.assertIsNone(client.read_frame())  # stream 3 unanswered, then EOF (~100 ms)

    def test_rst_every_one_resets_with_internal_error_or_refused_stream(self):
        for flags, code in (((), 0x2), (("--rst-code", "refused"), 0x7)):
            server = self.server("--mode", "rst-every", "--every", "1", *flags)
            client = self.client(server, h2_get(1))
            frames = client.frames_until(lambda f: f[0] == H2_RST_STREAM)
            self.assertEqual(frames, [(H2_RST_STREAM, 0, 1, code.to_bytes(4, "big"))])

    def test_rst_every_two_answers_one_and_resets_the_next(self):
        server = self.server("--mode", "rst-every", "--every", "2")
        client = self.client(server, h2_get(1) + h2_get(3))
        frames = client.frames_until(lambda f: f[0] == H2_RST_STREAM)
        self.assert_ok_response(frames[:-1], 1)
        self.assertEqual(frames[-1], (H2_RST_STREAM, 0, 3, (2).to_bytes(4, "big")))

    def test_h1_answers_the_preface_with_a_400_and_closes(self):
        server = self.server("--mode", "h1")
        with server.connect() as sock:
            sock.sendall(H2_PREFACE + h2_frame(H2_SETTINGS, 0, 0))
            responses, rest = exchange(sock, b"", 1)
            self.assertEqual(responses[0][0], 400)
            self.assertEqual(responses[0][1]["connection"], "close")
            self.assertEqual(rest, b"")
            assert_eof(self, sock)

    def test_zero_window_advertises_it_and_answers_only_bodiless_requests(self):
        server = self.server("--mode", "zero-window")
        client = self.client(server, h2_frame(H2_HEADERS, H2_END_HEADERS, 1, H2_GET_BLOCK) +
                             h2_get(3))
        first = client.read_frame()
        self.assertEqual(first, (H2_SETTINGS, 0, 0, b"\x00\x04" + bytes(4)))
        frames = client.frames_until(h2_ended(3))
        self.assert_ok_response(frames, 3)  # stream 1 waits for a body it can never send

    def test_max_streams_1_refuses_a_second_open_stream(self):
        server = self.server("--mode", "max-streams-1")
        client = self.client(server)
        first = client.read_frame()
        self.assertEqual(first, (H2_SETTINGS, 0, 0, b"\x00\x03" + (1).to_bytes(4, "big")))
        client.sock.sendall(h2_frame(H2_SETTINGS, H2_ACK, 0) + h2_get(1) + h2_get(3))
        frames = client.frames_until(h2_ended(1))
        self.assertEqual(frames[0], (H2_RST_STREAM, 0, 3, (7).to_bytes(4, "big")))
        self.assert_ok_response(frames[1:], 1)
        client.sock.sendall(h2_get(5))  # stream 1 is over: 5 may open
        self.assert_ok_response(client.frames_until(h2_ended(5)), 5)
        client.close()
        self.assertEqual(server.stop(), 0)
        self.assertIn("answered 2 responses, 2 streams, 1 resets", server.stderr)
        self.assertIn("1 max-streams violations (0 refused before the SETTINGS ACK)",
                      server.stderr)

    def test_continuation_flood_never_ends_the_header_block(self):
        server = self.server("--mode", "continuation-flood")
        client = self.client(server, h2_get(1))
        frames = client.frames_until(lambda f: f[0] == H2_HEADERS)
        self.assertEqual(frames[-1][:2], (H2_HEADERS, 0))  # no END_HEADERS
        self.assertEqual(frames[-1][2], 1)
        for _ in range(10000):
            self.assertEqual(client.read_frame(), (H2_CONTINUATION, 0, 1, b""))
        client.sock.sendall(h2_frame(H2_PING, 0, 0, bytes(8)))  # mute now: no ACK, and no EOF
        client.sock.settimeout(0.2)
        with self.assertRaises(socket.timeout):
            self.assertEqual(client.sock.recv(65536), b"never this")
        self.assertEqual(client.buffered, b"")

    def test_huge_headers_splits_a_1_mib_block_into_16k_frames(self):
        server = self.server("--mode", "huge-headers")
        client = self.client(server, h2_get(1))
        frames = client.frames_until(h2_ended(1))
        headers = frames[:-1]
        self.assertEqual([f[0] for f in headers], [H2_HEADERS] + [H2_CONTINUATION] * 64)
        self.assertEqual([f[1] for f in headers], [0] * 64 + [H2_END_HEADERS])
        self.assertTrue(all(len(f[3]) <= 16384 for f in headers))
        block = b"".join(f[3] for f in headers)
        self.assertTrue(block.startswith(b"\x88\x00\x05x-big\x7f"))
        self.assertIn(b"a" * (1 << 20), block)
        self.assertTrue(block.endswith(b"\x0f\x0d\x0213"))
        self.assertEqual(frames[-1], (H2_DATA, H2_END_STREAM, 1, b"hello, world\n"))

    def test_ping_flood_sends_100000_pings_and_still_answers(self):
        server = self.server("--mode", "ping-flood")
        client = self.client(server, h2_get(1))
        pings, answered = set(), []
        while len(pings) < 100000 or not answered:
            kind, flags, stream_id, payload = client.read_frame()
            if kind == H2_PING:
                self.assertEqual((flags, stream_id, len(payload)), (0, 0, 8))
                pings.add(payload)
            elif kind == H2_DATA:
                answered.append((kind, flags, stream_id, payload))
        self.assertEqual(answered, [(H2_DATA, H2_END_STREAM, 1, b"hello, world\n")])
        self.assertEqual(len(pings), 100000)

    def test_settings_no_ack_answers_without_acking(self):
        server = self.server("--mode", "settings-no-ack")
        client = self.client(server, h2_get(1) + h2_frame(H2_PING, 0, 0, b"abcdefgh"))
        frames = client.frames_until(lambda f: f[0] == H2_PING, skip_settings=False)
        self.assertEqual(frames[0], (H2_SETTINGS, 0, 0, b""))
        self.assert_ok_response(frames[1:-1], 1)  # no SETTINGS ACK among them
        self.assertEqual(frames[-1], (H2_PING, H2_ACK, 0, b"abcdefgh"))


if __name__ == "__main__":
    unittest.main()
