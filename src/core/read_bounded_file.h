// SPDX-License-Identifier: MIT
#pragma once
// Reads a whole file the user named, refusing to read past a limit. Saved documents and logs
// (hammer merge's inputs) are read this way: a directory says so instead of reading as an empty
// document, and /dev/zero or a huge file ends at the limit instead of growing memory without
// end. Portable C++ (no POSIX calls), so every platform build reads files the same way.
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

#include "core/expected.h"

namespace hammer {

/// The file's contents, or why not: "cannot read: <reason>" or "larger than <limit_text>".
inline Expected<std::string, std::string> read_bounded_file(const std::string& path,
                                                            int64_t limit,
                                                            const std::string& limit_text) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    return unexpected("cannot read: " + std::string(std::strerror(EISDIR)));
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) return unexpected("cannot read: " + std::string(std::strerror(errno)));
  std::string contents;
  char buffer[64 * 1024];
  while (file) {
    file.read(buffer, sizeof buffer);
    contents.append(buffer, static_cast<size_t>(file.gcount()));
    if (static_cast<int64_t>(contents.size()) > limit) {
      return unexpected("larger than " + limit_text);
    }
  }
  if (file.bad()) return unexpected("cannot read: " + std::string(std::strerror(errno)));
  return contents;
}

}  // namespace hammer
