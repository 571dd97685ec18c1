#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A TLS server that ends every connection without a close_notify, for hammer's TLS e2e tests.

Each connection reads one request head, answers it with `Connection: close`, then closes the
TCP connection bare (no TLS close_notify). --mode complete answers in full (Content-Length 5,
five bytes): no error for the client. --mode truncated announces 100 bytes and sends 5: a
truncated response. --mode silent reads the request and never answers (a request timeout). Prints "listening on 127.0.0.1:PORT" (--port 0 picks one).
"""
import argparse
import signal
import socket
import ssl
import sys
import threading


def serve(context, raw, mode):
    try:
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
        length = 5 if mode == "complete" else 100
        connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n"
                           b"hello" % length)
        # detach() leaves the TCP socket without sending the TLS close_notify.
        socket.socket(fileno=connection.detach()).close()
    except (OSError, ssl.SSLError):
        raw.close()


def _die_with_parent():
    """Linux: SIGTERM when the parent exits, so a crashed test leaves no server behind."""
    try:
        import ctypes
        ctypes.CDLL(None).prctl(1, int(signal.SIGTERM))  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def main():
    _die_with_parent()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--mode", choices=["complete", "truncated", "silent"], default="complete")
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
