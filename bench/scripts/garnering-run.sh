#!/usr/bin/env bash
# Runs of the Garnering tree driver (docs/benchmarks-garnering.md) in ONE hold of /tmp/breakwater-bench.lock
# (at most 470 s for all of them together: runs are 10-40 s each at 600k keys, so a hold alternates policies),
# with every merge and level change logged at DEBUG (log4j2-merges.xml) so that garnering-merges.py can count
# bytes per level. Drops the page cache before each run and records the load average before and after it.
# Usage: bench/scripts/garnering-run.sh OUTDIR SPECFILE
#   SPECFILE: one run per line, "LABEL GarneringDriver-options..." (blank lines and # comments skipped).
# Writes OUTDIR/LABEL.json (the driver's result) and OUTDIR/LABEL.log (merge log) per run, and appends
# "LABEL start|end HH:MM:SS uptime" lines to OUTDIR/load.txt; a run still going at the hold's end is killed
# (its label gets an "exit" line) and the rest are skipped.
# BENCH_JAR runs another jar (default bench/target/benchmarks.jar; use a copy so a rebuild cannot change it).
# GARNERING_DATA: the tree's directory (default /tmp/garnering/tree; deleted by the driver).
set -euo pipefail
outdir=$1 spec=$2
cd "$(dirname "$0")/../.."
mkdir -p "$outdir"
export GARNERING_J="java -Xmx1g $(cat bin/jvm-options) -Dlog4j2.configurationFile=bench/scripts/log4j2-merges.xml -cp ${BENCH_JAR:-bench/target/benchmarks.jar} dev.breakwater.bench.garnering.GarneringDriver --dir ${GARNERING_DATA:-/tmp/garnering/tree}"
flock /tmp/breakwater-bench.lock bash -c '
  outdir=$1 spec=$2
  deadline=$(( $(date +%s) + 470 ))
  grep -v "^\s*\(#\|$\)" "$spec" | while read -r label args; do
    left=$(( deadline - $(date +%s) ))
    if [ "$left" -lt 20 ]; then echo "$label skipped (hold time used up)" >> "$outdir/load.txt"; continue; fi
    sync; echo 3 > /proc/sys/vm/drop_caches
    echo "$label start $(date -u +%H:%M:%S) $(uptime)" >> "$outdir/load.txt"
    timeout "$left" $GARNERING_J $args --label "$label" --out "$outdir/$label.json" > "$outdir/$label.log" 2>&1 \
      || echo "$label exit $?" >> "$outdir/load.txt"
    echo "$label end $(date -u +%H:%M:%S) $(uptime)" >> "$outdir/load.txt"
  done
' _ "$outdir" "$spec"
