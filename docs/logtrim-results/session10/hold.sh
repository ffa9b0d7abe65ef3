#!/bin/bash
# One lock hold: the runs given as NAME,VARIANT,"extra LogTrimBench args" triples, one after another,
# each from a fresh copy of the 1.2M-record image (session 9's), load average logged at start and end.
# usage: hold.sh NAME1 VARIANT1 "ARGS1" [NAME2 VARIANT2 "ARGS2" ...]
cd /tmp/trim16c
JOPTS="$(cat /work/wt/trim16c/bin/jvm-options) -Xms1g -Xmx1g -XX:MaxDirectMemorySize=2g"
cmds="if [ \$(date -u +%H%M) -ge 1700 ]; then echo \"$1 skipped: 17:00 passed\" >> out/load.txt; exit 0; fi"
while [ $# -ge 3 ]; do
  name=$1; v=$2; extra=$3; shift 3
  cmds="$cmds
echo \"$name start \$(date +%T) load \$(cut -d' ' -f1-3 /proc/loadavg)\" >> out/load.txt
java $JOPTS -cp bench.jar dev.breakwater.bench.logtrim.LogTrimBench --mode run --variant $v \
  --records 1200000 --record-bytes 1000 --threads 2 --total-memory-mb 128 --segment-mb 4 --direct-io true \
  --seconds ${SECS:-90} --warmup ${WARM:-15} --image /tmp/trim16/image-1200k --dir /tmp/trim16c/work $extra \
  --out out/$name.json > out/$name.log 2>&1
echo \"$name end \$(date +%T) load \$(cut -d' ' -f1-3 /proc/loadavg)\" >> out/load.txt"
done
flock /tmp/breakwater-bench.lock bash -c "$cmds"
