#!/bin/bash
# Session 13, second chain: the same max-log setting, trim at 112 against base's best split (112), alternated.
J=/tmp/trim13-main-bench.jar
./hold.sh $J "t112-2 trim 112" "b112-2 base 112"
