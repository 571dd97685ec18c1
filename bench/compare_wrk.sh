#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Side by side, closed loop: hammer and wrk against the SAME fast local server, same threads,
# connections and duration, alternating tool by tool for ROUNDS rounds so that drift in the
# machine (thermal, neighbours) lands on both. Reports each tool's req/s and CPU per request,
# and the ratios hammer/wrk. Ratios measured in one run are the figure to quote (design.md §6),
# not the absolute numbers, which depend on the machine.
#
#   bench/compare_wrk.sh                      # -t2 -c50 -d5s, 3 rounds
#   THREADS=4 CONNECTIONS=100 DURATION=10 ROUNDS=5 bench/compare_wrk.sh
#
# Environment: HAMMER (default build/release/hammer), TEST_SERVER (default
# build/release/tools/test_server, built if missing), THREADS, CONNECTIONS, DURATION (seconds),
# ROUNDS, PORT (default 18080), SERVER_THREADS (default 1), WRK (default: wrk on PATH,
# installed with apt-get when missing). Without a hammer binary it runs the wrk half only.
#
# CPU is the tool process's user+system time from /usr/bin/time (10 ms resolution, fine over
# seconds); requests are the "N requests in" count each tool prints, else req/s x duration.
set -euo pipefail

bench_name=compare_wrk
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"
cd "$root"

threads="${THREADS:-2}"
connections="${CONNECTIONS:-50}"
duration="${DURATION:-5}"
rounds="${ROUNDS:-3}"
port="${PORT:-18080}"
server_threads="${SERVER_THREADS:-1}"
url="http://127.0.0.1:${port}/"

wrk="${WRK:-$(command -v wrk || true)}"
if [[ -z "$wrk" ]]; then apt_install wrk; wrk="$(command -v wrk)"; fi
[[ -x /usr/bin/time ]] || apt_install time

if [[ ! -x "$test_server" ]]; then
  echo "compare_wrk: building test_server" >&2
  [[ -f build/release/CMakeCache.txt ]] || cmake --preset release >/dev/null
  cmake --build build/release --target test_server -j1 >/dev/null
  test_server="$root/build/release/tools/test_server"
fi
run_hammer=1
if [[ ! -x "$hammer" ]]; then
  echo "compare_wrk: no hammer binary at $hammer (set HAMMER); running the wrk half only" >&2
  run_hammer=0
fi

make_work_dir

"$test_server" --port "$port" --mode fast --threads "$server_threads" >"$work/server.out" \
  2>"$work/server.err" &
server_pid=$!
for _ in $(seq 100); do
  grep -q '^listening on ' "$work/server.out" 2>/dev/null && break
  kill -0 "$server_pid" 2>/dev/null || die "test_server did not start: $(cat "$work/server.err")"
  sleep 0.05
done
grep -q '^listening on ' "$work/server.out" || die "test_server did not report readiness"

# run_tool NAME COMMAND...: runs one measured pass; appends "name rps requests cpu_s" to results.
run_tool() {
  local name="$1"; shift
  local out="$work/$name.out" cpu="$work/$name.cpu"
  if ! /usr/bin/time -f "%U %S" -o "$cpu" "$@" >"$out" 2>"$work/$name.err"; then
    echo "compare_wrk: $name failed:" >&2
    cat "$out" "$work/$name.err" >&2
    return 1
  fi
  local rps requests
  rps="$(sed -nE 's/^Requests\/sec:?[[:space:]]+([0-9.]+).*/\1/p' "$out" | head -n1)"
  [[ -n "$rps" ]] || { echo "compare_wrk: no 'Requests/sec' line from $name:" >&2; cat "$out" >&2; return 1; }
  requests="$(sed -nE 's/^[[:space:]]*([0-9]+) requests in .*/\1/p' "$out" | head -n1)"
  [[ -n "$requests" ]] || requests="$(awk -v r="$rps" -v d="$duration" 'BEGIN { printf "%d", r * d }')"
  awk -v n="$name" -v r="$rps" -v q="$requests" '{ printf "%s %s %s %.2f\n", n, r, q, $1 + $2 }' \
    "$cpu" >>"$work/results"
}

echo "hammer vs wrk: -t$threads -c$connections -d${duration}s, $rounds rounds, closed loop," \
     "test_server --mode fast --threads $server_threads on $url"
status=0
for round in $(seq "$rounds"); do
  if (( run_hammer )); then
    run_tool hammer "$hammer" -t "$threads" -c "$connections" -d "$duration" "$url" || status=1
  fi
  run_tool wrk "$wrk" -t "$threads" -c "$connections" -d "${duration}s" "$url" || status=1
  echo "  round $round/$rounds done" >&2
done
[[ -s "$work/results" ]] || die "no tool produced a result"

awk '
  { tool[NR] = $1; rps[NR] = $2; req[NR] = $3; cpu[NR] = $4
    sum_rps[$1] += $2; sum_req[$1] += $3; sum_cpu[$1] += $4; runs[$1]++ }
  END {
    printf "\n%-8s %12s %12s %10s %14s\n", "tool", "req/s", "requests", "cpu s", "cpu us/req"
    for (i = 1; i <= NR; i++)
      printf "%-8s %12.0f %12d %10.2f %14.3f\n", tool[i], rps[i], req[i], cpu[i],
             (req[i] > 0 ? cpu[i] * 1e6 / req[i] : 0)
    print ""
    for (t in runs) {
      mean_rps[t] = sum_rps[t] / runs[t]
      us_per_req[t] = sum_req[t] > 0 ? sum_cpu[t] * 1e6 / sum_req[t] : 0
      printf "%-8s mean %12.0f req/s %14.3f cpu us/req over %d runs\n", t, mean_rps[t],
             us_per_req[t], runs[t]
    }
    if (("hammer" in runs) && ("wrk" in runs) && mean_rps["wrk"] > 0 && us_per_req["wrk"] > 0) {
      printf "\nhammer/wrk  req/s %.3f   cpu per request %.3f\n",
             mean_rps["hammer"] / mean_rps["wrk"], us_per_req["hammer"] / us_per_req["wrk"]
    }
  }' "$work/results"
exit "$status"
