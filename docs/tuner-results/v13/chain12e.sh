#!/bin/bash
# session 12: the new default (ghost = total-memory / 16) without any engine option, main 86dd641
S=/work/main/docs/tuner-results/v13/run3.sh
J=/tmp/levels/tpcc-s12g.jar
MEM=32m WARM=150000 TX=150000 $S s12g-m32-tuner-a $J --tuner on --write-memory 8m
MEM=64m WARM=300000 TX=300000 $S s12g-m64-tuner-a $J --tuner on --write-memory 16m
