#!/usr/bin/env bash
# One engine's half of the issue-13 side-by-side (docs/benchmarks-ycsb.md, "Quiet-machine side by side"),
# split in two lock holds of at most 8 minutes each:
#   part 1: load, then write-only and A;  part 2: C and E on the data part 1 kept.
# Usage: bench/scripts/issue13-side-by-side.sh TAG ENGINE PART MEMORY WRITE_MEMORY DIRECT(direct|buffered) [SideBySide options...]
# Writes /tmp/ycsb13/runs/TAG-ENGINE-partPART.{json,log,jfr} and appends the load average at the start
# and end of the hold to the log. Needs bench/target/benchmarks.jar (mvn -B -o -q -pl bench -am package -DskipTests).
set -euo pipefail
tag=$1 engine=$2 part=$3 mem=$4 wmem=$5 io=$6
shift 6
cd "$(dirname "$0")/../.."
out=/tmp/ycsb13/runs
mkdir -p "$out"
base="$out/$tag-$engine-part$part"
if [ "$part" = 1 ]; then phases=(--workloads writeonly,a --keep-data); else phases=(--workloads c,e --no-load); fi
if [ "$io" = direct ]; then dio=--direct-io; else dio=--no-direct-io; fi
J=(java $(cat bin/jvm-options) -Xms2g -Xmx2g -XX:MaxDirectMemorySize=4g -XX:StartFlightRecording=filename=$base.jfr,settings=default
   -cp bench/target/benchmarks.jar)
flock /tmp/breakwater-bench.lock bash -c '
  echo "hold start $(date -u +%H:%M:%S) $(uptime)" >> "$1.log"
  shift
  timeout 470 "$@" >> "$0.log" 2>&1 || echo "exit $?" >> "$0.log"
  echo "hold end $(date -u +%H:%M:%S) $(uptime)" >> "$0.log"
' "$base" "$base" "${J[@]}" dev.breakwater.bench.ycsb.SideBySide --engines "$engine" --records 1000000 \
  --operations 100000000 --max-seconds 60 --memory "$mem" --write-memory "$wmem" --repetitions 1 "$dio" \
  "${phases[@]}" --quiet --dir "/tmp/ycsb13/data-$tag" --json "$base.json" "$@"
