#!/usr/bin/env bash
# The demo: hammer against tools/pausing_server.py, a server that answers in well under a
# millisecond but stalls 200 ms every 3,000 responses, like a stop-the-world GC pause.
# First the open-loop run with both stopwatches side by side (--latency), also written as an
# HTML report (build/demo-report.html, or DEMO_REPORT) and its JSON document, then the same
# schedule measured the closed-loop way (--closed-loop), as wrk and most tools report it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh

duration="${DEMO_DURATION:-10}"
rate="${DEMO_RATE:-2000}"
cmake --preset release >/dev/null
cmake --build --preset release --target hammer

output=$(mktemp)
python3 tools/pausing_server.py --port 0 --pause-ms 200 --every 3000 >"$output" &
server_pid=$!
trap 'kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null; rm -f "$output"' EXIT
for _ in $(seq 100); do
  grep -q "listening on" "$output" && break
  sleep 0.1
done
port=$(sed -n 's/.*listening on .*:\([0-9]*\).*/\1/p' "$output" | head -n1)
[ -n "$port" ] || { echo "demo: the pausing server did not start"; exit 1; }
url="http://127.0.0.1:$port/"

echo
echo "=== open loop, $rate req/s: corrected (from the schedule) beside uncorrected (from the send)"
# The same run as a page to keep (and its JSON, for hammer report later).
report="${DEMO_REPORT:-build/demo-report.html}"
build/release/hammer -r "$rate" -c 20 -t 2 -d "$duration" --latency \
  -o "$report" -o "${report%.html}.json" "$url"
echo "(report: $report, open it in a browser; ${report%.html}.json is its document)"
echo
echo "=== the same schedule, measured closed-loop style (--closed-loop)"
build/release/hammer -r "$rate" -c 20 -t 2 -d "$duration" --closed-loop "$url"
