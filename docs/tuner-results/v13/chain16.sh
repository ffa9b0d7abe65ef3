#!/bin/bash
# Sixteenth session: chain15b.sh's runs were lost with the machine before they were copied, so again:
# tpmC and cost of the tuner against the best fixed split at the other two memory sizes of Figure 13,
# on a quiet machine, main 25ea30b (tpcc-s16.jar), ABBA at both sizes:
# 64 MiB against 24 MiB (300,000 warm-up + 300,000 measured transactions, the paper's protocol),
# 16 MiB against 4 MiB (150,000 + 150,000).
R=/work/main/docs/tuner-results/v13/run3.sh; J=/tmp/levels/tpcc-s16.jar
export MEM=64m WARM=300000 TX=300000
$R s16-m64-tuner-q1 $J
$R s16-m64-fixed24-q1 $J --tuner off --write-memory 24m
$R s16-m64-fixed24-q2 $J --tuner off --write-memory 24m
$R s16-m64-tuner-q2 $J
export MEM=16m WARM=150000 TX=150000
$R s16-m16-tuner-q1 $J
$R s16-m16-fixed4-q1 $J --tuner off --write-memory 4m
$R s16-m16-fixed4-q2 $J --tuner off --write-memory 4m
$R s16-m16-tuner-q2 $J
