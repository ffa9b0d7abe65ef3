#!/bin/bash
# Session 9's order after tpcc.sh load, tpcc.sh unseeded-1, ycsb.sh unseeded-1: alternated, one hold per run.
# Seeds: advise-tpcc.txt / advise-ycsb.txt, robust design at the engine's T = 10 leveling (--size-ratio 10 --leveling-only).
D=$(dirname "$0")
$D/tpcc.sh seeded-1 --engine-option tuner-seed=11m
$D/ycsb.sh seeded-1 --engine-option tuner-seed=48m
$D/tpcc.sh unseeded-2
$D/ycsb.sh unseeded-2
$D/tpcc.sh seeded-2 --engine-option tuner-seed=11m
$D/ycsb.sh seeded-2 --engine-option tuner-seed=48m
