#!/bin/bash
# A third YCSB pair if the session's measurement window allows: the same as ycsb.sh, but a run whose hold
# begins after 14:15 UTC is skipped (logged), since the session stops starting measurements then.
cd /tmp/seed17; mkdir -p ycsb/out
J="java $(cat /work/wt/seed17/bin/jvm-options) -Xms2g -Xmx2g -XX:MaxDirectMemorySize=4g -cp benchmarks.jar dev.breakwater.bench.ycsb.ExtendedYcsb"
COMMON="--dir /tmp/seed17/ycsb/data --datasets 1 --records 300000 --write-ratio 0.3 --threads 2 --warmup 0 --duration 180 \
 --total-memory 64m --write-memory 16m --memory-component-size 2m --max-log-size 32m --tuner on --reopen-after-load \
 --engine-option tuner-period=4000 --engine-option tuner-write-weight=2 --engine-option tuner-read-weight=1 \
 --engine-option log-segment-size=8m --quiet"
run() {
  name=$1; shift
  flock /tmp/breakwater-bench.lock bash -c "
  if [ \$(date +%H%M) -ge 1415 ]; then echo \"$name skipped at \$(date +%T): past 14:15\" >> ycsb/out/load.txt; exit 0; fi
  rm -rf ycsb/data
  echo \"$name start \$(date +%T) load \$(cut -d' ' -f1-3 /proc/loadavg)\" >> ycsb/out/load.txt
  timeout 330 $J $COMMON $* --out ycsb/out/$name.json > ycsb/out/$name.log 2>&1
  echo \"$name end \$(date +%T) rc \$? load \$(cut -d' ' -f1-3 /proc/loadavg)\" >> ycsb/out/load.txt"
}
run unseeded-3
run seeded-3 --engine-option tuner-seed=48m
