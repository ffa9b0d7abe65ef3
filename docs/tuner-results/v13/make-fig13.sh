#!/bin/bash
# Figure 13 at 64 MiB from run3.sh's results (paper protocol): copies them under the names TunerFigures
# reads (fixed-<x>m.json, fixed-<x>m-repeat.json, tuner-*.json) and draws fig13.png / fig13.json there.
# usage: make-fig13.sh RESULTS_DIR BENCH_JAR
set -e
src=$1; jar=$2; out=$src/fig13-64m; mkdir -p $out
for x in 16 24 32 40; do
  cp $src/fixed$x-a.json $out/fixed-${x}m.json
  if [ -f $src/fixed$x-b.json ]; then cp $src/fixed$x-b.json $out/fixed-${x}m-repeat.json; fi
done
for t in a b c d; do if [ -f $src/tuner-$t.json ]; then cp $src/tuner-$t.json $out/tuner-$t.json; fi; done
java -cp $jar dev.breakwater.bench.tuner.TunerFigures --dir $out --initial 16 --memory 64m --warmup 0 --period 5
