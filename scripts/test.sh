#!/usr/bin/env bash
# Builds and runs every test: release and asan (ASan+UBSan, leak checking on) builds with their
# full CTest suites, the e2e and sanitizer tests under tsan, the libFuzzer targets for
# FUZZ_SECONDS each (30 by default), then the e2e suite on the portable build (the macOS code
# path on Linux; scripts/portable-check.sh runs it alone), and the MinGW-w64 build
# of hammer.exe under wine64 (scripts/windows-check.sh). This is what CI runs; it
# must stay under 15 minutes on two cores (each stage's time is printed as it starts, and all
# of them at the end).
#
# Where the time goes, and why the stages are laid out this way:
# - The e2e tests are bounded by the clock, not the CPU: each drives a server for a set
#   duration. The next preset's compile, which is bounded by the CPU, therefore runs in the
#   background while a preset's tests run (`build_in_background`, then `finish_build`). That
#   puts the e2e tests on a busy machine on purpose: they judge counts, structure, verdicts and
#   ratios within one run, and scripts/test-under-load.sh proves they pass with twice as many
#   busy loops as cores.
# - Each sanitizer stage builds only the targets its tests run (tsan: hammer, the servers and
#   the e2e and sanitizer test binaries; fuzz: the fuzz targets).
# - The sanitizer and fuzz presets compile with -g1 (CMakePresets.json): line tables are all an
#   ASan/TSan report needs, and full debug info (RelWithDebInfo's -g) cost about 40% more
#   compile CPU (7.5 s against 5 s of user time for one test file), which is what a cold cache
#   makes the critical path. (-O1 would save a little more, but gcc then warns
#   maybe-uninitialized through std::optional, and CI builds with -Werror.)
# - Objects come from ccache (cmake/ccache.cmake) when the sources did not change.
#
# Adding a stage: call `stage "name"` before its work; a preset's build may be started early
# with `build_in_background PRESET TARGET...` and joined with `finish_build`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh

fuzz_seconds="${FUZZ_SECONDS:-30}"
werror=()
[ -n "${CI:-}" ] && werror=(-DHAMMER_WERROR=ON)

# Stage bookkeeping: `stage NAME` ends the current stage and starts the next; the summary at
# exit (success or not) lists every stage's wall time.
stage_names=()
stage_seconds=()
current_stage=""
current_start=0
end_stage() {
  [ -n "$current_stage" ] || return 0
  stage_names+=("$current_stage")
  stage_seconds+=("$((SECONDS - current_start))")
  current_stage=""
}
stage() {
  end_stage
  current_stage="$*"
  current_start=$SECONDS
  echo "== [${SECONDS}s] $*"
}
background_note=""  # a background build's own span, added to the summary
summary() {
  local status=$1
  end_stage
  echo "== stage times"
  local i
  for i in "${!stage_names[@]}"; do printf '%6ss  %s\n' "${stage_seconds[$i]}" "${stage_names[$i]}"; done
  [ -z "$background_note" ] || printf '%s' "$background_note"
  printf '%6ss  total (exit %s)\n' "$SECONDS" "$status"
}

# One build at a time runs in the background, its output kept in a log that is shown when it
# fails. It is stopped by its own process group's ID if the script ends first.
build_pid=""
build_preset=""
build_log=""
build_start=0
stop_background_build() {
  [ -z "$build_pid" ] || kill -- "-$build_pid" 2>/dev/null || true
}
trap 'status=$?; stop_background_build; summary "$status"' EXIT
build_in_background() {
  build_preset=$1
  shift
  build_log=$(mktemp)
  build_start=$SECONDS
  echo "== [${SECONDS}s] $build_preset: build starts in the background"
  local targets=()
  (($#)) && targets=(--target "$@")
  # Job control on for this one launch: the build gets a process group of its own (its ID is
  # the PID), so that stopping it stops the compilers it started too.
  set -m
  (cmake --preset "$build_preset" "${werror[@]}" >/dev/null &&
    cmake --build --preset "$build_preset" "${targets[@]}") >"$build_log" 2>&1 &
  build_pid=$!
  set +m
}
finish_build() {
  stage "$build_preset: build (waiting for the background build)"
  local status=0
  wait "$build_pid" || status=$?
  build_pid=""
  background_note+=$(printf '%6ss  (%s build in the background, from %ss)' \
    "$((SECONDS - build_start))" "$build_preset" "$build_start")$'\n'
  if [ "$status" != 0 ]; then
    cat "$build_log"
    rm -f "$build_log"
    echo "$build_preset: build failed (exit $status)"
    exit 1
  fi
  tail -n 1 "$build_log"
  rm -f "$build_log"
}

# Unit tests and e2e tests alike run two at a time. An e2e test spends most of its time waiting
# on the clock (a server paused, a run of set duration), so a second one beside it costs little
# CPU; each binds its own ephemeral ports, and the few that must be alone say so (RUN_SERIAL).
# Two at a time next to a background build is four busy processes on two cores, which is what
# scripts/test-under-load.sh proves the e2e suite passes under.
e2e_jobs=2
run_ctest() {
  local preset=$1
  shift
  ctest --preset "$preset" -j2 --timeout 300 -LE e2e "$@"
  ctest --preset "$preset" -j"$e2e_jobs" --timeout 300 -L e2e "$@"
  say_not_judged "$preset"
}

# A check a busy machine kept from judging (its test printed "... not judged" with why, and
# judged the rest) passes, and says so here, in its stage's last line, not only in the log.
say_not_judged() {
  local log="build/$1/Testing/Temporary/LastTest.log"
  local count=0
  [ -f "$log" ] && count=$(grep -c "not judged" "$log" || true)
  if [ "$count" -gt 0 ]; then
    grep "not judged" "$log" | sort | uniq -c
    echo "$1: e2e passed; $count check(s) not judged on this busy machine (said why above)"
  else
    echo "$1: e2e passed; every check judged"
  fi
}

stage "release: build"
cmake --preset release "${werror[@]}" >/dev/null
cmake --build --preset release

build_in_background asan
stage "release: test"
# The release e2e suite runs once per I/O engine (HAMMER_ENGINE; hammer falls back to epoll,
# with a note, where this kernel refuses io_uring). The epoll pass leaves out the sweep and
# warm-up tests, whose logic sits above the engine, and the browser tests (label browser: the
# HTML report in headless chromium), which judge the page, not the engine, to keep CI short.
# The browser tests run here (io_uring pass) and again under asan, whose hammer renders the
# pages with ASan watching.
ctest --preset release -j2 --timeout 300 -LE e2e
stage "release: e2e, io_uring engine"
HAMMER_ENGINE=io_uring ctest --preset release -j"$e2e_jobs" --timeout 300 -L e2e
say_not_judged release
stage "release: e2e, epoll engine"
HAMMER_ENGINE=epoll ctest --preset release -j"$e2e_jobs" --timeout 300 -L e2e -LE browser -E 'Sweep|Warmup'
say_not_judged release
finish_build

# ThreadSanitizer over the engine's multi-threaded paths: hammer (workers, latch, SIGINT wake-ups)
# driven by the e2e tests, plus the probe that fails unless the TSan runtime is really linked.
build_in_background tsan hammer test_server hostile_server hammer_e2e_tests hammer_sanitizer_tests
stage "asan: test"
run_ctest asan
finish_build

fuzz_targets=()
for source in fuzz/*_fuzz.cc; do fuzz_targets+=("$(basename "${source%.cc}")"); done
build_in_background fuzz "${fuzz_targets[@]}"
stage "tsan: test"
ctest --preset tsan -j"$e2e_jobs" --timeout 300 -L 'e2e|sanitizer' -LE browser
say_not_judged tsan
finish_build

# The portable build (-DHAMMER_PORTABLE=ON: what macOS gets, see src/platform/platform.h)
# compiles while the fuzzers run, each on one core; only what its e2e suite runs is built.
build_in_background portable hammer test_server hostile_server hammer_e2e_tests hammer_alloc_tests \
  hammer_net_tests

# The fuzzers run side by side, one per core, each for FUZZ_SECONDS. Each one's own exit status
# decides (a crash, a leak, a failed check); its log is kept whole so a failure shows the input
# and the stack, and only the summary lines otherwise.
fuzz_pids=()
fuzz_names=()
fuzz_work=()
for target in build/fuzz/fuzz/*_fuzz; do
  [ -x "$target" ] || continue
  name=$(basename "$target")
  work=$(mktemp -d)
  fuzz_names+=("$name")
  fuzz_work+=("$work")
  "$target" -max_total_time="$fuzz_seconds" -print_final_stats=1 "$work" \
    "fuzz/corpus/${name%_fuzz}" >"$work.log" 2>&1 &
  fuzz_pids+=("$!")
done
stage "fuzz: ${fuzz_names[*]} side by side for ${fuzz_seconds}s (seed corpora fuzz/corpus/)"
fuzz_failed=0
for i in "${!fuzz_pids[@]}"; do
  status=0
  wait "${fuzz_pids[$i]}" || status=$?
  log="${fuzz_work[$i]}.log"
  echo "-- ${fuzz_names[$i]}"
  if [ "$status" != 0 ]; then
    tail -n 60 "$log"
    echo "fuzz: ${fuzz_names[$i]} failed (exit $status)"
    fuzz_failed=1
  else
    grep -E "^(#[0-9]+ +DONE|Done|stat::number_of_executed_units)" "$log" || true
  fi
  rm -rf "${fuzz_work[$i]}" "$log"
done
[ "$fuzz_failed" = 0 ] || exit 1
finish_build
# The portable build (poll, self-pipe, millisecond timers: the macOS code path) runs the e2e
# suite as the epoll pass does: all of it but the sweep and warm-up tests, whose logic sits
# above the engine, and the browser tests (about 85 s two at a time), plus the poller, wake-up
# and socket unit tests.
# hammer.exe cross-compiles with MinGW-w64 while they run.
build_in_background windows-mingw hammer
stage "portable: net unit tests and the e2e suite"
build/portable/hammer_net_tests --gtest_brief=1
ctest --preset portable -j"$e2e_jobs" --timeout 300 -L e2e -LE browser -E 'Sweep|Warmup'
say_not_judged portable
finish_build

# The Windows build under wine64 (scripts/platform_check.sh): the open-loop correction against
# the formula, a bad flag's exit 1, a refused connect's exit 2, Ctrl-C with a report. About
# 40 s: the wine prefix (build/wine-prefix) takes 8 s to create, the check 22-31 s.
stage "windows: hammer.exe under wine64"
bash scripts/windows-check.sh --check-only
stage "all tests passed"
