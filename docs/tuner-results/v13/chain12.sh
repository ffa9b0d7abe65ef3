#!/bin/bash
# session 12, quiet pairs at 32 MiB on main e48f051 (no helper building): tuner from 8 MiB alternating
# with the best fixed splits of the eleventh session's sweep (14 and 12 MiB)
S=/work/main/docs/tuner-results/v13/run3.sh
J=/tmp/levels/tpcc-s12.jar
export MEM=32m WARM=150000 TX=150000
$S s12-m32-tuner-e $J --tuner on --write-memory 8m
$S s12-m32-fixed14-c $J --write-memory 14m --tuner off
$S s12-m32-tuner-f $J --tuner on --write-memory 8m
$S s12-m32-fixed12-b $J --write-memory 12m --tuner off
$S s12-m32-tuner-g $J --tuner on --write-memory 8m
$S s12-m32-fixed14-d $J --write-memory 14m --tuner off
