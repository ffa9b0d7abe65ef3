#!/usr/bin/env bash
# Session 12 (docs/benchmarks-garnering.md): runs of the Garnering tree driver in ONE hold of
# /tmp/breakwater-bench.lock, policies alternating, each run's merges logged at DEBUG (for
# bench/scripts/garnering-merges.py). Like bench/scripts/garnering-run.sh, but the hold ends after
# HOLD_SECONDS (default 330: holds stay under ~6 minutes), and the page cache is not dropped (the tree
# uses direct I/O, so the OS page cache never serves its pages; dropping it would only slow the other
# sessions on the machine).
# Usage: docs/garnering-results/session12/run.sh OUTDIR SPECFILE   (from the repository root)
#   SPECFILE: one run per line, "LABEL GarneringDriver-options..." (blank lines and # comments skipped).
# Writes OUTDIR/LABEL.json and OUTDIR/LABEL.log, and "LABEL start|end HH:MM:SS uptime" lines in OUTDIR/load.txt.
# BENCH_JAR: the jar (a copy, so that a rebuild cannot change it mid-run).
set -euo pipefail
outdir=$1 spec=$2
mkdir -p "$outdir"
export HOLD_SECONDS=${HOLD_SECONDS:-330}
export GARNERING_J="java -Xmx1g $(cat bin/jvm-options) -Dlog4j2.configurationFile=bench/scripts/log4j2-merges.xml -cp ${BENCH_JAR:?} dev.breakwater.bench.garnering.GarneringDriver --dir ${GARNERING_DATA:-/tmp/garn12/tree}"
flock /tmp/breakwater-bench.lock bash -c '
  outdir=$1 spec=$2
  deadline=$(( $(date +%s) + HOLD_SECONDS ))
  echo "hold start $(date -u +%H:%M:%S) $(uptime)" >> "$outdir/load.txt"
  grep -v "^\s*\(#\|$\)" "$spec" | while read -r label args; do
    left=$(( deadline - $(date +%s) ))
    if [ "$left" -lt 15 ]; then echo "$label skipped (hold time used up)" >> "$outdir/load.txt"; continue; fi
    echo "$label start $(date -u +%H:%M:%S) $(uptime)" >> "$outdir/load.txt"
    timeout "$left" $GARNERING_J $args --label "$label" --out "$outdir/$label.json" > "$outdir/$label.log" 2>&1 \
      || echo "$label exit $?" >> "$outdir/load.txt"
    echo "$label end $(date -u +%H:%M:%S) $(uptime)" >> "$outdir/load.txt"
  done
  echo "hold end $(date -u +%H:%M:%S) $(uptime)" >> "$outdir/load.txt"
' _ "$outdir" "$spec"
