#!/bin/bash
# Sixteenth session, after chain16b.sh: at 16 MiB the tuner stays at the 4 MiB floor for the whole run,
# the same split as the fixed run, yet both pairs of chain16.sh gave it 6-11% less tpmC, with every
# thread's CPU per transaction (log flusher included) higher by about as much. A second set in the
# opposite order (BAAB) to tell machine drift from a cost of running the tuner.
while pgrep -f 'chain16b?.sh' >/dev/null; do sleep 10; done
R=/work/main/docs/tuner-results/v13/run3.sh; J=/tmp/levels/tpcc-s16.jar
export MEM=16m WARM=150000 TX=150000
$R s16-m16-fixed4-q3 $J --tuner off --write-memory 4m
$R s16-m16-tuner-q3 $J
$R s16-m16-tuner-q4 $J
$R s16-m16-fixed4-q4 $J --tuner off --write-memory 4m
