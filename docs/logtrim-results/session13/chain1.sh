#!/bin/bash
# Session 13, first chain: base (today's log) at four write-memory sizes, 128 MiB total, max log 32 MiB,
# then the trim variant at two splits. J = main at 0aa0d66.
J=/tmp/trim13-main-bench.jar
./hold.sh $J "b16-1 base 16" "b64-1 base 64"
./hold.sh $J "b112-1 base 112" "b32-1 base 32"
./hold.sh $J "t112-1 trim 112" "t80-1 trim 80"
