#!/bin/bash
# session 12: the tuner with a ghost a sixteenth of total memory (simulated-cache 2 MiB at 32 MiB,
# 4 MiB at 64 MiB) instead of 128 MiB; same jar and protocol as chain12.sh
S=/work/main/docs/tuner-results/v13/run3.sh
J=/tmp/levels/tpcc-s12.jar
export MEM=32m WARM=150000 TX=150000
$S s12-m32-tuner-g2m-a $J --tuner on --write-memory 8m --engine-option simulated-cache=2m
$S s12-m32-tuner-g2m-b $J --tuner on --write-memory 8m --engine-option simulated-cache=2m
export MEM=64m WARM=300000 TX=300000
$S s12-m64-tuner-g4m-a $J --tuner on --write-memory 16m --engine-option simulated-cache=4m
# meant as a third 32 MiB run, but MEM/WARM/TX were still exported as 64m/300000 from the line above:
# it ran at 64 MiB, from 8 MiB, with a 2 MiB ghost (1/32); its output was renamed s12-m64-tuner-from8-g2m-a
$S s12-m32-tuner-g2m-c $J --tuner on --write-memory 8m --engine-option simulated-cache=2m
