#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A TLS server that misbehaves one way per --mode, for hammer's TLS e2e tests.

Each connection reads one request head and answers it with `Connection: close` (Content-Length
5, `hello`), then closes the TCP connection bare, with no TLS close_notify, unless the mode says
otherwise:

  complete          the answer in full: no error for the client
  truncated         Content-Length 100 and 5 bytes: a truncated response (a read error)
  silent            reads the request and never answers (a request timeout)
  one-byte-records  the answer in full, each byte in a TLS record of its own (62 records): no
                    error, however the client's reads split them
  close-notify-mid-body
                    the head and 2 of the 5 body bytes, then a TLS close_notify alert and a
                    close: a truncated response, not a clean end
  corrupt-record    the head and 2 body bytes, then an application-data record whose bytes are
                    garbage (it cannot be decrypted: bad record MAC), then a close: a read error

Prints "listening on 127.0.0.1:PORT" (--port 0 picks one).
"""
import argparse
import signal
import socket
import ssl
import sys
import threading

import servers_common


ANSWER = b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\nhello"
# Two body bytes sent before the modes that break off mid-body.
HEAD_AND_TWO_BYTES = ANSWER[:-3] % 5

# A TLS 1.2/1.3 application-data record (type 23, version 3.3) of 32 bytes that are no
# ciphertext of this connection's keys: the peer's decryption fails on it.
GARBAGE_RECORD = b"\x17\x03\x03\x00\x20" + bytes(range(32))


MODES = ["complete", "truncated", "silent", "one-byte-records", "close-notify-mid-body",
         "corrupt-record"]


def close_bare(connection):
    # detach() leaves the TCP socket without sending the TLS close_notify.
    socket.socket(fileno=connection.detach()).close()


def serve(context, raw, mode):
    try:
        # Without it the modes that write twice wait on Nagle and the client's delayed ACK.
        raw.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        connection = context.wrap_socket(raw, server_side=True)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = connection.recv(4096)
            if not chunk:
                return
            data += chunk
        if mode == "silent":
            while connection.recv(4096):
                pass
            return
        if mode == "one-byte-records":
            # Each SSLSocket.send() of one byte is one TLS record carrying one byte.
            for byte in ANSWER % 5:
                connection.sendall(bytes([byte]))
        elif mode == "close-notify-mid-body":
            connection.sendall(HEAD_AND_TWO_BYTES)
            connection.unwrap().close()  # unwrap() sends close_notify
            return
        elif mode == "corrupt-record":
            connection.sendall(HEAD_AND_TWO_BYTES)
            # Written beside the TLS layer, on the TCP socket itself.
            socket.socket(fileno=connection.detach()).sendall(GARBAGE_RECORD)
            return
        else:
            connection.sendall(ANSWER % (5 if mode == "complete" else 100))
        close_bare(connection)
    except (OSError, ssl.SSLError):
        raw.close()


def main():
    servers_common.die_with_parent()  # a crashed test leaves no server behind
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--mode", choices=MODES, default="complete")
    args = parser.parse_args()
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(args.cert, args.key)
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", args.port))
    listener.listen(128)
    print("listening on 127.0.0.1:%d" % listener.getsockname()[1], flush=True)
    while True:
        raw, _ = listener.accept()
        threading.Thread(target=serve, args=(context, raw, args.mode), daemon=True).start()


if __name__ == "__main__":
    main()
