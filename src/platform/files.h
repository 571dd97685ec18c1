// SPDX-License-Identifier: MIT
#pragma once
// Whole-file reads and descriptor checks, the same on every platform: stdio and <filesystem>
// (binary mode, so Windows keeps CRLF bytes as they are), never <unistd.h>, which MSVC lacks.
#include <cstdint>
#include <string>

#include "core/expected.h"

namespace hammer {

/// The whole file at `path` (a regular file, /dev/stdin, a pipe), or an errno: EISDIR for a
/// directory, EFBIG when it holds more than `limit` bytes, else what opening or reading said.
Expected<std::string, int> read_whole_file(const std::string& path, int64_t limit);

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
