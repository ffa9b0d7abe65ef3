#!/usr/bin/env bash
# One repetition of the Garnering-vs-leveling YCSB comparison (docs/benchmarks-garnering.md) in ONE hold of
# /tmp/breakwater-bench.lock (at most 470 s): for each workload (E B C A F by default), a fresh engine with
# leveling, then one with Garnering, each loading 60,000 records (10 x 100 B) and running 10 s after 2 s of
# warm-up, 2 client threads, 16 MiB total / 4 MiB write memory, direct I/O, T = 4, 1 MiB SSTables.
# Usage: bench/scripts/garnering-ycsb.sh OUTDIR REP [GARNERING_SCALE [WORKLOADS]]
# Writes OUTDIR/ycsb-POLICY-W-rREP.json and appends "label start|end HH:MM:SS uptime" to OUTDIR/load.txt; a
# workload that would start with less than 60 s of the hold left is skipped.
# BENCH_JAR runs another jar (default bench/target/benchmarks.jar).
set -euo pipefail
outdir=$1 rep=$2 scale=${3:-0.5} workloads=${4:-E B C A F}
cd "$(dirname "$0")/../.."
mkdir -p "$outdir"
export YCSB_J="java -Xmx1g $(cat bin/jvm-options) -cp ${BENCH_JAR:-bench/target/benchmarks.jar} dev.breakwater.bench.ycsb.ExtendedYcsb"
flock /tmp/breakwater-bench.lock bash -c '
  outdir=$1 rep=$2 scale=$3 workloads=$4
  deadline=$(( $(date +%s) + 470 ))
  for w in $workloads; do
    for policy in LEVELING GARNERING; do
      label=ycsb-$policy-$w-r$rep
      left=$(( deadline - $(date +%s) ))
      if [ "$left" -lt 60 ]; then echo "$label skipped (hold time used up)" >> "$outdir/load.txt"; continue; fi
      extra=""; [ "$policy" = GARNERING ] && extra="--engine-option garnering-scale=$scale"
      sync; echo 3 > /proc/sys/vm/drop_caches
      echo "$label start $(date -u +%H:%M:%S) $(uptime)" >> "$outdir/load.txt"
      timeout "$left" $YCSB_J --workload $w --records 60000 --total-memory 16m --write-memory 4m --duration 10 --warmup 2 \
        --engine-option merge-policy=$policy $extra --engine-option size-ratio=4 --engine-option target-sstable-size=1MB \
        --dir /tmp/garn18/ycsb --out "$outdir/$label.json" --quiet > "$outdir/$label.log" 2>&1 || echo "$label exit $?" >> "$outdir/load.txt"
      echo "$label end $(date -u +%H:%M:%S) $(uptime)" >> "$outdir/load.txt"
    done
  done
' _ "$outdir" "$rep" "$scale" "$workloads"
