#!/bin/bash
# Session 9, TPC-C: one run per call, one bench-lock hold each. Usage: tpcc.sh NAME [extra tpcc options]
#   tpcc.sh load                      load /tmp/seed17/loaded-w3 once (3 warehouses, --seed 1, as benchmarks-tuner.md §4)
#   tpcc.sh unseeded-1                the run during which the mix is read from the stats endpoint (after 60 s)
#   tpcc.sh seeded-1 --engine-option tuner-seed=NNm
# The set-up of runs.sh (64 MiB, 4 terminals, 5 s tuner period, omega 2, gamma 1, start 16 MiB), shortened to
# 250,000 transactions (at most 270 s) so that a hold stays under ~5 minutes. Every run has storage-ops on the class
# path and the stats endpoint on (idle except the one read in unseeded-1), so all runs are the same program.
# ops-classpath.txt: tpcc.jar, storage-ops' jar (storage-ops/target) and its runtime dependencies from ~/.m2 (netty
# 4.1.118 buffer/codec/codec-http/common/handler/resolver/transport/transport-native-unix-common, micrometer-core,
# -commons, -observation 1.14.1, HdrHistogram, LatencyUtils), joined with ':' (this session's offline Maven had no
# dependency:build-classpath).
cd /tmp/seed17; mkdir -p out
name=$1; shift
CP=$(cat ops-classpath.txt)
JVM="$(cat /work/wt/seed17/bin/jvm-options)"
if [ "$name" = load ]; then
  flock /tmp/breakwater-bench.lock bash -c "
  echo \"load start \$(date +%T) load \$(cut -d' ' -f1-3 /proc/loadavg)\" >> out/load.txt
  java -jar tpcc.jar --data /tmp/seed17/loaded-w3 --warehouses 3 --memory 64m --load-only --fresh --seed 1 > out/load.log 2>&1
  echo \"load end \$(date +%T) rc \$? load \$(cut -d' ' -f1-3 /proc/loadavg)\" >> out/load.txt"
  exit
fi
COMMON="--data run --no-load --warehouses 3 --terminals 4 --memory 64m --tuner-period 5s --max-log 32m --io-weights 2,1 --warmup 0s --duration 270s --transactions 250000 --seed 11 --tuner on --write-memory 16m --engine-option http-enabled=true --engine-option http-port=18086"
flock /tmp/breakwater-bench.lock bash -c "
  rm -rf run && cp -r /tmp/seed17/loaded-w3 run
  echo \"$name start \$(date +%T) load \$(cut -d' ' -f1-3 /proc/loadavg)\" >> out/load.txt
  java $JVM -cp $CP dev.breakwater.tpcc.TpccMain $COMMON $* --out out/$name.json > out/$name.log 2>&1 &
  pid=\$!
  if [ $name = unseeded-1 ]; then
    sleep 60
    curl -s http://127.0.0.1:18086/stats > out/stats-at-60s.json
  fi
  wait \$pid
  echo \"$name end \$(date +%T) rc \$? load \$(cut -d' ' -f1-3 /proc/loadavg)\" >> out/load.txt"
