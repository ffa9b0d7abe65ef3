#!/bin/bash
# Fifteenth session, after chain15q.sh: tpmC of the tuner against the best fixed split at the other two
# memory sizes of Figure 13, on a quiet machine, same jar (tpcc-s15a.jar, main 12b398f):
# 64 MiB against 24 MiB (ABBA, the paper's protocol: 300,000 warm-up + 300,000 measured transactions),
# 16 MiB against 4 MiB (one pair, 150,000 + 150,000).
while pgrep -f chain15q.sh >/dev/null; do sleep 10; done
R=/work/main/docs/tuner-results/v13/run3.sh; J=/tmp/levels/tpcc-s15a.jar
export MEM=64m WARM=300000 TX=300000
$R s15-m64-tuner-q1 $J
$R s15-m64-fixed24-q1 $J --tuner off --write-memory 24m
$R s15-m64-fixed24-q2 $J --tuner off --write-memory 24m
$R s15-m64-tuner-q2 $J
export MEM=16m WARM=150000 TX=150000
$R s15-m16-tuner-q1 $J
$R s15-m16-fixed4-q1 $J --tuner off --write-memory 4m
