#!/bin/bash
# One TPC-C run at MEM (default 64m) from a fresh copy of the loaded data, one lock hold: a warm-up of
# WARM transactions (default 300000) excluded from the figures, then TX measured transactions (default
# 300000): paper 000's Figure 13 protocol (each run 1 h, the first 30 min excluded), on equal work.
# The loaded data: tpcc.jar --data /tmp/levels/loaded-w3 --warehouses 3 --memory 64m --load-only --fresh --seed 1
# usage: MEM=32m WARM=150000 TX=150000 run3.sh NAME JAR args...
cd /tmp/levels; mkdir -p out13
name=$1; jar=$2; shift 2; MEM=${MEM:-64m}; TX=${TX:-300000}; WARM=${WARM:-300000}
flock /tmp/breakwater-bench.lock bash -c "
rm -rf run && cp -r /tmp/levels/loaded-w3 run
echo \"$name start \$(date +%T) load \$(cut -d' ' -f1-3 /proc/loadavg) jar $jar\" >> out13/load.txt
java -jar $jar --data run --no-load --warehouses 3 --terminals 4 --memory $MEM --tuner-period 5s --max-log 32m \
  --io-weights 2,1 --warmup 900s --warmup-transactions $WARM --duration 900s --transactions $TX --seed 11 $* \
  --out out13/$name.json > out13/$name.log 2>&1
echo \"$name end \$(date +%T) load \$(cut -d' ' -f1-3 /proc/loadavg)\" >> out13/load.txt"
