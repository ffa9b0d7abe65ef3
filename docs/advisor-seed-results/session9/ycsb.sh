#!/bin/bash
# Session 9, YCSB (ycsb2.sh's set-up: 300,000 records of 1 KB, 30% updates / 70% point reads, Zipfian keys, 2 threads,
# load with the tuner off, reopen, tuner on with a 4 s period, M0 2 MiB, start 16 MiB) shortened to 180 s measured.
# One run per call, one bench-lock hold each. Usage: ycsb.sh NAME [--engine-option tuner-seed=NNm]
cd /tmp/seed17; mkdir -p ycsb/out
name=$1; shift
J="java $(cat /work/wt/seed17/bin/jvm-options) -Xms2g -Xmx2g -XX:MaxDirectMemorySize=4g -cp benchmarks.jar dev.breakwater.bench.ycsb.ExtendedYcsb"
COMMON="--dir /tmp/seed17/ycsb/data --datasets 1 --records 300000 --write-ratio 0.3 --threads 2 --warmup 0 --duration 180 \
 --total-memory 64m --write-memory 16m --memory-component-size 2m --max-log-size 32m --tuner on --reopen-after-load \
 --engine-option tuner-period=4000 --engine-option tuner-write-weight=2 --engine-option tuner-read-weight=1 \
 --engine-option log-segment-size=8m --quiet"
flock /tmp/breakwater-bench.lock bash -c "
  rm -rf ycsb/data
  echo \"$name start \$(date +%T) load \$(cut -d' ' -f1-3 /proc/loadavg)\" >> ycsb/out/load.txt
  timeout 330 $J $COMMON $* --out ycsb/out/$name.json > ycsb/out/$name.log 2>&1
  echo \"$name end \$(date +%T) rc \$? load \$(cut -d' ' -f1-3 /proc/loadavg)\" >> ycsb/out/load.txt"
