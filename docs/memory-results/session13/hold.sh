#!/bin/bash
# One lock hold: runs "tag W L name schemes" lines given as arguments (each quoted), in order.
cd /work/wt/fig10s13
R=/tmp/f10s13/results
for spec in "$@"; do
  set -- $spec; tag=$1; W=$2; L=$3; name=$4; schemes=$5
  if [ "$tag" = fig8 ]; then
    echo "start $(date -u +%T) $(uptime)" > $R/fig8-$name.log
    java $(cat bin/jvm-options) -Xms2g -Xmx2g -cp /tmp/f10s13/jars/bench-$W.jar dev.breakwater.bench.memory.InMemoryFigure --records 200000 --operations 1000000 --memory-table 4m --pool 2g \
      --repetitions 3 --workloads WRITE_ONLY --dir /tmp/f10s13/fig8data --out $R/fig8-$name.json >> $R/fig8-$name.log 2>&1
    echo "end $(date -u +%T) $(uptime)" >> $R/fig8-$name.log
    rm -rf /tmp/f10s13/fig8data
    continue
  fi
  echo "start $(date -u +%T) $(uptime)" > $R/fig10-$W-$name.log
  java $(cat bin/jvm-options) -Xms1g -Xmx1g -cp /tmp/f10s13/jars/bench-$tag.jar dev.breakwater.bench.memory.MultiTreeWriteFigure \
   --records 15000 --operations 600000 --max-seconds 120 --warmup 10 --write-memory $W --max-log-size $L --skews '' \
   --engine-option target-sstable-size=2MB --schemes $schemes --dir /tmp/f10s13/data-$W-$name --out $R/fig10-$W-$name.json >> $R/fig10-$W-$name.log 2>&1
  echo "end $(date -u +%T) $(uptime)" >> $R/fig10-$W-$name.log
  rm -rf /tmp/f10s13/data-$W-$name
done
