#!/bin/bash
# Fourteenth session: does the split itself cost tpmC at 32 MiB? Fixed 10, 12 and 14 MiB and the tuner,
# alternating, on main 6bd872c (tpcc-s14a.jar). Same protocol as chain13q.sh.
R=/work/main/docs/tuner-results/v13/run3.sh; J=/tmp/levels/tpcc-s14a.jar
export MEM=32m WARM=150000 TX=150000
$R s14-m32-fixed10-a $J --tuner off --write-memory 10m
$R s14-m32-fixed12-a $J --tuner off --write-memory 12m
$R s14-m32-tuner-a $J
$R s14-m32-fixed14-a $J --tuner off --write-memory 14m
