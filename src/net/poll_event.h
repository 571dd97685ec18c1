// SPDX-License-Identifier: MIT
#pragma once
// What every poller backend speaks: interest bits in, PollEvents out. Kept apart so each
// backend's header can include it without pulling in the other backend.
#include <cstdint>

namespace hammer {

/// Interest bits for a poller's add() / modify(). Hang-ups and errors are always reported.
enum : uint32_t { kPollRead = 1, kPollWrite = 2 };

/// One ready descriptor, as returned by a poller's wait().
struct PollEvent {
  uint64_t token;        // the caller's value given to add()/modify(), e.g. a connection index
  bool readable;         // data to read, or end of stream (read then returns 0)
  bool writable;
  bool hangup_or_error;  // hang-up (e.g. reset, both directions closed) or a pending socket
                         // error, such as a failed connect: take_socket_error() says which
};

}  // namespace hammer
