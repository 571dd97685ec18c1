// SPDX-License-Identifier: MIT
#pragma once
// Checked writes of what hammer prints on standard output (the report, --json, --help,
// --version, generated files). A report that could not be written is a failed run, not a
// success with an empty file: `hammer --json URL > out.json` on a full disk must say so.
// stdio buffers, so a write may fail only at the flush, or at the close: both are checked.
#include <cstdio>
#include <string>
#include <string_view>

namespace hammer {

class StdoutWriter {
 public:
  explicit StdoutWriter(std::FILE* stream = stdout) : stream_(stream) {}

  /// Writes `text` and flushes it (rows of a sweep must appear as they finish). After the
  /// first failure it writes nothing more and keeps that failure's reason.
  bool write(std::string_view text);

  /// Closes the stream (the last chance for a buffered write to fail); false if it failed now
  /// or any write failed before.
  bool close();

  bool failed() const { return !error_.empty(); }
  /// "cannot write to standard output: No space left on device"; empty when nothing failed.
  const std::string& error() const { return error_; }

 private:
  void note_failure(int error_number);

  std::FILE* stream_;
  std::string error_;
};

}  // namespace hammer
