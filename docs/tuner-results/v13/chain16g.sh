#!/bin/bash
# Sixteenth session, after chain16d.sh: main b630d00 gates the query-levels term on a tree having
# flushed or merged in the cycle (TPC-C's item table, read-only, loses it). Does the tuner still
# settle where it did and cost what it did? Tuner runs only: with the tuner off the engine is the
# same as tpcc-s16.jar's, so the fixed runs of chain15q/chain16 stay the comparison.
cd /work/main && flock /tmp/breakwater-bench.lock mvn -B -o -q -pl tpcc -am package -DskipTests && cp tpcc/target/tpcc.jar /tmp/levels/tpcc-s16g.jar || exit 1
while pgrep -f 'chain16d.sh' >/dev/null; do sleep 10; done
R=/work/main/docs/tuner-results/v13/run3.sh; J=/tmp/levels/tpcc-s16g.jar
export MEM=32m WARM=150000 TX=150000
$R s16g-m32-tuner-q1 $J
$R s16g-m32-tuner-q2 $J
$R s16g-m32-tuner-q3 $J
export MEM=64m WARM=300000 TX=300000
$R s16g-m64-tuner-q1 $J
$R s16g-m64-tuner-q2 $J
