#!/bin/bash
# Fourteenth session: Figure 12 (YCSB, one tree, point reads + updates) with the query-levels term, and a
# fixed sweep at 10% updates: does the term, which assumes query reads scale with the level count, push
# write memory up on a point-read workload (where Bloom filters skip the levels)? Main 67e69d7.
cd /work/main
export OUT=docs/tuner-results/v13/s14 WORK=/tmp/tuner-figures/s14 LOCK=/tmp/breakwater-bench.lock
export BENCH=/tmp/levels/bench-s14a.jar YCSB_MEMORIES=64 Y12_SWEEP_RATIO=0.1 Y12_SPLITS="8 16 24 32 40"
mkdir -p $WORK $OUT
bench/scripts/tuner-figures.sh fig12 fig12sweep
