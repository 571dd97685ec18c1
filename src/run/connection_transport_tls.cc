// SPDX-License-Identifier: MIT
// The TLS transport (built where OpenSSL 3 is: cmake/modules.cmake takes *_tls.cc only then):
// the seam's interface over src/tls/'s TlsClient, one forwarding call per operation. The
// context is the run's one SSL_CTX, shared read-only by every worker (SSL_new is thread-safe).
#include <utility>

#include "run/connection_transport.h"
#include "tls/tls_block_cache.h"
#include "tls/tls_client.h"
#include "tls/tls_context.h"

namespace hammer {
namespace {

TransportIo transport_io(const TlsClient& client, TlsIo io) {
  switch (io) {
    case TlsIo::done:
      return TransportIo::done;
    case TlsIo::want_input:
      return TransportIo::want_input;
    case TlsIo::want_output:
      return TransportIo::want_output;
    case TlsIo::closed:
      return TransportIo::closed;
    case TlsIo::failed:
      // The socket ended without the server's close_notify: an end like any other here, for
      // the HTTP layer to judge (a complete response then a bare close is no error).
      return client.failure().kind == TlsError::closed_without_close_notify
                 ? TransportIo::closed
                 : TransportIo::failed;
  }
  return TransportIo::failed;
}

TransportState transport_state(TlsState state) {
  switch (state) {
    case TlsState::established:
    case TlsState::closed:
      return TransportState::established;
    case TlsState::idle:
    case TlsState::handshaking:
      return TransportState::handshaking;
    case TlsState::failed:
      return TransportState::failed;
  }
  return TransportState::failed;
}

class TlsTransport final : public ConnectionTransport {
 public:
  TlsTransport(const TlsContext& context, std::string_view server_name)
      : client_(context), server_name_(server_name) {}

  TransportState start() override { return transport_state(client_.start(server_name_)); }
  TransportState handshake() override { return transport_state(client_.handshake()); }
  void fail_handshake_timeout(int64_t timeout_ns) override {
    client_.fail_handshake_timeout(timeout_ns);
  }
  std::span<char> receive_space() override { return client_.ciphertext_space(); }
  void received(size_t bytes) override { client_.ciphertext_received(bytes); }
  size_t put_received(std::span<const char> bytes) override {
    return client_.put_ciphertext(bytes);
  }
  void peer_closed() override { client_.peer_closed(); }
  std::span<const char> to_send() const override { return client_.ciphertext_to_send(); }
  void sent(size_t bytes) override { client_.ciphertext_sent(bytes); }
  TransportTransfer read(std::span<char> out) override {
    const TlsTransfer transfer = client_.read(out);
    return {transport_io(client_, transfer.io), transfer.bytes};
  }
  TransportTransfer write(std::span<const char> in) override {
    const TlsTransfer transfer = client_.write(in);
    return {transport_io(client_, transfer.io), transfer.bytes};
  }
  std::string_view failure_reason() const override { return client_.failure().reason; }
  TransportRefusal failure_refusal() const override {
    if (refuses_client_certificate(client_.failure())) return TransportRefusal::client_certificate;
    if (refuses_application_protocol(client_.failure())) {
      return TransportRefusal::application_protocol;
    }
    if (refuses_security_parameters(client_.failure())) {
      return TransportRefusal::security_parameters;
    }
    return TransportRefusal::none;
  }
  TransportSession session() const override {
    const TlsSessionInfo& info = client_.session();
    return {info.version, info.cipher, info.alpn, info.resumed};
  }

 private:
  TlsClient client_;
  std::string_view server_name_;  // the context's copy
};

class TlsTransportContext final : public TransportContext {
 public:
  TlsTransportContext(TlsContext context, std::string server_name)
      : context_(std::move(context)), server_name_(std::move(server_name)) {}
  std::unique_ptr<ConnectionTransport> connection() const override {
    return std::make_unique<TlsTransport>(context_, server_name_);
  }
  bool verifies() const override { return context_.verifies(); }

 private:
  TlsContext context_;
  std::string server_name_;
};

std::string_view setup_flag(TlsSetupStep step) {
  switch (step) {
    case TlsSetupStep::ca_file:
      return "--cacert: ";
    case TlsSetupStep::cert_file:
      return "--cert: ";
    case TlsSetupStep::key_file:
      return "--key: ";
    case TlsSetupStep::key_mismatch:
      return "--key: not the key of --cert: ";
    case TlsSetupStep::system_store:
      return "TLS: cannot load the system's trust store (give --cacert): ";
    case TlsSetupStep::alpn:
    case TlsSetupStep::openssl:
      break;
  }
  return "TLS: cannot set up OpenSSL: ";
}

}  // namespace

bool install_tls_allocator() { return install_tls_block_cache(); }

Expected<std::shared_ptr<const TransportContext>, std::string> make_tls_transport_context(
    const Config& config) {
  // --http2 offers h2 alone: a server that would answer HTTP/1.1 is refused (start_protocol
  // names what it chose), never silently spoken to in the other protocol.
  auto context = config.http2 ? TlsContext::create(config.tls, {"h2"}) : TlsContext::create(config.tls);
  if (!context) {
    return unexpected(std::string(setup_flag(context.error().step)) + context.error().reason);
  }
  return std::shared_ptr<const TransportContext>(
      std::make_shared<TlsTransportContext>(std::move(*context), tls_server_name(config)));
}

}  // namespace hammer
