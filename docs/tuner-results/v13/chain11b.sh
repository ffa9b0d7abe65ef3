#!/bin/bash
# session 11, a quiet pair at 32 MiB after the helpers stopped: the tuner, then the best split
S=/work/main/docs/tuner-results/v13/run3.sh
J=/tmp/levels/tpcc-s11.jar
export MEM=32m WARM=150000 TX=150000
$S s11-m32-tuner-d $J --tuner on --write-memory 8m
$S s11-m32-fixed14-b $J --write-memory 14m --tuner off
