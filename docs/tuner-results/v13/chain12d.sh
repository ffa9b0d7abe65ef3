#!/bin/bash
# session 12: the fixed 6 MiB split at 32 MiB, where the tuner with the smaller ghost settles (5-6 MiB)
S=/work/main/docs/tuner-results/v13/run3.sh
J=/tmp/levels/tpcc-s12.jar
export MEM=32m WARM=150000 TX=150000
$S s12-m32-fixed6-a $J --write-memory 6m --tuner off
