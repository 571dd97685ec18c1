// SPDX-License-Identifier: MIT
#include "report/atomic_file.h"

#include "platform/platform.h"

#if HAMMER_WINDOWS
#include <io.h>
#include <process.h>
#include <windows.h>
#else
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace hammer {

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

}  // namespace hammer
