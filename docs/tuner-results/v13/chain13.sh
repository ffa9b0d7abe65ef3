#!/bin/bash
# Thirteenth session (main 5071133, tpcc-s13b.jar: the query-levels term on by default).
# 32 MiB: tuner a/b alternating with fixed 12 MiB (chain2 in the session's notes), then
# 64 MiB: the tuner from its default start, then a third memory size, 16 MiB: fixed 4, 6, 8 MiB and the tuner.
R=/work/main/docs/tuner-results/v13/run3.sh; J=/tmp/levels/tpcc-s13b.jar
MEM=64m WARM=300000 TX=300000 $R s13b-m64-tuner-a $J
/work/main/docs/tuner-results/v13/chain13c.sh
MEM=16m WARM=150000 TX=150000 $R s13b-m16-fixed6-a $J --tuner off --write-memory 6m
MEM=16m WARM=150000 TX=150000 $R s13b-m16-tuner-a $J
MEM=16m WARM=150000 TX=150000 $R s13b-m16-fixed4-a $J --tuner off --write-memory 4m
MEM=16m WARM=150000 TX=150000 $R s13b-m16-fixed8-a $J --tuner off --write-memory 8m
