// SPDX-License-Identifier: MIT
#pragma once
// The socket system interface of this platform, and the few places where Winsock and BSD
// sockets disagree, papered over once:
// - a socket is an `int` everywhere in hammer. On Windows a SOCKET is a pointer-sized handle,
//   but handle values fit in 32 bits (Windows keeps them so for 32-bit interop), so the cast
//   is lossless; INVALID_SOCKET becomes -1.
// - errors are errno values everywhere: WSAGetLastError() codes are translated to the errno
//   with the same meaning (WSAECONNREFUSED -> ECONNREFUSED), so callers compare one set.
// - Windows' C runtime has no text for the socket errnos (strerror(ECONNREFUSED) is "Unknown
//   error"), so error_text() supplies it.
#include <cstddef>
#include <string>

#include "platform/platform.h"

#if HAMMER_WINDOWS
#include <winsock2.h>
#include <ws2tcpip.h>
#else
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#endif

namespace hammer {

/// Starts the socket library for this process (WSAStartup on Windows; nothing elsewhere).
/// Empty on success, else the reason. Thread-safe; a look-up after the first call.
std::string start_sockets();

/// The error of the socket call that just failed, as an errno value (see above).
#if HAMMER_WINDOWS
int last_socket_error();
#else
inline int last_socket_error() { return errno; }
#endif

/// strerror(), with texts for the socket errors Windows' C runtime cannot name.
const char* error_text(int error_number);

/// close(2), or closesocket() on Windows. Negative fds are ignored.
void close_native_socket(int fd);

/// A stream socket of `family` that is non-blocking and not inherited by child processes.
/// Returns the fd, or -errno.
int open_stream_socket(int family);

/// One recv()/send() of at most `length` bytes; the byte count, or -1 with
/// last_socket_error() set. send() never raises SIGPIPE (MSG_NOSIGNAL, SO_NOSIGPIPE).
/// On POSIX they are inline: the worker's hot path gets the bare system call, as before the
/// platform layer.
#if HAMMER_WINDOWS
long receive_bytes(int fd, char* buffer, size_t length);
long send_bytes(int fd, const char* buffer, size_t length);
/// One gathering send of two buffers (sendmsg / WSASend), same conventions as send_bytes().
long send_two_buffers(int fd, const char* first, size_t first_length, const char* second,
                      size_t second_length);
#else
inline long receive_bytes(int fd, char* buffer, size_t length) { return ::read(fd, buffer, length); }

inline long send_bytes(int fd, const char* buffer, size_t length) {
#if defined(MSG_NOSIGNAL)
  return ::send(fd, buffer, length, MSG_NOSIGNAL);
#else
  return ::send(fd, buffer, length, 0);  // SO_NOSIGPIPE, set at open, does the same
#endif
}

/// One gathering send of two buffers (sendmsg), same conventions as send_bytes().
inline long send_two_buffers(int fd, const char* first, size_t first_length, const char* second,
                             size_t second_length) {
  iovec parts[2] = {{const_cast<char*>(first), first_length},
                    {const_cast<char*>(second), second_length}};
  msghdr message{};
  message.msg_iov = parts;
  message.msg_iovlen = 2;
#if defined(MSG_NOSIGNAL)
  return ::sendmsg(fd, &message, MSG_NOSIGNAL);
#else
  return ::sendmsg(fd, &message, 0);  // SO_NOSIGPIPE, set at open, does the same
#endif
}
#endif

/// A listening stream socket bound to `address` (non-blocking, not inherited; on POSIX with
/// SO_REUSEADDR, so a port left in TIME_WAIT by the previous run can be bound again).
/// Returns the fd, or -errno (EADDRINUSE: another process listens there).
int listen_stream_socket(const sockaddr* address, socklen_t length, int backlog);
/// accept(2) on a listening socket: the new connection's fd, non-blocking and not inherited,
/// or -errno (EWOULDBLOCK: none waiting).
int accept_stream_socket(int listen_fd);
/// getsockname(2): the address `fd` is bound to (the port a listen on port 0 was given).
bool socket_local_address(int fd, sockaddr_storage* address, socklen_t* length);

/// poll(2) (WSAPoll on Windows) over `count` entries with a millisecond timeout (-1: forever).
/// The count of ready entries, or -1 with last_socket_error() set.
int poll_sockets(pollfd* entries, size_t count, int timeout_ms);

}  // namespace hammer
