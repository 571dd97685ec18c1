#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# CPU per request: a 16-line --requests file against a single URL (issue 13: within 10%).
# Each run is a closed-loop run against tools/test_server (open loop would measure the
# dispatcher's sleeping and spinning as much as the requests); hammer's CPU (user + sys, from
# the child's rusage) is divided by its completed requests. Alternates the two runs ROUNDS times and prints every figure, then the medians and
# their ratio. Not in CI: a benchmark, not a test.
#
#   bench/requests_cpu.sh                       # 3 rounds of 5 s each way
#   DURATION=10 ROUNDS=5 bench/requests_cpu.sh
#   BASELINE=/path/to/older/hammer bench/requests_cpu.sh   # also: the plain path before/after
#
# Environment: DURATION (seconds, default 5), CONNECTIONS (default 16),
# THREADS (default 1), ROUNDS (default 3), HAMMER, TEST_SERVER (default build/release/...),
# BASELINE (another hammer binary: its single-URL run joins each round, and the medians
# compare the plain path, no --requests and no -p, of the two builds).
set -euo pipefail

bench_name=requests_cpu
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"
duration="${DURATION:-5}"
connections="${CONNECTIONS:-16}"
threads="${THREADS:-1}"
rounds="${ROUNDS:-3}"

require_hammer_and_server
make_work_dir
start_test_server_any_port --threads 2

for i in $(seq 1 16); do
  echo "{\"path\": \"/search?category=c$i&page=$i\", \"headers\": {\"X-Line\": \"$i\"}}"
done >"$work/requests.jsonl"

# One run; prints CPU microseconds per completed request. CPU from the child's rusage, read by
# python (os.wait4), so no external `time` is needed.
cpu_per_request() {
  python3 - "$@" <<'PY'
import json, os, subprocess, sys
process = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE)
out = process.stdout.read()
_, status, usage = os.wait4(process.pid, 0)
if status != 0:
    sys.exit("hammer failed: status %d" % status)
report = json.loads(out)
completed = report["requests"]["completed"]
cpu_s = usage.ru_utime + usage.ru_stime
print("%.3f %d" % (cpu_s * 1e6 / max(completed, 1), completed))
PY
}

baseline="${BASELINE:-}"
[ -z "$baseline" ] || [ -x "$baseline" ] || die "BASELINE is not an executable: $baseline"

single=()
file=()
base=()
common=(-d "$duration" -c "$connections" -t "$threads" --json)
for round in $(seq 1 "$rounds"); do
  read -r s_us s_n < <(cpu_per_request "$hammer" "${common[@]}" "$url")
  read -r f_us f_n < <(cpu_per_request "$hammer" "${common[@]}" --requests "$work/requests.jsonl" "$url")
  printf 'round %d: single URL %s us/request (%s requests), 16-line file %s us/request (%s requests)\n' \
    "$round" "$s_us" "$s_n" "$f_us" "$f_n"
  single+=("$s_us")
  file+=("$f_us")
  if [ -n "$baseline" ]; then
    read -r b_us b_n < <(cpu_per_request "$baseline" "${common[@]}" "$url")
    printf 'round %d: baseline single URL %s us/request (%s requests)\n' "$round" "$b_us" "$b_n"
    base+=("$b_us")
  fi
done

python3 - "${single[*]}" "${file[*]}" "${base[*]:-}" <<'PY'
import statistics, sys
single = [float(x) for x in sys.argv[1].split()]
lines = [float(x) for x in sys.argv[2].split()]
a, b = statistics.median(single), statistics.median(lines)
print("median CPU per request: single URL %.3f us, 16-line file %.3f us, ratio %.3f (promise: <= 1.10)" % (a, b, b / a))
if sys.argv[3].strip():
    c = statistics.median(float(x) for x in sys.argv[3].split())
    print("plain path: baseline %.3f us, this build %.3f us, ratio %.3f" % (c, a, a / c))
PY
