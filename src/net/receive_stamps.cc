// SPDX-License-Identifier: MIT
#include "net/receive_stamps.h"

#include "platform/platform.h"

#if HAMMER_LINUX_APIS
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#endif

#include <cerrno>
#include <cstring>
#include <ctime>

namespace hammer {

#if HAMMER_LINUX_APIS

bool receive_stamps_supported() { return true; }

namespace {

// A loopback TCP pair, its accepting end asking for stamps; -1s where any step failed.
struct StampedPair {
  int sender = -1;
  int receiver = -1;
};

StampedPair open_stamped_pair() {
  StampedPair pair;
  const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listener < 0) return pair;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  if (::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
      ::listen(listener, 1) == 0 &&
      ::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length) == 0) {
    pair.sender = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (pair.sender >= 0 &&
        ::connect(pair.sender, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0) {
      pair.receiver = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
    }
  }
  ::close(listener);
  if (pair.receiver < 0 || !enable_receive_stamps(pair.receiver)) {
    if (pair.sender >= 0) ::close(pair.sender);
    if (pair.receiver >= 0) ::close(pair.receiver);
    return StampedPair{};
  }
  return pair;
}

// Sends a byte across and reads it back; true when the read carried a stamp.
bool byte_arrives_stamped(const StampedPair& pair) {
  if (::send(pair.sender, "s", 1, MSG_NOSIGNAL) != 1) return false;
  char byte = 0;
  for (int tries = 0; tries < 1000; ++tries) {  // loopback delivers within microseconds
    size_t got = 0;
    int error_number = 0;
    int64_t stamp = 0;
    const Io io = read_some_stamped(pair.receiver, &byte, 1, &got, &error_number, &stamp);
    if (io == Io::done) return stamp != 0;
    if (io != Io::would_block) return false;
    const timespec pause{0, 100'000};
    ::nanosleep(&pause, nullptr);
  }
  return false;
}

bool switch_receive_stamps_on() {
  const StampedPair pair = open_stamped_pair();
  if (pair.receiver < 0) return false;
  for (int tries = 0; tries < 200; ++tries) {
    if (byte_arrives_stamped(pair)) return true;  // the pair stays open: stamping stays on
    const timespec pause{0, 1'000'000};
    ::nanosleep(&pause, nullptr);
  }
  ::close(pair.sender);
  ::close(pair.receiver);
  return false;
}

}  // namespace

bool hold_receive_stamps_on() {
  static const bool on = switch_receive_stamps_on();  // once per process, thread-safe
  return on;
}

bool enable_receive_stamps(int fd) {
  const int on = 1;
  return setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on) == 0;
}

int64_t receive_stamp_in(const void* control, size_t length) {
  msghdr message{};
  message.msg_control = const_cast<void*>(control);
  message.msg_controllen = length;
  for (cmsghdr* header = CMSG_FIRSTHDR(&message); header != nullptr;
       header = CMSG_NXTHDR(&message, header)) {
    if (header->cmsg_level == SOL_SOCKET && header->cmsg_type == SCM_TIMESTAMPNS &&
        header->cmsg_len >= CMSG_LEN(sizeof(timespec))) {
      timespec stamp{};
      std::memcpy(&stamp, CMSG_DATA(header), sizeof stamp);
      return static_cast<int64_t>(stamp.tv_sec) * 1'000'000'000 + stamp.tv_nsec;
    }
  }
  return 0;
}

Io read_some_stamped(int fd, char* buffer, size_t capacity, size_t* got, int* err,
                     int64_t* stamp_wall_ns) {
  *got = 0;
  *err = 0;
  *stamp_wall_ns = 0;
  alignas(cmsghdr) char control[kReceiveStampControlBytes];
  iovec part{buffer, capacity};
  for (;;) {
    msghdr message{};
    message.msg_iov = &part;
    message.msg_iovlen = 1;
    message.msg_control = control;
    message.msg_controllen = sizeof control;
    const ssize_t count = ::recvmsg(fd, &message, 0);
    if (count > 0) {
      *got = static_cast<size_t>(count);
      *stamp_wall_ns = receive_stamp_in(control, message.msg_controllen);
      return Io::done;
    }
    if (count == 0) return Io::closed;
    const int error = errno;
    if (error == EINTR) continue;
    if (error == EAGAIN || error == EWOULDBLOCK) return Io::would_block;
    *err = error;
    return Io::error;
  }
}

#else

bool receive_stamps_supported() { return false; }
bool hold_receive_stamps_on() { return false; }
bool enable_receive_stamps(int) { return false; }
int64_t receive_stamp_in(const void*, size_t) { return 0; }

Io read_some_stamped(int fd, char* buffer, size_t capacity, size_t* got, int* err,
                     int64_t* stamp_wall_ns) {
  *stamp_wall_ns = 0;
  return read_some(fd, buffer, capacity, got, err);
}

#endif

}  // namespace hammer
