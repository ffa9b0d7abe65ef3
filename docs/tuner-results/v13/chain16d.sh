#!/bin/bash
# Sixteenth session, after chain16c.sh: at 16 MiB tuner and fixed runs are the same engine (the tuner
# stays at the 4 MiB floor and never resizes), yet tpmC over 4 + 4 runs spans 38.5k-44.9k (CV 5.4%) and
# the means differ by 4.7%. Eight more runs (ABBA, BAAB) to narrow the mean.
while pgrep -f 'chain16[bc].sh' >/dev/null; do sleep 10; done
R=/work/main/docs/tuner-results/v13/run3.sh; J=/tmp/levels/tpcc-s16.jar
export MEM=16m WARM=150000 TX=150000
$R s16-m16-tuner-q5 $J
$R s16-m16-fixed4-q5 $J --tuner off --write-memory 4m
$R s16-m16-fixed4-q6 $J --tuner off --write-memory 4m
$R s16-m16-tuner-q6 $J
$R s16-m16-fixed4-q7 $J --tuner off --write-memory 4m
$R s16-m16-tuner-q7 $J
$R s16-m16-tuner-q8 $J
$R s16-m16-fixed4-q8 $J --tuner off --write-memory 4m
