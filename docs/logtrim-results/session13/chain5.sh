#!/bin/bash
# Session 13, fifth chain (replaces chain4 after its first hold: t112-3 with D, e112-1 with E).
# D = trim13 at 7cb92ec (main's engine + counters + peak diagnostics);
# F = trim13 at ca1325f: D + the trimmer's value test (045fe8a) + compression before a due pass.
D=/tmp/trim13-diag-bench.jar; F=/tmp/trim13-cfirst-bench.jar
./hold2.sh "b112-3 $D base 112" "f112-1 $F trim 112"
./hold2.sh "f112-2 $F trim 112" "b112-4 $D base 112"
./hold2.sh "b64-2 $D base 64" "f112-3 $F trim 112"
./hold2.sh "f112-4 $F trim 112" "b64-3 $D base 64"
