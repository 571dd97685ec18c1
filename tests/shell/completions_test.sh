#!/usr/bin/env bash
# The completion scripts the built hammer generates, run in the shells that will load them:
# bash sources `hammer --generate bash` and calls _hammer as bash-completion does (COMP_WORDS,
# COMP_CWORD set, COMPREPLY read back); zsh parses `hammer --generate zsh` (zsh -n) and runs its
# body with compsys's _arguments and _describe replaced by stubs that print what they were given,
# so which command line each word position gets is checked in zsh itself.
# Usage: completions_test.sh HAMMER_BINARY
set -u
hammer=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/hammer-completions.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

"$hammer" --generate bash > "$work/hammer" || fail "hammer --generate bash exited $?"
"$hammer" --generate zsh > "$work/_hammer" || fail "hammer --generate zsh exited $?"
mkdir "$work/runs"
: > "$work/before.json"; : > "$work/after.json"; : > "$work/s1.hlog"; : > "$work/notes.txt"

# bash_offers WORD... : what _hammer offers for `WORD...` (the last is being completed), sorted,
# on one line.
bash_offers() {
  bash --norc -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _hammer
                  (( ${#COMPREPLY[@]} )) && printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' _ "$work/hammer" "$@"
}
expect_bash() {  # expect_bash "EXPECTED" WORD...
  local expected=$1; shift
  local got; got=$(cd "$work" && bash_offers "$@")
  [[ "$got" == "$expected" ]] || fail "bash: hammer ${*:2}<TAB>: expected '$expected', got '$got'"
}

expect_bash "report " hammer rep
expect_bash "compare merge report " hammer ""
expect_bash "--help --json --output --slo --start-tolerance -h -o " hammer merge -
expect_bash "--help --output -h -o " hammer report -
expect_bash "after.json before.json runs " hammer report ""
expect_bash "after.json before.json runs " hammer report before.json ""
expect_bash "after.json before.json runs s1.hlog " hammer merge ""
expect_bash "notes.txt " hammer report before.json -o no
expect_bash "--connections --control " hammer --con
expect_bash "" hammer -c 10 rep
run_flags=$(cd "$work" && bash_offers hammer -)
[[ $run_flags == *"--rate"* && $run_flags == *"--connections"* ]] ||
  fail "bash: hammer -<TAB> does not offer the run's flags: $run_flags"

if command -v zsh > /dev/null; then
  zsh -n "$work/_hammer" || fail "zsh -n refuses the generated script"
  # zsh_calls CURRENT PREFIX WORD...: what the script body asks of compsys.
  zsh_calls() {
    zsh -f -c '
      _arguments() { print -r -- "_arguments words=(${words[*]}) current=$CURRENT"; print -rl -- "$@"; }
      _describe() { print -r -- "_describe ${(P)4}"; }
      CURRENT=$1; PREFIX=$2; shift 2; words=("$@")
      source "$SCRIPT"' _ "$@"
  }
  export SCRIPT="$work/_hammer"
  out=$(zsh_calls 2 rep hammer rep)
  [[ $out == *"_describe merge:add the shards"*"report:render saved runs"* ]] ||
    fail "zsh: hammer rep<TAB> does not offer the subcommands: $out"
  [[ $out == *"'1:url:_urls'"* || $out == *"1:url:_urls"* ]] || fail "zsh: the run's URL is gone: $out"
  out=$(zsh_calls 3 - hammer merge -)
  [[ $out == *"_arguments words=(merge -) current=2"* ]] ||
    fail "zsh: hammer merge -<TAB> is not merge's command line: $out"
  [[ $out == *"--start-tolerance=["* && $out != *"--connections"* && $out != *"_describe"* ]] ||
    fail "zsh: hammer merge -<TAB> does not get merge's flags alone: $out"
  [[ $out == *'*:shard (.json or .hlog):_files -g "*.(json|hlog)"'* ]] ||
    fail "zsh: merge's shards are not .json/.hlog files: $out"
  out=$(zsh_calls 3 "" hammer report "")
  [[ $out == *'*:saved run (.json):_files -g "*.json"'* && $out != *"--json"* ]] ||
    fail "zsh: hammer report <TAB> does not offer .json files: $out"
  out=$(zsh_calls 3 - hammer -c -)
  [[ $out == *"--connections="* && $out != *"_describe"* ]] ||
    fail "zsh: hammer -c -<TAB> is not the run's command line: $out"
else
  echo "zsh is not installed: the zsh checks are skipped"
fi

if (( failures )); then
  echo "$failures completion checks failed" >&2
  exit 1
fi
echo "completions: every check passed"
