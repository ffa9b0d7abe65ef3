#!/bin/bash
# The lock holds of session 10 in the order they ran (each line one hold.sh call = one lock hold).
# The queue was re-ordered by hand between holds; this is what ran. Results: NAME.json, load.txt.
Z="--workload write-only --distribution zipfian --write-memory-mb 64 --max-log-mb 32"
M="--workload mixed --distribution zipfian --write-memory-mb 64 --max-log-mb 32"
R="--workload read-heavy --distribution zipfian --write-memory-mb 64 --max-log-mb 32"
PB="--workload write-only --distribution zipfian --write-memory-mb 16 --max-log-mb 64"
PT="--workload write-only --distribution zipfian --write-memory-mb 112 --max-log-mb 64"
./hold.sh zw-base-1 base "$Z" zw-trim-1 trim "$Z"
./hold.sh zw-trim-2 trim "$Z" zw-base-2 base "$Z"
./hold.sh pz-base-1 base "$PB" pz-trim-1 trim "$PT"
SECS=60 WARM=10 ./hold.sh zm-base-1 base "$M" zm-trim-1 trim "$M" zr-trim-1 trim "$R" zr-base-1 base "$R"
./hold.sh pz-trim-2 trim "$PT" pz-base-2 base "$PB"
./hold.sh bw-base-1 base "$PT" pz-trim-3 trim "$PT"
SECS=60 WARM=10 ./hold.sh zm-trim-2 trim "$M" zm-base-2 base "$M" zr-base-2 base "$R" zr-trim-2 trim "$R"
