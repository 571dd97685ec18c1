// SPDX-License-Identifier: MIT
// Where the native hammer binary comes from and where it lives once the package is installed;
// shared by bin/hammer, the programmatic API, scripts/install.js and scripts/stage.js.
'use strict';

const path = require('node:path');

const packageRoot = path.join(__dirname, '..');

// The platforms hammer builds and is tested on, named <process.platform>-<process.arch>; the
// same list as package.json's os/cpu. The macOS and Windows ports are not done yet.
const supportedPlatforms = ['linux-x64'];

function platformKey(platform = process.platform, arch = process.arch) {
  return `${platform}-${arch}`;
}

function executableName(platform = process.platform) {
  return platform === 'win32' ? 'hammer.exe' : 'hammer';
}

// The optional dependency that carries the prebuilt binary for `key`, as esbuild's
// @esbuild/<platform>-<arch>: npm installs only the one whose os/cpu match.
function binaryPackageName(key = platformKey()) {
  return `@hammer-load/${key}`;
}

// The installed binary: <package>/native/hammer[.exe], put there by scripts/install.js.
function installedBinaryPath() {
  return path.join(packageRoot, 'native', executableName());
}

module.exports = {
  packageRoot, supportedPlatforms, platformKey, executableName, binaryPackageName,
  installedBinaryPath,
};
