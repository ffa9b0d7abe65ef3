#!/bin/bash
# (unseeded-1: runs.sh, the same command as below without a seed.) After unseeded-1: a 40 s probe run with the stats endpoint (storage-ops on the class path) to read TPC-C's
# operation mix, `advise --from` it, then seeded-1, unseeded-2, seeded-2 (one lock hold each).
cd /tmp/seed; mkdir -p out
CP=$(cat ops-classpath.txt)
JVM="$(cat /work/wt/seed/bin/jvm-options)"
COMMON="--data run --no-load --warehouses 3 --terminals 4 --memory 64m --tuner-period 5s --max-log 32m --io-weights 2,1 --warmup 0s --seed 11 --tuner on --write-memory 16m"
run() {
  name=$1; shift
  flock /tmp/breakwater-bench.lock bash -c "
  rm -rf run && cp -r /tmp/tuner/loaded-w3 run
  echo \"$name start \$(date +%T) load \$(cut -d' ' -f1-3 /proc/loadavg)\" >> out/load.txt
  if [ $name = probe ]; then
    java $JVM -cp $CP dev.breakwater.tpcc.TpccMain $COMMON --engine-option http-enabled=true --engine-option http-port=18086 $* --out out/$name.json > out/$name.log 2>&1 &
  else
    java -jar tpcc.jar $COMMON $* --out out/$name.json > out/$name.log 2>&1 &
  fi
  pid=\$!
  if [ $name = probe ]; then
    sleep 35
    curl -s http://127.0.0.1:18086/stats > out/stats-probe.json
    for e in 0.1 0.5; do
      java -jar breakwater.jar advise --from http://127.0.0.1:18086/stats --empty-reads \$e --rho 0.5 --entries 1777815 --entry-bytes 180 \
        --page-size 16k --total-memory 64m --write-cost 2 > out/advise-empty\$e.txt 2>&1
    done
  fi
  wait \$pid
  echo \"$name end \$(date +%T) load \$(cut -d' ' -f1-3 /proc/loadavg)\" >> out/load.txt"
  sleep 3
}
run probe --duration 40s
SEED=$(grep -o 'tuner-seed=[0-9]*m' out/advise-empty0.1.txt | tail -1 | cut -d= -f2)
[ -n "$SEED" ] || { echo "no seed" >> out/load.txt; exit 1; }
echo "seed $SEED (robust design, empty-reads 0.1)" >> out/load.txt
run seeded-1 --duration 420s --transactions 300000 --engine-option tuner-seed=$SEED
run unseeded-2 --duration 420s --transactions 300000
run seeded-2 --duration 420s --transactions 300000 --engine-option tuner-seed=$SEED
