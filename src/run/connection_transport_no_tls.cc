// SPDX-License-Identifier: MIT
// A build without OpenSSL (cmake/modules.cmake takes *_no_tls.cc only then): no TLS context,
// so an https:// run is refused before anything connects (main refuses it earlier still).
#include "run/connection_transport.h"

namespace hammer {

bool install_tls_allocator() { return false; }

Expected<std::shared_ptr<const TransportContext>, std::string> make_tls_transport_context(
    const Config&) {
  return unexpected(std::string("this build of hammer has no TLS (built without OpenSSL 3)"));
}

}  // namespace hammer
