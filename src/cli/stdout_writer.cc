// SPDX-License-Identifier: MIT
#include "cli/stdout_writer.h"

#include <cerrno>
#include <cstring>

namespace hammer {

void StdoutWriter::note_failure(int error_number) {
  if (!error_.empty()) return;
  error_ = std::string("cannot write to standard output: ") +
           (error_number != 0 ? std::strerror(error_number) : "write error");
}

bool StdoutWriter::write(std::string_view text) {
  if (failed() || stream_ == nullptr) return false;
  errno = 0;
  const size_t written = std::fwrite(text.data(), 1, text.size(), stream_);
  if (written != text.size() || std::fflush(stream_) != 0 || std::ferror(stream_) != 0) {
    note_failure(errno);
    return false;
  }
  return true;
}

bool StdoutWriter::close() {
  if (stream_ == nullptr) return !failed();
  errno = 0;
  const bool error_pending = std::ferror(stream_) != 0;
  const int closed = std::fclose(stream_);
  stream_ = nullptr;
  if (closed != 0 || error_pending) note_failure(errno);
  return !failed();
}

}  // namespace hammer
