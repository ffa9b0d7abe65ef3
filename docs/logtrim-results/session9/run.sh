#!/bin/bash
# One Fig 5 write-only run, disk-bound setting, from a fresh copy of the loaded image; one lock hold.
# usage: run.sh NAME VARIANT [extra LogTrimBench args...]
cd /tmp/trim16
name=$1; v=$2; shift 2
JOPTS="$(cat /work/wt/trim16/bin/jvm-options) -Xms1g -Xmx1g -XX:MaxDirectMemorySize=2g ${XJOPTS:-}"
flock /tmp/breakwater-bench.lock bash -c "
echo \"$name start \$(date +%T) load \$(cut -d' ' -f1-3 /proc/loadavg)\" >> out/load.txt
java $JOPTS -cp ${JAR:-bench.jar} dev.breakwater.bench.logtrim.LogTrimBench --mode run --variant $v --workload write-only \
  --records 1200000 --record-bytes 1000 --seconds ${SECS:-120} --warmup ${WARM:-15} --threads 2 --write-memory-mb 64 \
  --total-memory-mb 128 --max-log-mb 32 --segment-mb 4 --direct-io true --image /tmp/trim16/image-1200k \
  --dir /tmp/trim16/work $* --out out/$name.json > out/$name.log 2>&1
echo \"$name end \$(date +%T) load \$(cut -d' ' -f1-3 /proc/loadavg)\" >> out/load.txt"
