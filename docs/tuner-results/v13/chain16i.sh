#!/bin/bash
# Sixteenth session, last: one ABBA at 32 MiB with the query-levels gate (tpcc-s16g.jar = b630d00),
# the tuner against fixed 12 MiB in the same hour, for tpmC.
R=/work/main/docs/tuner-results/v13/run3.sh; J=/tmp/levels/tpcc-s16g.jar
export MEM=32m WARM=150000 TX=150000
$R s16g-m32-tuner-p1 $J
$R s16g-m32-fixed12-p1 $J --tuner off --write-memory 12m
$R s16g-m32-fixed12-p2 $J --tuner off --write-memory 12m
$R s16g-m32-tuner-p2 $J
