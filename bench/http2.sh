#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The HTTP/2 rows of issue 26 (item 6): hammer --http2 beside h2load against two local servers,
# nginx (Debian's nginx-light, one worker) and h2o (Debian's h2o 2.2, one thread), each over h2c
# (prior knowledge on http://) and h2 (ALPN over TLS, certificates `openssl` makes here), with
# -c 10 and 10 streams per connection: generator pinned to one CPU, the servers to another
# (taskset), each case in alternating rounds so that drift on the machine lands on every tool
# alike, medians. Prints Markdown naming the machine, kernel, OpenSSL, the peers' versions and
# the engines; docs/performance.md keeps the latest.
#
#   bench/http2.sh                          # 5 s per run, 3 rounds, engines io_uring and epoll
#   DURATION=10 ROUNDS=5 ENGINES="io_uring epoll poll" bench/http2.sh
#
# Cases (CPU = user+system time of the generator process, from /usr/bin/time):
#  1. closed loop, keep-alive, -t 1: `h2load -t 1 -c 10 -m 10 -D DURATION` and
#     `hammer --http2 -t 1 -c 10 --streams 10 -d DURATION` (-k over TLS: h2load verifies
#     nothing) per server and transport: requests/s, CPU per request, and the ratio
#     hammer/h2load, the median over rounds of the ratio within each round (target <= 1.0).
#  2. memory per stream: hammer's max RSS (/usr/bin/time %M) with -c 10 at --streams 1 and at
#     --streams 100 against nginx, per transport and engine; (RSS100 - RSS1) / (10 x 99) is
#     what one stream in flight costs.
# Environment: HAMMER, H2LOAD, NGINX, H2O, DURATION, ROUNDS, ENGINES, GEN_CPU (default 0),
# SERVER_CPU (default 1), PORT (default 18543: nginx h2c; PORT+1 nginx h2, PORT+2 h2o h2c,
# PORT+3 h2o h2), CONNECTIONS (default 10), STREAMS (default 10), SHIELD (default off; "fifo" as
# in bench/engine.sh), SHIELD_PRIORITY (default 50). Missing h2load (nghttp2-client), nginx-light,
# h2o or time are installed with apt-get: bench-only peers, not scripts/deps.sh's.
set -euo pipefail

bench_name=http2.sh
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"
duration="${DURATION:-5}"
rounds="${ROUNDS:-3}"
engines="${ENGINES:-io_uring epoll}"
gen_cpu="${GEN_CPU:-0}"
server_cpu="${SERVER_CPU:-1}"
port="${PORT:-18543}"
connections="${CONNECTIONS:-10}"
streams="${STREAMS:-10}"
shield="${SHIELD:-}"
shield_priority="${SHIELD_PRIORITY:-50}"
nginx_h2c_port=$port
nginx_h2_port=$((port + 1))
h2o_h2c_port=$((port + 2))
h2o_h2_port=$((port + 3))

[[ -x "$hammer" ]] || die "no hammer at $hammer (build release first, or set HAMMER)"
[[ -n "${H2LOAD:-}" ]] || command -v h2load >/dev/null || apt_install nghttp2-client
[[ -n "${NGINX:-}" ]] || [[ -x /usr/sbin/nginx ]] || apt_install nginx-light
[[ -n "${H2O:-}" ]] || [[ -x /usr/bin/h2o ]] || apt_install h2o
[[ -x /usr/bin/time ]] || apt_install time
h2load="${H2LOAD:-$(command -v h2load)}"
nginx="${NGINX:-/usr/sbin/nginx}"
h2o="${H2O:-/usr/bin/h2o}"
command -v python3 >/dev/null || die "python3 is needed to read hammer's JSON"
[[ "$duration" =~ ^[0-9]+$ && "$duration" -gt 0 ]] || die "DURATION: expected whole seconds, got '$duration'"
[[ "$rounds" =~ ^[0-9]+$ && "$rounds" -gt 0 ]] || die "ROUNDS: expected a count, got '$rounds'"
pin_generator_and_server
nginx_pid=""
h2o_pid=""
cleanup_pids="nginx_pid h2o_pid"
make_work_dir

# Certificates: a CA and a leaf for 127.0.0.1 (lib.sh).
make_test_certificates

# nginx: one worker on SERVER_CPU, / answers "hello" over h2c and over h2 (TLS 1.3).
cat >"$work/nginx.conf" <<EOF
daemon off; master_process off; worker_processes 1;
error_log $work/nginx.error.log; pid $work/nginx.pid;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $work; proxy_temp_path $work; fastcgi_temp_path $work;
  uwsgi_temp_path $work; scgi_temp_path $work;
  server { listen 127.0.0.1:$nginx_h2c_port http2; keepalive_requests 1000000;
    location / { return 200 "hello\n"; } }
  server { listen 127.0.0.1:$nginx_h2_port ssl http2; ssl_protocols TLSv1.2 TLSv1.3;
    ssl_certificate $work/leaf.pem; ssl_certificate_key $work/leaf.key;
    keepalive_requests 1000000;
    location / { return 200 "hello\n"; } }
}
EOF
"${srv[@]}" "$nginx" -p "$work/" -c "$work/nginx.conf" >"$work/nginx.out" 2>&1 &
nginx_pid=$!
wait_for "$nginx_h2c_port" "$nginx_pid" nginx "$work/nginx.error.log" "$work/nginx.out"
wait_for "$nginx_h2_port" "$nginx_pid" nginx "$work/nginx.error.log" "$work/nginx.out"

# h2o: one thread on SERVER_CPU serving the same 6 bytes from a file, h2c and h2; no access log.
mkdir "$work/www"
printf 'hello\n' >"$work/www/index.html"
cat >"$work/h2o.conf" <<EOF
listen:
  host: 127.0.0.1
  port: $h2o_h2c_port
listen:
  host: 127.0.0.1
  port: $h2o_h2_port
  ssl:
    certificate-file: $work/leaf.pem
    key-file: $work/leaf.key
hosts:
  "127.0.0.1":
    paths:
      /:
        file.dir: $work/www
error-log: $work/h2o.error.log
num-threads: 1
EOF
# Started as root, h2o would switch to nobody, who cannot read $work.
[[ "$(id -u)" != 0 ]] || echo "user: root" >>"$work/h2o.conf"
"${srv[@]}" "$h2o" -c "$work/h2o.conf" >"$work/h2o.out" 2>&1 &
h2o_pid=$!
wait_for "$h2o_h2c_port" "$h2o_pid" h2o "$work/h2o.error.log" "$work/h2o.out"
wait_for "$h2o_h2_port" "$h2o_pid" h2o "$work/h2o.error.log" "$work/h2o.out"

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0 && a > 0) printf "%.3f", a / b; else print "n/a" }'; }

# url_of SERVER TRANSPORT
url_of() {
  case "$1.$2" in
    nginx.h2c) echo "http://127.0.0.1:$nginx_h2c_port/" ;;
    nginx.h2) echo "https://127.0.0.1:$nginx_h2_port/" ;;
    h2o.h2c) echo "http://127.0.0.1:$h2o_h2c_port/index.html" ;;
    h2o.h2) echo "https://127.0.0.1:$h2o_h2_port/index.html" ;;
  esac
}

# run_h2load URL: prints "cpu requests per_second" (requests: those that succeeded).
run_h2load() {
  /usr/bin/time -o "$work/time" -f "%U %S" "${gen_run[@]}" "$h2load" -t 1 -c "$connections" -m "$streams" \
    -D "$duration" "$1" >"$work/h2load.out" 2>&1 || true
  local n r
  n=$(sed -n 's/^requests: .* \([0-9]*\) succeeded.*/\1/p' "$work/h2load.out")
  r=$(sed -n 's/^finished in [^,]*, \([0-9.]*\) req\/s.*/\1/p' "$work/h2load.out")
  echo "$(cpu_seconds "$work/time") ${n:-0} ${r:-0}"
}

# run_hammer ENGINE ARGS... URL: prints "cpu completed per_second max_rss_kib protocol"
# (protocol: the JSON's http2.protocol, "-" when the run left no report).
run_hammer() {
  local engine=$1; shift
  /usr/bin/time -o "$work/time" -f "%U %S %M" "${gen_run[@]}" "$hammer" --engine "$engine" --http2 \
    --json "$@" >"$work/h.json" 2>"$work/h.err" || true
  python3 - "$work/h.json" "$(cpu_seconds "$work/time")" "$(tail -1 "$work/time" | awk '{print $3}')" <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except ValueError:
    print(sys.argv[2], 0, 0, sys.argv[3] or 0, "-"); sys.exit()
r = d["requests"]
print(sys.argv[2], r["completed"], r.get("per_second") or 0, sys.argv[3] or 0,
      (d.get("http2") or {}).get("protocol") or "-")
PY
}
# The last hammer run's error output, first line, for a row that measured nothing.
last_error() { head -1 "$work/h.err" 2>/dev/null; }

print_header "hammer HTTP/2 benchmark"
echo "- hammer: $("$hammer" --version); h2load: $("$h2load" --version 2>&1 | head -1); $(openssl version | cut -d' ' -f1-2); nginx: $("$nginx" -v 2>&1 | sed 's/.*nginx\///'); h2o: $("$h2o" --version 2>&1 | head -1 | sed 's/^h2o version //')"
echo "- engines: $engines"
echo "- generator on CPU $gen_cpu; nginx (1 worker) and h2o (1 thread) on CPU $server_cpu, TLS with a P-256 certificate; -t 1 -c $connections, $streams streams per connection; ${duration} s per run, $rounds alternating rounds, medians; hammer -k over TLS (h2load does not verify)"
if [[ -n "$shield" ]]; then
  echo "- SHIELD=fifo: generator and servers under SCHED_FIFO priority $shield_priority on their CPUs (chrt -f)"
else
  echo "- not shielded (SHIELD unset): other work on the host can preempt generator and servers"
fi
echo

# 1. Closed loop, keep-alive, h2load beside hammer per engine, per server and transport.
cases="nginx.h2c nginx.h2 h2o.h2c h2o.h2"
for _ in $(seq "$rounds"); do
  for case in $cases; do
    server=${case%.*}; transport=${case#*.}
    url=$(url_of "$server" "$transport")
    read -r c n r < <(run_h2load "$url")
    w=$(us_per "$c" "$n")
    echo "$w" >>"$work/cpu.h2load.$case"; echo "$r" >>"$work/rps.h2load.$case"
    for engine in $engines; do
      insecure=(); [[ $transport == h2 ]] && insecure=(-k)
      read -r c n r _ proto < <(run_hammer "$engine" -t 1 -c "$connections" --streams "$streams" \
        -d "$duration" "${insecure[@]}" "$url")
      [[ "$n" != 0 ]] || echo "$bench_name: hammer $engine against $server $transport completed nothing: $(last_error)" >&2
      [[ "$n" == 0 || "$proto" == "$transport" ]] || die "hammer spoke $proto, not $transport, to $url"
      h=$(us_per "$c" "$n")
      echo "$h" >>"$work/cpu.$engine.$case"; echo "$r" >>"$work/rps.$engine.$case"
      ratio "$h" "$w" >>"$work/ratio.$engine.$case"; echo >>"$work/ratio.$engine.$case"
    done
  done
done
echo "## Closed loop, keep-alive, -t 1 -c $connections, $streams streams per connection"
echo
echo "| server | transport | generator | requests/s | CPU per request | ratio to h2load | target |"
echo "|---|---|---|---|---|---|---|"
for case in $cases; do
  server=${case%.*}; transport=${case#*.}
  printf "| %s | %s | h2load -m %s | %.0f | %s us | 1.00 | |\n" "$server" "$transport" "$streams" \
    "$(median <"$work/rps.h2load.$case")" "$(grep -v n/a "$work/cpu.h2load.$case" | median)"
  for engine in $engines; do
    printf "| %s | %s | hammer, %s | %.0f | %s us | %s | <= 1.0 |\n" "$server" "$transport" "$engine" \
      "$(median <"$work/rps.$engine.$case")" "$(grep -v n/a "$work/cpu.$engine.$case" | median)" \
      "$(grep -v n/a "$work/ratio.$engine.$case" | grep . | median)"
  done
done
echo

# 2. Memory per stream: max RSS at 1 and at 100 streams per connection, against nginx (whose
# http2_max_concurrent_streams, 128, lets 100 through).
echo "## Memory per stream: hammer's max RSS, -t 1 -c $connections, nginx"
echo
echo "| transport | engine | --streams 1 | --streams 100 | per stream in flight |"
echo "|---|---|---|---|---|"
for transport in h2c h2; do
  url=$(url_of nginx "$transport")
  insecure=(); [[ $transport == h2 ]] && insecure=(-k)
  for engine in $engines; do
    read -r _ n1 _ rss1 _ < <(run_hammer "$engine" -t 1 -c "$connections" --streams 1 -d "$duration" "${insecure[@]}" "$url")
    [[ "$n1" != 0 ]] || echo "$bench_name: hammer $engine --streams 1 ($transport) completed nothing: $(last_error)" >&2
    read -r _ n100 _ rss100 _ < <(run_hammer "$engine" -t 1 -c "$connections" --streams 100 -d "$duration" "${insecure[@]}" "$url")
    [[ "$n100" != 0 ]] || echo "$bench_name: hammer $engine --streams 100 ($transport) completed nothing: $(last_error)" >&2
    awk -v t="$transport" -v e="$engine" -v a="$rss1" -v b="$rss100" -v c="$connections" \
      'BEGIN { printf "| %s | %s | %.1f MiB | %.1f MiB | %.0f bytes |\n", t, e, a / 1024, b / 1024, (b - a) * 1024 / (c * 99) }'
  done
done
echo
