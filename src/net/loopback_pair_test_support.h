// SPDX-License-Identifier: MIT
#pragma once
// A connected TCP pair on 127.0.0.1 for tests of reads, stamps and engines: the client's end
// is non-blocking (as a worker's sockets are), the server's end is blocking.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

namespace hammer {

struct LoopbackPair {
  int client = -1;
  int server = -1;
  LoopbackPair() {
    const int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    EXPECT_EQ(bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
    EXPECT_EQ(listen(listener, 1), 0);
    EXPECT_EQ(getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length), 0);
    client = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    const int started = connect(client, reinterpret_cast<sockaddr*>(&address), sizeof address);
    EXPECT_TRUE(started == 0 || errno == EINPROGRESS);
    server = accept(listener, nullptr, nullptr);
    EXPECT_GE(server, 0);
    close(listener);
  }
  LoopbackPair(const LoopbackPair&) = delete;
  LoopbackPair& operator=(const LoopbackPair&) = delete;
  ~LoopbackPair() {
    if (client >= 0) close(client);
    if (server >= 0) close(server);
  }
};

}  // namespace hammer
