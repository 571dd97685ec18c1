// SPDX-License-Identifier: MIT
// Three ways to make a descriptor readable on demand (see wakeup.h). Each is level-triggered:
// readable from the first notify() until drain(), however many notifications came between.
#include "net/wakeup.h"

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "platform/native_socket.h"
#include "platform/platform.h"

#if HAMMER_LINUX_APIS
#include <sys/eventfd.h>
#endif
#if HAMMER_POSIX
#include <fcntl.h>
#include <unistd.h>
#endif

namespace hammer {

#if HAMMER_LINUX_APIS

// An eventfd is a counter: notify() adds 1, drain() reads (and so zeroes) it.
Expected<Wakeup, std::string> Wakeup::create() {
  const int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (fd < 0) return unexpected(std::string("eventfd: ") + std::strerror(errno));
  return Wakeup(fd, fd);
}

void Wakeup::notify() const {
  const int saved_errno = errno;  // a signal handler must not clobber the code it interrupted
  const uint64_t one = 1;
  // EAGAIN means the counter is saturated: already readable, nothing to do. A write to a
  // non-blocking eventfd never sleeps, so it cannot fail with EINTR.
  [[maybe_unused]] const ssize_t written = write(notify_fd_, &one, sizeof one);
  errno = saved_errno;
}

void Wakeup::drain() const {
  uint64_t count = 0;
  while (read(fd_, &count, sizeof count) < 0 && errno == EINTR) {
  }
}

#elif HAMMER_POSIX

// The self-pipe trick: the pipe holds one byte per pending notification (up to its capacity,
// after which a write fails with EAGAIN, and the read end is readable anyway).
Expected<Wakeup, std::string> Wakeup::create() {
  int ends[2];
  if (pipe(ends) != 0) return unexpected(std::string("pipe: ") + std::strerror(errno));
  for (const int end : ends) {
    const int flags = fcntl(end, F_GETFL);
    if (flags < 0 || fcntl(end, F_SETFL, flags | O_NONBLOCK) != 0 ||
        fcntl(end, F_SETFD, FD_CLOEXEC) != 0) {
      const int error = errno;
      close(ends[0]);
      close(ends[1]);
      return unexpected(std::string("pipe: ") + std::strerror(error));
    }
  }
  return Wakeup(ends[0], ends[1]);
}

void Wakeup::notify() const {
  const int saved_errno = errno;
  const char byte = 1;
  [[maybe_unused]] const ssize_t written = write(notify_fd_, &byte, 1);
  errno = saved_errno;
}

void Wakeup::drain() const {
  char bytes[64];
  for (;;) {
    const ssize_t got = read(fd_, bytes, sizeof bytes);
    if (got > 0) continue;
    if (got < 0 && errno == EINTR) continue;
    return;  // EAGAIN: empty
  }
}

#else  // Windows

// A loopback listener, one connect, one accept: the accepted end is watched, the connecting
// end is written. Both non-blocking; the listener is closed at once.
Expected<Wakeup, std::string> Wakeup::create() {
  if (const std::string failed = start_sockets(); !failed.empty()) return unexpected(failed);
  auto fail = [](const char* step, int error) {
    return unexpected(std::string("wake-up socket pair: ") + step + ": " + error_text(error));
  };
  const SOCKET listener = socket(AF_INET, SOCK_STREAM, IPPROTO_TCP);
  if (listener == INVALID_SOCKET) return fail("socket", last_socket_error());
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  int length = sizeof address;
  if (bind(listener, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0 ||
      listen(listener, 1) != 0 ||
      getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    const int error = last_socket_error();
    closesocket(listener);
    return fail("listen", error);
  }
  const int writer = open_stream_socket(AF_INET);
  if (writer < 0) {
    closesocket(listener);
    return fail("socket", -writer);
  }
  // Non-blocking connect to a listening loopback socket: in progress until accepted.
  if (connect(static_cast<SOCKET>(writer), reinterpret_cast<const sockaddr*>(&address),
              sizeof address) != 0 &&
      last_socket_error() != EWOULDBLOCK) {
    const int error = last_socket_error();
    closesocket(listener);
    close_native_socket(writer);
    return fail("connect", error);
  }
  const SOCKET reader = accept(listener, nullptr, nullptr);
  const int accept_error = reader == INVALID_SOCKET ? last_socket_error() : 0;
  closesocket(listener);
  if (reader == INVALID_SOCKET) {
    close_native_socket(writer);
    return fail("accept", accept_error);
  }
  u_long on = 1;
  ioctlsocket(reader, FIONBIO, &on);
  const int nodelay = 1;
  setsockopt(static_cast<SOCKET>(writer), IPPROTO_TCP, TCP_NODELAY,
             reinterpret_cast<const char*>(&nodelay), sizeof nodelay);
  return Wakeup(static_cast<int>(reader), writer);
}

void Wakeup::notify() const {
  // Called from the console control thread, or another worker: a send() is thread-safe.
  const int saved_errno = errno;
  const int saved_wsa = WSAGetLastError();
  const char byte = 1;
  send(static_cast<SOCKET>(notify_fd_), &byte, 1, 0);
  WSASetLastError(saved_wsa);
  errno = saved_errno;
}

void Wakeup::drain() const {
  char bytes[64];
  while (recv(static_cast<SOCKET>(fd_), bytes, sizeof bytes, 0) > 0) {
  }
}

#endif

void Wakeup::close_all() {
#if HAMMER_WINDOWS
  close_native_socket(fd_);
  close_native_socket(notify_fd_);
#else
  if (fd_ >= 0) close(fd_);
  if (notify_fd_ >= 0 && notify_fd_ != fd_) close(notify_fd_);
#endif
  fd_ = -1;
  notify_fd_ = -1;
}

Wakeup::Wakeup(Wakeup&& other) noexcept : fd_(other.fd_), notify_fd_(other.notify_fd_) {
  other.fd_ = -1;
  other.notify_fd_ = -1;
}

Wakeup& Wakeup::operator=(Wakeup&& other) noexcept {
  if (this != &other) {
    close_all();
    fd_ = other.fd_;
    notify_fd_ = other.notify_fd_;
    other.fd_ = -1;
    other.notify_fd_ = -1;
  }
  return *this;
}

Wakeup::~Wakeup() { close_all(); }

}  // namespace hammer
