#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks deploy/kubernetes/ without a cluster: each manifest parses, has the fields Kubernetes
requires and the fleet depends on (an Indexed Job whose completions, parallelism and SHARDS
agree, no retries, JOB_COMPLETION_INDEX turned into --shard, one --start-at, results on the
volume the merge pod reads), and the shell command the Job runs is accepted by the real hammer:
run with a start time in the past, it must get past every flag and stop at --start-at (exit 1).

    k8s_manifest_check.py DEPLOY_DIR HAMMER_BINARY
"""

import os
import re
import subprocess
import sys
import tempfile

import yaml

failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
    return condition


def load(directory, name):
    with open(os.path.join(directory, name)) as manifest:
        documents = [document for document in yaml.safe_load_all(manifest) if document]
    check(len(documents) == 1, f"{name}: expected one document, got {len(documents)}")
    document = documents[0]
    for field in ("apiVersion", "kind", "metadata", "spec"):
        check(field in document, f"{name}: missing {field}")
    check("name" in document.get("metadata", {}), f"{name}: metadata.name missing")
    return document


def env_of(container):
    return {item["name"]: item.get("value") for item in container.get("env", [])}


def main():
    directory, hammer = sys.argv[1], sys.argv[2]
    job = load(directory, "fleet-job.yaml")
    pvc = load(directory, "results-pvc.yaml")
    merge = load(directory, "merge-pod.yaml")

    check(job["apiVersion"] == "batch/v1" and job["kind"] == "Job", "fleet-job: not a batch/v1 Job")
    spec = job["spec"]
    check(spec.get("completionMode") == "Indexed", "fleet-job: completionMode must be Indexed")
    check(spec.get("backoffLimit") == 0, "fleet-job: backoffLimit must be 0 (no off-schedule retry)")
    pod = spec["template"]["spec"]
    check(pod.get("restartPolicy") == "Never", "fleet-job: restartPolicy must be Never")
    containers = pod["containers"]
    check(len(containers) == 1, "fleet-job: one container")
    container = containers[0]
    env = env_of(container)
    shards = int(env.get("SHARDS", "0"))
    check(shards >= 1, "fleet-job: SHARDS must be a whole number >= 1")
    check(spec.get("completions") == shards, "fleet-job: completions must equal SHARDS")
    check(spec.get("parallelism") == shards,
          "fleet-job: parallelism must equal SHARDS (every shard runs at once)")
    check(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)",
                       env.get("START_AT", "")) is not None,
          "fleet-job: START_AT must be an RFC 3339 instant")
    script = "\n".join(container.get("args", []))
    check(container.get("command", [None])[0] == "/bin/sh", "fleet-job: runs a /bin/sh script")
    check("JOB_COMPLETION_INDEX + 1" in script, "fleet-job: shard = JOB_COMPLETION_INDEX + 1")
    for needed in ('--shard "$shard/$SHARDS"', '--start-at "$START_AT"', "--json"):
        check(needed in script, f"fleet-job: the script must pass {needed}")
    mounts = {mount["name"]: mount["mountPath"] for mount in container.get("volumeMounts", [])}
    claims = {volume["name"]: volume.get("persistentVolumeClaim", {}).get("claimName")
              for volume in pod.get("volumes", [])}
    check(mounts.get("results") == "/results", "fleet-job: results mounted at /results")
    check(claims.get("results") == pvc["metadata"]["name"],
          "fleet-job: the results volume is the results PVC")
    check("ReadWriteMany" in pvc["spec"].get("accessModes", []),
          "results-pvc: ReadWriteMany (shards write from several nodes)")

    check(merge["kind"] == "Pod", "merge-pod: a Pod")
    merge_pod = merge["spec"]
    merge_script = "\n".join(merge_pod["containers"][0].get("args", []))
    check("hammer merge /results/shard-*.json" in merge_script, "merge-pod: runs hammer merge")
    merge_claims = [volume.get("persistentVolumeClaim", {}).get("claimName")
                    for volume in merge_pod.get("volumes", [])]
    check(pvc["metadata"]["name"] in merge_claims, "merge-pod: reads the results PVC")

    # The Job's own command line, through the real parser: every flag must be accepted, so the
    # run gets as far as the start time (in the past here) and stops there with exit 1.
    with tempfile.TemporaryDirectory() as results:
        local_env = dict(os.environ, **{name: value for name, value in env.items() if value})
        local_env.update(JOB_COMPLETION_INDEX="0", START_AT="2020-01-01T00:00:00Z",
                         TARGET_URL="http://127.0.0.1:1/",
                         PATH=os.path.dirname(os.path.abspath(hammer)) + ":" + local_env["PATH"])
        done = subprocess.run(["/bin/sh", "-c", script.replace("/results", results)],
                              env=local_env, capture_output=True, text=True, timeout=30)
        check(done.returncode == 1 and "--start-at: the start time passed" in done.stderr,
              f"fleet-job: hammer did not accept the Job's flags (exit {done.returncode}): "
              f"{done.stderr.strip()}")

    for failure in failures:
        print("k8s manifest check: " + failure, file=sys.stderr)
    if not failures:
        print(f"k8s manifest check: fleet-job.yaml, results-pvc.yaml, merge-pod.yaml ok "
              f"({shards} shards; the Job's command accepted by {hammer})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
