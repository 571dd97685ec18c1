# TLS (https:// URLs) with OpenSSL 3 (Debian's libssl-dev): HAMMER_TLS=AUTO builds it wherever
# OpenSSL 3 is found, ON makes it required (the configure fails without it), OFF leaves it out.
# A build without it (the MinGW cross build here: Debian has no OpenSSL for MinGW) refuses
# https:// URLs in one line; src/core/build_features.h tells the code which build it is.
set(HAMMER_TLS "AUTO" CACHE STRING "TLS with OpenSSL 3: AUTO (where found), ON (required) or OFF")
set_property(CACHE HAMMER_TLS PROPERTY STRINGS AUTO ON OFF)
string(TOUPPER "${HAMMER_TLS}" hammer_tls_mode)
if(NOT hammer_tls_mode MATCHES "^(AUTO|ON|OFF)$")
  message(FATAL_ERROR "HAMMER_TLS must be AUTO, ON or OFF, got '${HAMMER_TLS}'")
endif()

# HAMMER_STATIC_OPENSSL=ON links libssl.a and libcrypto.a (Debian's libssl-dev ships both)
# into hammer: the npm package's Linux binary (scripts/release.sh) then runs where libssl3 is
# absent. Its compiled-in OPENSSLDIR (Debian's /usr/lib/ssl) may be missing there: the trust
# store is then looked for where other distributions keep it (src/tls/system_trust_store.h).
option(HAMMER_STATIC_OPENSSL "Link OpenSSL statically (libssl.a, libcrypto.a)" OFF)

set(HAMMER_HAVE_TLS OFF)
if(NOT hammer_tls_mode STREQUAL "OFF")
  if(HAMMER_STATIC_OPENSSL)
    set(OPENSSL_USE_STATIC_LIBS TRUE)
  endif()
  find_package(OpenSSL 3.0 COMPONENTS SSL Crypto)
  if(HAMMER_STATIC_OPENSSL AND NOT OPENSSL_SSL_LIBRARY MATCHES "\\.a$")
    message(FATAL_ERROR "HAMMER_STATIC_OPENSSL=ON but no static libssl.a was found "
                        "(Debian: apt-get install libssl-dev)")
  endif()
  if(OpenSSL_FOUND)
    set(HAMMER_HAVE_TLS ON)
  elseif(hammer_tls_mode STREQUAL "ON")
    message(FATAL_ERROR "HAMMER_TLS=ON but OpenSSL 3 was not found (Debian: apt-get install "
                        "libssl-dev; or configure with -DHAMMER_TLS=AUTO or OFF)")
  endif()
endif()

if(HAMMER_HAVE_TLS)
  message(STATUS "hammer: TLS with OpenSSL ${OPENSSL_VERSION} (${OPENSSL_SSL_LIBRARY})")
  add_compile_definitions(HAMMER_HAVE_TLS=1)
else()
  message(STATUS "hammer: building without TLS (HAMMER_TLS=${HAMMER_TLS}; OpenSSL 3 not found "
                 "or not wanted): https:// URLs are refused")
endif()
