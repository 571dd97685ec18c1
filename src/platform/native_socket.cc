// SPDX-License-Identifier: MIT
// See native_socket.h. One function per difference; each platform's half stays short.
#include "platform/native_socket.h"

#include <cerrno>
#include <cstring>

#if HAMMER_POSIX
#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>
#endif

namespace hammer {

#if HAMMER_WINDOWS

namespace {

struct WinsockStart {
  std::string error;
  WinsockStart() {
    WSADATA data{};
    const int status = WSAStartup(MAKEWORD(2, 2), &data);
    if (status != 0) error = "WSAStartup failed (error " + std::to_string(status) + ")";
  }
};

// errno values for the Winsock errors a client meets; anything else keeps its WSA number
// (10000 and up, never an errno) and error_text() asks Windows for its text.
int errno_from_wsa(int wsa) {
  switch (wsa) {
    case WSAEWOULDBLOCK: return EWOULDBLOCK;
    case WSAEINPROGRESS: return EINPROGRESS;
    case WSAEALREADY: return EALREADY;
    case WSAEINTR: return EINTR;
    case WSAECONNREFUSED: return ECONNREFUSED;
    case WSAECONNRESET: return ECONNRESET;
    case WSAECONNABORTED: return ECONNABORTED;
    case WSAETIMEDOUT: return ETIMEDOUT;
    case WSAEADDRNOTAVAIL: return EADDRNOTAVAIL;
    case WSAEADDRINUSE: return EADDRINUSE;
    case WSAENETUNREACH: return ENETUNREACH;
    case WSAEHOSTUNREACH: return EHOSTUNREACH;
    case WSAENETDOWN: return ENETDOWN;
    case WSAENETRESET: return ENETRESET;
    case WSAENOBUFS: return ENOBUFS;
    case WSAEMFILE: return EMFILE;
    case WSAENOTCONN: return ENOTCONN;
    case WSAEISCONN: return EISCONN;
    case WSAESHUTDOWN: return EPIPE;
    case WSAEAFNOSUPPORT: return EAFNOSUPPORT;
    case WSAEINVAL: return EINVAL;
    case WSAENOTSOCK: return ENOTSOCK;
    case WSAEACCES: return EACCES;
    case WSAEFAULT: return EFAULT;
    case WSAEMSGSIZE: return EMSGSIZE;
    default: return wsa;
  }
}

}  // namespace

std::string start_sockets() {
  static const WinsockStart started;  // setup only: never on the hot path
  return started.error;
}

int last_socket_error() { return errno_from_wsa(WSAGetLastError()); }

const char* error_text(int error_number) {
  // The wording of glibc, so a report reads the same on every platform.
  switch (error_number) {
    case EWOULDBLOCK: return "Resource temporarily unavailable";
    case EINPROGRESS: return "Operation now in progress";
    case EALREADY: return "Operation already in progress";
    case ECONNREFUSED: return "Connection refused";
    case ECONNRESET: return "Connection reset by peer";
    case ECONNABORTED: return "Software caused connection abort";
    case ETIMEDOUT: return "Connection timed out";
    case EADDRNOTAVAIL: return "Cannot assign requested address";
    case EADDRINUSE: return "Address already in use";
    case ENETUNREACH: return "Network is unreachable";
    case EHOSTUNREACH: return "No route to host";
    case ENETDOWN: return "Network is down";
    case ENETRESET: return "Network dropped connection on reset";
    case ENOBUFS: return "No buffer space available";
    case ENOTCONN: return "Transport endpoint is not connected";
    case EISCONN: return "Transport endpoint is already connected";
    case EAFNOSUPPORT: return "Address family not supported by protocol";
    case ENOTSOCK: return "Socket operation on non-socket";
    case EMSGSIZE: return "Message too long";
    default: break;
  }
  if (error_number >= WSABASEERR) {
    thread_local char text[256];
    const DWORD length = FormatMessageA(
        FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, nullptr,
        static_cast<DWORD>(error_number), 0, text, sizeof text, nullptr);
    if (length > 0) {
      DWORD end = length;
      while (end > 0 && (text[end - 1] == '\r' || text[end - 1] == '\n' || text[end - 1] == '.')) {
        --end;
      }
      text[end] = '\0';
      return text;
    }
  }
  return std::strerror(error_number);
}

void close_native_socket(int fd) {
  if (fd >= 0) closesocket(static_cast<SOCKET>(fd));
}

int open_stream_socket(int family) {
  const SOCKET handle =
      WSASocketW(family, SOCK_STREAM, IPPROTO_TCP, nullptr, 0, WSA_FLAG_NO_HANDLE_INHERIT);
  if (handle == INVALID_SOCKET) return -last_socket_error();
  u_long on = 1;
  if (ioctlsocket(handle, FIONBIO, &on) != 0) {
    const int error = last_socket_error();
    closesocket(handle);
    return -error;
  }
  return static_cast<int>(handle);
}

long receive_bytes(int fd, char* buffer, size_t length) {
  const int capped = length > 0x7fffffff ? 0x7fffffff : static_cast<int>(length);
  return recv(static_cast<SOCKET>(fd), buffer, capped, 0);
}

long send_bytes(int fd, const char* buffer, size_t length) {
  const int capped = length > 0x7fffffff ? 0x7fffffff : static_cast<int>(length);
  return send(static_cast<SOCKET>(fd), buffer, capped, 0);  // Windows has no SIGPIPE
}

long send_two_buffers(int fd, const char* first, size_t first_length, const char* second,
                      size_t second_length) {
  WSABUF parts[2];
  parts[0].buf = const_cast<char*>(first);  // WSABUF is not const-correct
  parts[0].len = static_cast<ULONG>(first_length);
  parts[1].buf = const_cast<char*>(second);
  parts[1].len = static_cast<ULONG>(second_length);
  DWORD sent = 0;
  if (WSASend(static_cast<SOCKET>(fd), parts, 2, &sent, 0, nullptr, nullptr) != 0) return -1;
  return static_cast<long>(sent);
}

int poll_sockets(pollfd* entries, size_t count, int timeout_ms) {
  const int ready = WSAPoll(entries, static_cast<ULONG>(count), timeout_ms);
  return ready == SOCKET_ERROR ? -1 : ready;
}

int listen_stream_socket(const sockaddr* address, socklen_t length, int backlog) {
  const int fd = open_stream_socket(address->sa_family);
  if (fd < 0) return fd;
  const SOCKET handle = static_cast<SOCKET>(fd);
  if (bind(handle, address, length) != 0 || listen(handle, backlog) != 0) {
    const int error = last_socket_error();
    closesocket(handle);
    return -error;
  }
  return fd;
}

int accept_stream_socket(int listen_fd) {
  const SOCKET handle = accept(static_cast<SOCKET>(listen_fd), nullptr, nullptr);
  if (handle == INVALID_SOCKET) return -last_socket_error();
  u_long on = 1;  // an accepted socket keeps the listener's mode; said again to be sure
  ioctlsocket(handle, FIONBIO, &on);
  SetHandleInformation(reinterpret_cast<HANDLE>(handle), HANDLE_FLAG_INHERIT, 0);
  return static_cast<int>(handle);
}

bool socket_local_address(int fd, sockaddr_storage* address, socklen_t* length) {
  *length = sizeof *address;
  return getsockname(static_cast<SOCKET>(fd), reinterpret_cast<sockaddr*>(address), length) == 0;
}

#else  // POSIX

std::string start_sockets() { return {}; }

const char* error_text(int error_number) { return std::strerror(error_number); }

void close_native_socket(int fd) {
  if (fd >= 0) ::close(fd);
}

#if !HAMMER_LINUX_APIS
namespace {

// macOS has neither SOCK_NONBLOCK nor SOCK_CLOEXEC (nor accept4): two fcntl calls instead, and
// where send() has no MSG_NOSIGNAL the socket itself must not raise SIGPIPE. Takes `fd` (or
// -errno, passed through); closes it when it fails.
int made_nonblocking(int fd) {
  if (fd < 0) return -errno;
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0 ||
      ::fcntl(fd, F_SETFD, FD_CLOEXEC) != 0) {
    const int error = errno;
    ::close(fd);
    return -error;
  }
#if defined(SO_NOSIGPIPE)
  const int on = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, sizeof on);
#endif
  return fd;
}

}  // namespace
#endif

int open_stream_socket(int family) {
#if HAMMER_LINUX_APIS
  const int fd = ::socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_TCP);
  return fd >= 0 ? fd : -errno;
#else
  return made_nonblocking(::socket(family, SOCK_STREAM, IPPROTO_TCP));
#endif
}

// receive_bytes, send_bytes, send_two_buffers: inline in native_socket.h (the hot path).

int poll_sockets(pollfd* entries, size_t count, int timeout_ms) {
  return ::poll(entries, static_cast<nfds_t>(count), timeout_ms);
}

int listen_stream_socket(const sockaddr* address, socklen_t length, int backlog) {
  const int fd = open_stream_socket(address->sa_family);
  if (fd < 0) return fd;
  const int on = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  if (::bind(fd, address, length) != 0 || ::listen(fd, backlog) != 0) {
    const int error = errno;
    ::close(fd);
    return -error;
  }
  return fd;
}

int accept_stream_socket(int listen_fd) {
#if HAMMER_LINUX_APIS
  const int fd = ::accept4(listen_fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
  return fd >= 0 ? fd : -errno;
#else
  return made_nonblocking(::accept(listen_fd, nullptr, nullptr));
#endif
}

bool socket_local_address(int fd, sockaddr_storage* address, socklen_t* length) {
  *length = sizeof *address;
  return ::getsockname(fd, reinterpret_cast<sockaddr*>(address), length) == 0;
}

#endif

}  // namespace hammer
