#!/bin/bash
# One lock hold = one LogTrimBench run from a fresh copy of session 9's 1.2M-record image, load average logged
# at start and end. usage: hold.sh NAME JAR VARIANT "EXTRA ARGS"   (SECS, WARM from the environment)
cd /tmp/pack16
name=$1; jar=$2; v=$3; extra=$4
JOPTS="$(cat /work/wt/pack16/bin/jvm-options) -Xms1g -Xmx1g -XX:MaxDirectMemorySize=2g"
flock /tmp/breakwater-bench.lock bash -c "
if [ \$(date -u +%H%M) -ge 2015 ]; then echo \"$name skipped: 20:15 passed\" >> out/load.txt; exit 0; fi
echo \"$name start \$(date -u +%T) load \$(cut -d' ' -f1-3 /proc/loadavg) jar $jar\" >> out/load.txt
java $JOPTS -cp $jar dev.breakwater.bench.logtrim.LogTrimBench --mode run --variant $v \
  --records 1200000 --record-bytes 1000 --threads 2 --total-memory-mb 128 --segment-mb 4 --direct-io true \
  --seconds ${SECS:-90} --warmup ${WARM:-15} --image /tmp/trim16/image-1200k --dir /tmp/pack16/work $extra \
  --out out/$name.json > out/$name.log 2>&1
echo \"$name end \$(date -u +%T) load \$(cut -d' ' -f1-3 /proc/loadavg)\" >> out/load.txt"
