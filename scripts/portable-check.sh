#!/usr/bin/env bash
# The macOS code path, proven on Linux: builds the portable preset (-DHAMMER_PORTABLE=ON: poll,
# self-pipe wake-ups, fcntl, none of io_uring/epoll/eventfd/timerfd/prctl; see
# src/platform/platform.h) and runs its unit tests and the whole e2e suite on it. CI
# (scripts/test.sh) runs the net unit tests and the e2e suite less its sweep, warm-up and
# browser tests; run this by hand after touching src/platform/, src/net/ or the worker:
#   bash scripts/portable-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
werror=()
[ "${CI:-}" = true ] && werror=(-DHAMMER_WERROR=ON)
cmake --preset portable "${werror[@]}" >/dev/null
cmake --build --preset portable
ctest --preset portable -j2 --timeout 300 -LE e2e
ctest --preset portable -j1 --timeout 300 -L e2e
