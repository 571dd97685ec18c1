#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The performance table of issue 12, side by side with Debian's wrk against the SAME local
# server, in one invocation: generator pinned to one CPU, server to another (taskset), each case
# run in alternating rounds so that drift on the machine lands on every tool alike. Prints a
# Markdown table naming the machine, kernel and engines; docs/performance.md keeps the latest.
#
#   bench/engine.sh                         # 5 s per run, 3 rounds, engines io_uring and epoll
#   DURATION=10 ROUNDS=5 ENGINES="io_uring epoll poll" bench/engine.sh
#
# The header names the host's wake-up cost on the generator's CPU (bench/wake_cost.cc, compiled
# on the spot): the CPU one timed sleep and wake-up is charged, the floor under open loop.
# Cases (CPU = user+system time of the generator process, from /usr/bin/time):
#  1. closed loop, -t 1 -c 50: CPU per request of wrk and of hammer per engine; the ratio is
#     the median over rounds of hammer/wrk within each round (target <= 0.6). Beside them, a
#     bare client (bench/closed_floor.cc, compiled on the spot where liburing is installed):
#     the same requests sent and received on io_uring, batched, with no HTTP work at all. What
#     it costs is the kernel's TCP over loopback; a generator's ratio near the bare client's
#     has no CPU of its own left to cut.
#  2. open loop -t 1 -c 50 at 2k, 10k and 50k req/s per engine: CPU per request against wrk's
#     closed-loop figure (target <= 1.2), corrected p50 minus uncorrected p50 (target
#     <= 0.05 ms) and dispatch lag p99 (target < 100 us); medians over rounds. Beside them, a
#     bare open-loop client (bench/open_floor.cc): one wake-up per slot and none for responses,
#     which it counts but cannot time; the least an open-loop generator can spend here while
#     each slot gets its own wake-up (at 50k, slots 20 us apart, batching them costs less).
#     Each engine twice: the default precision budget and --dispatch-precision 1ms (wrk2's
#     timer resolution, issue 27); and wrk2 (WRK2=/path/to/wrk, built from giltene/wrk2
#     outside the repository) at the same rate, its CPU per request, sleeps and corrected p50
#     (its own "Recorded Latency"; wrk2 reports no uncorrected figure and no lag).
#  3. 50k req/s, -t 1, hammer alone on its CPU: requests the server answered / scheduled
#     (target >= 99.9%), and whether hammer warned that it sent late itself.
#  4. RSS: -c 10000 (default threads) and -t 1024 -c 1024 -d 0.5, maxrss of hammer; wrk
#     -t 4 -c 10000 for comparison.
#  5. TLS (bench/tls.sh, issue 25): closed loop against wrk https://, open loop TLS beside
#     plain, --no-keepalive with resumption against h2load --h1, kTLS, and the open-loop truth
#     over TLS; TLS=0 leaves them out.
# Environment: HAMMER, TEST_SERVER, WRK, WRK2 (default none: no wrk2 rows), DURATION, ROUNDS, ENGINES, GEN_CPU (default 0),
# SERVER_CPU (default 1), PORT (default 18090), RATES (default "2000 10000 50000"),
# SHIELD (default off; "fifo": see below), SHIELD_PRIORITY (default 50), TLS (default 1),
# CASES (default "closed open server rss": which of cases 1-4 run; without "closed" wrk still
# runs its closed-loop rounds, the baseline of case 2's ratio).
#
# SHIELD=fifo, for a shared machine: the generator (wrk and hammer alike) and test_server run
# under SCHED_FIFO (chrt -f) on their pinned CPUs, so other work on the host (builds) cannot
# preempt them; on a busy host a plain run measures that preemption, not the generator. Needs
# root (or CAP_SYS_NICE). RT throttling (kernel.sched_rt_runtime_us, default 950000 of every
# 1000000) still hands the other work 5% of each CPU, so a generator that saturates its CPU
# gets paused up to 50 ms per second: a lag p99 in tens of ms at a rate that keeps the
# generator's CPU busy is that pause, not dispatch. Every run is bounded by `timeout`.
set -euo pipefail

bench_name=engine.sh
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"
wrk="${WRK:-$(command -v wrk || echo /usr/bin/wrk)}"
duration="${DURATION:-5}"
rounds="${ROUNDS:-3}"
engines="${ENGINES:-io_uring epoll}"
rates="${RATES:-2000 10000 50000}"
gen_cpu="${GEN_CPU:-0}"
server_cpu="${SERVER_CPU:-1}"
port="${PORT:-18090}"
shield="${SHIELD:-}"
shield_priority="${SHIELD_PRIORITY:-50}"
url="http://127.0.0.1:${port}/"
wrk2="${WRK2:-}"
cases="${CASES:-closed open server rss}"
has_case() { [[ " $cases " == *" $1 "* ]]; }

require_hammer_and_server
[[ -x "$wrk" ]] || die "no wrk (apt-get install wrk, or set WRK)"
[[ -z "$wrk2" || -x "$wrk2" ]] || die "WRK2=$wrk2 is not an executable (build giltene/wrk2's wrk)"
[[ -x /usr/bin/time ]] || die "no /usr/bin/time (apt-get install time)"
# gen, srv and gen_run (lib.sh): pinned, shielded with SHIELD=fifo, and the generator's run
# bounded in wall-clock time (hammer and wrk stop themselves after DURATION).
pin_generator_and_server
make_work_dir

# Starts test_server on SERVER_CPU; its stdout (the "answered N requests" line at exit) goes to
# $work/server.out.
start_server() {
  "${srv[@]}" "$test_server" --port "$port" --mode fast --threads 1 >"$work/server.out" 2>&1 &
  server_pid=$!
  for _ in $(seq 50); do grep -q listening "$work/server.out" 2>/dev/null && return; sleep 0.1; done
  die "test_server did not start"
}
stop_server() {  # prints how many requests the server answered
  kill -TERM "$server_pid"
  # Called in $(...) too, where wait cannot see the server: wait for its last line instead.
  for _ in $(seq 100); do grep -q '^answered' "$work/server.out" 2>/dev/null && break; sleep 0.05; done
  wait "$server_pid" 2>/dev/null || true; server_pid=""
  sed -n 's/^answered \([0-9]*\) requests$/\1/p' "$work/server.out"
}

# cpu_seconds, median and us_per: lib.sh.

# run_wrk: prints "cpu requests"
run_wrk() {
  /usr/bin/time -o "$work/time" -f "%U %S" "${gen_run[@]}" "$wrk" -t1 -c50 -d"${duration}s" "$url" >"$work/wrk.out" 2>&1
  local requests
  requests=$(sed -n 's/^ *\([0-9]*\) requests in.*/\1/p' "$work/wrk.out")
  echo "$(cpu_seconds "$work/time") $requests"
}

# run_floor: prints the bare client's CPU per request (us), or nothing where it was not built.
run_floor() {
  [[ -x "$work/closed_floor" ]] || return 0
  "${gen_run[@]}" "$work/closed_floor" "$port" 50 "$duration" 2>/dev/null |
    sed -n 's/.*, \([0-9.]*\) us per request$/\1/p'
}

# run_open_floor RATE: prints the bare open-loop client's CPU per request (us), or nothing.
run_open_floor() {
  [[ -x "$work/open_floor" ]] || return 0
  "${gen_run[@]}" "$work/open_floor" "$port" "$1" "$duration" 50 2>/dev/null |
    sed -n 's/.*, \([0-9.]*\) us per request$/\1/p'
}

# run_wrk2 RATE: prints "cpu requests p50_ns sleeps" (p50: wrk2's corrected "Recorded Latency")
run_wrk2() {
  /usr/bin/time -o "$work/time" -f "%U %S %w" "${gen_run[@]}" "$wrk2" -t1 -c50 -R"$1" -d"${duration}s" --latency "$url" >"$work/wrk2.out" 2>&1 || true
  python3 - "$work/wrk2.out" "$(cpu_seconds "$work/time")" "$(tail -1 "$work/time" | awk '{print $3}')" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
requests = re.search(r"^\s*(\d+) requests in", text, re.M)
p50 = re.search(r"^\s*50\.000%\s+([\d.]+)(us|ms|s)\b", text, re.M)
scale = {"us": 1e3, "ms": 1e6, "s": 1e9}
print(sys.argv[2], requests.group(1) if requests else 0,
      int(float(p50.group(1)) * scale[p50.group(2)]) if p50 else 0, sys.argv[3] or 0)
PY
}

# run_hammer ENGINE ARGS...: prints "cpu completed scheduled p50c p50u lagp99 generator_late
# sleeps" (sleeps: the process's voluntary context switches, each a sleep and a wake-up)
run_hammer() {
  local engine=$1; shift
  /usr/bin/time -o "$work/time" -f "%U %S %w" "${gen_run[@]}" "$hammer" --engine "$engine" --json "$@" "$url" >"$work/h.json" 2>"$work/h.err" || true
  python3 - "$work/h.json" "$(cpu_seconds "$work/time")" "$(tail -1 "$work/time" | awk '{print $3}')" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
lat = d["latency"]
def p50(which):
    h = lat.get(which)
    return h["percentiles_ns"]["50"] if h and h.get("percentiles_ns") else None
lag = d.get("dispatch_lag") or {}
late = any(v["code"] == "generator_saturated" for v in d.get("verdicts", []))
print(sys.argv[2], d["requests"]["completed"], d["requests"].get("scheduled") or 0,
      p50("corrected") or 0, p50("uncorrected") or 0, lag.get("p99_ns") or 0, int(late),
      sys.argv[3] or 0)
PY
}

# The machine, stated once.
print_header "hammer engine benchmark"
echo "- hammer: $("$hammer" --version); wrk: $("$wrk" -v 2>&1 | head -1 | cut -d' ' -f1-2)${wrk2:+; wrk2: $wrk2}"
echo "- generator on CPU $gen_cpu, test_server (--mode fast --threads 1) on CPU $server_cpu; ${duration} s per run, $rounds alternating rounds, medians"
if [[ -n "$shield" ]]; then
  echo "- SHIELD=fifo: generator and test_server under SCHED_FIFO priority $shield_priority on their CPUs (chrt -f); RT throttling $(cat /proc/sys/kernel/sched_rt_runtime_us 2>/dev/null || echo '?') us of $(cat /proc/sys/kernel/sched_rt_period_us 2>/dev/null || echo '?') (RSS runs: not shielded)"
else
  echo "- not shielded (SHIELD unset): other work on the host can preempt generator and server"
fi
# What a sleep and wake-up costs here, on the generator's CPU (bench/wake_cost.cc): the floor
# under an open-loop generator's CPU per request, which needs a wake-up for each slot and
# response that do not fall together.
wake_line="not measured (no c++ compiler)"
if command -v c++ >/dev/null && c++ -O2 -o "$work/wake_cost" "$root/bench/wake_cost.cc" 2>/dev/null; then
  wake_line=$(timeout -k 5 30 "${gen[@]}" "$work/wake_cost" 5000 100000 2>&1 || echo "failed")
fi
echo "- host wake-up cost on the generator's CPU: $wake_line"
# The bare clients of cases 1 and 2 (the first where liburing is there to build it).
if ! c++ -O2 -o "$work/closed_floor" "$root/bench/closed_floor.cc" -luring 2>/dev/null; then
  echo "- bare client: not measured (bench/closed_floor.cc needs a c++ compiler and liburing-dev)"
fi
c++ -O2 -o "$work/open_floor" "$root/bench/open_floor.cc" 2>/dev/null || true
echo

start_server

# 1. Closed loop.
declare -A closed_cpu_per
wrk_list=""
floor_list=""
for round in $(seq "$rounds"); do
  read -r c n < <(run_wrk)
  w=$(us_per "$c" "$n"); wrk_list+="$w "
  f=""; has_case closed && f=$(run_floor)
  if [[ -n "$f" ]]; then
    floor_list+="$f "
    echo "$(awk -v f="$f" -v w="$w" 'BEGIN {printf "%.3f", f / w}')" >>"$work/ratio.floor"
  fi
  has_case closed || continue
  for engine in $engines; do
    read -r c n _ < <(run_hammer "$engine" -t 1 -c 50 -d "$duration")
    h=$(us_per "$c" "$n")
    closed_cpu_per[$engine]+="$h "
    echo "$(awk -v h="$h" -v w="$w" 'BEGIN {printf "%.3f", h / w}')" >>"$work/ratio.$engine"
  done
done
wrk_median=$(echo "$wrk_list" | tr ' ' '\n' | grep . | median)
if has_case closed; then
echo "## Closed loop, -t 1 -c 50"
echo
echo "| generator | CPU per request (median) | ratio to wrk (median of rounds) | target |"
echo "|---|---|---|---|"
echo "| wrk | ${wrk_median} us | 1.00 | |"
if [[ -n "$floor_list" ]]; then
  f=$(echo "$floor_list" | tr ' ' '\n' | grep . | median)
  echo "| bare client (bench/closed_floor.cc: the kernel's TCP only) | ${f} us | $(median <"$work/ratio.floor") | |"
fi
for engine in $engines; do
  m=$(echo "${closed_cpu_per[$engine]}" | tr ' ' '\n' | grep . | median)
  r=$(median <"$work/ratio.$engine")
  echo "| hammer, $engine | ${m} us | ${r} | <= 0.6 |"
done
echo
fi

# 2. Open loop at each rate.
if has_case open; then
echo "## Open loop, -t 1 -c 50 (CPU per request against wrk's closed-loop ${wrk_median} us)"
echo
# Sleeps per request times the host's wake-up cost: the part of the CPU per request that the
# host charges for sleeping and waking (a slot's and a response's, unless they fall together).
wake_us=$(sed -n 's/^\([0-9.]*\) us CPU per .*/\1/p' <<<"$wake_line")
echo "| rate | generator | CPU per request | ratio to wrk | sleeps per request (x ${wake_us:-?} us) | corrected p50 - uncorrected p50 | lag p99 | completed/scheduled |"
echo "|---|---|---|---|---|---|---|---|"
for rate in $rates; do
  floor_list=""
  for round in $(seq "$rounds"); do floor_list+="$(run_open_floor "$rate") "; done
  f=$(echo "$floor_list" | tr ' ' '\n' | grep . | median)
  if [[ "$f" != 0 ]]; then
    printf "| %s | bare client (bench/open_floor.cc) | %.2f us | %s | 1 (slots only) | | | |\n" "$rate" "$f" "$(awk -v c="$f" -v w="$wrk_median" 'BEGIN {printf "%.2f", c / w}')"
  fi
  # Rounds alternate over the generators of this rate: hammer per engine at the default budget
  # and at --dispatch-precision 1ms, then wrk2.
  rows=()
  for engine in $engines; do rows+=("$engine|default" "$engine|1ms"); done
  for row in "${rows[@]}"; do : >"$work/open.${row//|/.}"; done
  : >"$work/open.wrk2"
  for round in $(seq "$rounds"); do
    for row in "${rows[@]}"; do
      engine=${row%|*}; budget=${row#*|}
      extra=(); [[ $budget == default ]] || extra=(--dispatch-precision "$budget")
      run_hammer "$engine" -t 1 -c 50 -r "$rate" -d "$duration" "${extra[@]}" >>"$work/open.${row//|/.}"
    done
    [[ -n "$wrk2" ]] && run_wrk2 "$rate" >>"$work/open.wrk2"
  done
  for row in "${rows[@]}"; do
    engine=${row%|*}; budget=${row#*|}
    file="$work/open.${row//|/.}"
    cpu=$(awk '{ if ($2 > 0) print $1 * 1e6 / $2 }' "$file" | median)
    gap=$(awk '{ print ($4 - $5) / 1e6 }' "$file" | median)
    lag=$(awk '{ print $6 / 1e3 }' "$file" | median)
    done_share=$(awk '{ print ($3 > 0 ? $2 / $3 * 100 : 0) }' "$file" | median)
    sleeps=$(awk '{ if ($2 > 0) print $8 / $2 }' "$file" | median)
    ratio=$(awk -v c="$cpu" -v w="$wrk_median" 'BEGIN {printf "%.2f", c / w}')
    slept=$(awk -v s="$sleeps" -v k="${wake_us:-0}" 'BEGIN { if (k > 0) printf "%.2f = %.1f us", s, s * k; else printf "%.2f", s }')
    name="hammer, $engine"; [[ $budget == default ]] || name+=", --dispatch-precision $budget"
    printf "| %s | %s | %.2f us | %s | %s | %.3f ms | %.1f us | %.2f%% |\n" "$rate" "$name" "$cpu" "$ratio" "$slept" "$gap" "$lag" "$done_share"
  done
  if [[ -n "$wrk2" ]]; then
    cpu=$(awk '{ if ($2 > 0) print $1 * 1e6 / $2 }' "$work/open.wrk2" | median)
    p50=$(awk '{ print $3 / 1e6 }' "$work/open.wrk2" | median)
    sleeps=$(awk '{ if ($2 > 0) print $4 / $2 }' "$work/open.wrk2" | median)
    ratio=$(awk -v c="$cpu" -v w="$wrk_median" 'BEGIN {printf "%.2f", c / w}')
    slept=$(awk -v s="$sleeps" -v k="${wake_us:-0}" 'BEGIN { if (k > 0) printf "%.2f = %.1f us", s, s * k; else printf "%.2f", s }')
    printf "| %s | wrk2 -R (corrected p50 %.3f ms) | %.2f us | %s | %s | n/a | n/a | |\n" "$rate" "$p50" "$cpu" "$ratio" "$slept"
  fi
done
echo "(targets: ratio <= 1.2, p50 gap <= 0.05 ms, lag p99 < 100 us; with --dispatch-precision 1ms: CPU per request <= wrk2's)"
echo
fi
stop_server >/dev/null

# 3. 50k req/s on one core, counted at the server.
if has_case server; then
echo "## 50k req/s, -t 1, one core, counted at the server"
echo
echo "| engine | scheduled | answered by the server | share | generator-late warning |"
echo "|---|---|---|---|---|"
for engine in $engines; do
  start_server
  read -r _ _ scheduled _ _ _ late _ < <(run_hammer "$engine" -t 1 -c 100 -r 50000 -d "$duration")
  answered=$(stop_server)
  share=$(awk -v a="$answered" -v s="$scheduled" 'BEGIN { if (s > 0) printf "%.3f%%", a / s * 100; else print "n/a" }')
  echo "| $engine | $scheduled | $answered | $share | $([[ $late == 1 ]] && echo yes || echo no) |"
done
echo "(target: >= 99.9%, no warning)"
echo
fi

# 4. Memory.
if has_case rss; then
start_server
rss() { /usr/bin/time -o "$work/rss" -f "%M" timeout -k 5 60 "$@" >/dev/null 2>&1 || true; awk '{printf "%.1f MB", $1 / 1024}' "$work/rss"; }
echo "## Memory (maxrss)"
echo
echo "| case | engine | RSS | target |"
echo "|---|---|---|---|"
for engine in $engines; do
  echo "| hammer -c 10000 -d 3 | $engine | $(rss "$hammer" --engine "$engine" -c 10000 -d 3 "$url") | < 20 MB |"
  echo "| hammer -t 1024 -c 1024 -d 0.5 | $engine | $(rss "$hammer" --engine "$engine" -t 1024 -c 1024 -d 0.5 "$url") | < 200 MB |"
  echo "| hammer -t 1 -c 1 -d 1 | $engine | $(rss "$hammer" --engine "$engine" -t 1 -c 1 -d 1 "$url") | |"
done
echo "| wrk -t 4 -c 10000 -d 3 | | $(rss "$wrk" -t4 -c10000 -d3s "$url") | |"
stop_server >/dev/null
fi

# 5. The TLS rows (bench/tls.sh): against nginx on its TLS and plain ports, beside wrk https://
# and h2load --h1, under the same CPUs, rounds and shield. TLS=0 skips them.
if [[ "${TLS:-1}" != 0 ]]; then
  echo
  HAMMER="$hammer" WRK="$wrk" DURATION="$duration" ROUNDS="$rounds" ENGINES="$engines" \
    GEN_CPU="$gen_cpu" SERVER_CPU="$server_cpu" SHIELD="$shield" SHIELD_PRIORITY="$shield_priority" \
    bash "$root/bench/tls.sh"
fi
