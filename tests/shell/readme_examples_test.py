#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every `hammer ...` example in README.md's code blocks, run as pasted.

Each code block that holds a hammer command line runs as one bash script, in the order of the
README, in one scratch folder (a block may use the files an earlier line of it wrote). Only
two things are rewritten: the host:port (http://127.0.0.1:8080/, and the placeholder URL) becomes
a local tools/test_server, and durations are shortened (-d/--duration and -W/--warmup to 1 s,
'+30 seconds' to '+3 seconds'), so the whole README runs in a minute or two. `ssh HOST cmd`
runs cmd here: the shards of the fleet example run side by side on this machine. Every command
must exit 0, or the status its line's comment gives (`# exits 3`). Lines that are not hammer's
to run here are skipped, each with its reason printed.

Usage: readme_examples_test.py README.md  (HAMMER_BIN, TEST_SERVER in the environment)
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

# Lines that are not run, and why. Matched against the line as written (stripped).
SKIPPED = [
    (re.compile(r"^hammer \[options\]"), "the synopsis, not a command"),
    (re.compile(r"^(npm|npx) "), "installs from the npm registry, which this test does not reach"),
    # Packing and installing globally would change this machine's npm prefix; tests/npm's
    # npm.install and npm.install_source run the same steps in a sandbox.
    (re.compile(r"^cd npm && npm "), "a global npm install (tests/npm does it in a sandbox)"),
    (re.compile(r"^(bash scripts/|cmake |ctest )"), "builds or tests hammer itself"),
]

HAMMER_LINE = re.compile(r"^(ssh \S+ )?hammer\b")
EXPECTED_EXIT = re.compile(r"#.*\bexits? (\d)\b")
# hammer's duration flags, shortened to 1 s (a bare number is seconds for each).
DURATION_FLAGS = re.compile(r"(?<!\S)(-d|--duration|-W|--warmup)(\s+|=)(\S+)")


def code_blocks(text):
    """(first line number, [lines]) of every indented or fenced shell code block."""
    lines = text.split("\n")
    blocks = []
    i = 0
    while i < len(lines):
        line = lines[i]
        fence = re.match(r"^```(\w*)\s*$", line)
        if fence:
            start = i + 1
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                i += 1
            if fence.group(1) in ("", "sh", "bash", "shell", "console"):
                blocks.append((start + 1, lines[start:i]))
            i += 1
            continue
        previous_blank = i == 0 or lines[i - 1].strip() == ""
        if line.startswith("    ") and line.strip() and previous_blank:
            start = i
            body = []
            while i < len(lines) and (lines[i].startswith("    ") or lines[i].strip() == ""):
                body.append(lines[i][4:])
                i += 1
            while body and not body[-1].strip():
                body.pop()
            blocks.append((start + 1, body))
            continue
        i += 1
    return blocks


def rewrite(line, port):
    url = f"http://127.0.0.1:{port}/"
    line = line.replace("http://127.0.0.1:8080/", url)
    line = re.sub(r"(?<![\w/])URL(?![\w])", url, line)
    if HAMMER_LINE.match(line.strip()):
        line = DURATION_FLAGS.sub(lambda m: m.group(1) + m.group(2) + "1", line)
    line = line.replace("'+30 seconds'", "'+3 seconds'")
    return line


def block_script(first_line, lines, port):
    """The block as a bash script with an exit check after each command, and what it skips."""
    out = ["ssh() { shift; \"$@\"; }  # the fleet's generators: this machine", ""]
    skipped = []
    commands = 0
    i = 0
    while i < len(lines):
        number = first_line + i
        raw = lines[i]
        stripped = raw.strip()
        i += 1
        if not stripped or stripped.startswith("#"):
            continue
        reason = next((why for pattern, why in SKIPPED if pattern.search(stripped)), None)
        if reason:
            skipped.append((number, stripped, reason))
            continue
        command = [rewrite(raw, port)]
        heredoc = re.search(r"<<-?\s*'?(\w+)'?", raw)
        if heredoc:
            while i < len(lines) and lines[i].strip() != heredoc.group(1):
                command.append(lines[i])
                i += 1
            command.append(lines[i] if i < len(lines) else heredoc.group(1))
            i += 1
        commands += 1
        if stripped.endswith("&"):
            out.extend(command)
            continue  # its output is what the next lines read: they fail if it did not work
        wanted = EXPECTED_EXIT.search(stripped)
        expected = int(wanted.group(1)) if wanted else 0
        shown = shlex.quote(f"README.md:{number}: {stripped}")
        # What it printed, kept to show when it fails and to tell a busy machine's verdict.
        log = f".readme-{number}.log"
        out.append("{")
        out.extend(command)
        out.append(f"}} > {log} 2>&1")
        out.append(f"rc=$?; cat {log}")
        out.append(f"if [ $rc -ne {expected} ]; then")
        # A capacity search whose levels the machine made too noisy to read exits 3 and says
        # so: the machine's verdict, not the example's (inconclusive, as the e2e tests say).
        out.append(f"  if [ $rc -eq 3 ] && grep -q 'on a quieter machine' {log}; then")
        out.append(f"    echo inconclusive: {shown} >&2; echo \"  exited 3: this machine was too "
                   f"busy to read it (its output says: repeat on a quieter machine)\" >&2")
        out.append(f"  else echo {shown} >&2; echo \"  exited $rc, expected {expected}\" >&2; "
                   f"tail -n 25 {log} | sed 's/^/    /' >&2; exit 1; fi")
        out.append("fi")
    out.append("wait")
    return "\n".join(out) + "\n", skipped, commands


def main():
    readme = sys.argv[1]
    hammer = os.path.abspath(os.environ["HAMMER_BIN"])
    server_binary = os.environ["TEST_SERVER"]
    with open(readme, encoding="utf-8") as f:
        blocks = [(n, b) for n, b in code_blocks(f.read())
                  if any(HAMMER_LINE.match(line.strip()) for line in b)]
    if not blocks:
        print("no hammer examples found in", readme)
        return 1
    server = subprocess.Popen([server_binary, "--port", "0", "--threads", "2"],
                              stdout=subprocess.PIPE, text=True)
    failures = 0
    ran = 0
    try:
        listening = server.stdout.readline()
        port = int(re.search(r"listening on 127\.0\.0\.1:(\d+)", listening).group(1))
        with tempfile.TemporaryDirectory(prefix="hammer-readme-") as work:
            bin_dir = os.path.join(work, "bin")
            os.mkdir(bin_dir)
            os.symlink(hammer, os.path.join(bin_dir, "hammer"))
            env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""))
            for first_line, lines in blocks:
                script, skipped, commands = block_script(first_line, lines, port)
                for number, line, reason in skipped:
                    print(f"README.md:{number}: skipped ({reason}): {line}")
                if commands == 0:
                    continue
                started = time.monotonic()
                try:
                    done = subprocess.run(["bash", "-c", script], cwd=work, env=env,
                                          capture_output=True, text=True, timeout=300)
                    code, err = done.returncode, done.stderr
                except subprocess.TimeoutExpired as timeout:
                    code, err = "timeout", str(timeout.stderr or "")
                elapsed = time.monotonic() - started
                ran += commands
                if code == 0:
                    print(f"README.md:{first_line}: block of {commands} commands passed "
                          f"({elapsed:.1f}s)")
                    for said in err.splitlines():
                        if said.startswith(("inconclusive", "  exited 3:")):
                            print(said)
                else:
                    failures += 1
                    print(f"README.md:{first_line}: block FAILED ({code}):\n{err}\n"
                          f"script:\n{script}")
    finally:
        server.terminate()
        server.wait(timeout=10)
    print(f"{ran} commands in {len(blocks)} blocks; {failures} blocks failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
