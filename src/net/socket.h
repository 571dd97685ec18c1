// SPDX-License-Identifier: MIT
#pragma once
// The few socket calls a connection needs, with errno turned into small enums. Resolution
// happens once at setup (getaddrinfo may block for seconds); everything else is
// non-blocking and allocation-free, fit for the hot path.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/config.h"
#include "core/expected.h"
#include "platform/native_socket.h"

namespace hammer {

/// An IPv4 or IPv6 address and port, as connect() takes it.
struct SocketAddress {
  sockaddr_storage storage{};
  socklen_t length = 0;

  int family() const { return storage.ss_family; }
  const sockaddr* get() const { return reinterpret_cast<const sockaddr*>(&storage); }
};

/// "127.0.0.1:8080" or "[::1]:8080", for messages.
std::string format_address(const SocketAddress& address);

/// Resolves target.host (numeric IPv4/IPv6, "[v6]" brackets tolerated, or a name) and
/// target.port_text (or target.port when port_text is empty; numeric only) with
/// getaddrinfo, once, at setup. Returns the first TCP address whose family this host can
/// open a socket for. The error reads "cannot resolve 'HOST': REASON".
Expected<SocketAddress, std::string> resolve_target(const Target& target);

/// Like resolve_target(), but every usable TCP address, in getaddrinfo's order (which follows
/// RFC 6724 and /etc/gai.conf), duplicates dropped. Never empty on success. "localhost" with
/// Debian's stock /etc/hosts gives ::1 then 127.0.0.1.
Expected<std::vector<SocketAddress>, std::string> resolve_target_all(const Target& target);

/// Tries a blocking connect (bounded by `timeout_ns` each) to each of `addresses` in order and
/// returns the first that connects, closing the test connection: the address a whole run then
/// uses, as curl and browsers fall back from one address to the next. When none connects, the
/// error names each address with its reason ("[::1]:80: Connection refused; 127.0.0.1:80:
/// Connection timed out"), or only the reason when there was one address.
Expected<SocketAddress, std::string> first_connecting_address(
    const std::vector<SocketAddress>& addresses, int64_t timeout_ns);

/// A TCP socket, non-blocking and close-on-exec, for `family` (AF_INET or AF_INET6).
/// Returns the fd, or -errno.
int open_nonblocking_socket(int family);

/// Closes a socket from open_nonblocking_socket() (closesocket() on Windows).
void close_socket(int fd);

enum class ConnectStatus { connected, in_progress, error };
struct ConnectResult {
  ConnectStatus status;
  int error;  // errno when status == error, else 0
};

/// Starts a non-blocking connect. `connected` (loopback can finish at once) also sets
/// TCP_NODELAY; after `in_progress`, wait for writability (or hangup_or_error), then
/// take_socket_error() says whether it connected, and set_no_delay() follows.
ConnectResult start_connect(int fd, const SocketAddress& address);

/// The socket's pending error (SO_ERROR), cleared by reading it; 0 when none. After a pending
/// connect: 0 if it connected, else the errno it failed with (e.g. ECONNREFUSED).
int take_socket_error(int fd);

/// Disables Nagle: a request must leave now, not wait for the previous one's ACK.
bool set_no_delay(int fd);

/// The outcome of one read or write: `done` moved > 0 bytes; `would_block` is EAGAIN;
/// `closed` is the peer's orderly close (read returned 0; for a write, EPIPE); `error`
/// carries errno in *err (e.g. ECONNRESET). EINTR is retried inside.
enum class Io { done, would_block, closed, error };

/// One read(2) (recv() on Windows) of up to `capacity` (> 0) bytes into `buffer`; *got is set on done, *err
/// on error (and set to 0 otherwise).
Io read_some(int fd, char* buffer, size_t capacity, size_t* got, int* err);

/// One send(2) of up to `length` (> 0) bytes with MSG_NOSIGNAL (SO_NOSIGPIPE on macOS), so a
/// closed peer is an Io::closed, never a SIGPIPE that kills the process. *wrote is set on done.
Io write_some(int fd, const char* buffer, size_t length, size_t* wrote, int* err);

/// As write_some(), from two buffers in one sendmsg(2) (a request's head and its body, which
/// live apart so a large body is never copied); `first_length` + `second_length` > 0.
Io write_some_two(int fd, const char* first, size_t first_length, const char* second,
                  size_t second_length, size_t* wrote, int* err);

/// Makes sure this process may open `needed` descriptors: returns the soft RLIMIT_NOFILE
/// unchanged when it suffices, else raises it to the hard limit and returns the new value.
/// When even the hard limit is below `needed`, raises to it anyway and returns an error
/// naming both numbers and how to raise the hard limit. Windows has no such limit for
/// sockets: there it returns `needed`.
Expected<int64_t, std::string> raise_fd_limit(int64_t needed);

}  // namespace hammer
