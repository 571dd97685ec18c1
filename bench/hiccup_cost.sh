#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What the hiccup meter costs (issue 23: under 1% of a core): one light open-loop run against
# tools/test_server, and the meter thread's own CPU clock (host.meter_cpu_ns in the JSON) over
# the time it watched (host.observed_ns), beside its wake-ups and what it saw. Not in CI: a
# benchmark, not a test.
#
#   bench/hiccup_cost.sh                 # 10 s at 100 req/s
#   DURATION=30 bench/hiccup_cost.sh
#
# Environment: DURATION (seconds, default 10), RATE (default 100), HAMMER, TEST_SERVER
# (default build/release/...).
set -euo pipefail

bench_name=hiccup_cost
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"
duration="${DURATION:-10}"
rate="${RATE:-100}"

require_hammer_and_server
make_work_dir
start_test_server_any_port

"$hammer" -r "$rate" -c 2 -t 1 -d "$duration" --json "$url" >"$work/run.json"
python3 - "$work/run.json" <<'PY'
import json, sys
host = json.load(open(sys.argv[1]))["host"]
cpu, watched, interval = host["meter_cpu_ns"], host["observed_ns"], host["interval_ns"]
wakeups = watched / (interval + 1e-9)
print(f"hiccup meter: interval {interval / 1e6:g} ms, watched {watched / 1e9:.2f} s, "
      f"CPU {cpu / watched * 1e3:.2f} ms per s ({cpu / watched * 100:.2f}% of a core, "
      f"{cpu / max(wakeups, 1) / 1e3:.1f} us per wake-up); max stall {host['max_stall_ns'] / 1e6:.2f} ms, "
      f"{host['long_stalls']} over 10 ms")
PY
