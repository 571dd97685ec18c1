# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# Shared by the bench/*.sh scripts (sourced, never run on its own): the one-line failure, the
# apt-get install of a bench-only peer, a scratch directory whose processes are stopped at
# exit, test_server on a port of its choosing, and the CPU pinning (SHIELD=fifo) of engine.sh
# and tls.sh. The sourcing script sets bench_name, the prefix of its messages, first.

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
hammer="${HAMMER:-$root/build/release/hammer}"
test_server="${TEST_SERVER:-$root/build/release/tools/test_server}"

die() { echo "$bench_name: $*" >&2; exit 2; }

# PACKAGE: a peer only the benchmarks need (wrk, h2load, nginx, time), not scripts/deps.sh's.
apt_install() {
  command -v apt-get >/dev/null || die "$1 is missing and there is no apt-get to install it"
  echo "$bench_name: installing $1 with apt-get" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y "$1" >/dev/null 2>&1 ||
    { apt-get update >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y "$1" >/dev/null 2>&1; } ||
    die "could not install $1"
}

# The hammer and test_server binaries (HAMMER, TEST_SERVER; default the release build), and
# python3 to read hammer's JSON; the script's own failure when one is missing.
require_hammer_and_server() {
  [[ -x "$hammer" ]] || die "no hammer at $hammer (build release first, or set HAMMER)"
  [[ -x "$test_server" ]] || die "no test_server at $test_server"
  command -v python3 >/dev/null || die "python3 is needed to read hammer's JSON"
}

# $work, a scratch directory removed at exit. At exit each process whose pid is in one of the
# variables named in `cleanup_pids` (set by the script, e.g. "server_pid hammer_pid") is
# stopped and reaped; an empty variable is a process already gone.
cleanup_pids="server_pid"
server_pid=""
make_work_dir() {
  work="$(mktemp -d)"
  trap bench_cleanup EXIT
  trap 'exit 130' INT TERM
}
bench_cleanup() {
  local name pid
  for name in $cleanup_pids; do
    for pid in ${!name}; do
      kill "$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
    done
  done
  rm -rf "$work"
}

# test_server [ARGS...] on a free port (--port 0), output in $work/server.out; sets server_pid
# and url (http://HOST:PORT/).
start_test_server_any_port() {
  "$test_server" --port 0 "$@" >"$work/server.out" 2>&1 &
  server_pid=$!
  for _ in $(seq 100); do
    grep -q "listening on" "$work/server.out" && break
    sleep 0.05
  done
  url="http://$(sed -n 's/^listening on //p' "$work/server.out" | head -1)/"
  [[ "$url" != "http:///" ]] || die "test_server did not start: $(cat "$work/server.out")"
}

# gen and srv: command prefixes pinning a process to GEN_CPU or SERVER_CPU, under SCHED_FIFO
# with SHIELD=fifo (chrt and taskset exec, so $! of a background run is the process itself);
# gen_run: the generator's run, pinned (and shielded) and bounded by `timeout` to
# DURATION x 3 + 30 s, so a stuck real-time process cannot hold a CPU for long.
pin_generator_and_server() {
  case "$shield" in
    "" | off | none) shield="" ;;
    fifo) chrt -f "$shield_priority" true 2>/dev/null ||
            die "SHIELD=fifo: chrt -f $shield_priority refused (root or CAP_SYS_NICE needed)" ;;
    *) die "SHIELD: expected fifo or nothing, got '$shield'" ;;
  esac
  run_limit=$((duration * 3 + 30))
  gen=(taskset -c "$gen_cpu")
  srv=(taskset -c "$server_cpu")
  if [[ -n "$shield" ]]; then
    gen=(chrt -f "$shield_priority" "${gen[@]}")
    srv=(chrt -f "$shield_priority" "${srv[@]}")
  fi
  gen_run=(timeout -k 5 "$run_limit" "${gen[@]}")
}

# $work/ca.pem (a CA) and $work/leaf.pem, $work/leaf.key (a leaf it signs for localhost and
# 127.0.0.1), P-256 as the e2e tests' nginx_tls.h; the script's failure without openssl.
make_test_certificates() {
  command -v openssl >/dev/null || die "openssl is needed to make the certificates"
  local ec=(-newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes)
  openssl req -x509 "${ec[@]}" -keyout "$work/ca.key" -out "$work/ca.pem" -days 2 -subj "/CN=bench CA" \
    -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign 2>/dev/null
  openssl req "${ec[@]}" -keyout "$work/leaf.key" -out "$work/leaf.csr" -subj /CN=leaf 2>/dev/null
  printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' >"$work/leaf.ext"
  openssl x509 -req -in "$work/leaf.csr" -CA "$work/ca.pem" -CAkey "$work/ca.key" -CAcreateserial \
    -out "$work/leaf.pem" -days 2 -extfile "$work/leaf.ext" 2>/dev/null
}

# wait_for PORT PID NAME LOG...: until 127.0.0.1:PORT accepts a connection; the script's
# failure (with the LOG files) when PID exits first or never listens.
wait_for() {
  local p=$1 pid=$2 name=$3; shift 3
  for _ in $(seq 200); do
    (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null && return
    kill -0 "$pid" 2>/dev/null || die "$name did not start: $(cat "$@" 2>/dev/null)"
    sleep 0.05
  done
  die "$name did not listen on $p"
}

# Figures: cpu_seconds TIME_FILE (user + system of /usr/bin/time -f "%U %S ..."), median of
# the numbers on stdin (0 for none), us_per CPU_SECONDS COUNT (n/a for none).
cpu_seconds() { tail -1 "$1" | awk '{print $1 + $2}'; }
median() { sort -g | awk '{a[NR]=$1} END {if (NR==0) print 0; else if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
us_per() { awk -v c="$1" -v n="$2" 'BEGIN { if (n > 0) printf "%.2f", c * 1e6 / n; else print "n/a" }'; }

# print_header TITLE: the Markdown report's title, then the machine and the kernel (and the
# load when the script starts) as its first two items.
print_header() {
  local model
  model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
  echo "# $1"
  echo
  echo "- machine: $(nproc) CPUs ($model), $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)"
  echo "- kernel: $(uname -r); load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
}
