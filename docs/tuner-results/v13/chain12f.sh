#!/bin/bash
# session 12, quiet pairs at 32 MiB after the helpers stopped, on main fd4c909 (the new ghost default,
# both helper branches merged; tpcc-s12h.jar): the tuner from 8 MiB against the best split (12 MiB)
S=/work/main/docs/tuner-results/v13/run3.sh
J=/tmp/levels/tpcc-s12h.jar
export MEM=32m WARM=150000 TX=150000
$S s12h-m32-tuner-a $J --tuner on --write-memory 8m
$S s12h-m32-fixed12-a $J --write-memory 12m --tuner off
$S s12h-m32-tuner-b $J --tuner on --write-memory 8m
$S s12h-m32-fixed12-b $J --write-memory 12m --tuner off
