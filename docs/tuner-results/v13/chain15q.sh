#!/bin/bash
# Fifteenth session: the machine is quiet (load 0.0 at 11:30). TPC-C at 32 MiB, the tuner against the
# fixed 12 MiB split, ABBA twice on main 12b398f (tpcc-s15a.jar): is the tuner's tpmC within 0.97x, and
# where does CPU per transaction (cpuMicrosPerTx) differ? Same protocol as chain13q.sh.
R=/work/main/docs/tuner-results/v13/run3.sh; J=/tmp/levels/tpcc-s15a.jar
export MEM=32m WARM=150000 TX=150000
$R s15-m32-tuner-q1 $J
$R s15-m32-fixed12-q1 $J --tuner off --write-memory 12m
$R s15-m32-fixed12-q2 $J --tuner off --write-memory 12m
$R s15-m32-tuner-q2 $J
$R s15-m32-tuner-q3 $J
$R s15-m32-fixed12-q3 $J --tuner off --write-memory 12m
$R s15-m32-fixed12-q4 $J --tuner off --write-memory 12m
$R s15-m32-tuner-q4 $J
