#!/bin/bash
# Session 13: one lock hold = one or more LogTrimBench runs, each from a fresh copy of session 9's
# 1.2M-record image; load average logged at the start and end of each run.
# usage: hold2.sh "NAME JAR VARIANT WRITE_MB [EXTRA]" ...   (SECS, WARM, MAXLOG, DIST from the environment;
# defaults 90, 15, 32, zipfian)
cd /tmp/trim13
JOPTS="$(cat /work/wt/trim13/bin/jvm-options) -Xms1g -Xmx1g -XX:MaxDirectMemorySize=2g"
script=""
for spec in "$@"; do
  set -- $spec; name=$1; jar=$2; v=$3; wm=$4; shift 4; extra="$*"
  script+="
if [ \$(date -u +%H%M) -ge 0215 ] && [ \$(date -u +%H%M) -lt 0300 ]; then echo \"$name skipped: 02:15 passed\" >> out/load.txt; exit 0; fi
echo \"$name start \$(date -u +%T) load \$(cut -d' ' -f1-3 /proc/loadavg) jar $jar\" >> out/load.txt
java $JOPTS -cp $jar dev.breakwater.bench.logtrim.LogTrimBench --mode run --variant $v \
  --records 1200000 --record-bytes 1000 --threads 2 --total-memory-mb 128 --segment-mb 4 --direct-io true \
  --seconds ${SECS:-90} --warmup ${WARM:-15} --image /tmp/trim16/image-1200k --dir /tmp/trim13/work \
  --workload write-only --distribution ${DIST:-zipfian} --write-memory-mb $wm --max-log-mb ${MAXLOG:-32} $extra \
  --out out/$name.json > out/$name.log 2>&1
echo \"$name end \$(date -u +%T) load \$(cut -d' ' -f1-3 /proc/loadavg)\" >> out/load.txt"
done
flock /tmp/breakwater-bench.lock bash -c "$script"
