#!/usr/bin/env bash
# Starts a fleet: fills fleet-job.yaml's SET values and applies it with the results volume.
#   deploy/kubernetes/run-fleet.sh URL RATE CONNECTIONS DURATION SHARDS [IMAGE] [LEAD_SECONDS]
# The start time is now + LEAD_SECONDS (default 120): long enough for every pod to be
# scheduled, pull the image and connect. Then follow merge-pod.yaml's steps.
set -euo pipefail
url=$1 rate=$2 connections=$3 duration=$4 shards=$5
image=${6:-hammer:0.1.0}
lead=${7:-120}
here=$(dirname "$0")
start_at=$(date -u -d "+${lead} seconds" +%Y-%m-%dT%H:%M:%SZ)
kubectl apply -f "$here/results-pvc.yaml"
sed -e "s|completions: 3 |completions: $shards |" -e "s|parallelism: 3 |parallelism: $shards |" \
    -e "/name: SHARDS/{n;s|value: \"[0-9]*\"|value: \"$shards\"|}" \
    -e "s|2026-12-01T10:00:00Z|$start_at|" \
    -e "s|http://my-service.default.svc:8080/|$url|" \
    -e "s|value: \"30000\"|value: \"$rate\"|" -e "s|value: \"600\"|value: \"$connections\"|" \
    -e "s|value: \"60s\"|value: \"$duration\"|" -e "s|image: hammer:0.1.0|image: $image|" \
    "$here/fleet-job.yaml" | kubectl apply -f -
echo "fleet of $shards shards starts at $start_at"
