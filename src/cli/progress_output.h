// SPDX-License-Identifier: MIT
#pragma once
// --progress-fd: writes progress lines to a descriptor the caller opened, without ever holding
// up the run. A line the reader has no room for is left out (progress is a view, the report is
// the record), and a reader that went away ends the output, not hammer.
#include <cstdint>
#include <string_view>

namespace hammer {

class ProgressOutput {
 public:
  /// `fd` < 0: writes nothing. Otherwise SIGPIPE is ignored from here on, so a closed pipe is
  /// an EPIPE error instead of the end of the process.
  explicit ProgressOutput(int fd);

  /// Writes one whole line (at most PIPE_BUF bytes, so a pipe takes it whole or not at all).
  void write_line(std::string_view line);

  int64_t skipped() const { return skipped_; }

 private:
  int fd_;
  int64_t skipped_ = 0;
};

}  // namespace hammer
