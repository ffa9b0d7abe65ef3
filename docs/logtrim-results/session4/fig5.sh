#!/bin/bash
# Fig 5 write-only again on a quieter machine: base/trim alternated, 3 repetitions; one lock hold per run
cd /tmp/coldrec; mkdir -p fig5
JOPTS="$(cat /work/wt/coldrec/bin/jvm-options) -Xms1g -Xmx1g -XX:MaxDirectMemorySize=2g"
for rep in 1 2 3; do
  vs="base trim"; [ $rep = 2 ] && vs="trim base"
  for v in $vs; do
  n=fig5-write-only-$v-rep$rep
  flock /tmp/breakwater-bench.lock bash -c "echo \"$n start \$(date +%T) load \$(cut -d' ' -f1-3 /proc/loadavg)\" >> fig5/load.txt;
    java $JOPTS -cp benchmarks.jar dev.breakwater.bench.logtrim.LogTrimBench --mode run --variant $v --workload write-only \
      --records 150000 --record-bytes 1000 --seconds 30 --threads 2 --write-memory-mb 64 --total-memory-mb 128 \
      --max-log-mb 32 --segment-mb 4 --dir /tmp/coldrec/work5 --out fig5/$n.json > fig5/$n.log 2>&1;
    echo \"$n end \$(date +%T) load \$(cut -d' ' -f1-3 /proc/loadavg)\" >> fig5/load.txt"
  sleep 2
done; done
