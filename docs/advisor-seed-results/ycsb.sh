#!/bin/bash
# YCSB, one dataset of 300,000 1 KB records (~450 MB on disk, 7x the 64 MiB memory), 30% updates / 70% point reads,
# Zipfian keys, tuner on with a 4 s period; load with the tuner off, reopen, then 150 s measured.
# unseeded: tuner starts at write-memory 16m; seeded: tuner-seed from `advise --workload 0,70,0,30`.
cd /tmp/seed; mkdir -p ycsb/out
java -jar breakwater.jar advise --workload 0,70,0,30 --rho 0.5 --entries 300000 --entry-bytes 1500 --page-size 16k \
  --total-memory 64m --write-cost 2 > ycsb/out/advise.txt 2>&1
ROBUST=$(grep -o 'tuner-seed=[0-9]*m' ycsb/out/advise.txt | tail -1 | cut -d= -f2)
NOMINAL=$(grep -o 'tuner-seed=[0-9]*m' ycsb/out/advise.txt | head -1 | cut -d= -f2)
echo "seeds: robust $ROBUST nominal $NOMINAL" >> ycsb/out/load.txt
J="java $(cat /work/wt/seed/bin/jvm-options) -Xms2g -Xmx2g -XX:MaxDirectMemorySize=4g -cp benchmarks.jar dev.breakwater.bench.ycsb.ExtendedYcsb"
COMMON="--dir /tmp/seed/ycsb/data --datasets 1 --records 300000 --write-ratio 0.3 --threads 2 --warmup 0 --duration 150 \
 --total-memory 64m --write-memory 16m --memory-component-size 2m --max-log-size 32m --tuner on --reopen-after-load \
 --engine-option tuner-period=4000 --engine-option tuner-write-weight=2 --engine-option tuner-read-weight=1 \
 --engine-option log-segment-size=8m --quiet"
run() {
  name=$1; shift
  flock /tmp/breakwater-bench.lock bash -c "
  rm -rf ycsb/data
  echo \"$name start \$(date +%T) load \$(cut -d' ' -f1-3 /proc/loadavg)\" >> ycsb/out/load.txt
  timeout 470 $J $COMMON $* --out ycsb/out/$name.json > ycsb/out/$name.log 2>&1
  echo \"$name end \$(date +%T) rc \$? load \$(cut -d' ' -f1-3 /proc/loadavg)\" >> ycsb/out/load.txt"
  sleep 3
}
run unseeded-1
run seeded-1 --engine-option tuner-seed=$ROBUST
run unseeded-2
run seeded-2 --engine-option tuner-seed=$ROBUST
run nominal-1 --engine-option tuner-seed=$NOMINAL
run nominal-2 --engine-option tuner-seed=$NOMINAL
