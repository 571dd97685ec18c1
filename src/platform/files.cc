// SPDX-License-Identifier: MIT
#include "platform/files.h"

#include <cerrno>
#include <cstdio>
#include <filesystem>

#include "platform/platform.h"

#if HAMMER_WINDOWS
#include <io.h>
#include <stdlib.h>
#else
#include <fcntl.h>
#endif

namespace hammer {

ParentDirectory parent_directory_of(const std::string& path, std::string& directory) {
  directory = std::filesystem::path(path).parent_path().string();
  if (directory.empty()) return ParentDirectory::ok;
  std::error_code error;
  const auto status = std::filesystem::status(directory, error);
  if (!std::filesystem::exists(status)) return ParentDirectory::missing;
  if (!std::filesystem::is_directory(status)) return ParentDirectory::not_a_directory;
  return ParentDirectory::ok;
}

bool same_file(const std::string& a, const std::string& b) {
  if (a == b) return true;
  std::error_code error;
  if (std::filesystem::exists(a, error) && std::filesystem::exists(b, error)) {
    const bool equivalent = std::filesystem::equivalent(a, b, error);
    if (!error) return equivalent;
  }
  // Absolute first: weakly_canonical leaves a relative path that does not exist as it is
  // ("a.json") but resolves "./a.json" from the working directory.
  auto resolved = [](const std::string& path, std::error_code& failure) {
    return std::filesystem::weakly_canonical(std::filesystem::absolute(path, failure), failure);
  };
  std::error_code a_error;
  std::error_code b_error;
  const auto canonical_a = resolved(a, a_error);
  const auto canonical_b = resolved(b, b_error);
  return !a_error && !b_error && canonical_a == canonical_b;
}

Expected<std::string, int> read_whole_file(const std::string& path, int64_t limit) {
  std::error_code status_error;
  const auto status = std::filesystem::status(path, status_error);
  if (std::filesystem::is_directory(status)) return unexpected(EISDIR);
  if (std::filesystem::is_regular_file(status)) {
    std::error_code size_error;
    const auto size = std::filesystem::file_size(path, size_error);
    if (!size_error && size > static_cast<uintmax_t>(limit)) return unexpected(EFBIG);
  }
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return unexpected(errno != 0 ? errno : ENOENT);
  // Read to end of file rather than trusting the size, so /dev/stdin and pipes work too.
  std::string contents;
  char buffer[16 * 1024];
  for (;;) {
    const size_t got = std::fread(buffer, 1, sizeof buffer, file);
    contents.append(buffer, got);
    if (static_cast<int64_t>(contents.size()) > limit) {
      std::fclose(file);
      return unexpected(EFBIG);
    }
    if (got == sizeof buffer) continue;
    if (std::ferror(file) != 0) {
      const int error = errno != 0 ? errno : EIO;
      std::fclose(file);
      return unexpected(error);
    }
    break;  // end of file
  }
  std::fclose(file);
  return contents;
}

#if HAMMER_WINDOWS
#if defined(_MSC_VER)
namespace {
// The UCRT reports a bad descriptor to the invalid-parameter handler, which by default ends the
// process; while asking, a handler that does nothing lets _get_osfhandle just return -1.
void ignore_invalid_parameter(const wchar_t*, const wchar_t*, const wchar_t*, unsigned, uintptr_t) {}
}  // namespace
#endif

bool descriptor_is_open(int fd) {
  if (fd < 0) return false;
#if defined(_MSC_VER)
  const _invalid_parameter_handler previous =
      _set_thread_local_invalid_parameter_handler(ignore_invalid_parameter);
  const intptr_t handle = _get_osfhandle(fd);
  _set_thread_local_invalid_parameter_handler(previous);
#else
  const intptr_t handle = _get_osfhandle(fd);  // MinGW's msvcrt.dll returns -1 quietly
#endif
  return handle != -1;
}
#else
bool descriptor_is_open(int fd) { return fd >= 0 && ::fcntl(fd, F_GETFD) != -1; }
#endif

}  // namespace hammer
