// SPDX-License-Identifier: MIT
#pragma once
// Writing a report file so that a reader never sees half of it: the contents go to a temporary
// file beside the target, are flushed to disk, and only then renamed over the target (rename
// is atomic within a file system). A failure leaves any previous file untouched.
#include <optional>
#include <string>
#include <string_view>

namespace hammer {

/// Writes `contents` to `path` atomically, with mode 0666 less the umask. Returns nullopt on
/// success, else the system's reason ("Permission denied", "No such file or directory"); the
/// temporary file is removed on every failure.
std::optional<std::string> write_file_atomically(const std::string& path,
                                                 std::string_view contents);

}  // namespace hammer
