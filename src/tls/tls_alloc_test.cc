// SPDX-License-Identifier: MIT
// What OpenSSL allocates on the client's side of a connection, counted through
// CRYPTO_set_mem_functions (OpenSSL's own allocator hook; it must be installed before
// OpenSSL's first allocation, hence the static initializer). Only the client's calls are
// counted: the in-process server allocates as it likes (a counting flag per thread is on only
// around TlsClient calls).
//
// OpenSSL 3.0 is not allocation-free per record: its record layer builds each record with a
// WPACKET, whose bookkeeping (a 40-byte WPACKET_SUB) it allocates and frees within the call:
// two per SSL_write, and with TLS 1.3 one more per record encrypted or decrypted (the AAD).
// What this test holds it to: after the first exchange, nothing it allocates outlives the
// call (no buffer grows, nothing is retained), no block is larger than that bookkeeping, and
// the count per exchange is the same every time.
#include <gtest/gtest.h>
#include <openssl/crypto.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "tls/tls_client.h"
#include "tls/tls_context.h"
#include "tls/tls_testing.h"

namespace hammer {
namespace {

thread_local bool counting = false;
thread_local int64_t allocations = 0;
thread_local int64_t frees = 0;
thread_local size_t largest_bytes = 0;

void* counted_malloc(size_t bytes, const char*, int) {
  if (counting) {
    ++allocations;
    largest_bytes = std::max(largest_bytes, bytes);
  }
  return std::malloc(bytes);
}
void* counted_realloc(void* pointer, size_t bytes, const char*, int) {
  if (counting) {
    ++allocations;
    if (pointer != nullptr) ++frees;
    largest_bytes = std::max(largest_bytes, bytes);
  }
  return std::realloc(pointer, bytes);
}
void counted_free(void* pointer, const char*, int) {
  if (counting && pointer != nullptr) ++frees;
  std::free(pointer);
}

const bool hooks_installed =
    CRYPTO_set_mem_functions(counted_malloc, counted_realloc, counted_free) == 1;

// Counts OpenSSL's allocations made inside `call` on this thread.
template <class Call>
int64_t allocations_in(Call&& call) {
  const int64_t before = allocations;
  counting = true;
  call();
  counting = false;
  return allocations - before;
}

// A Link whose client side is counted: the same moves as tls_testing.h's, with the client's
// calls wrapped. The server's calls (drive, send, take) are not counted.
struct CountedExchange {
  CountedExchange(TlsClient& tls_client, test::TestServer& tls_server)
      : client(tls_client), server(tls_server) {}

  TlsClient& client;
  test::TestServer& server;
  int64_t client_allocations = 0;
  std::string received;

  void round_trip(std::string_view request, std::string_view response) {
    client_allocations += allocations_in([&] {
      size_t offset = 0;
      while (offset < request.size()) {
        const TlsTransfer transfer = client.write(request.substr(offset));
        ASSERT_EQ(transfer.io, TlsIo::done);
        offset += transfer.bytes;
      }
    });
    for (;;) {
      std::span<const char> out;
      client_allocations += allocations_in([&] { out = client.ciphertext_to_send(); });
      if (out.empty()) break;
      server.receive(out.data(), out.size());
      client_allocations += allocations_in([&] { client.ciphertext_sent(out.size()); });
    }
    server.drive();
    server.send(response);
    char buffer[16384];
    while (server.pending() > 0) {
      std::span<char> space;
      client_allocations += allocations_in([&] { space = client.ciphertext_space(); });
      const size_t count = server.take(space.data(), std::min(space.size(), server.pending()));
      client_allocations += allocations_in([&] {
        client.ciphertext_received(count);
        for (;;) {
          const TlsTransfer transfer = client.read(buffer);
          if (transfer.io != TlsIo::done) break;
          received.append(buffer, transfer.bytes);  // std::string: not OpenSSL's allocator
        }
      });
    }
  }
};

TEST(TlsAllocationTest, ApplicationDataKeepsNoMemoryAfterTheFirstExchange) {
  ASSERT_TRUE(hooks_installed) << "OpenSSL allocated before the hooks were installed";
  for (const int version : {TLS1_2_VERSION, TLS1_3_VERSION}) {
    SCOPED_TRACE(version == TLS1_3_VERSION ? "TLS 1.3" : "TLS 1.2");
    TlsConfig config;
    config.ca_file = test::TestPki::get().ca;
    auto context = TlsContext::create(config);
    ASSERT_TRUE(context);
    test::TestServerOptions options;
    options.min_version = version;
    options.max_version = version;
    test::TestServerContext server_context(options);
    test::TestServer server(server_context);
    TlsClient client(*context);

    const int64_t at_start = allocations_in([&] { client.start("localhost"); });
    test::Link link{client, server};
    link.settle();
    ASSERT_EQ(client.state(), TlsState::established);
    EXPECT_GT(at_start, 0);  // the counter sees OpenSSL's allocations at all

    const std::string request(300, 'q');
    const std::string response(20'000, 'r');  // two records
    CountedExchange exchange{client, server};
    exchange.round_trip(request, response);  // TLS 1.3 tickets arrive and are kept here
    exchange.received.clear();
    exchange.received.reserve(201 * response.size());

    exchange.client_allocations = 0;
    exchange.round_trip(request, response);
    const int64_t per_exchange = exchange.client_allocations;
    const int64_t allocations_before = allocations;
    const int64_t frees_before = frees;
    largest_bytes = 0;
    exchange.client_allocations = 0;
    for (int k = 0; k < 200; ++k) exchange.round_trip(request, response);
    EXPECT_EQ(exchange.received.size(), 201 * response.size());
    EXPECT_EQ(exchange.client_allocations, 200 * per_exchange);  // the same every time
    EXPECT_EQ(allocations - allocations_before, frees - frees_before);  // none outlives a call
    EXPECT_LE(largest_bytes, 64u);  // bookkeeping, never a buffer (those are 16 KB and up)
    // OpenSSL 3.0's figures, so a change shows here: 2 per write (+1 per TLS 1.3 record).
    EXPECT_LE(per_exchange, version == TLS1_3_VERSION ? 5 : 2);
  }
}

}  // namespace
}  // namespace hammer
