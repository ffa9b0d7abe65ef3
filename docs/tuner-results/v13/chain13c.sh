#!/bin/bash
# Thirteenth session: Figure 14 with the query-levels term (main 5071133, tpcc-s13b.jar): the tuner
# from 48 MiB through the switch to read-mostly; the fixed splits under read-mostly alone are
# chain12c.sh's (the engine is unchanged with the tuner off), copied into s13/fig14/.
J=/tmp/levels/tpcc-s13b.jar
O=/tmp/levels/out14b; mkdir -p $O
BASE="--no-load --warehouses 3 --terminals 4 --memory 64m --tuner-period 5s --max-log 32m --io-weights 2,1 --warmup 15s"
flock /tmp/breakwater-bench.lock bash -c "
cd /tmp/levels && rm -rf run14 && cp -r /tmp/levels/loaded-w3 run14
echo \"switch-tuner-from48 start \$(date +%T) load \$(cut -d' ' -f1-3 /proc/loadavg)\" >> $O/load.txt
java -jar $J --data run14 $BASE --tuner on --write-memory 48m --duration 150s --mix-switch-at 60s --mix-after read-mostly --seed 21 --out $O/switch-tuner-from48.json > $O/switch-tuner-from48.log 2>&1
echo \"switch-tuner-from48 end \$(date +%T) load \$(cut -d' ' -f1-3 /proc/loadavg)\" >> $O/load.txt"
