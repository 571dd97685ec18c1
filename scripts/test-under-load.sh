#!/usr/bin/env bash
# Runs the e2e tests while busy loops oversubscribe the CPUs: by default two busy loops per core
# (four on a 2-core machine), each a plain shell loop at normal priority, so hammer, the test
# servers and the test binary get about a third of the CPU they would get alone, and get it in
# slices. A correct program must not fail its tests because a neighbour used the CPU: every e2e
# test judges counts, structure, verdicts and ratios inside one run, never absolute speed.
#
#   bash scripts/test-under-load.sh                # release build, 2 busy loops per core
#   LOAD_PER_CORE=3 bash scripts/test-under-load.sh -R Sweep   # extra args go to ctest
#
# Environment: PRESET (release), LOAD_PER_CORE (2), LOAD_LIMIT_S (1800: each busy loop ends by
# itself after this long, even if this script is killed with SIGKILL), BUILD (1: build the
# targets the e2e tests run first; 0 to use the build as it is), E2E_JOBS (2: e2e tests at once,
# as scripts/test.sh runs them).
set -euo pipefail
cd "$(dirname "$0")/.."

preset="${PRESET:-release}"
per_core="${LOAD_PER_CORE:-2}"
limit_s="${LOAD_LIMIT_S:-1800}"
cores=$(nproc)
loops=$((cores * per_core))
e2e_jobs="${E2E_JOBS:-2}"

if [ "${BUILD:-1}" != 0 ]; then
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" --target hammer test_server hostile_server hammer_e2e_tests \
    hammer_alloc_tests
fi

# Busy loops this script started, stopped by their own PIDs (never by name) however it ends.
busy_pids=()
stop_busy_loops() {
  local pid
  for pid in "${busy_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${busy_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap stop_busy_loops EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
for ((i = 0; i < loops; ++i)); do
  # `timeout` bounds each loop in time on its own; killing it (by PID) ends the loop it runs.
  timeout "$limit_s" bash -c 'while :; do :; done' &
  busy_pids+=("$!")
done
echo "== test-under-load: $loops busy loops on $cores cores (PIDs ${busy_pids[*]}), preset $preset"

start=$SECONDS
status=0
ctest --preset "$preset" -j"$e2e_jobs" --timeout 300 -L e2e "$@" || status=$?
echo "== test-under-load: e2e ($e2e_jobs at a time) under $loops busy loops took $((SECONDS - start))s, exit $status"
exit "$status"
