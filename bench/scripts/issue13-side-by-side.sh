#!/usr/bin/env bash
# One engine's half of the issue-13 side-by-side (docs/benchmarks-ycsb.md, "Quiet-machine side by side"),
# in one lock hold of at most 8 minutes (PART all: load, write-only, A, C, E; each JSON row is written as soon as
# its phase ends, so a hold cut by the timeout keeps the phases it finished) or in two
# (PART 1: load, then write-only and A, keeping the data; PART 2: C and E on that data), or the load and then the
# workloads PART lists (e.g. c: load, then read-only C after a reopen).
# Usage: bench/scripts/issue13-side-by-side.sh TAG ENGINE PART(all|1|2|WORKLOADS) MEMORY WRITE_MEMORY DIRECT(direct|buffered) [SideBySide options...]
# Writes $ISSUE13_DIR/runs/TAG-ENGINE-partPART.{json,log,jfr} (ISSUE13_DIR defaults to /tmp/ycsb13; data in
# $ISSUE13_DIR/data-TAG) and appends the load average at the start and end of the hold to the log.
# JAVA_EXTRA adds JVM options, e.g. JAVA_EXTRA=-Dlog4j2.configurationFile=bench/scripts/log4j2-merges.xml to log
# every merge and level change of Breakwater's trees (with its reason) into the hold log.
# BENCH_JAR runs another jar (a copy, so that a rebuild during the hold does not replace the running one).
# Needs bench/target/benchmarks.jar (mvn -B -o -q -pl bench -am package -DskipTests).
set -euo pipefail
tag=$1 engine=$2 part=$3 mem=$4 wmem=$5 io=$6
shift 6
cd "$(dirname "$0")/../.."
root=${ISSUE13_DIR:-/tmp/ycsb13}
out=$root/runs
mkdir -p "$out"
base="$out/$tag-$engine-part${part//,/+}" # no comma: the JFR option list is comma-separated
case "$part" in
  all) phases=(--workloads writeonly,a,c,e) ;;
  1) phases=(--workloads writeonly,a --keep-data) ;;
  [a-z]*) phases=(--workloads "$part") ;; # a workload list after the load, e.g. c or writeonly,c
  *) phases=(--workloads c,e --no-load) ;;
esac
if [ "$io" = direct ]; then dio=--direct-io; else dio=--no-direct-io; fi
J=(java $(cat bin/jvm-options) ${JAVA_EXTRA:-} -Xms2g -Xmx2g -XX:MaxDirectMemorySize=4g -XX:StartFlightRecording=filename=$base.jfr,settings=default
   -cp "${BENCH_JAR:-bench/target/benchmarks.jar}")
flock /tmp/breakwater-bench.lock bash -c '
  echo "hold start $(date -u +%H:%M:%S) $(uptime)" >> "$1.log"
  shift
  timeout 470 "$@" >> "$0.log" 2>&1 || echo "exit $?" >> "$0.log"
  echo "hold end $(date -u +%H:%M:%S) $(uptime)" >> "$0.log"
' "$base" "$base" "${J[@]}" dev.breakwater.bench.ycsb.SideBySide --engines "$engine" --records 1000000 \
  --operations 100000000 --max-seconds 60 --memory "$mem" --write-memory "$wmem" --repetitions 1 "$dio" \
  "${phases[@]}" --quiet --dir "$root/data-$tag" --json "$base.json" "$@"
