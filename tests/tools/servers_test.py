#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks the test target servers in tools/ with raw sockets, before hammer's e2e tests trust them.

The e2e suite reads hammer's numbers against these servers; if a server mis-framed a pipelined
response or paused only one connection, hammer would be blamed for it. Timing checks here are
lower bounds only (a pause of P ms cannot answer in less than P ms), never upper bounds, so a
loaded machine cannot make them fail.

    TEST_SERVER=build/.../tools/test_server PAUSING_SERVER=tools/pausing_server.py \
        python3 tests/tools/servers_test.py [-k name]
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

    def __init__(self, argv):
        self.process = subprocess.Popen(argv + ["--port", "0"], stdout=subprocess.PIPE, text=True)
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
            return self.process.wait(timeout=READY_TIMEOUT_S)
        finally:
            self.process.stdout.close()


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


if __name__ == "__main__":
    unittest.main()
