#!/bin/bash
# One TPC-C run at MEM (default 64m), TX transactions (default 300000) from a fresh copy of the loaded data; one lock hold.
# The loaded data (sixth session): tpcc.jar --data /tmp/levels/loaded-w3 --warehouses 3 --memory 64m --load-only --fresh --seed 1
# usage: MEM=32m TX=150000 run2.sh NAME JAR args...
cd /tmp/levels; mkdir -p out
name=$1; jar=$2; shift 2; MEM=${MEM:-64m}; TX=${TX:-300000}
flock /tmp/breakwater-bench.lock bash -c "
rm -rf run && cp -r /tmp/levels/loaded-w3 run
echo \"$name start \$(date +%T) load \$(cut -d' ' -f1-3 /proc/loadavg) jar $jar\" >> out/load.txt
java -Dbreakwater.mergeLog=debug -jar $jar --data run --no-load --warehouses 3 --terminals 4 --memory $MEM --tuner-period 5s --max-log 32m \
  --io-weights 2,1 --warmup 0s --duration 600s --transactions $TX --seed 11 $* --out out/$name.json > out/$name.log 2>&1
echo \"$name end \$(date +%T) load \$(cut -d' ' -f1-3 /proc/loadavg)\" >> out/load.txt"
