#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The TLS rows of issue 25, beside their plain-HTTP twins, against ONE local nginx (Debian's
# nginx-light) serving the same answer on a TLS port and a plain port, with certificates
# `openssl` makes here: generator pinned to one CPU, nginx (one worker) to another (taskset),
# each case in alternating rounds so that drift on the machine lands on every tool alike,
# medians. Prints Markdown naming the machine, kernel, OpenSSL and engines; docs/performance.md
# keeps the latest. bench/engine.sh runs it after its own tables (TLS=0 skips it there).
#
#   bench/tls.sh                            # 5 s per run, 3 rounds, engines io_uring and epoll
#   DURATION=10 ROUNDS=5 ENGINES="io_uring epoll poll" bench/tls.sh
#
# Cases (CPU = user+system time of the generator process, from /usr/bin/time):
#  1. closed loop, keep-alive, -t 1 -c 50: CPU per request of `wrk https://` and of hammer per
#     engine; the ratio is the median over rounds of hammer/wrk within each round (target
#     <= 0.8). The same against the plain port beside it: what TLS adds to each tool.
#  2. open loop -t 1 -c 50 at 2k and 10k req/s (RATES), TLS and plain per engine: CPU per
#     request and the difference, against the crypto's own cost per request: one AES-256-GCM
#     seal of the request and one open of the response (`openssl speed`, 256-byte blocks, the
#     size of both records here), which is what TLS must add at the least once handshakes are
#     done.
#  3. --no-keepalive over TLS with resumption (nginx's /close answers with Connection: close):
#     new connections per second per generator core (connections / generator CPU seconds) of
#     hammer per engine against `h2load --h1 -n 2000*DURATION` on the same URL (target: hammer
#     >= h2load), with hammer's count of full and resumed handshakes.
#  4. kTLS: whether this kernel offers the `tls` upper-layer protocol
#     (/proc/sys/net/ipv4/tcp_available_ulp).
#  5. open-loop truth over TLS: nginx proxying over keep-alive upstream connections to
#     tools/pausing_server.py (200 ms pause every 3,000 responses), hammer at 2k req/s, -c 20,
#     7.5 s: corrected p90 and p99 against design.md §1's formula, the fraction f taken from
#     the pauses inside the run (the e2e twin is tests/e2e/tls_open_loop_test.cc). hammer on
#     GEN_CPU, nginx on SERVER_CPU, the pausing server wherever the scheduler puts it.
# wrk and h2load do not verify certificates; hammer runs with -k alike (verification costs
# only on full handshakes: once per connection with keep-alive, and not on resumed ones).
# Environment: HAMMER, WRK, H2LOAD, NGINX, DURATION, ROUNDS, ENGINES, GEN_CPU (default 0),
# SERVER_CPU (default 1), PORT (default 18443; PORT+1 plain, PORT+2 the proxy), RATES
# (default "2000 10000"), SHIELD (default off; "fifo" as in bench/engine.sh), SHIELD_PRIORITY
# (default 50), TRUTH (default 1; 0 skips case 5). Missing wrk, h2load (nghttp2-client),
# nginx-light or time are installed with apt-get: bench-only peers, not scripts/deps.sh's.
set -euo pipefail

bench_name=tls.sh
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"
duration="${DURATION:-5}"
rounds="${ROUNDS:-3}"
engines="${ENGINES:-io_uring epoll}"
rates="${RATES:-2000 10000}"
gen_cpu="${GEN_CPU:-0}"
server_cpu="${SERVER_CPU:-1}"
port="${PORT:-18443}"
plain_port=$((port + 1))
proxy_port=$((port + 2))
shield="${SHIELD:-}"
shield_priority="${SHIELD_PRIORITY:-50}"
truth="${TRUTH:-1}"
tls_url="https://127.0.0.1:${port}/"
plain_url="http://127.0.0.1:${plain_port}/"

[[ -x "$hammer" ]] || die "no hammer at $hammer (build release first, or set HAMMER)"
[[ -n "${WRK:-}" ]] || command -v wrk >/dev/null || apt_install wrk
[[ -n "${H2LOAD:-}" ]] || command -v h2load >/dev/null || apt_install nghttp2-client
[[ -n "${NGINX:-}" ]] || [[ -x /usr/sbin/nginx ]] || apt_install nginx-light
[[ -x /usr/bin/time ]] || apt_install time
wrk="${WRK:-$(command -v wrk)}"
h2load="${H2LOAD:-$(command -v h2load)}"
nginx="${NGINX:-/usr/sbin/nginx}"
command -v python3 >/dev/null || die "python3 is needed to read hammer's JSON"
pin_generator_and_server
nginx_pid=""
upstream_pid=""
cleanup_pids="nginx_pid upstream_pid"
make_work_dir

# Certificates: a CA and a leaf for 127.0.0.1 (lib.sh).
make_test_certificates

# nginx: one worker on SERVER_CPU; / answers "hello" (keep-alive), /close with Connection:
# close; the proxy port (case 5) forwards to the pausing server over kept-alive connections.
start_nginx() {  # [UPSTREAM_PORT]
  local proxy=""
  if [[ -n "${1:-}" ]]; then
    proxy="upstream pausing { server 127.0.0.1:$1; keepalive 64; keepalive_requests 1000000; }
  server { listen 127.0.0.1:$proxy_port ssl; ssl_protocols TLSv1.2 TLSv1.3;
    ssl_certificate $work/leaf.pem; ssl_certificate_key $work/leaf.key; keepalive_requests 1000000;
    location / { proxy_pass http://pausing; proxy_http_version 1.1; proxy_set_header Connection \"\"; } }"
  fi
  cat >"$work/nginx.conf" <<EOF
daemon off; master_process off; worker_processes 1;
error_log $work/error.log; pid $work/nginx.pid;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $work; proxy_temp_path $work; fastcgi_temp_path $work;
  uwsgi_temp_path $work; scgi_temp_path $work;
  ssl_session_cache shared:bench:10m;
  server { listen 127.0.0.1:$port ssl; ssl_protocols TLSv1.2 TLSv1.3;
    ssl_certificate $work/leaf.pem; ssl_certificate_key $work/leaf.key;
    keepalive_requests 1000000;
    location / { return 200 "hello\n"; }
    location /close { keepalive_timeout 0; return 200 "bye\n"; } }
  server { listen 127.0.0.1:$plain_port; keepalive_requests 1000000;
    location / { return 200 "hello\n"; } }
  $proxy
}
EOF
  "${srv[@]}" "$nginx" -p "$work/" -c "$work/nginx.conf" >"$work/nginx.out" 2>&1 &
  nginx_pid=$!
  wait_for "$port" "$nginx_pid" nginx "$work/error.log" "$work/nginx.out"
}
stop_nginx() { kill "$nginx_pid" 2>/dev/null || true; wait "$nginx_pid" 2>/dev/null || true; nginx_pid=""; }

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "n/a" }'; }

# run_wrk URL: prints "cpu requests"
run_wrk() {
  /usr/bin/time -o "$work/time" -f "%U %S" "${gen_run[@]}" "$wrk" -t1 -c50 -d"${duration}s" "$1" >"$work/wrk.out" 2>&1 || true
  echo "$(cpu_seconds "$work/time") $(sed -n 's/^ *\([0-9]*\) requests in.*/\1/p' "$work/wrk.out")"
}

# run_h2load URL: prints "cpu requests" (one connection per request on /close). A count, not
# -D: h2load 1.52's duration mode did not end when the server closed each connection.
run_h2load() {
  /usr/bin/time -o "$work/time" -f "%U %S" "${gen_run[@]}" "$h2load" --h1 -t 1 -c 50 -n "$((2000 * duration))" "$1" >"$work/h2load.out" 2>&1 || true
  echo "$(cpu_seconds "$work/time") $(sed -n 's/^requests: .* \([0-9]*\) succeeded.*/\1/p' "$work/h2load.out")"
}

# run_hammer ENGINE ARGS... URL: prints "cpu completed connects full resumed sleeps" (sleeps:
# the process's voluntary context switches, each a sleep and a wake-up)
run_hammer() {
  local engine=$1; shift
  /usr/bin/time -o "$work/time" -f "%U %S %w" "${gen_run[@]}" "$hammer" --engine "$engine" --json "$@" >"$work/h.json" 2>"$work/h.err" || true
  python3 - "$work/h.json" "$(cpu_seconds "$work/time")" "$(tail -1 "$work/time" | awk '{print $3}')" <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except ValueError:
    print(sys.argv[2], 0, 0, 0, 0, 0); sys.exit()
tls = d.get("tls") or {}
shakes = tls.get("handshakes") or {}
print(sys.argv[2], d["requests"]["completed"], (d.get("connect") or {}).get("count", 0),
      shakes.get("full", 0), shakes.get("resumed", 0), sys.argv[3] or 0)
PY
}

print_header "hammer TLS benchmark"
echo "- hammer: $("$hammer" --version); wrk: $("$wrk" -v 2>&1 | head -1 | cut -d' ' -f1-2); h2load: $("$h2load" --version 2>&1 | head -1); $(openssl version | cut -d' ' -f1-2); nginx: $("$nginx" -v 2>&1 | sed 's/.*nginx\///')"
echo "- generator on CPU $gen_cpu, nginx (1 worker, TLS 1.3, P-256 certificate) on CPU $server_cpu; ${duration} s per run, $rounds alternating rounds, medians; hammer -k (wrk and h2load do not verify)"
if [[ -n "$shield" ]]; then
  echo "- SHIELD=fifo: generator and nginx under SCHED_FIFO priority $shield_priority on their CPUs (chrt -f)"
else
  echo "- not shielded (SHIELD unset): other work on the host can preempt generator and server"
fi
echo

start_nginx

# 1. Closed loop, keep-alive.
for round in $(seq "$rounds"); do
  for scheme in tls plain; do
    url=$tls_url; [[ $scheme == plain ]] && url=$plain_url
    read -r c n < <(run_wrk "$url")
    w=$(us_per "$c" "$n"); echo "$w" >>"$work/closed.wrk.$scheme"
    for engine in $engines; do
      insecure=(); [[ $scheme == tls ]] && insecure=(-k)
      read -r c n _ < <(run_hammer "$engine" -t 1 -c 50 -d "$duration" "${insecure[@]}" "$url")
      h=$(us_per "$c" "$n"); echo "$h" >>"$work/closed.$engine.$scheme"
      ratio "$h" "$w" >>"$work/closed.ratio.$engine.$scheme"; echo >>"$work/closed.ratio.$engine.$scheme"
    done
  done
done
echo "## Closed loop, keep-alive, -t 1 -c 50"
echo
echo "| generator | TLS: CPU per request | TLS: ratio to wrk | plain: CPU per request | plain: ratio to wrk | TLS - plain | target (TLS ratio) |"
echo "|---|---|---|---|---|---|---|"
wt=$(median <"$work/closed.wrk.tls"); wp=$(median <"$work/closed.wrk.plain")
echo "| wrk | ${wt} us | 1.00 | ${wp} us | 1.00 | $(awk -v a="$wt" -v b="$wp" 'BEGIN {printf "%.2f", a - b}') us | |"
for engine in $engines; do
  t=$(median <"$work/closed.$engine.tls"); p=$(median <"$work/closed.$engine.plain")
  echo "| hammer, $engine | ${t} us | $(grep . "$work/closed.ratio.$engine.tls" | median) | ${p} us | $(grep . "$work/closed.ratio.$engine.plain" | median) | $(awk -v a="$t" -v b="$p" 'BEGIN {printf "%.2f", a - b}') us | <= 0.8 |"
done
echo

# 2. Open loop, TLS beside plain, and the crypto's own cost.
aead_us=$(openssl speed -elapsed -seconds 1 -bytes 256 -evp aes-256-gcm 2>/dev/null |
  awk 'tolower($1) == "aes-256-gcm" { v = $NF; sub(/k$/, "", v); if (v > 0) printf "%.3f", 256 / (v * 1000) * 1e6 }')
crypto_us=$(awk -v a="${aead_us:-0}" 'BEGIN {printf "%.2f", 2 * a}')
echo "## Open loop, keep-alive, -t 1 -c 50: TLS beside plain"
echo
echo "The crypto's own cost per request: one AES-256-GCM seal and one open of a 256-byte record, ${aead_us:-?} us each (openssl speed, this CPU): ${crypto_us} us."
echo
echo "| rate | engine | TLS: CPU per request | plain: CPU per request | TLS - plain | crypto's own cost | sleeps per request, TLS / plain | TLS completed/scheduled |"
echo "|---|---|---|---|---|---|---|---|"
for rate in $rates; do
  for engine in $engines; do
    : >"$work/open.tls"; : >"$work/open.plain"
    for round in $(seq "$rounds"); do
      run_hammer "$engine" -t 1 -c 50 -r "$rate" -d "$duration" -k "$tls_url" >>"$work/open.tls"
      run_hammer "$engine" -t 1 -c 50 -r "$rate" -d "$duration" "$plain_url" >>"$work/open.plain"
    done
    t=$(awk '{ if ($2 > 0) print $1 * 1e6 / $2 }' "$work/open.tls" | median)
    p=$(awk '{ if ($2 > 0) print $1 * 1e6 / $2 }' "$work/open.plain" | median)
    share=$(awk -v r="$rate" -v d="$duration" '{ print $2 / (r * d) * 100 }' "$work/open.tls" | median)
    st=$(awk '{ if ($2 > 0) print $6 / $2 }' "$work/open.tls" | median)
    sp=$(awk '{ if ($2 > 0) print $6 / $2 }' "$work/open.plain" | median)
    printf "| %s | %s | %.2f us | %.2f us | %.2f us | %s us | %.2f / %.2f | %.2f%% |\n" "$rate" "$engine" "$t" "$p" "$(awk -v a="$t" -v b="$p" 'BEGIN {print a - b}')" "$crypto_us" "$st" "$sp" "$share"
  done
done
echo

# 3. A new connection per request, resumed.
close_url="${tls_url}close"
: >"$work/nk.h2load"
for engine in $engines; do : >"$work/nk.$engine"; done
for round in $(seq "$rounds"); do
  read -r c n < <(run_h2load "$close_url")
  echo "$c $n" >>"$work/nk.h2load"
  for engine in $engines; do
    run_hammer "$engine" -t 1 -c 50 -d "$duration" -k --no-keepalive "$close_url" >>"$work/nk.$engine"
  done
done
per_core() { awk '{ if ($1 > 0) print $2 / $1 }' "$1" | median; }
h=$(per_core "$work/nk.h2load")
echo "## --no-keepalive over TLS, resumed sessions, -t 1 -c 50 (nginx /close: Connection: close)"
echo
echo "| generator | new connections per second per generator core | ratio to h2load | handshakes (last round) | target |"
echo "|---|---|---|---|---|"
printf "| h2load --h1 | %.0f | 1.00 | (not reported) | |\n" "$h"
for engine in $engines; do
  m=$(awk '{ if ($1 > 0) print $3 / $1 }' "$work/nk.$engine" | median)
  last=$(tail -1 "$work/nk.$engine")
  printf "| hammer, %s | %.0f | %s | %s full, %s resumed | >= 1.0 |\n" "$engine" "$m" "$(ratio "$m" "$h")" \
    "$(awk '{print $4}' <<<"$last")" "$(awk '{print $5}' <<<"$last")"
done
echo
stop_nginx

# 4. kTLS.
echo "## kTLS"
echo
ulps=$(cat /proc/sys/net/ipv4/tcp_available_ulp 2>/dev/null || echo "?")
if grep -qw tls <<<"$ulps"; then
  echo "This kernel offers the tls upper-layer protocol (tcp_available_ulp: $ulps); hammer does not use it yet."
else
  echo "This kernel does not offer kTLS: tcp_available_ulp is '$ulps' (no tls module), so it cannot be measured here."
fi
echo

# 5. Open-loop truth over TLS.
[[ "$truth" == 1 ]] || exit 0
python3 "$root/tools/pausing_server.py" --port 0 --pause-ms 200 --every 3000 >"$work/upstream.out" 2>&1 &
upstream_pid=$!
for _ in $(seq 100); do grep -q listening "$work/upstream.out" 2>/dev/null && break; sleep 0.05; done
upstream_port=$(sed -n 's/^listening on .*:\([0-9]*\)$/\1/p' "$work/upstream.out")
[[ -n "$upstream_port" ]] || die "pausing_server did not start: $(cat "$work/upstream.out")"
start_nginx "$upstream_port"
for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$proxy_port") 2>/dev/null && break; sleep 0.05; done
truth_args=(-r 2000 -c 20 -t 1 -d 7.5 -k "https://127.0.0.1:${proxy_port}/")
echo "## Open-loop truth over TLS: nginx proxying to tools/pausing_server.py --pause-ms 200 --every 3000"
echo
echo '```'
echo "\$ hammer ${truth_args[*]}"
timeout -k 5 60 "${gen[@]}" "$hammer" "${truth_args[@]}" -o "$work/truth.json" >"$work/truth.txt" 2>&1 || true
cat "$work/truth.txt"
echo '```'
python3 - "$work/truth.json" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
rate, every, pause_ms, seconds = 2000, 3000, 200, 7.5
pauses = math.floor((rate * seconds - 1) / every)     # the pauses that begin while it sends
f = pauses * pause_ms / (seconds * 1000)
expect = lambda q: max(0.0, pause_ms * (q - (1 - f)) / f)
c = d["latency"]["corrected"]["percentiles_ns"]
u = d["latency"]["uncorrected"]["percentiles_ns"]
print(f"The same run's JSON: {pauses} pauses in {seconds} s, f = {f:.3f}; "
      f"corrected p90 {c['90'] / 1e6:.1f} ms (formula {expect(0.90):.1f}), "
      f"p99 {c['99'] / 1e6:.1f} ms (formula {expect(0.99):.1f}); "
      f"uncorrected p90 {u['90'] / 1e6:.2f} ms, p99 {u['99'] / 1e6:.2f} ms; "
      f"completed {d['requests']['completed']} of {d['requests']['scheduled']} scheduled, "
      f"tls errors {d['errors']['tls']}.")
PY
