#!/usr/bin/env bash
# The GitHub Action's script (scripts/action-run.sh) run as a runner runs it: GITHUB_OUTPUT,
# GITHUB_STEP_SUMMARY, GITHUB_PATH and RUNNER_TEMP are scratch files and folders, hammer is
# installed from this build (cmake --install) and packed as a release tarball is, and the load
# goes to a local tools/test_server. Checked: the install step (a good tarball, one whose binary
# does not match its SHA-256, a version with no tarball), a run that passes, one whose --slo is
# missed (exit 3: the script exits 3, writes the summary and an error annotation, and still
# writes the report), bad input (exit 1), and flags with quotes that are split, never executed.
# Usage: action_run_test.sh BUILD_DIR TEST_SERVER SOURCE_DIR
set -u
build=$1
test_server=$2
source_dir=$3
script="$source_dir/scripts/action-run.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/hammer-action.XXXXXX")
server_pid=
cleanup() {
  if [[ -n $server_pid ]]; then kill "$server_pid" 2> /dev/null; wait "$server_pid" 2> /dev/null; fi
  [[ -n ${KEEP:-} ]] || rm -rf "$work"
}
trap cleanup EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
expect_in() {  # expect_in FILE TEXT WHAT
  grep -qF -- "$2" "$1" || { fail "$3: '$2' not in $1:"; sed 's/^/    /' "$1" >&2; }
}

# The runner's files, fresh for each step.
new_runner() {
  runner="$work/runner-$1"
  mkdir -p "$runner/temp" "$runner/workspace"
  : > "$runner/output"; : > "$runner/summary"; : > "$runner/path"
}
runner_env() {
  env RUNNER_TEMP="$runner/temp" GITHUB_OUTPUT="$runner/output" \
      GITHUB_STEP_SUMMARY="$runner/summary" GITHUB_PATH="$runner/path" "$@"
}

# hammer installed from this build, then packed as scripts/release.sh packs a platform package.
"${CMAKE:-cmake}" --install "$build" --prefix "$work/prefix" > "$work/install.log" 2>&1 ||
  { cat "$work/install.log" >&2; echo "cmake --install $build failed" >&2; exit 1; }
case "$(uname -m)" in x86_64) arch=x64 ;; aarch64 | arm64) arch=arm64 ;; *) arch=$(uname -m) ;; esac
case "$(uname -s)" in Darwin) os=darwin ;; *) os=linux ;; esac
key="$os-$arch"
pack() {  # pack VERSION BINARY DECLARED_SHA256
  local staging="$work/staging-$1"
  mkdir -p "$staging/package/bin" "$work/release"
  cp "$2" "$staging/package/bin/hammer"
  printf '{\n  "name": "@hammer-load/%s",\n  "version": "%s",\n  "hammer": {\n    "binary": "bin/hammer",\n    "sha256": "%s"\n  }\n}\n' \
    "$key" "$1" "$3" > "$staging/package/package.json"
  tar -czf "$work/release/hammer-load-$key-$1.tgz" -C "$staging" package
}
binary="$work/prefix/bin/hammer"
sha=$(sha256sum "$binary" | cut -d' ' -f1)
pack 0.1.0 "$binary" "$sha"
cp "$binary" "$work/tampered" && printf 'x' >> "$work/tampered"
pack 0.0.9 "$work/tampered" "$sha"

# install: the release tarball, checked, on the job's PATH.
install_step() {  # install_step NAME VERSION: the install step in a fresh runner; sets status
  new_runner "$1"
  runner_env HAMMER_VERSION="$2" HAMMER_RELEASE_BASE="file://$work/release" \
    bash "$script" install > "$work/$1.out" 2>&1
  status=$?
}

install_step install v0.1.0
[[ $status == 0 ]] || { fail "install: exit $status"; cat "$work/install.out" >&2; }
installed_dir=$(cat "$runner/path")
[[ $installed_dir == "$runner/temp/hammer/bin" ]] || fail "install: GITHUB_PATH holds '$installed_dir'"
"$installed_dir/hammer" --version | grep -q '^hammer ' || fail "install: the installed hammer does not run"
expect_in "$runner/output" "path=$runner/temp/hammer/bin/hammer" "install: output path"

install_step tampered 0.0.9
[[ $status == 1 ]] || fail "install of a tampered binary: exit $status, expected 1"
expect_in "$work/tampered.out" "the binary's SHA-256 is" "install of a tampered binary"
[[ ! -s $runner/path ]] || fail "install of a tampered binary: it went on the PATH"

install_step missing 9.9.9
[[ $status == 1 ]] || fail "install of a missing version: exit $status, expected 1"
expect_in "$work/missing.out" "::error title=hammer::cannot download" "install of a missing version"

# run: against a local server, with the installed hammer on PATH.
# shellcheck source=tests/support/test_server.sh
source "$source_dir/tests/support/test_server.sh"
start_test_server "$test_server"
url="http://$address/"
run_step() {  # run_step NAME ARGS SLO: the run step in a fresh runner, from its workspace
  new_runner "$1"
  (cd "$runner/workspace" &&
   runner_env PATH="$installed_dir:$PATH" HAMMER_URL="$url" HAMMER_ARGS="$2" HAMMER_SLO="$3" \
     HAMMER_HTML_REPORT=reports/run.html bash "$script" run) > "$work/$1.out" 2>&1
  status=$?
}

run_step pass '-c 2 -d 1 -H "X-Note: two words" -H '"'"'X-Other: it"s'"'"'' 'errors=1%'
[[ $status == 0 ]] || { fail "passing run: exit $status"; cat "$work/pass.out" >&2; }
expect_in "$runner/output" "exit-code=0" "passing run: outputs"
expect_in "$runner/output" "passed=true" "passing run: outputs"
expect_in "$runner/output" "html=reports/run.html" "passing run: outputs"
expect_in "$runner/summary" "### hammer: passed" "passing run: summary"
expect_in "$runner/summary" "| errors <= 1.00% | 0.00%, met |" "passing run: summary"
expect_in "$runner/summary" "Requests/sec" "passing run: summary holds the report"
[[ -s $runner/workspace/reports/run.html ]] || fail "passing run: no HTML report"
json="$runner/workspace/reports/run.json"
python3 - "$json" << 'PY' || fail "passing run: the JSON document is not the run's"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["slo_passed"] is True, doc.get("slo")
assert doc["config"]["connections"] == 2, doc["config"]
PY
grep -q '^::error' "$work/pass.out" && fail "passing run: an error annotation"

run_step slo '-c 2 -d 1' 'p99=1us, errors=1%'
[[ $status == 3 ]] || { fail "missed SLO: exit $status, expected 3"; cat "$work/slo.out" >&2; }
expect_in "$runner/output" "exit-code=3" "missed SLO: outputs"
expect_in "$runner/output" "passed=false" "missed SLO: outputs"
expect_in "$runner/summary" "### hammer: SLO missed (exit 3)" "missed SLO: summary"
expect_in "$runner/summary" "| p99 <= 1.00us |" "missed SLO: summary"
expect_in "$runner/summary" "MISSED |" "missed SLO: summary"
expect_in "$work/slo.out" "::error title=hammer: SLO missed::p99 <= 1.00us: " "missed SLO: annotation"
[[ -s $runner/workspace/reports/run.html ]] || fail "missed SLO: the HTML report was not written"

run_step bad '-c abc' ''
[[ $status == 1 ]] || fail "bad input: exit $status, expected 1"
expect_in "$work/bad.out" "::error title=hammer: bad input (exit 1)::hammer: --connections" "bad input"
expect_in "$runner/output" "exit-code=1" "bad input: outputs"

# The words hammer gets: a stand-in hammer first on PATH writes them down, one per line.
mkdir -p "$work/stand-in"
printf '#!/bin/sh\nprintf "%%s\\n" "$@" > "%s/argv"\n' "$work" > "$work/stand-in/hammer"
chmod +x "$work/stand-in/hammer"
saved_dir=$installed_dir
installed_dir="$work/stand-in"
run_step words '-c 1 -H "X-Note: two  words" -H '"'"'X-Q: it"s'"'"' -H "X-A: $(touch '"$work"'/executed)" -H "X-B: `touch '"$work"'/executed`"' 'p99=5ms,max=1s
errors=1%'
installed_dir=$saved_dir
[[ $status == 0 ]] || fail "words: exit $status"
cat > "$work/argv.expected" << EOF
-c
1
-H
X-Note: two  words
-H
X-Q: it"s
-H
X-A: \$(touch $work/executed)
-H
X-B: \`touch $work/executed\`
--slo
p99=5ms
--slo
max=1s
--slo
errors=1%
-o
reports/run.json
-o
reports/run.html
$url
EOF
diff "$work/argv.expected" "$work/argv" > "$work/argv.diff" ||
  { fail "args and slo are not split into hammer's words as a shell would:"; cat "$work/argv.diff" >&2; }
[[ ! -e $work/executed ]] && [[ ! -e $runner/workspace/executed ]] || fail "args: a \$(...) was executed"

run_step unbalanced '-c 1 -H "X-A: b' ''
[[ $status == 1 ]] || fail "unbalanced quote: exit $status, expected 1"
expect_in "$work/unbalanced.out" "args: cannot split into words" "unbalanced quote"

# action.yml: a composite action whose steps are this script's, the report uploaded even after
# a missed SLO.
python3 - "$source_dir/action.yml" << 'PY' || fail "action.yml"
import sys
try:
    import yaml
except ImportError:
    print("PyYAML is not installed: action.yml is not parsed"); sys.exit(0)
action = yaml.safe_load(open(sys.argv[1]))
assert action["runs"]["using"] == "composite"
for name in ("url", "args", "slo", "version", "build-from-source", "html-report"):
    assert name in action["inputs"], name
steps = action["runs"]["steps"]
runs = [s.get("run", "") for s in steps]
assert any(r.endswith("action-run.sh\" install") for r in runs), runs
assert any(r.endswith("action-run.sh\" run") for r in runs), runs
upload = [s for s in steps if s.get("uses", "").startswith("actions/upload-artifact@")]
assert upload and upload[0]["if"].startswith("always()"), upload
assert "exit-code" in action["outputs"]
PY

if (( failures )); then
  echo "$failures action checks failed" >&2
  exit 1
fi
echo "action-run.sh: every check passed"
