#!/usr/bin/env bash
# The Windows build, proven on Linux: cross-compiles hammer.exe with Debian's MinGW-w64
# (windows-mingw preset, cmake/mingw-w64-x86_64.cmake) and runs scripts/platform_check.sh on it
# under wine64 against tools/pausing_server.py on 127.0.0.1 (wine programs reach the Linux
# loopback): corrected p90/p99 against the formula, a bad flag's exit code, a refused connect's,
# and Ctrl-C (SIGINT to wine, which raises CTRL_C_EVENT in hammer's console control handler).
# Every wine invocation has a hard limit (timeout -k 5 ...) and the wineserver is stopped by
# its PID afterwards.
#
# Not in CI (scripts/test.sh): the cross build takes ~3 minutes of the two cores when ccache
# has nothing, a fresh wine prefix up to a minute, and the check itself ~70 s, which CI's
# 15 minutes do not have (.github/workflows/ci.yml runs it in a job of its own).
# KNOWN FAILING NOW AND THEN: hammer.exe under wine sometimes does not end (5 of 18 open-loop
# runs on 2026-12-01 on main e12384d, among them the second attempt of both full checks; none
# of 9 on the tree before da26203). Cause not found yet. What a hung run looked like (/proc):
# all 20 sockets ESTABLISHED to the server, 20 ms of CPU in all, and both of the process's
# threads blocked in a wineserver request (anon_pipe_read): a wait that never returns, early
# in the run (a WSAPoll that misses an event, or one with no timeout). The hard limit turns it
# into a failed check, never a stuck script. Run it by hand after
# touching src/platform/, src/net/ or the worker:
#   bash scripts/windows-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
werror=()
[ "${CI:-}" = true ] && werror=(-DHAMMER_WERROR=ON)
cmake --preset windows-mingw "${werror[@]}" >/dev/null
cmake --build --preset windows-mingw
bash scripts/platform_check.sh build/windows-mingw/hammer.exe
