#!/bin/bash
# Table 4 cold and warm: one lock hold per (log size, variant, cache state)
cd /tmp/coldrec; mkdir -p out
JOPTS="$(cat /work/wt/coldrec/bin/jvm-options) -Xms1g -Xmx1g -XX:MaxDirectMemorySize=4g"
for rep in 1 2; do
for mb in 64 256; do for cold in true false; do
  vs="plain lz4"; [ $rep = 2 ] && vs="lz4 plain"
  for v in $vs; do
  n=table4-$v-$mb-cold$cold-rep$rep
  flock /tmp/breakwater-bench.lock bash -c "echo \"$n start \$(date +%T) load \$(cut -d' ' -f1-3 /proc/loadavg)\" >> out/load.txt;
    java $JOPTS -cp benchmarks.jar dev.breakwater.bench.logtrim.LogTrimBench --mode recovery --variant $v --log-mb $mb \
      --segment-mb 8 --repeat 5 --cold $cold --dir /tmp/coldrec/work --out out/$n.json > out/$n.log 2>&1;
    echo \"$n end \$(date +%T) load \$(cut -d' ' -f1-3 /proc/loadavg)\" >> out/load.txt"
  sleep 2
done; done; done; done
