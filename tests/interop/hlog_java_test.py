#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The .hlog hammer writes, read by the reference reader: Java HdrHistogram's
HistogramLogProcessor (Debian's libhdrhistogram-java).

Two shards of one fleet run against test_server with a common --start-at, `hammer merge` adds
them into merged.json and merged.hlog, and the Java processor must read every interval of both
tags and count exactly the requests the merged document counts. Skipped (77) where Java or the
jar is missing, unless CI is set: CI installs both (scripts/deps.sh)."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HAMMER = os.environ["HAMMER"]
TEST_SERVER = os.environ["TEST_SERVER"]
JAR = os.environ.get("HDRHISTOGRAM_JAR", "/usr/share/java/hdrhistogram.jar")
SKIP = 77


def java_total_count(log_path, tag, out_base):
    """Runs HistogramLogProcessor on one tag; returns (total count, interval lines)."""
    done = subprocess.run(["java", "-cp", JAR, "org.HdrHistogram.HistogramLogProcessor",
                           "-i", log_path, "-tag", tag, "-o", out_base],
                          capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        sys.exit(f"HistogramLogProcessor failed ({done.returncode}): {done.stderr}")
    with open(out_base + ".hgrm") as distribution:
        text = distribution.read()
    total = [line for line in text.splitlines() if "Total count" in line]
    if not total:
        sys.exit(f"no 'Total count' in the processor's distribution:\n{text}")
    count = int(total[0].split("Total count")[1].split("=")[1].strip().rstrip("]"))
    with open(out_base) as intervals:
        interval_lines = [line for line in intervals if line[:1].isdigit()]
    print(f"--- HistogramLogProcessor -tag {tag}: {len(interval_lines)} intervals")
    print("".join(text.splitlines(keepends=True)[-4:]), end="")
    return count, interval_lines


def main():
    if shutil.which("java") is None or not os.path.exists(JAR):
        if os.environ.get("CI"):
            sys.exit("java or " + JAR + " missing: scripts/deps.sh installs them")
        print("skipped: java or " + JAR + " missing (scripts/deps.sh installs them)")
        return SKIP
    work = tempfile.mkdtemp(prefix="hammer-hlog-")
    server = subprocess.Popen([TEST_SERVER, "--port", "0", "--mode", "fast"],
                              stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        if "listening on" not in line:
            sys.exit("test_server did not start: " + line)
        url = "http://" + line.split("listening on")[1].strip() + "/"
        start = str(int(time.time()) + 3)
        shards = []
        for index in (1, 2):
            path = os.path.join(work, f"shard{index}.json")
            with open(path, "w") as out:
                shards.append((subprocess.Popen(
                    [HAMMER, "--shard", f"{index}/2", "--start-at", start, "-r", "200", "-c", "4",
                     "-t", "1", "-d", "3", "--json", url], stdout=out), path))
        for process, path in shards:
            if process.wait(timeout=60) != 0:
                sys.exit(f"shard run failed: exit {process.returncode}")
        merged_json = os.path.join(work, "merged.json")
        merged_log = os.path.join(work, "merged.hlog")
        done = subprocess.run([HAMMER, "merge"] + [path for _, path in shards] +
                              ["-o", merged_json, "-o", merged_log],
                              capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            sys.exit(f"hammer merge failed: {done.stderr}")
        with open(merged_json) as document_file:
            document = json.load(document_file)
        with open(merged_log) as log_file:
            print("--- merged.hlog (first lines)")
            print("".join(log_file.readlines()[:6]), end="")
        for tag in ("corrected", "uncorrected"):
            count, intervals = java_total_count(merged_log, tag, os.path.join(work, tag))
            expected = document["latency"][tag]["count"]
            if count != expected:
                sys.exit(f"{tag}: the Java reader counted {count}, merged.json says {expected}")
            if len(intervals) != 3:
                sys.exit(f"{tag}: expected 3 one-second intervals, the Java reader saw "
                         f"{len(intervals)}")
        print(f"ok: both tags, 3 intervals each, {expected} requests as merged.json counts")

        # One process writing its own interval log with -o, beside its document.
        single_json = os.path.join(work, "single.json")
        single_log = os.path.join(work, "single.hlog")
        done = subprocess.run([HAMMER, "-r", "200", "-c", "4", "-t", "1", "-d", "3",
                               "-o", single_json, "-o", single_log, url],
                              capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            sys.exit(f"hammer -o single.hlog failed: {done.stderr}")
        with open(single_json) as document_file:
            document = json.load(document_file)
        for tag in ("corrected", "uncorrected"):
            count, intervals = java_total_count(single_log, tag, os.path.join(work, "s-" + tag))
            if count != document["latency"][tag]["count"] or len(intervals) != 3:
                sys.exit(f"-o single.hlog, {tag}: the Java reader counted {count} in "
                         f"{len(intervals)} intervals; single.json says "
                         f"{document['latency'][tag]['count']} in 3")
        print("ok: -o run.hlog read by HistogramLogProcessor, counts as the run's document")
        return 0
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
