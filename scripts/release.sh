#!/usr/bin/env bash
# Produces the release artefacts for this platform, under dist/:
#   dist/prebuilt/<platform>-<arch>/hammer   the release binary (win32: hammer.exe)
#   dist/prebuilt/manifest.json              its SHA-256 entry; other platforms' entries are kept
#   dist/hammer-load-<version>.tgz           the npm package: bundled source, every prebuilt
#                                            binary in dist/prebuilt/ and the manifest
# To ship several platforms in one package, run this on each, gather their prebuilt/<key>/
# directories and manifest entries into one dist/prebuilt/, and run it once more: before
# packing, every manifest entry is checked against its file.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh

build=build/dist
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DHAMMER_BUILD_TESTS=OFF \
  -DHAMMER_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" --target hammer --parallel "${HAMMER_BUILD_JOBS:-2}"

key=$(node -p 'process.platform + "-" + process.arch')
exe=hammer
[ "$key" = "${key#win32-}" ] || exe=hammer.exe
mkdir -p "dist/prebuilt/$key"
cp "$build/$exe" "dist/prebuilt/$key/$exe"

# Writes this platform's manifest entry, then checks every entry against its file.
node - "dist/prebuilt" "$key" "$key/$exe" <<'JS'
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const [dir, key, file] = process.argv.slice(2);
const sha256 = (f) => crypto.createHash('sha256').update(fs.readFileSync(f)).digest('hex');
const manifestPath = path.join(dir, 'manifest.json');
const manifest = fs.existsSync(manifestPath)
  ? JSON.parse(fs.readFileSync(manifestPath, 'utf8')) : {};
manifest[key] = { file, sha256: sha256(path.join(dir, file)) };
const sorted = Object.fromEntries(Object.keys(manifest).sort().map((k) => [k, manifest[k]]));
fs.writeFileSync(manifestPath, `${JSON.stringify(sorted, null, 2)}\n`);
for (const [entry, { file: f, sha256: expected }] of Object.entries(sorted)) {
  const actual = fs.existsSync(path.join(dir, f)) ? sha256(path.join(dir, f)) : '(missing)';
  if (actual !== expected) {
    console.error(`release: checksum mismatch for ${path.join(dir, f)} (${entry}): ` +
                  `expected ${expected}, got ${actual}`);
    process.exit(1);
  }
  console.log(`release: ${entry} ${expected} ${path.join(dir, f)}`);
}
JS

node npm/scripts/stage.js build/npm-stage --prebuilt dist/prebuilt
tarball=$(cd build/npm-stage && npm pack --pack-destination ../../dist --silent)
echo "release: dist/$tarball"
