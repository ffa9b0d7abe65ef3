#!/bin/bash
# usage: fig8.sh tag name
tag=$1; name=$2
cd /work/wt/fig10s11
R=/tmp/f10s11/results
flock /tmp/breakwater-bench.lock bash -c "echo \"start \$(date -u +%T) \$(uptime)\"; java $(cat bin/jvm-options) -Xms2g -Xmx2g -cp /tmp/f10s11/jars/bench-$tag.jar \
   dev.breakwater.bench.memory.InMemoryFigure --records 200000 --operations 1000000 --memory-table 4m --pool 2g \
   --repetitions 3 --workloads WRITE_ONLY --dir /tmp/f10s11/fig8data-$name --out $R/fig8-$name.json; \
   echo \"end \$(date -u +%T) \$(uptime)\"" > $R/fig8-$name.log 2>&1
rm -rf /tmp/f10s11/fig8data-$name
