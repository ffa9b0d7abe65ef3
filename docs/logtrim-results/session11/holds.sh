#!/bin/bash
# Session 11's lock holds, one run each, in this order (old = main at f49305b, new = pack16 at 6e5be1c,
# new2 = pack16 at f74673e: the same engine plus LogTrimBench --trim-min-dead). zm-old-1 and zm-new-1 ran first
# (the first version of this script), then zr-new-1 and zr-old-1; the queue was then re-ordered (the lock was
# busy, about 8 min between holds) to put the threshold sweep before the repeats.
OLD=/tmp/pack16-main-bench.jar; NEW=/tmp/pack16-new-bench.jar; NEW2=/tmp/pack16-new2-bench.jar
Z="--workload write-only --distribution zipfian --write-memory-mb 64 --max-log-mb 32"
M="--workload mixed --distribution zipfian --write-memory-mb 64 --max-log-mb 32"
R="--workload read-heavy --distribution zipfian --write-memory-mb 64 --max-log-mb 32"
S60="env SECS=60 WARM=10"
./hold.sh zw-old-1 $OLD trim "$Z"
./hold.sh zw-new-1 $NEW trim "$Z"
./hold.sh zw-base-1 $OLD base "$Z"
$S60 ./hold.sh zm-t10-1 $NEW2 trim "$M --trim-min-dead 0.1"
$S60 ./hold.sh zm-t25-1 $NEW2 trim "$M --trim-min-dead 0.25"
$S60 ./hold.sh zm-new-2 $NEW trim "$M"
$S60 ./hold.sh zm-old-2 $OLD trim "$M"
$S60 ./hold.sh zr-old-2 $OLD trim "$R"
$S60 ./hold.sh zr-new-2 $NEW trim "$R"
./hold.sh zw-new-2 $NEW trim "$Z"
./hold.sh zw-old-2 $OLD trim "$Z"
$S60 ./hold.sh zm-base-1 $OLD base "$M"
./hold.sh zw-base-2 $OLD base "$Z"
$S60 ./hold.sh zr-base-1 $OLD base "$R"
$S60 ./hold.sh zm-t25-2 $NEW2 trim "$M --trim-min-dead 0.25"
$S60 ./hold.sh zm-t10-2 $NEW2 trim "$M --trim-min-dead 0.1"
