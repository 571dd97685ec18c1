// SPDX-License-Identifier: MIT
// Where the native hammer binary lives once the package is installed, shared by bin/hammer.js,
// the programmatic API and scripts/install.js (which puts it there).
'use strict';

const path = require('node:path');

const packageRoot = path.join(__dirname, '..');

// The platforms a prebuilt binary may exist for, named <process.platform>-<process.arch>.
const prebuiltPlatforms = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64', 'win32-x64'];

function platformKey(platform = process.platform, arch = process.arch) {
  return `${platform}-${arch}`;
}

function executableName(platform = process.platform) {
  return platform === 'win32' ? 'hammer.exe' : 'hammer';
}

// The installed binary: <package>/native/hammer[.exe], put there by scripts/install.js.
function installedBinaryPath() {
  return path.join(packageRoot, 'native', executableName());
}

module.exports = {
  packageRoot, prebuiltPlatforms, platformKey, executableName, installedBinaryPath,
};
