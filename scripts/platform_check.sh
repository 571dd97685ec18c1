#!/usr/bin/env bash
# One hammer binary against tools/pausing_server.py on 127.0.0.1, on any platform: the release
# build on a macOS runner, the MSVC hammer.exe on a Windows runner, and here on Linux the
# MinGW-w64 hammer.exe (windows-mingw preset) under wine64. It must show
#   1. the open-loop correction: corrected p90/p99 near design.md §1's formula
#      pause * (q - (1 - f)) / f, f = pause / period, and far above the uncorrected ones;
#   2. bad input: a bad flag exits 1 with one "hammer: --flag ..." line; no listener exits 2;
#   3. Ctrl-C: SIGINT to the wine process, which wine turns into CTRL_C_EVENT for the
#      console control handler (platform/system_windows.cc), ends the run early with a report
#      (exit 0, "interrupted": true).
# What it cannot show: real Windows timers, WSAPoll's own bugs (wine implements it over the
# Linux kernel) and GenerateConsoleCtrlEvent from another console process; the windows job in
# .github/workflows/ci.yml runs the MSVC build on a hosted runner for that.
#
# Every run of the binary has a hard limit (`timeout -k 5 LIMIT`, where coreutils' timeout
# exists): a check that hangs is worse than one that fails (hammer.exe under wine did hang now
# and then, until run_load stopped using MinGW's std::latch: src/core/countdown_latch.h). Under wine the script starts the wineserver itself, in the foreground (-f), so that it
# holds its PID and stops exactly that process at the end (never pkill).
#
#   scripts/platform_check.sh [path/to/hammer.exe]  (default: build/windows-mingw/hammer.exe)
#   scripts/windows-check.sh builds hammer.exe with the windows-mingw preset and calls this.
set -euo pipefail
cd "$(dirname "$0")/.."

exe=${1:-build/windows-mingw/hammer.exe}
[ -f "$exe" ] || { echo "platform_check: $exe not found (e.g. cmake --preset windows-mingw && cmake --build --preset windows-mingw)"; exit 1; }
system=$(uname -s)
wine=""
if [ "$system" = Linux ] && [ "${exe%.exe}" != "$exe" ]; then
  wine=$(command -v wine64 || true)
  [ -n "$wine" ] || wine=/usr/lib/wine/wine64  # Debian's wine64 package keeps it off $PATH
  [ -x "$wine" ] || { echo "platform_check: wine64 not found (apt-get install wine64)"; exit 1; }
fi
python=/usr/bin/python3
[ -x "$python" ] || python=$(command -v python3 || command -v python)

work=$(mktemp -d)
server_pid=""
wineserver_pid=""
cleanup() {
  [ -z "$server_pid" ] || kill "$server_pid" 2>/dev/null || true
  if [ -n "$wineserver_pid" ]; then
    # `wineserver -k` asks OUR wineserver (this WINEPREFIX's) to end the processes of this
    # prefix (winedevice.exe and the other services wine starts, which a bare SIGTERM to the
    # server leaves behind); then the server itself is stopped by its PID.
    WINEPREFIX=$WINEPREFIX timeout -k 2 10 "$wineserver" -k </dev/null >/dev/null 2>&1 || true
    kill "$wineserver_pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$wineserver_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$wineserver_pid" 2>/dev/null || true
    wait "$wineserver_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# A hard limit on every run of the binary (macOS has no timeout(1) unless coreutils is there).
limiter=()
command -v timeout >/dev/null && limiter=(timeout -k 5)

if [ -n "$wine" ]; then
  # A prefix of our own, created once (about 20 s the first time); no Mono or Gecko
  # installers, no debug chatter.
  export WINEPREFIX=${WINEPREFIX:-$PWD/build/wine-prefix}
  export WINEDEBUG=-all
  export WINEDLLOVERRIDES="mscoree,mshtml="
  # Our own wineserver, in the foreground so that its PID is ours to stop (cleanup above), and
  # kept up between the runs below: otherwise each start may boot the prefix again, which takes
  # seconds on a busy machine. Every wine process of this prefix talks to it.
  wineserver=$(dirname "$(readlink -f "$wine")")/wineserver
  [ -x "$wineserver" ] || wineserver=$(command -v wineserver || echo /usr/lib/wine/wineserver)
  [ -x "$wineserver" ] || { echo "platform_check: wineserver not found next to $wine"; exit 1; }
  mkdir -p "$WINEPREFIX"
  "$wineserver" -f -p 120 </dev/null >/dev/null 2>&1 &
  wineserver_pid=$!
fi
# run_exe LIMIT_SECONDS ARGS...: the binary (under wine here), killed after LIMIT_SECONDS.
run_exe() {
  local limit=$1
  shift
  local prefix=()
  ((${#limiter[@]})) && prefix=("${limiter[@]}" "$limit")
  [ -z "$wine" ] || prefix+=("$wine")
  "${prefix[@]}" "$exe" "$@"
}
echo "platform_check: $exe on $system${wine:+ under $wine}"

# ESTABLISHED TCP connections to 127.0.0.1:<port>, from /proc on Linux; elsewhere unknown (-1).
connections_to() {
  if [ -r /proc/net/tcp ]; then
    awk -v port=":$(printf '%04X' "$1")" \
      'NR > 1 && $4 == "01" && substr($3, length($3) - 4) == port' /proc/net/tcp | wc -l
  else
    echo -1
  fi
}

failures=0
check() {  # check <description> <condition as a shell test...>
  local what=$1
  shift
  if "$@"; then echo "platform_check: ok   $what"; else echo "platform_check: FAIL $what"; failures=$((failures + 1)); fi
}

# The first start boots the prefix and its services, which keep the descriptors they inherit:
# give them /dev/null, not a pipe that $(...) would wait on until they exit.
# Booting a fresh prefix takes 20 s on a quiet machine, more on a busy one: 180 s for it.
prefix_state=""
[ -z "$wine" ] || { [ -f "$WINEPREFIX/system.reg" ] && prefix_state="reused" || prefix_state="created"; }
booted=$SECONDS
run_exe 180 --version </dev/null >/dev/null 2>&1 || true
[ -z "$wine" ] || echo "platform_check: wine prefix $WINEPREFIX $prefix_state and booted in $((SECONDS - booted)) s"
version=$(run_exe 60 --version </dev/null 2>/dev/null | tr -d '\r')
check "hammer.exe --version prints '$version'" test "${version#hammer }" != "$version"

# The server of design.md §1, at a tenth of its rate so that wine's per-call cost (each
# socket call is a round trip to wineserver) stays small: 200 req/s with a 200 ms pause every
# 300 responses keeps the period at 1.5 s and so f = 0.133 in the long run.
rate=200
every=300
pause_ms=200
# The first pause comes one period in (after `every` responses), so a run of whole periods
# holds one pause fewer than periods (6 s: 3 pauses, f = 0.1, and p90 falls on the formula's
# zero). 6.2 s holds 4 pauses (at 1.5, 3, 4.5 and 6 s); the formula below uses the share of the
# run they cover, f = 4 * 0.2 / 6.2 = 0.129 (p90 45 ms, p99 184 ms).
duration=6.2
"$python" tools/pausing_server.py --port 0 --pause-ms "$pause_ms" --every "$every" \
  >"$work/server.log" 2>&1 &
server_pid=$!
port=""
for _ in $(seq 100); do
  port=$(sed -n 's/.*listening on [^ ]*:\([0-9][0-9]*\).*/\1/p' "$work/server.log")
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { echo "platform_check: pausing_server did not start"; cat "$work/server.log"; exit 1; }
url="http://127.0.0.1:$port/"

# 1. The correction, judged by the product's own promise: either the corrected percentiles
# follow the formula, or hammer says that its figures describe the generator
# (generator_saturated). On a busy machine the second happens under wine, whose every socket
# call is a round trip to wineserver, a process that then waits for a CPU: such a run is
# repeated, up to three times, and if hammer never vouches for one, the formula is reported as
# not judged (hammer having said why), not as passed.
judged=""
for attempt in 1 2 3; do
  set +e
  run_exe 60 -r "$rate" -c 20 -t 1 -d "$duration" --json "$url" </dev/null >"$work/run.json" \
    2>"$work/run.err"
  status=$?
  set -e
  check "open-loop run exits 0 (got $status)" test "$status" = 0
  if [ "$status" = 124 ] || [ "$status" = 137 ]; then
    echo "platform_check: the 6.2 s run did not end within 60 s and was killed by the hard limit (a hang)"
  fi
  [ "$status" = 0 ] || break
  set +e
  "$python" - "$work/run.json" "$rate" "$every" "$pause_ms" "$duration" <<'PY'
import json, math, sys
path, rate, every, pause_ms, duration = sys.argv[1], *map(float, sys.argv[2:6])
report = json.load(open(path))
period_ms = every / rate * 1000
pauses = math.ceil(duration * 1000 / period_ms) - 1  # the first comes one period in
f = pauses * pause_ms / (duration * 1000)
expected = {q: pause_ms * (q / 100 - (1 - f)) / f for q in (90, 99)}
corrected = report["latency"]["corrected"]["percentiles_ns"]
uncorrected = report["latency"]["uncorrected"]["percentiles_ns"]
lag = report["dispatch_lag"]
codes = [verdict["code"] for verdict in report.get("verdicts", [])]
print(f"platform_check: {report['requests']['completed']} responses of "
      f"{report['requests']['scheduled']} scheduled; dispatch lag mean "
      f"{lag['mean_ns'] / 1e6:.2f} ms, max {lag['max_ns'] / 1e6:.2f} ms, late by hammer "
      f"{lag['cause']['generator']}, by the server {lag['cause']['server']}; verdicts {codes}")
ok = True
for q in (90, 99):
    got = corrected[str(q)] / 1e6
    closed = uncorrected[str(q)] / 1e6
    # p99 within 25% (the e2e test's bound on Linux); p90 sits on the steep part of the curve,
    # where 1% of the requests moves the figure by 15 ms: within 40%.
    bound = 0.25 if q == 99 else 0.40
    near = abs(got - expected[q]) <= bound * expected[q]
    # The omission made visible on p90: the closed-loop stopwatch misses the stalls there.
    # Not on p99: with 20 connections the requests caught in flight by each pause (20 of
    # 300) put the uncorrected p99 on the pause too.
    above = got > 5 * closed if q == 90 else True
    ok = ok and near and above
    print(f"platform_check:      corrected p{q} {got:.2f} ms, formula {expected[q]:.2f} ms "
          f"(within {bound:.0%}: {near}); uncorrected {closed:.2f} ms")
if "generator_saturated" in codes:
    sys.exit(2)
sys.exit(0 if ok else 1)
PY
  verdict=$?
  set -e
  if [ "$verdict" = 2 ]; then
    echo "platform_check: attempt $attempt: hammer reports it was itself late (generator_saturated); not judged"
    continue
  fi
  judged=yes
  check "corrected p90/p99 follow the formula (attempt $attempt)" test "$verdict" = 0
  break
done
if [ "$status" = 0 ] && [ -z "$judged" ]; then
  echo "platform_check: NOT JUDGED corrected p90/p99: in 3 attempts hammer reported each time that it was itself late (generator_saturated), so its figures describe this machine's load, as it said"
fi

# 2. Bad input.
set +e
run_exe 60 --rate fast "$url" </dev/null >"$work/bad.out" 2>"$work/bad.err"
status=$?
set -e
bad_line=$(tr -d '\r' <"$work/bad.err")
echo "platform_check: bad flag: exit $status, stderr: $bad_line"
check "a bad flag exits 1" test "$status" = 1
check "a bad flag prints one 'hammer: --rate' line" test "$(grep -c '^hammer: --rate' <<<"$bad_line")" = 1
set +e
run_exe 60 -d 1 "http://127.0.0.1:1/" </dev/null >/dev/null 2>"$work/refused.err"
status=$?
set -e
echo "platform_check: nothing listening: exit $status, stderr: $(tr -d '\r' <"$work/refused.err")"
check "nothing listening exits 2" test "$status" = 2

# 3. Ctrl-C (not on a Windows runner: see the top). SIGINT goes to the process we started (under
# wine, the loader becomes the Windows process), 2 s after its connections are up (by then the
# handler is installed: run_load installs it before the workers connect). A background job of
# a script starts with SIGINT ignored (POSIX, for shells without job control), and wine would
# inherit that, so the job restores the default through exec from Python first.
case "$system" in
  MINGW* | MSYS* | CYGWIN*) can_interrupt="" ;;
  *) can_interrupt=yes ;;
esac
if [ -n "$can_interrupt" ]; then
  start=$SECONDS
  command=()
  ((${#limiter[@]})) && command=("$(command -v timeout)" -k 5 60)
  [ -z "$wine" ] || command+=("$wine")
  # timeout(1) passes the SIGINT on to its child (wine); it returns the child's status.
  "$python" -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])' \
    "${command[@]}" "$exe" -r 200 -c 4 -d 30 --json "$url" \
    </dev/null >"$work/ctrl_c.json" 2>"$work/ctrl_c.err" &
  hammer_pid=$!
  for _ in $(seq 600); do
    count=$(connections_to "$port")
    [ "$count" -ge 4 ] && break
    [ "$count" = -1 ] && { sleep 3; break; }  # no /proc: give it time to connect
    sleep 0.1
  done
  sleep 2
  kill -INT "$hammer_pid"
  set +e
  wait "$hammer_pid"
  status=$?
  set -e
  elapsed=$((SECONDS - start))
  echo "platform_check: Ctrl-C 2 s into a 30 s run: exit $status after ${elapsed} s"
  check "Ctrl-C exits 0 with a report" test "$status" = 0
  check "Ctrl-C ends the run early (${elapsed} s < 15 s)" test "$elapsed" -lt 15
  "$python" - "$work/ctrl_c.json" <<'PY' || failures=$((failures + 1))
import json, sys
report = json.load(open(sys.argv[1]))
interrupted = report.get("interrupted") is True
completed = report["requests"]["completed"]
print(f"platform_check: {'ok  ' if interrupted and completed > 0 else 'FAIL'} report says "
      f"interrupted={report.get('interrupted')}, {completed} responses")
sys.exit(0 if interrupted and completed > 0 else 1)
PY

else
  echo "platform_check: Ctrl-C not checked on $system (no way to send a console control event from bash)"
fi

if [ "$failures" != 0 ]; then
  echo "platform_check: $failures check(s) failed (${SECONDS} s)"
  exit 1
fi
echo "platform_check: all checks passed (${SECONDS} s)"
