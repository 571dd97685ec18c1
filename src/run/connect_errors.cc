// SPDX-License-Identifier: MIT
// See connect_errors.h: the cause of a failed connect, kept once, or counted apart when it is
// local port exhaustion.
#include "run/connect_errors.h"

#include <cerrno>
#include <cstring>

#include "platform/native_socket.h"

namespace hammer {

void note_connect_failure(RunResult& result, std::string_view what, int error_number) {
  if (error_number == EADDRNOTAVAIL) {
    ++result.connects_out_of_ports;
    return;
  }
  if (result.first_socket_error.empty()) {
    result.first_socket_error = std::string(what) + ": " + error_text(error_number);
  }
}

std::string ports_ran_out_note(int64_t count) {
  return "local ports ran out (EADDRNOTAVAIL): " + std::to_string(count) + " connect" +
         (count == 1 ? "" : "s") +
         " failed; TIME_WAIT holds each closed connection's port for 60 s: use keep-alive or "
         "fewer new connections per second";
}

}  // namespace hammer
