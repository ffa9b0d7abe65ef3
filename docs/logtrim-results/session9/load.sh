#!/bin/bash
# One lock hold: a raw disk check (O_DIRECT dd) and the load of the image both variants copy.
cd /tmp/trim16
JOPTS="$(cat /work/wt/trim16/bin/jvm-options) -Xms1g -Xmx1g -XX:MaxDirectMemorySize=2g"
flock /tmp/breakwater-bench.lock bash -c "
echo \"load start \$(date +%T) load \$(cut -d' ' -f1-3 /proc/loadavg)\" >> out/load.txt
dd if=/dev/zero of=/tmp/trim16/dd bs=1M count=1024 oflag=direct 2> out/dd-write.txt
dd if=/tmp/trim16/dd of=/dev/null bs=1M iflag=direct 2> out/dd-read.txt
dd if=/tmp/trim16/dd of=/dev/null bs=16k count=8192 iflag=direct 2> out/dd-read16k.txt
rm -f /tmp/trim16/dd
java $JOPTS -cp bench.jar dev.breakwater.bench.logtrim.LogTrimBench --mode load --records 1200000 --record-bytes 1000 \
  --threads 2 --write-memory-mb 64 --total-memory-mb 128 --max-log-mb 32 --segment-mb 4 --dir /tmp/trim16/work \
  --image /tmp/trim16/image-1200k --out out/load-1200k.json > out/load-1200k.log 2>&1
echo \"load end \$(date +%T) load \$(cut -d' ' -f1-3 /proc/loadavg)\" >> out/load.txt"
