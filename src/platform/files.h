// SPDX-License-Identifier: MIT
#pragma once
// The one way hammer reads and writes the files a user names: whole-file reads bounded by a
// limit (stdio and <filesystem>, binary mode, so Windows keeps CRLF bytes as they are) and
// atomic writes that reach the disk before they replace anything; descriptor checks. Every
// platform difference is in files.cc: the callers (runs, `hammer merge`, `hammer report`) are
// the same on all of them.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/expected.h"

namespace hammer {

/// The whole file at `path` (a regular file, /dev/stdin, a pipe), or an errno: EISDIR for a
/// directory, EFBIG when it holds more than `limit` bytes, else what opening or reading said.
Expected<std::string, int> read_whole_file(const std::string& path, int64_t limit);

/// read_whole_file() with the reason in words, for saved documents and logs: "cannot read:
/// <the system's reason>" or "larger than <limit_text>". A directory says so instead of
/// reading as an empty document; /dev/zero or a huge file ends at the limit instead of
/// growing memory without end.
Expected<std::string, std::string> read_bounded_file(const std::string& path, int64_t limit,
                                                     const std::string& limit_text);

/// Writes `contents` to `path` so that a reader never sees half of it: the contents go to a
/// temporary file beside the target, are flushed to disk (fsync; _commit on Windows), and only
/// then renamed over the target (atomic within a file system), with mode 0666 less the umask.
/// A failure leaves any previous file untouched and removes the temporary file. Returns
/// nullopt on success, else the system's reason ("Permission denied", "No such file or
/// directory").
std::optional<std::string> write_file_atomically(const std::string& path,
                                                 std::string_view contents);

/// `a` and `b` name the same file, however spelled ("x.json", "./x.json", "d/../x.json", a
/// link to it); either may not exist yet. Used to refuse an output that would overwrite an input.
bool same_file(const std::string& a, const std::string& b);

/// Whether a file can be created at `path` as far as its directory goes: `directory` is set to
/// the directory as the path spells it (empty for the working directory, which is `ok`).
enum class ParentDirectory : uint8_t { ok, missing, not_a_directory };
ParentDirectory parent_directory_of(const std::string& path, std::string& directory);

/// `fd` is a descriptor this process has open (POSIX: fcntl F_GETFD; Windows: the C runtime
/// knows it).
bool descriptor_is_open(int fd);

}  // namespace hammer
