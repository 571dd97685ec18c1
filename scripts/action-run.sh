#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The logic of the GitHub Action (action.yml at the repository root), in two steps:
#
#   action-run.sh install   puts hammer on the job's PATH: the release tarball of HAMMER_VERSION
#                           for this runner's platform (the npm platform package
#                           hammer-load-<platform>-<arch>-<version>.tgz that scripts/release.sh
#                           makes, its binary checked against the SHA-256 it declares), or, with
#                           HAMMER_FROM_SOURCE=true, a Release build of the action's own source.
#   action-run.sh run       runs `hammer ARGS --slo ... -o REPORT.json -o REPORT.html URL`, prints
#                           the report, writes it to the step summary and the step's outputs,
#                           and exits with hammer's status: 3 when an --slo was missed (the job
#                           fails with the SLO lines in an error annotation), 1 bad input, 2 the
#                           run did not work.
#
# Environment (the action passes its inputs this way; a runner sets the GITHUB_ and RUNNER_ ones):
#   install: HAMMER_VERSION (e.g. 0.1.0), HAMMER_FROM_SOURCE (true|false), HAMMER_REPOSITORY
#            (owner/name whose releases hold the tarballs; default the action's repository),
#            HAMMER_RELEASE_BASE (the folder URL of the tarballs, file:// too; default that
#            repository's release v<version>), GITHUB_ACTION_PATH (the action's checkout),
#            RUNNER_TEMP, GITHUB_PATH.
#   run:     HAMMER_URL (required), HAMMER_ARGS (hammer's flags, quoted as in a shell:
#            -H "X-Token: a b"; nothing in it is executed), HAMMER_SLO (limits, separated by
#            commas, spaces or lines: p99=50ms,errors=1%), HAMMER_HTML_REPORT (default
#            hammer-report.html; empty: no page), HAMMER_JSON_REPORT (default beside the page,
#            REPORT.json; without a page $RUNNER_TEMP/hammer-report.json), GITHUB_OUTPUT,
#            GITHUB_STEP_SUMMARY, RUNNER_TEMP.
set -uo pipefail

die() {
  echo "::error title=hammer::$*"
  echo "hammer action: $*" >&2
  exit 1
}

# One output of the step (exit-code=3), when the runner gave a file for them.
output() {
  if [[ -n ${GITHUB_OUTPUT:-} ]]; then printf '%s=%s\n' "$1" "$2" >> "$GITHUB_OUTPUT"; fi
}

summary() {
  if [[ -n ${GITHUB_STEP_SUMMARY:-} ]]; then cat >> "$GITHUB_STEP_SUMMARY"; else cat > /dev/null; fi
}

# linux-x64, darwin-arm64, ...: the key of the npm platform packages (npm/lib/binary.js).
platform_key() {
  local os arch
  case "$(uname -s)" in
    Linux) os=linux ;;
    Darwin) os=darwin ;;
    MINGW* | MSYS* | CYGWIN*) os=win32 ;;
    *) die "no hammer release for $(uname -s); set build-from-source: true" ;;
  esac
  case "$(uname -m)" in
    x86_64 | amd64) arch=x64 ;;
    arm64 | aarch64) arch=arm64 ;;
    *) die "no hammer release for $(uname -m); set build-from-source: true" ;;
  esac
  echo "$os-$arch"
}

sha256_of() {
  if command -v sha256sum > /dev/null; then
    sha256sum "$1" | cut -d' ' -f1
  else
    shasum -a 256 "$1" | cut -d' ' -f1
  fi
}

install_hammer() {
  local temp=${RUNNER_TEMP:-${TMPDIR:-/tmp}}
  local prefix="$temp/hammer"
  local exe=hammer
  rm -rf "$prefix" && mkdir -p "$prefix/bin" || die "cannot create $prefix"
  if [[ ${HAMMER_FROM_SOURCE:-false} == true ]]; then
    local source=${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/.." && pwd)}
    local build="$temp/hammer-build"
    echo "hammer action: building hammer from $source (Release, target hammer)"
    cmake -S "$source" -B "$build" -DCMAKE_BUILD_TYPE=Release -DHAMMER_BUILD_TESTS=OFF \
      -DHAMMER_BUILD_BENCH=OFF || die "cmake could not configure $source (CMake >= 3.21, a C++20 compiler and the zlib headers are needed)"
    cmake --build "$build" --config Release --target hammer --parallel ||
      die "the build of hammer failed"
    local built
    built=$(find "$build" -maxdepth 3 -type f \( -name hammer -o -name hammer.exe \) -perm -u+x | head -n 1)
    [[ -n $built ]] || die "the build made no hammer binary under $build"
    cp "$built" "$prefix/bin/" || die "cannot copy $built"
  else
    local version=${HAMMER_VERSION:-}
    version=${version#v}
    [[ -n $version ]] || die "version: give a release of hammer (e.g. 0.1.0), or build-from-source: true"
    local key
    key=$(platform_key) || exit 1
    [[ $key == win32-* ]] && exe=hammer.exe
    local repository=${HAMMER_REPOSITORY:-${GITHUB_ACTION_REPOSITORY:-${GITHUB_REPOSITORY:-}}}
    local base=${HAMMER_RELEASE_BASE:-https://github.com/$repository/releases/download/v$version}
    local tarball="hammer-load-$key-$version.tgz"
    echo "hammer action: installing hammer $version for $key from $base/$tarball"
    curl -fsSL --retry 3 -o "$temp/$tarball" "$base/$tarball" ||
      die "cannot download $base/$tarball (is there a release v$version with a $key package?)"
    local unpacked="$temp/hammer-package"
    rm -rf "$unpacked" && mkdir -p "$unpacked" || die "cannot create $unpacked"
    tar -xzf "$temp/$tarball" -C "$unpacked" || die "$tarball is not a gzipped tarball"
    local binary="$unpacked/package/bin/$exe"
    [[ -f $binary ]] || die "$tarball holds no package/bin/$exe"
    # The SHA-256 the package declares for its binary (package.json: "hammer": {"sha256": ...}).
    local declared actual
    declared=$(grep -o '"sha256": *"[0-9a-f]\{64\}"' "$unpacked/package/package.json" 2> /dev/null |
               grep -o '[0-9a-f]\{64\}')
    actual=$(sha256_of "$binary")
    [[ -n $declared ]] || die "$tarball declares no SHA-256 for its binary"
    [[ $declared == "$actual" ]] ||
      die "$tarball: the binary's SHA-256 is $actual, the package declares $declared"
    cp "$binary" "$prefix/bin/$exe" && chmod 755 "$prefix/bin/$exe" || die "cannot install $exe"
  fi
  "$prefix/bin/$exe" --version || die "the installed hammer does not run"
  if [[ -n ${GITHUB_PATH:-} ]]; then echo "$prefix/bin" >> "$GITHUB_PATH"; fi
  output path "$prefix/bin/$exe"
}

run_hammer() {
  [[ -n ${HAMMER_URL:-} ]] || die "url: give the URL to load (http://... or https://...)"
  command -v hammer > /dev/null || die "hammer is not on PATH (the action's install step puts it there)"
  local temp=${RUNNER_TEMP:-${TMPDIR:-/tmp}}
  local html=${HAMMER_HTML_REPORT-hammer-report.html}
  local json=${HAMMER_JSON_REPORT:-}
  if [[ -z $json && -n $html ]]; then json="${html%.html}.json"; fi
  json=${json:-$temp/hammer-report.json}
  local -a args=() slos=() outputs=(-o "$json")
  # Shell words, quotes honoured, nothing expanded or run (xargs splits as a shell would).
  if [[ -n ${HAMMER_ARGS//[[:space:]]/} ]]; then
    local words="$temp/hammer-args" word
    printf '%s' "$HAMMER_ARGS" | xargs printf '%s\0' > "$words" ||
      die "args: cannot split into words (an unbalanced quote?): $HAMMER_ARGS"
    while IFS= read -r -d '' word; do args+=("$word"); done < "$words"
  fi
  local slo
  local -a slo_words=()
  read -r -a slo_words <<< "$(printf '%s' "${HAMMER_SLO:-}" | tr ',\n' '  ')"
  for slo in ${slo_words[@]+"${slo_words[@]}"}; do slos+=(--slo "$slo"); done
  if [[ -n $html ]]; then
    mkdir -p "$(dirname "$html")" || die "html-report: cannot create the folder of $html"
    outputs+=(-o "$html")
  fi
  local log="$temp/hammer-report.txt"
  local -a command=(hammer ${args[@]+"${args[@]}"} ${slos[@]+"${slos[@]}"} "${outputs[@]}" "$HAMMER_URL")
  printf '%q ' "${command[@]}"
  echo
  "${command[@]}" 2>&1 | tee "$log"
  local status=${PIPESTATUS[0]}
  output exit-code "$status"
  output json "$json"
  output html "$html"
  local verdict
  case $status in
    0) verdict="passed" ;;
    3) verdict="SLO missed (exit 3)" ;;
    1) verdict="bad input (exit 1)" ;;
    2) verdict="the run did not work (exit 2)" ;;
    *) verdict="exit $status" ;;
  esac
  output passed "$([[ $status == 0 ]] && echo true || echo false)"
  {
    echo "### hammer: $verdict"
    echo
    echo "\`hammer ${args[*]-} ${slos[*]-} $HAMMER_URL\`"
    echo
    if grep -q '^SLO ' "$log"; then
      echo "| SLO | result |"
      echo "|---|---|"
      sed -n 's/^SLO \(.*\): \(.*\)$/| \1 | \2 |/p' "$log"
      echo
    fi
    echo '```text'
    cat "$log"
    echo '```'
    [[ -n $html ]] && echo && echo "The HTML report ($html) is uploaded as an artifact."
  } | summary
  case $status in
    0) ;;
    3)
      local missed
      missed=$(grep '^SLO .*MISSED' "$log" | sed 's/^SLO //' | paste -sd ';' - | sed 's/;/; /g')
      echo "::error title=hammer: SLO missed::${missed:-a service-level objective was missed} (hammer exited 3)"
      ;;
    *) echo "::error title=hammer: $verdict::$(grep '^hammer: ' "$log" | head -n 1)" ;;
  esac
  exit "$status"
}

case ${1:-} in
  install) install_hammer ;;
  run) run_hammer ;;
  *)
    echo "usage: action-run.sh install|run (see the top of this file)" >&2
    exit 1
    ;;
esac
