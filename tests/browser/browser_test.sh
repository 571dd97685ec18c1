#!/usr/bin/env bash
# One browser test: make a report with the built hammer against tools/test_server on
# 127.0.0.1, then load it in headless Chromium (check_report.js) and check the page.
# Usage: browser_test.sh single|compare|compare3|sweep|merge|compare_command HAMMER TEST_SERVER [SCREENSHOT_DIR]
# (or HAMMER_SCREENSHOTS=DIR: keep the page's screenshot there as MODE.png, and the page as
# MODE.html). Exits 77 (skipped) when chromium or node is missing, unless CI is set: CI
# installs both (scripts/deps.sh), so there a missing browser is a failure, not a skip.
set -euo pipefail
mode=$1
hammer=$2
test_server=$3
shots=${4:-${HAMMER_SCREENSHOTS:-}}
here=$(cd "$(dirname "$0")" && pwd)
chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$chromium" ] || ! command -v node >/dev/null; then
  if [ -n "${CI:-}" ]; then
    echo "chromium or node missing: scripts/deps.sh installs them"
    exit 1
  fi
  echo "skipped: needs chromium and node (scripts/deps.sh installs them)"
  exit 77
fi

# shellcheck source=tests/support/test_server.sh
source "$here/../support/test_server.sh"
work_dir_and_server_cleanup
start_test_server "$test_server"
url="http://$address/"

case "$mode" in
  single)
    # Open loop with a warm-up: both curves, the shaded warm-up, dispatch lag.
    "$hammer" -c 4 -t 1 -W 1 -d 2 -r 400 -o "$work/run.json" -o "$work/run.hgrm" \
      -o "$work/run.html" "$url" > /dev/null
    cat > "$work/expect.json" <<JSON
{"timeline": "$work/run.json", "runs": [{"document": "$work/run.json", "hgrm": {"corrected": "$work/run.hgrm",
  "uncorrected": "$work/run.uncorrected.hgrm"}}]}
JSON
    page=$work/run.html
    ;;
  compare)
    # "Before and after": the same route at two rates, rendered later from the saved runs.
    "$hammer" -c 2 -t 1 -d 1 -r 200 -o "$work/before.json" -o "$work/before.hgrm" "$url" > /dev/null
    "$hammer" -c 2 -t 1 -d 1 -r 400 -o "$work/after.json" -o "$work/after.hgrm" "$url" > /dev/null
    "$hammer" report "$work/before.json" "$work/after.json" -o "$work/compare.html"
    cat > "$work/expect.json" <<JSON
{"comparison": 4, "runs": [
  {"document": "$work/before.json", "hgrm": {"corrected — before.json": "$work/before.hgrm"}},
  {"document": "$work/after.json", "hgrm": {"corrected — after.json": "$work/after.hgrm"}}]}
JSON
    page=$work/compare.html
    ;;
  compare3)
    # Three runs on one page: six curves, a legend of two rows, a caption for each style.
    for rate in 200 300 400; do
      "$hammer" -c 2 -t 1 -d 1 -r "$rate" -o "$work/rate-$rate.json" "$url" > /dev/null
    done
    "$hammer" report "$work/rate-200.json" "$work/rate-300.json" "$work/rate-400.json" \
      -o "$work/compare3.html"
    cat > "$work/expect.json" <<JSON
{"comparison": 6, "runs": [{"document": "$work/rate-200.json"},
  {"document": "$work/rate-300.json"}, {"document": "$work/rate-400.json"}]}
JSON
    page=$work/compare3.html
    ;;
  sweep)
    "$hammer" -c 1,2,4 -t 1 -d 1 -o "$work/sweep.json" -o "$work/sweep.html" "$url" > /dev/null
    echo "{\"sweep\": \"$work/sweep.json\"}" > "$work/expect.json"
    page=$work/sweep.html
    ;;
  merge)
    # Two shards of one fleet on this machine, then hammer merge -o merged.html: the page of
    # the merged run must show the merged document's figures.
    start=$(($(date +%s) + 2))
    shard_pids=()
    for shard in 1 2; do
      "$hammer" --shard "$shard/2" --start-at "$start" -c 2 -t 1 -d 1 -r 200 \
        -o "$work/shard$shard.json" "$url" > /dev/null &
      shard_pids+=($!)
    done
    # Each shard by its PID (a bare wait would wait for the server too); set -e stops on a
    # shard that failed.
    for pid in "${shard_pids[@]}"; do wait "$pid"; done
    "$hammer" merge "$work/shard1.json" "$work/shard2.json" -o "$work/merged.json" \
      -o "$work/merged.html" > /dev/null
    echo "{\"runs\": [{\"document\": \"$work/merged.json\"}]}" > "$work/expect.json"
    page=$work/merged.html
    ;;
  compare_command)
    # hammer compare -o: its rows and verdicts as the --json document says, one gate that
    # cannot trip (exit 0: 3 s runs, the fewest it judges) and stdout unchanged by the page.
    "$hammer" -c 2 -t 1 -d 3 -r 200 -o "$work/before.json" "$url" > /dev/null
    "$hammer" -c 2 -t 1 -d 3 -r 400 -o "$work/after.json" "$url" > /dev/null
    "$hammer" compare "$work/before.json" "$work/after.json" --fail-if 'p50+100000%' --json \
      > "$work/compare.json"
    "$hammer" compare "$work/before.json" "$work/after.json" --fail-if 'p50+100000%' --json \
      -o "$work/compare.html" > "$work/compare-with-page.json"
    cmp "$work/compare.json" "$work/compare-with-page.json"
    cat > "$work/expect.json" <<JSON
{"comparison": 4, "compareCommand": "$work/compare.json"}
JSON
    page=$work/compare.html
    ;;
  *)
    echo "unknown mode $mode"
    exit 1
    ;;
esac

screenshot=$work/$mode.png
if [ -n "$shots" ]; then
  screenshot=$shots/$mode.png
  cp "$page" "$shots/$mode.html"
fi
node "$here/check_report.js" "$chromium" "$page" "$work/expect.json" "$screenshot"
echo "page: $(wc -c < "$page") bytes"
