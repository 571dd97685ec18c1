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

# shellcheck source=tests/support/test_server.sh
source "$here/../support/test_server.sh"
work_dir_and_server_cleanup
start_test_server "$test_server"

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
