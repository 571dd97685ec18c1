// SPDX-License-Identifier: MIT
#include "platform/files.h"

#include <cerrno>
#include <cstdio>
#include <filesystem>

#include "platform/platform.h"

#if HAMMER_WINDOWS
#include <io.h>
#include <process.h>
#include <stdlib.h>
#include <windows.h>
#else
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

#include <atomic>
#include <cstring>
#include <vector>

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

Expected<std::string, std::string> read_bounded_file(const std::string& path, int64_t limit,
                                                     const std::string& limit_text) {
  auto contents = read_whole_file(path, limit);
  if (contents) return std::move(*contents);
  if (contents.error() == EFBIG) return unexpected("larger than " + limit_text);
  return unexpected("cannot read: " + std::string(std::strerror(contents.error())));
}

#if HAMMER_WINDOWS
// Windows: no mkstemp, fchmod or fsync, and rename() refuses to replace a file. The temporary
// file is named by process and counter and opened exclusively ("wx"), its bytes are flushed to
// the disk with _commit, and MoveFileEx replaces the target in one step.
std::optional<std::string> write_file_atomically(const std::string& path,
                                                 std::string_view contents) {
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) return std::strerror(EISDIR);
  static std::atomic<unsigned> counter{0};
  const std::string temporary = path + ".tmp." + std::to_string(_getpid()) + "." +
                                std::to_string(counter.fetch_add(1));
  std::FILE* file = std::fopen(temporary.c_str(), "wbx");
  if (file == nullptr) return std::strerror(errno);
  const bool written = std::fwrite(contents.data(), 1, contents.size(), file) == contents.size() &&
                       std::fflush(file) == 0 && _commit(_fileno(file)) == 0;
  const int error = errno;
  if (std::fclose(file) != 0 || !written) {
    std::remove(temporary.c_str());
    return std::strerror(written ? errno : (error != 0 ? error : EIO));
  }
  if (!MoveFileExA(temporary.c_str(), path.c_str(),
                   MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH)) {
    std::remove(temporary.c_str());
    return "cannot replace the file (Windows error " + std::to_string(GetLastError()) + ")";
  }
  return std::nullopt;
}

#else
namespace {

// mkstemp creates 0600; a report is an ordinary file, so it gets what open(2) would give it.
mode_t ordinary_file_mode() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return static_cast<mode_t>(0666 & ~mask);
}

bool write_all(int fd, std::string_view contents) {
  while (!contents.empty()) {
    const ssize_t wrote = ::write(fd, contents.data(), contents.size());
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote < 0) return false;
    contents.remove_prefix(static_cast<size_t>(wrote));
  }
  return true;
}

}  // namespace

std::optional<std::string> write_file_atomically(const std::string& path,
                                                 std::string_view contents) {
  // A directory is refused up front: rename(2) over it would fail with a less clear reason.
  struct stat target {};
  if (::stat(path.c_str(), &target) == 0 && S_ISDIR(target.st_mode)) return std::strerror(EISDIR);

  std::string temporary = path + ".tmp.XXXXXX";
  std::vector<char> name(temporary.begin(), temporary.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0) return std::strerror(errno);
  temporary.assign(name.data());
  auto fail = [&](int error) -> std::optional<std::string> {
    ::close(fd);
    ::unlink(temporary.c_str());
    return std::strerror(error);
  };
  if (::fchmod(fd, ordinary_file_mode()) != 0) return fail(errno);
  if (!write_all(fd, contents)) return fail(errno);
  if (::fsync(fd) != 0) return fail(errno);  // a full disk can surface only here
  if (::close(fd) != 0) {
    const int error = errno;
    ::unlink(temporary.c_str());
    return std::strerror(error);
  }
  if (::rename(temporary.c_str(), path.c_str()) != 0) {
    const int error = errno;
    ::unlink(temporary.c_str());
    return std::strerror(error);
  }
  return std::nullopt;
}

#endif


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
