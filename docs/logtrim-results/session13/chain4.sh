#!/bin/bash
# Session 13, fourth chain (replaces chain3, none of whose holds ran; two runs per lock hold).
# D = trim13 at 7cb92ec: main's engine + the packer's judged/dead byte counters + LogTrimBench's peak diagnostics.
# E = trim13 at 045fe8a: D + the value test in LiveOperationTrimmer (a write superseded inside its own memory
# table is dead).
D=/tmp/trim13-diag-bench.jar; E=/tmp/trim13-value-bench.jar
./hold2.sh "t112-3 $D trim 112" "e112-1 $E trim 112"
./hold2.sh "b112-3 $D base 112" "e112-2 $E trim 112"
./hold2.sh "e112-3 $E trim 112" "b112-4 $D base 112"
./hold2.sh "b64-2 $D base 64" "e112-4 $E trim 112"
./hold2.sh "e112-5 $E trim 112" "b64-3 $D base 64"
