#!/bin/bash
# usage: run.sh jar-tag W L name schemes [extra options...]  (one lock hold per run)
tag=$1; W=$2; L=$3; name=$4; schemes=$5; shift 5
cd /work/wt/fig10s13
J="java $(cat bin/jvm-options) $JX -Xms1g -Xmx1g -cp /tmp/f10s13/jars/bench-$tag.jar"
R=/tmp/f10s13/results
flock /tmp/breakwater-bench.lock bash -c "echo \"start \$(date -u +%T) \$(uptime)\"; $J dev.breakwater.bench.memory.MultiTreeWriteFigure \
   --records 15000 --operations 600000 --max-seconds 120 --warmup 10 --write-memory $W --max-log-size $L --skews '' \
   --engine-option target-sstable-size=2MB $* --schemes $schemes --dir /tmp/f10s13/data-$W-$name --out $R/fig10-$W-$name.json; \
   echo \"end \$(date -u +%T) \$(uptime)\"" > $R/fig10-$W-$name.log 2>&1
rm -rf /tmp/f10s13/data-$W-$name
