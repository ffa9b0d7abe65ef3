#!/bin/bash
# TPC-C at 64 MiB, 300,000 transactions from a fresh copy of loaded-w3, no warm-up; one lock hold per run.
# unseeded: tuner starts at write-memory 16m (as docs/benchmarks-tuner.md §4); seeded: tuner-seed from `advise --from`
# taken during the first unseeded run.
cd /tmp/seed; mkdir -p out
COMMON="--data run --no-load --warehouses 3 --terminals 4 --memory 64m --tuner-period 5s --max-log 32m --io-weights 2,1 --warmup 0s --duration 420s --transactions 300000 --seed 11 --tuner on --write-memory 16m --engine-option http-enabled=true --engine-option http-port=18086"
run() {
  name=$1; shift
  flock /tmp/breakwater-bench.lock bash -c "
  rm -rf run && cp -r /tmp/tuner/loaded-w3 run
  echo \"$name start \$(date +%T) load \$(cut -d' ' -f1-3 /proc/loadavg)\" >> out/load.txt
  java -jar tpcc.jar $COMMON $* --out out/$name.json > out/$name.log 2>&1 &
  pid=\$!
  if [ $name = unseeded-1 ]; then
    sleep 60
    curl -s http://127.0.0.1:18086/stats > out/stats-at-60s.json
    for e in 0.1 0.5; do
      java -jar breakwater.jar advise --from http://127.0.0.1:18086/stats --empty-reads \$e --rho 0.5 --entries 1777815 --entry-bytes 180 \
        --page-size 16k --total-memory 64m --write-cost 2 > out/advise-empty\$e.txt 2>&1
    done
  fi
  wait \$pid
  echo \"$name end \$(date +%T) load \$(cut -d' ' -f1-3 /proc/loadavg)\" >> out/load.txt"
  sleep 3
}
run unseeded-1
SEED=$(grep -o 'tuner-seed=[0-9]*m' out/advise-empty0.1.txt | tail -1 | cut -d= -f2)
[ -n "$SEED" ] || { echo "no seed" >> out/load.txt; exit 1; }
echo "seed $SEED (robust design, empty-reads 0.1)" >> out/load.txt
run seeded-1 --engine-option tuner-seed=$SEED
run unseeded-2
run seeded-2 --engine-option tuner-seed=$SEED
