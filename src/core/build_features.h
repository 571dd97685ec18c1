// SPDX-License-Identifier: MIT
#pragma once
// What this build of hammer was built with, as constants, so code decides with an ordinary
// `if` (both branches compiled everywhere) instead of an #if of its own.

namespace hammer {

/// TLS (https:// URLs): built where OpenSSL 3 was found (cmake/tls.cmake, HAMMER_TLS).
#if defined(HAMMER_HAVE_TLS)
inline constexpr bool kBuiltWithTls = true;
#else
inline constexpr bool kBuiltWithTls = false;
#endif

}  // namespace hammer
