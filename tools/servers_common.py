# SPDX-License-Identifier: MIT
"""servers_common: what the Python test servers in tools/ share.

Not a program: pausing_server.py, h2_hostile_server.py and tls_hostile_server.py import it from
their own directory (a script's directory is first on sys.path), so they still run as
`python3 tools/NAME.py ...` from anywhere, with the stdlib alone.

- ThreadedServer: a listener on (host, port) that serves each accepted connection on a thread
  of its own, with TCP_NODELAY, and that shutdown() stops from another thread;
- serve_until_stopped(): the main thread of such a server, from "listening on HOST:PORT" to
  SIGTERM or SIGINT;
- die_with_parent(): PR_SET_PDEATHSIG, so that no server outlives the test that started it.
"""

import os
import signal
import socket
import sys
import threading

STOP_SIGNALS = {signal.SIGTERM, signal.SIGINT}


def die_with_parent():
    """Linux: get SIGTERM when the parent exits, so that a crashed test, or a wrapper killed by
    its PID (pyenv's python3 shim forks rather than execs), leaves no server holding a port."""
    try:
        import ctypes
        pr_set_pdeathsig = 1
        ctypes.CDLL(None).prctl(pr_set_pdeathsig, int(signal.SIGTERM))
    except (OSError, AttributeError):
        pass


class ThreadedServer:
    """Accepts on (host, port) and calls self.handle(sock) on a thread per connection; the
    socket is closed when handle() returns or raises OSError (ECONNRESET, EPIPE, or our own
    shutdown: the connection is over either way). Subclasses define handle()."""

    def __init__(self, host, port):
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener.bind((host, port))
        self._listener.listen(1024)
        self._connections = set()
        self._connections_lock = threading.Lock()
        self.address = self._listener.getsockname()

    def handle(self, sock):
        raise NotImplementedError

    def serve_forever(self):
        """Accepts until shutdown() closes the listener."""
        while True:
            try:
                sock, _ = self._listener.accept()
            except OSError:
                return
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self._connections_lock:
                self._connections.add(sock)
            threading.Thread(target=self._serve_connection, args=(sock,), daemon=True).start()

    def shutdown(self):
        try:
            self._listener.shutdown(socket.SHUT_RDWR)  # wakes the accept(); close() alone would not
        except OSError:
            pass
        self._listener.close()
        with self._connections_lock:
            connections = list(self._connections)
        for sock in connections:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def _serve_connection(self, sock):
        try:
            self.handle(sock)
        except OSError:
            pass
        finally:
            with self._connections_lock:
                self._connections.discard(sock)
            sock.close()


def _serve_then_stop(server):
    """Runs the accept loop; should it ever end by itself, the process stops rather than hangs."""
    try:
        server.serve_forever()
    finally:
        os.kill(os.getpid(), signal.SIGTERM)


def serve_until_stopped(name, host, port, make_server):
    """The main thread of a server: make_server() (a ThreadedServer) accepts on a thread of its
    own once "listening on HOST:PORT" is printed (flushed); SIGTERM or SIGINT shuts it down.
    Returns the exit status: 0, or 2 when it cannot listen (said on stderr, as `name: ...`).

    The stop signals are blocked in every thread and taken by sigwait() here, not by a Python
    handler: CPython 3.11 can lose a handler's signal (a connection thread may clear the
    "signals pending" check before the main thread sees it), which left pausing_server in
    accept() after SIGTERM about once in 500 runs. A blocked signal stays pending until taken."""
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    die_with_parent()
    try:
        server = make_server()
    except OSError as error:
        print(f"{name}: cannot listen on {host}:{port}: {error.strerror}", file=sys.stderr)
        return 2
    accepter = threading.Thread(target=_serve_then_stop, args=(server,), daemon=True)
    accepter.start()
    print(f"listening on {server.address[0]}:{server.address[1]}", flush=True)
    signal.sigwait(STOP_SIGNALS)
    server.shutdown()
    return 0
