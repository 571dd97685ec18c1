#!/usr/bin/env bash
# Produces the npm release artefacts for this platform, under dist/:
#   dist/hammer-load-<platform>-<arch>-<version>.tgz   @hammer-load/<platform>-<arch>: the release
#                                                      binary and its SHA-256
#   dist/checksums.json                                every platform package's SHA-256 (entries
#                                                      for other platforms are kept)
#   dist/hammer-load-<version>.tgz                     hammer-load: the bundled source, the man
#                                                      page, the completions, checksums.json
# To ship several platforms, run this on each, gather their platform tarballs and checksums
# entries into one dist/, and pack hammer-load once more (the last run). Publish the platform
# packages first, then hammer-load.
#
#   scripts/release.sh win32-x64   only @hammer-load/win32-x64 and its checksums entry, from the
#       MinGW-w64 cross build (build/windows-mingw/hammer.exe, the windows-mingw preset) on a
#       Debian x86-64 machine: the hammer.exe scripts/windows-check.sh checks under wine. Run
#       that check first: the build here is then up to date, and what is packed is what it checked.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh

# add_checksum KEY SHA256: records one platform package's SHA-256 in dist/checksums.json.
add_checksum() {
  node - dist/checksums.json "$1" "$2" <<'JS'
const fs = require('node:fs');
const [file, key, sha256] = process.argv.slice(2);
const checksums = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
checksums[key] = sha256;
const sorted = Object.fromEntries(Object.keys(checksums).sort().map((k) => [k, checksums[k]]));
fs.writeFileSync(file, `${JSON.stringify(sorted, null, 2)}\n`);
JS
  echo "release: $1 $2"
}

case "${1:-}" in
  "") ;;
  win32-x64)
    bash scripts/windows-check.sh --build-only
    mkdir -p dist
    read -r key sha256 < <(node npm/scripts/stage.js binary-package build/npm-binary-win32-x64 \
                             build/windows-mingw/hammer.exe win32-x64)
    (cd build/npm-binary-win32-x64 && npm pack --pack-destination ../../dist --silent)
    add_checksum "$key" "$sha256"
    exit 0
    ;;
  *) echo "usage: scripts/release.sh [win32-x64]" >&2; exit 1 ;;
esac

build=build/dist
# On Linux OpenSSL is linked in statically (libssl-dev's libssl.a and libcrypto.a), so the
# binary runs where libssl3 is absent; checked below.
static_openssl=()
[ "$(uname -s)" != Linux ] || static_openssl=(-DHAMMER_STATIC_OPENSSL=ON)
# HAMMER_CMAKE_ARGS: extra configure arguments, word-split (the Windows release job passes
# vcpkg's toolchain for zlib there).
# shellcheck disable=SC2086
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DHAMMER_BUILD_TESTS=OFF \
  -DHAMMER_BUILD_BENCH=OFF "${static_openssl[@]}" ${HAMMER_CMAKE_ARGS:-} >/dev/null
cmake --build "$build" --target hammer --parallel "${HAMMER_BUILD_JOBS:-2}"
exe=hammer
[ "$(node -p process.platform)" != win32 ] || exe=hammer.exe
if [ "${#static_openssl[@]}" -gt 0 ] && readelf -d "$build/$exe" | grep -q 'NEEDED.*lib\(ssl\|crypto\)'; then
  echo "release: $build/$exe still needs a shared libssl or libcrypto" >&2
  exit 1
fi

mkdir -p dist
read -r key sha256 < <(node npm/scripts/stage.js binary-package build/npm-binary "$build/$exe")
(cd build/npm-binary && npm pack --pack-destination ../../dist --silent)
add_checksum "$key" "$sha256"

tarball=$(cd npm && HAMMER_BIN="$PWD/../$build/$exe" HAMMER_CHECKSUMS="$PWD/../dist/checksums.json" \
          npm pack --pack-destination ../dist --silent)
echo "release: dist/$tarball"
