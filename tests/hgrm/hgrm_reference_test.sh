#!/usr/bin/env bash
# The .hgrm of a fresh run against the Java reference: hammer writes run.hgrm (corrected) and
# run.uncorrected.hgrm beside run.json; HdrHistogram (Java) decodes each histogram's HDR string
# from run.json and prints its percentile distribution; the files must be the same bytes.
# Usage: hgrm_reference_test.sh HAMMER TEST_SERVER. Exits 77 (skipped) without java or the jar.
set -euo pipefail
hammer=$1
test_server=$2
here=$(cd "$(dirname "$0")" && pwd)
jar=${HDRHISTOGRAM_JAR:-/usr/share/java/hdrhistogram.jar}
if ! command -v java >/dev/null || [ ! -r "$jar" ]; then
  echo "skipped: needs java and $jar (scripts/deps.sh installs them)"
  exit 77
fi

work=$(mktemp -d)
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

"$test_server" --port 0 > "$work/server.out" 2>&1 &
server_pid=$!
for _ in $(seq 100); do
  grep -q "listening on" "$work/server.out" && break
  sleep 0.1
done
address=$(sed -n 's/^listening on \([0-9.:]*\).*/\1/p' "$work/server.out")
[ -n "$address" ] || { echo "test_server did not start"; cat "$work/server.out"; exit 1; }

"$hammer" -c 2 -t 1 -d 1 -r 300 -o "$work/run.json" -o "$work/run.hgrm" "http://$address/" \
  > "$work/report.txt"

hdr_of() {
  python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["latency"][sys.argv[2]]["hdr"])' \
    "$work/run.json" "$1"
}
status=0
for pair in corrected:run.hgrm uncorrected:run.uncorrected.hgrm; do
  histogram=${pair%%:*}
  file=${pair#*:}
  java -cp "$jar" "$here/HgrmReference.java" "$(hdr_of "$histogram")" > "$work/reference.hgrm"
  if diff -u "$work/reference.hgrm" "$work/$file"; then
    echo "$file: same bytes as HdrHistogram (Java) for the $histogram histogram" \
         "($(wc -l < "$work/$file") lines)"
  else
    status=1
  fi
done
exit $status
