#!/bin/bash
# Session 13, third chain: jar D = trim13 with the counters (2fba6c0) and LogTrimBench's peak diagnostics; engine
# behaviour unchanged). Same max-log setting pair (112 vs 112), then trim at 112 against base at 64 (the split
# whose log on disk matches the trimmed log's), alternated.
C=/tmp/trim13-diag-bench.jar
./hold.sh $C "b112-3 base 112" "t112-3 trim 112"
./hold.sh $C "t112-4 trim 112" "b64-2 base 64"
./hold.sh $C "b64-3 base 64" "t112-5 trim 112"
