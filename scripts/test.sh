#!/usr/bin/env bash
# Builds and runs every test: release and asan (ASan+UBSan, leak checking on) builds with their
# full CTest suites, the e2e and sanitizer tests under tsan, then the libFuzzer targets for
# FUZZ_SECONDS each (60 by default). This is what CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh

fuzz_seconds="${FUZZ_SECONDS:-60}"
stage() { echo "== [${SECONDS}s] $*"; }

# Unit tests run two at a time; the e2e tests, which drive real servers and judge latency and
# throughput within generous bounds, run one at a time so that they never compete for the two
# cores with each other.
run_ctest() {
  local preset=$1
  shift
  ctest --preset "$preset" -j2 --timeout 300 -LE e2e "$@"
  ctest --preset "$preset" -j1 --timeout 300 -L e2e "$@"
}
werror=()
[ -n "${CI:-}" ] && werror=(-DHAMMER_WERROR=ON)

for preset in release asan; do
  stage "$preset: build"
  cmake --preset "$preset" "${werror[@]}" >/dev/null
  cmake --build --preset "$preset"
  stage "$preset: test"
  run_ctest "$preset"
done

# ThreadSanitizer over the engine's multi-threaded paths: hammer (workers, latch, SIGINT wake-ups)
# driven by the e2e tests, plus the probe that fails unless the TSan runtime is really linked.
# Only those targets are built, to keep the stage short.
stage "tsan: build"
cmake --preset tsan "${werror[@]}" >/dev/null
cmake --build --preset tsan --target hammer test_server hostile_server hammer_e2e_tests \
  hammer_sanitizer_tests
stage "tsan: test"
ctest --preset tsan -j1 --timeout 300 -L 'e2e|sanitizer'

stage "fuzz: build"
cmake --preset fuzz "${werror[@]}" >/dev/null
fuzz_targets=()
for source in fuzz/*_fuzz.cc; do fuzz_targets+=("$(basename "${source%.cc}")"); done
cmake --build --preset fuzz --target "${fuzz_targets[@]}"
for target in build/fuzz/fuzz/*_fuzz; do
  [ -x "$target" ] || continue
  name=$(basename "$target")
  corpus="fuzz/corpus/${name%_fuzz}"
  work=$(mktemp -d)
  stage "fuzz: $name for ${fuzz_seconds}s (seed corpus $corpus)"
  "$target" -max_total_time="$fuzz_seconds" -print_final_stats=1 "$work" "$corpus" 2>&1 |
    grep -E "^(#[0-9]+ +DONE|Done|stat::number_of_executed_units|==[0-9]+==ERROR|SUMMARY)" || true
  status=${PIPESTATUS[0]}
  rm -rf "$work"
  if [ "$status" != 0 ]; then echo "fuzz: $name failed (exit $status)"; exit 1; fi
done
stage "all tests passed"
