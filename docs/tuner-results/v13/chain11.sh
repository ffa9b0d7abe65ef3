#!/bin/bash
# session 11: Figure 13 at 32 MiB, paper protocol, on main f49305b's jar; alternate fixed splits and tuner runs
S=/work/main/docs/tuner-results/v13/run3.sh
J=/tmp/levels/tpcc-s11.jar
export MEM=32m WARM=150000 TX=150000
$S s11-m32-fixed12-a $J --write-memory 12m --tuner off
$S s11-m32-tuner-a $J --tuner on --write-memory 8m
$S s11-m32-fixed10-a $J --write-memory 10m --tuner off
$S s11-m32-tuner-b $J --tuner on --write-memory 8m
$S s11-m32-fixed14-a $J --write-memory 14m --tuner off
$S s11-m32-tuner-c $J --tuner on --write-memory 8m
$S s11-m32-fixed16-a $J --write-memory 16m --tuner off
$S s11-m32-fixed8-a $J --write-memory 8m --tuner off
