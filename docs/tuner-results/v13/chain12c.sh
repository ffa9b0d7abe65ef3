#!/bin/bash
# session 12: Figure 14 again with the ghost a sixteenth of total memory (main 86dd641, tpcc-s12g.jar):
# the tuner from 48 MiB through the switch to read-mostly, and fixed splits under read-mostly alone
J=/tmp/levels/tpcc-s12g.jar
O=/tmp/levels/out14; mkdir -p $O
BASE="--no-load --warehouses 3 --terminals 4 --memory 64m --tuner-period 5s --max-log 32m --io-weights 2,1 --warmup 15s"
run() { # NAME ARGS...
  name=$1; shift
  flock /tmp/breakwater-bench.lock bash -c "
  cd /tmp/levels && rm -rf run14 && cp -r /tmp/levels/loaded-w3 run14
  echo \"$name start \$(date +%T) load \$(cut -d' ' -f1-3 /proc/loadavg)\" >> $O/load.txt
  java -jar $J --data run14 $BASE $* --out $O/$name.json > $O/$name.log 2>&1
  echo \"$name end \$(date +%T) load \$(cut -d' ' -f1-3 /proc/loadavg)\" >> $O/load.txt"
}
run switch-tuner-from48 --tuner on --write-memory 48m --duration 150s --mix-switch-at 60s --mix-after read-mostly --seed 21
for X in 8 16 32; do
  run rm-fixed-${X}m --tuner off --write-memory ${X}m --mix read-mostly --duration 45s --seed 22
done
