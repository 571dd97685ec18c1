#!/usr/bin/env bash
# Installs what building and testing hammer needs, from Debian's packages. Idempotent: does
# nothing when everything is already there, so it is cheap to call before every build.
set -euo pipefail

# Debian's packages only: on macOS or Windows (the hosted CI runners) the workflow installs
# what it needs itself.
if ! command -v dpkg-query >/dev/null; then
  echo "deps: not a Debian system; install cmake, ninja, a C++20 compiler, zlib and GoogleTest yourself"
  exit 0
fi

packages=(cmake ninja-build g++ clang libclang-rt-14-dev zlib1g-dev libgtest-dev libgmock-dev
          libbenchmark-dev python3 ccache zsh groff-base
          python3-yaml  # k8s manifest check
          liburing-dev  # the io_uring engine
          libssl-dev openssl  # TLS (https://): OpenSSL 3; the CLI for s_server and test certs
          nginx-light  # the TLS and HTTP/2 e2e tests' server (tests/e2e/tls_test.cc, http2_test.cc)
          nghttp2-server h2o  # nghttpd and h2o: HTTP/2 e2e peers (tests/e2e/http2_test.cc)
          prometheus  # scrapes --metrics-listen in tests/e2e/metrics_test.cc
          # Interop and browser tests: HdrHistogram's Java reference reads hammer's .hgrm and
          # .hlog (java's single-file source launcher needs the JDK), and the HTML report is
          # loaded in a real headless browser.
          default-jdk-headless libhdrhistogram-java chromium)
# The Windows build (MinGW-w64) and its check under wine64 (scripts/platform_check.sh), on x86-64.
if [ "$(dpkg --print-architecture)" = amd64 ]; then
  packages+=(g++-mingw-w64-x86-64-posix libz-mingw-w64-dev wine64)
fi
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$package")
done
# Node.js may come from another packaging that bundles npm; only the commands matter.
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
# Any Java runtime runs HistogramLogProcessor.
command -v java >/dev/null || missing+=(default-jre-headless)
if ((${#missing[@]})); then
  echo "deps: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
