// SPDX-License-Identifier: MIT
#pragma once
// What a failed connect says beyond its count. Most errors are kept as the run's first socket
// error, for one note. EADDRNOTAVAIL is different: it means this machine ran out of local ports
// (each closed connection holds its port in TIME_WAIT for 60 s, so a run that opens
// connections faster than ~28,000 a minute runs dry), not that the server failed; it gets its
// own count and one note that names the cause, instead of thousands of identical errors.
#include <cstdint>
#include <string>
#include <string_view>

#include "run/result.h"

namespace hammer {

/// Records one failed connect's cause in `result` (the caller counts it under
/// ErrorKind::connect): EADDRNOTAVAIL adds to result.connects_out_of_ports; any other error
/// becomes result.first_socket_error ("connect: Connection refused") if none was kept yet.
void note_connect_failure(RunResult& result, std::string_view what, int error_number);

/// The one-line note for `count` (> 0) connects that failed with EADDRNOTAVAIL.
std::string ports_ran_out_note(int64_t count);

}  // namespace hammer
