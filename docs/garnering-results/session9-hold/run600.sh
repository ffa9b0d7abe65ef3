#!/bin/bash
# leveling T=4, 600k distinct keys, base vs new alternated
cd docs/garnering-results/session9-hold (run from /tmp/hold/r)
O=$(cat /work/main/bin/jvm-options)
for i in 1 2 3 4; do for v in base new; do
  echo "$v r$i start $(cat /proc/loadavg)" >> load.txt
  rm -rf /tmp/hold/data
  java -Xmx1g $O -cp /tmp/hold/$v.jar dev.breakwater.bench.garnering.GarneringDriver --policy LEVELING --size-ratio 4 --keys 600000 --reads 2000 --dir /tmp/hold/data --out lev600-$v-r$i.json --label lev600-$v-r$i > lev600-$v-r$i.log 2>&1
  echo "$v r$i end $(cat /proc/loadavg)" >> load.txt
done; done
