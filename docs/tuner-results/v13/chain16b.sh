#!/bin/bash
# Sixteenth session, after chain16.sh: the runs at 64 MiB took 3.5 min each on the quiet machine, so a
# second ABBA at 64 MiB (tuner vs fixed 24 MiB), same jar and protocol.
while pgrep -f chain16.sh >/dev/null; do sleep 10; done
R=/work/main/docs/tuner-results/v13/run3.sh; J=/tmp/levels/tpcc-s16.jar
export MEM=64m WARM=300000 TX=300000
$R s16-m64-tuner-q3 $J
$R s16-m64-fixed24-q3 $J --tuner off --write-memory 24m
$R s16-m64-fixed24-q4 $J --tuner off --write-memory 24m
$R s16-m64-tuner-q4 $J
