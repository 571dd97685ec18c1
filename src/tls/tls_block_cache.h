// SPDX-License-Identifier: MIT
#pragma once
// OpenSSL's allocator, with small blocks kept per thread for reuse: OpenSSL 3.0's record
// layer allocates and frees a 40-byte WPACKET_SUB inside every SSL_write and every TLS 1.3
// record sealed or opened (about four per request, docs/tls.md), so without this the hot path
// over TLS would call malloc and free per request. With it those come from the calling
// thread's free list: no malloc, no lock, no atomic. Installed once by main() before OpenSSL's
// first allocation (CRYPTO_set_mem_functions refuses later); run/connection_transport.h's
// install_tls_allocator() is the build-independent way to ask.
#include <cstddef>
#include <cstdint>

namespace hammer {

/// Blocks up to this many bytes are cached; larger ones go straight to malloc.
inline constexpr size_t kTlsSmallBlockBytes = 64;
/// Cached blocks one thread keeps at most; the rest are freed.
inline constexpr int kTlsBlocksPerThread = 256;

/// The three functions CRYPTO_set_mem_functions takes (exposed for tests, which install their
/// own counting hooks over them).
void* tls_block_malloc(size_t bytes, const char* file, int line);
void* tls_block_realloc(void* block, size_t bytes, const char* file, int line);
void tls_block_free(void* block, const char* file, int line);

/// Installs them as OpenSSL's allocator; false when OpenSSL has allocated already.
bool install_tls_block_cache();

/// Blocks taken from malloc so far (every thread's: each thread adds its count when it ends),
/// for the allocation tests.
int64_t tls_block_system_allocations();

}  // namespace hammer
