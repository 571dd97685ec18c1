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
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh

build=build/dist
# HAMMER_CMAKE_ARGS: extra configure arguments, word-split (the Windows release job passes
# vcpkg's toolchain for zlib there).
# shellcheck disable=SC2086
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DHAMMER_BUILD_TESTS=OFF \
  -DHAMMER_BUILD_BENCH=OFF ${HAMMER_CMAKE_ARGS:-} >/dev/null
cmake --build "$build" --target hammer --parallel "${HAMMER_BUILD_JOBS:-2}"
exe=hammer
[ "$(node -p process.platform)" != win32 ] || exe=hammer.exe

mkdir -p dist
read -r key sha256 < <(node npm/scripts/stage.js binary-package build/npm-binary "$build/$exe")
(cd build/npm-binary && npm pack --pack-destination ../../dist --silent)
node - dist/checksums.json "$key" "$sha256" <<'JS'
const fs = require('node:fs');
const [file, key, sha256] = process.argv.slice(2);
const checksums = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
checksums[key] = sha256;
const sorted = Object.fromEntries(Object.keys(checksums).sort().map((k) => [k, checksums[k]]));
fs.writeFileSync(file, `${JSON.stringify(sorted, null, 2)}\n`);
JS
echo "release: $key $sha256"

tarball=$(cd npm && HAMMER_BIN="$PWD/../$build/$exe" HAMMER_CHECKSUMS="$PWD/../dist/checksums.json" \
          npm pack --pack-destination ../dist --silent)
echo "release: dist/$tarball"
