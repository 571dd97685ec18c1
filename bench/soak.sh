#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Soak: one long open-loop run at a fixed rate against tools/test_server, sampling hammer's
# resident memory (VmRSS from /proc/PID/status) every 10 s. Everything hammer needs is allocated
# at setup (design.md §5), so RSS should be flat after the first sample: the closing lines give
# the start and end RSS and their difference, which should stay within a few MB. Not in CI
# (10 minutes by default).
#
#   bench/soak.sh                         # 10 minutes at 5000 req/s, 50 connections
#   DURATION=60 RATE=2000 bench/soak.sh   # a short check
#
# Environment: DURATION (seconds, default 600), RATE (req/s, default 5000), CONNECTIONS
# (default 50), THREADS (default 2), INTERVAL (sampling period in seconds, default 10), HAMMER
# (default build/release/hammer), TEST_SERVER (default build/release/tools/test_server).
# The server listens on a free port of its choosing (--port 0). hammer's own report (text) is
# printed at the end.
set -euo pipefail

bench_name=soak
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"
duration="${DURATION:-600}"
rate="${RATE:-5000}"
connections="${CONNECTIONS:-50}"
threads="${THREADS:-2}"
interval="${INTERVAL:-10}"

require_hammer_and_server
hammer_pid=""
cleanup_pids="hammer_pid server_pid"
make_work_dir
start_test_server_any_port --threads 1

echo "soak: hammer -r $rate -c $connections -t $threads -d $duration against $url"
"$hammer" -r "$rate" -c "$connections" -t "$threads" -d "$duration" "$url" >"$work/report.txt" 2>&1 &
hammer_pid=$!

rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status" 2>/dev/null || true; }

start_rss=""
end_rss=""
elapsed=0
# First sample after one second (setup done, connections open), then every INTERVAL seconds.
sleep 1
elapsed=1
while kill -0 "$hammer_pid" 2>/dev/null; do
  rss="$(rss_kb "$hammer_pid")"
  [ -n "$rss" ] || break
  [ -n "$start_rss" ] || start_rss="$rss"
  end_rss="$rss"
  printf 'soak: t=%4ds  VmRSS %7d kB\n' "$elapsed" "$rss"
  sleep "$interval" &
  wait $! || true
  elapsed=$((elapsed + interval))
done
status=0
wait "$hammer_pid" || status=$?
hammer_pid=""
cat "$work/report.txt"
[ -n "$start_rss" ] || die "hammer ended before the first sample (exit $status)"
echo "soak: RSS start ${start_rss} kB, end ${end_rss} kB, growth $((end_rss - start_rss)) kB; hammer exit $status"
exit "$status"
