#!/bin/bash
# Fourteenth session: Figure 12's 10% point-read workload against fixed splits, and the tuner with the
# query-levels term on scan reads only (tpcc/bench-s14d: branch scanterm, ed8ebd5) after the s14a tuner
# (all query reads, main 67e69d7) went to 51 MiB. chain14y.sh ran the s14a tuner run (ycsb-w10-64m) and
# loaded the data; its w30/w50 runs were cancelled for time.
cd /work/main
export OUT=docs/tuner-results/v13/s14 WORK=/tmp/tuner-figures/s14 LOCK=/tmp/breakwater-bench.lock
export YCSB_MEMORIES=64 Y12_SWEEP_RATIO=0.1 Y12_SPLITS="8 16 32 48"
BENCH=/tmp/levels/bench-s14d.jar YCSB_RATIOS=0.1 Y12_OUT=$OUT/fig12-scan bench/scripts/tuner-figures.sh fig12
BENCH=/tmp/levels/bench-s14a.jar bench/scripts/tuner-figures.sh fig12sweep
