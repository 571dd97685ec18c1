// SPDX-License-Identifier: MIT
#pragma once
// The HPACK header block of the request a run sends, built once at setup from the same
// RequestSpec the HTTP/1.1 path serialises (RFC 9113 §8.3.1, §8.2.2): the four request
// pseudo-header fields first (:method, :scheme, :authority, :path), then the user's fields
// with lower-case names. Host becomes :authority; the connection-specific fields HTTP/2
// forbids (Connection, Keep-Alive, Proxy-Connection, Transfer-Encoding, Upgrade, and TE
// other than "trailers") are left out rather than sent to be refused as malformed.
// content-length is added as serialize_request_head() adds Content-Length.
#include <string>
#include <vector>

#include "http/request.h"
#include "http2/hpack_encoder.h"

namespace hammer::http2 {

/// `https` picks :scheme. The block is the same for every stream of every connection.
std::string encode_request_block(const RequestSpec& spec, bool https,
                                 HpackEncodeOptions options = {});

/// The -H lines among `headers` that encode_request_block() leaves out as connection-specific,
/// by their names as given ("Connection"), each once: the report says they were not sent.
std::vector<std::string> connection_specific_names(const std::vector<std::string>& headers);

}  // namespace hammer::http2
