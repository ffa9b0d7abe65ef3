#!/bin/bash
# One lock hold: Figure 10 at 64 MiB, after/before/before/after with the scheme order alternating, then Figure 8 write-only (after).
cd /work/wt/fig10s12
R=/tmp/f10s12/results
run() { # tag name schemes
  echo "start $(date -u +%T) $(uptime)" > $R/fig10-64m-$2.log
  java $(cat bin/jvm-options) -Xms1g -Xmx1g -cp /tmp/f10s12/jars/bench-$1.jar dev.breakwater.bench.memory.MultiTreeWriteFigure \
   --records 15000 --operations 600000 --max-seconds 120 --warmup 10 --write-memory 64m --max-log-size 256m --skews '' \
   --engine-option target-sstable-size=2MB --schemes $3 --dir /tmp/f10s12/data-64m-$2 --out $R/fig10-64m-$2.json >> $R/fig10-64m-$2.log 2>&1
  echo "end $(date -u +%T) $(uptime)" >> $R/fig10-64m-$2.log
  rm -rf /tmp/f10s12/data-64m-$2
}
run after after1 B_DYNAMIC_MEM,PARTITIONED_OPT
run before before1 PARTITIONED_OPT,B_DYNAMIC_MEM
run before before2 B_DYNAMIC_MEM,PARTITIONED_OPT
run after after2 PARTITIONED_OPT,B_DYNAMIC_MEM
echo "start $(date -u +%T) $(uptime)" > $R/fig8-after.log
java $(cat bin/jvm-options) -Xms2g -Xmx2g -cp /tmp/f10s12/jars/bench-after.jar dev.breakwater.bench.memory.InMemoryFigure --records 200000 --operations 1000000 --memory-table 4m --pool 2g \
   --repetitions 3 --workloads WRITE_ONLY --dir /tmp/f10s12/fig8data --out $R/fig8-after.json >> $R/fig8-after.log 2>&1
echo "end $(date -u +%T) $(uptime)" >> $R/fig8-after.log
rm -rf /tmp/f10s12/fig8data
