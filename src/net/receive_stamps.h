// SPDX-License-Identifier: MIT
#pragma once
// The kernel's software receive timestamps (SO_TIMESTAMPNS, Linux): each read of a socket
// that asked for them carries, in a control message, the wall-clock time its last packet
// reached this host. An open-loop worker that handles a response at its next slot's wake-up
// instead of the response's own (issue 27) times it by this stamp (time/receive_clock.h puts
// it on the monotonic clock), so its uncorrected latency stays exact. Elsewhere (macOS, the
// portable build, Windows) there are no stamps: reads report 0 and the worker keeps waking
// for every response.
#include <cstddef>
#include <cstdint>

#include "net/socket.h"

namespace hammer {

/// Room for the one control message a stamped read carries (a timespec), rounded up.
inline constexpr size_t kReceiveStampControlBytes = 64;

/// Whether this build can ask the kernel for receive timestamps at all.
bool receive_stamps_supported();

/// Whether the kernel stamps TCP reads here, switched on for the rest of the process. The
/// kernel stamps packets only while some socket asks for stamps, and switches that on (and
/// off, when the last such socket closes) from a work queue, a moment after the asking: a
/// connection's first response could arrive unstamped, and a run whose connections all
/// close at once (a reconnect) could switch it off. So the first call holds a loopback TCP
/// pair that asks, for the process's life, and waits (up to 200 ms) until a byte sent across
/// it is read with a stamp. Later calls return the first's answer at once.
bool hold_receive_stamps_on();

/// Asks the kernel to stamp every read of `fd` (SO_TIMESTAMPNS). False where it refused or
/// the platform has none.
bool enable_receive_stamps(int fd);

/// The stamp in a read's control bytes (`control`, `length` as recvmsg filled them), in
/// nanoseconds since the epoch; 0 when there is none.
int64_t receive_stamp_in(const void* control, size_t length);

/// As read_some(), with the read's stamp in *stamp_wall_ns (0 when it carried none).
Io read_some_stamped(int fd, char* buffer, size_t capacity, size_t* got, int* err,
                     int64_t* stamp_wall_ns);

}  // namespace hammer
