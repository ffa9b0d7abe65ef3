#!/bin/bash
# Thirteenth session, end: quiet 32 MiB pairs on the final main (ddc7b0e: the query-levels term plus
# fig10s13's flush-policy floor and trim13), tpcc-s13c.jar, alternating tuner / fixed 12 MiB.
R=/work/main/docs/tuner-results/v13/run3.sh; J=/tmp/levels/tpcc-s13c.jar
export MEM=32m WARM=150000 TX=150000
$R s13c-m32-tuner-q1 $J
$R s13c-m32-fixed12-q1 $J --tuner off --write-memory 12m
$R s13c-m32-fixed12-q2 $J --tuner off --write-memory 12m
$R s13c-m32-tuner-q2 $J
