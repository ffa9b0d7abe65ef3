#!/usr/bin/env bash
# Paper 000's tuner figures on TPC-C, scaled to a small machine (docs/benchmarks-tuner.md):
#   fig13 (and fig6): fixed splits of --memory, the tuner from INITIAL (twice), the best split again;
#   fig13m0: fixed splits again with the tuner run's active component M0 (INITIAL/8): a tuner run keeps
#          the M0 of its initial split, a fixed split's M0 is its own x/8;
#   fig14: the tuner through a switch from the standard mix to read-mostly, and fixed splits under
#          read-mostly for the new optimum;
#   fig14hi: the same switch with the tuner starting at SWITCH_HIGH, far above the read-mostly optimum;
#   fig12: YCSB on one tree (ExtendedYcsb --write-ratio), the tuner on from 25%, one run per write ratio and
#          total memory (YCSB_MEMORIES), each on a copy of one tree loaded once per memory size;
#   fig12sweep: fixed splits (Y12_SPLITS) at one write ratio (Y12_SWEEP_RATIO) and memory (the first of
#          YCSB_MEMORIES), into fig12's directory: where its optimum is;
#   fig6ycsb: YCSB write-heavy (50% updates) on Y6_DATASETS trees, 80% of operations on 20% of them, fixed
#          splits of Y6_MEMORY (Y6_SPLITS) and the tuner from 25%, each on a copy of the data loaded once;
#   fig6long: fig6ycsb's fixed splits Y6_LONG_SPLITS measured as long as its tuner run;
#   plot:  summary JSON + PNGs from the run JSONs (dev.breakwater.bench.tuner.TunerFigures).
# The database is loaded once (LOADED) and copied for every run, so each run starts from the same data.
#   sweep: fig13's fixed splits alone; versus: the tuner and the best split back to back, REPEATS times each.
# Usage: bench/scripts/tuner-figures.sh [fig13] [sweep] [versus] [fig13m0] [fig14] [fig14hi] [fig12] [fig12sweep] [fig6ycsb] [fig6long] [plot]
#        (default: fig13 fig13m0 fig14 fig14hi fig12 plot)
# Needs: mvn -B -q -pl tpcc,bench -am package -DskipTests
set -euo pipefail
cd "$(dirname "$0")/../.."

OUT=${OUT:-docs/tuner-results/figures}
WORK=${WORK:-/tmp/tuner-figures}
WAREHOUSES=${WAREHOUSES:-3}
MEMORY=${MEMORY:-64m}
TERMINALS=${TERMINALS:-4}
SPLITS=${SPLITS:-"4 8 16 24 32 40 48"}          # write memory in MiB; 16 = 25% (the engine default's ratio), 32 = 50/50
INITIAL=${INITIAL:-16}                          # the tuner's start, MiB
WARMUP=${WARMUP:-15s}
DURATION=${DURATION:-60s}
PERIOD=${PERIOD:-5s}
MAX_LOG=${MAX_LOG:-32m}
WEIGHTS=${WEIGHTS:-2,1}
SWITCH_AT=${SWITCH_AT:-60s}                     # fig14: from the start of the run, warm-up included
SWITCH_DURATION=${SWITCH_DURATION:-150s}        # fig14: measured time of the switching run
RM_SPLITS=${RM_SPLITS:-"4 8 16 32 48"}          # fig14: fixed splits under read-mostly
RM_DURATION=${RM_DURATION:-45s}
TPCC=${TPCC:-tpcc/target/tpcc.jar}
BENCH=${BENCH:-bench/target/benchmarks.jar}
YCSB_RECORDS=${YCSB_RECORDS:-600000}            # fig12: 1 KB records in one tree (~600 MB, 4.5x of 128m)
YCSB_RATIOS=${YCSB_RATIOS:-"0.1 0.3 0.5"}
YCSB_MEMORIES=${YCSB_MEMORIES:-"64 128"}         # fig12: total memory, MiB; the tuner starts at a quarter
YCSB_DURATION=${YCSB_DURATION:-120}             # fig12: measured seconds of a tuner run
YCSB_WARMUP=${YCSB_WARMUP:-10}
Y12_SWEEP_RATIO=${Y12_SWEEP_RATIO:-0.3}
Y12_SPLITS=${Y12_SPLITS:-"8 20 32 44 56"}        # fig12sweep: write memory, MiB
Y12_SWEEP_DURATION=${Y12_SWEEP_DURATION:-45}
Y6_DATASETS=${Y6_DATASETS:-10}
Y6_RECORDS=${Y6_RECORDS:-50000}                 # fig6ycsb: per tree (10 x 50,000 x 1 KB, ~8x of 64m)
Y6_MEMORY=${Y6_MEMORY:-64}                      # MiB; splits in steps of 1/16 (4 MiB), the tuner from 16 MiB
Y6_SPLITS=${Y6_SPLITS:-"4 8 12 16 20 24 28 32 36 40 44 48 52 56 60"}
Y6_DURATION=${Y6_DURATION:-45}                  # measured seconds of a fixed split
Y6_TUNER_DURATION=${Y6_TUNER_DURATION:-150}     # measured seconds of the tuner run
M0_SPLITS=${M0_SPLITS:-"8 16 32 48"}
SWITCH_HIGH=${SWITCH_HIGH:-48}
Y6_OUT=${Y6_OUT:-$OUT/fig6-ycsb}                # fig6ycsb's runs and figures
Y12_OUT=${Y12_OUT:-$OUT/fig12}                  # fig12's and fig12sweep's runs and figures
LOCK=${LOCK:-}                                  # e.g. /tmp/breakwater-bench.lock: each run holds it (a shared machine)
STEPS=${*:-fig13 fig13m0 fig14 fig14hi fig12 plot}

mkdir -p "$OUT" "$WORK"
LOADED=$WORK/loaded-w$WAREHOUSES
COMMON=(--warehouses "$WAREHOUSES" --terminals "$TERMINALS" --memory "$MEMORY" --tuner-period "$PERIOD" --max-log "$MAX_LOG" --io-weights "$WEIGHTS")

load() {
  if [ ! -d "$LOADED" ]; then
    java -jar "$TPCC" --data "$LOADED" --warehouses "$WAREHOUSES" --memory "$MEMORY" --load-only --fresh --seed 1 \
      > "$WORK/load.log" 2>&1
  fi
  echo "data: $(du -sm "$LOADED" | cut -f1) MB on disk, total memory $MEMORY" | tee "$OUT/scale.txt"
}

# run NAME ARGS...: one TPC-C run on a fresh copy of the loaded database; records the load average.
run() {
  local name=$1; shift
  rm -rf "$WORK/run"; cp -r "$LOADED" "$WORK/run"
  local before; before=$(cut -d' ' -f1-3 /proc/loadavg)
  echo "$(date -u +%H:%M:%S) $name: $*"
  ${LOCK:+flock "$LOCK"} java -jar "$TPCC" --data "$WORK/run" --no-load "${COMMON[@]}" --out "$OUT/$name.json" "$@" > "$WORK/$name.log" 2>&1 \
    || echo "  $name exited $? (see $WORK/$name.log)"
  # the start line and the tuner's cycles, for placing cycles in time (TunerFigures) and for the record
  tr '\r' '\n' < "$WORK/$name.log" | grep -a "TpccMain - running\|tuner cycle" > "$OUT/$name.cycles.log" || true
  echo "$name load-average start=$before end=$(cut -d' ' -f1-3 /proc/loadavg) tpmC=$(jq .tpmC "$OUT/$name.json" 2>/dev/null)" \
    "ioCostPerTx=$(jq .ioCostPerTx "$OUT/$name.json" 2>/dev/null)" | tee -a "$OUT/load.txt"
  rm -rf "$WORK/run"
}

# ycsb NAME LOADED ARGS...: one ExtendedYcsb run (ω, γ, tuner period and log as for TPC-C) on a fresh copy of LOADED;
# without LOADED on disk, loads it first (--load-only, its own lock hold).
YCSB_COMMON=(--threads 2 --max-log-size "$MAX_LOG" --engine-option "tuner-period=$(( ${PERIOD%s} * 1000 ))"
  --engine-option "tuner-write-weight=${WEIGHTS%,*}" --engine-option "tuner-read-weight=${WEIGHTS#*,}"
  --engine-option log-segment-size=8m --quiet)
ycsb_load() {
  local loaded=$1; shift
  if [ ! -d "$loaded" ]; then
    echo "$(date -u +%H:%M:%S) loading $loaded: $*"
    ${LOCK:+flock "$LOCK"} java $(cat bin/jvm-options) -cp "$BENCH" dev.breakwater.bench.ycsb.ExtendedYcsb --data "$loaded" --load-only \
      "${YCSB_COMMON[@]}" "$@" --out "$WORK/$(basename "$loaded").load.json" > "$WORK/$(basename "$loaded").load.log" 2>&1
  fi
  echo "$(basename "$loaded"): $(du -sm "$loaded" | cut -f1) MB on disk; $*" | tee -a "$OUT/scale-ycsb.txt"
}
ycsb() {
  local out=$1 name=$2 loaded=$3; shift 3
  mkdir -p "$out"
  echo "$(date -u +%H:%M:%S) $name: $*"
  # the copy (600 MB written back to disk) is part of the hold, and synced before the run: written outside it,
  # it slowed the reads of whichever run held the lock
  ${LOCK:+flock "$LOCK"} bash -c 'rm -rf "$1" && cp -r "$2" "$1" && sync && cut -d" " -f1-3 /proc/loadavg > "$1.loadavg" && shift 2 && exec "$@"' \
    copy "$WORK/ycsb-run" "$loaded" java $(cat bin/jvm-options) -cp "$BENCH" dev.breakwater.bench.ycsb.ExtendedYcsb --data "$WORK/ycsb-run" --no-load \
    "${YCSB_COMMON[@]}" "$@" --out "$out/$name.json" > "$WORK/$name.log" 2>&1 || echo "  $name exited $? (see $WORK/$name.log)"
  local before; before=$(cat "$WORK/ycsb-run.loadavg" 2>/dev/null)
  echo "$name $(date -u +%H:%M:%S) load-average start=$before end=$(cut -d' ' -f1-3 /proc/loadavg)" \
    "ioCostPerOp=$(jq .run.engine.ioCostPerOp "$out/$name.json" 2>/dev/null) opsPerSecond=$(jq .run.opsPerSecond "$out/$name.json" 2>/dev/null)" \
    "writeMemoryAtEnd=$(jq .run.engine.writeMemoryCapacity "$out/$name.json" 2>/dev/null)" | tee -a "$out/load.txt"
  rm -rf "$WORK/ycsb-run" "$WORK/ycsb-run.loadavg"
}

for step in $STEPS; do
  case $step in
    fig13)
      load
      for x in $SPLITS; do
        run "fixed-${x}m" --tuner off --write-memory "${x}m" --warmup "$WARMUP" --duration "$DURATION" --seed 11
      done
      run tuner-1 --tuner on --write-memory "${INITIAL}m" --warmup "$WARMUP" --duration "$DURATION" --seed 11
      run tuner-2 --tuner on --write-memory "${INITIAL}m" --warmup "$WARMUP" --duration "$DURATION" --seed 12
      best=$(for x in $SPLITS; do echo "$x $(jq .ioCostPerTx "$OUT/fixed-${x}m.json")"; done | sort -g -k2 | head -1 | cut -d' ' -f1)
      run "fixed-${best}m-repeat" --tuner off --write-memory "${best}m" --warmup "$WARMUP" --duration "$DURATION" --seed 12
      ;;
    sweep)
      # fig13's fixed splits alone
      load
      for x in $SPLITS; do
        run "fixed-${x}m" --tuner off --write-memory "${x}m" --warmup "$WARMUP" --duration "$DURATION" --seed 11
      done
      ;;
    versus)
      # fig13's tuner runs and the best split (BEST, else the sweep's best) back to back, REPEATS times each,
      # so both see the same machine load
      load
      best=${BEST:-$(for x in $SPLITS; do echo "$x $(jq .ioCostPerTx "$OUT/fixed-${x}m.json")"; done | sort -g -k2 | head -1 | cut -d' ' -f1)}
      for i in $(seq 1 "${REPEATS:-2}"); do
        run "tuner-$i" --tuner on --write-memory "${INITIAL}m" --warmup "$WARMUP" --duration "$DURATION" --seed $(( 10 + i ))
        run "fixed-${best}m-repeat$i" --tuner off --write-memory "${best}m" --warmup "$WARMUP" --duration "$DURATION" --seed $(( 10 + i ))
      done
      ;;
    fig13m0)
      load
      for x in $M0_SPLITS; do
        run "m0-fixed-${x}m" --tuner off --write-memory "${x}m" --memory-component-size "$(( INITIAL * 1024 / 8 ))k" \
          --warmup "$WARMUP" --duration "$DURATION" --seed 11
      done
      ;;
    fig14)
      load
      run switch-tuner --tuner on --write-memory "${INITIAL}m" --warmup "$WARMUP" --duration "$SWITCH_DURATION" \
        --mix-switch-at "$SWITCH_AT" --mix-after read-mostly --seed 21
      for x in $RM_SPLITS; do
        run "rm-fixed-${x}m" --tuner off --write-memory "${x}m" --mix read-mostly --warmup "$WARMUP" \
          --duration "$RM_DURATION" --seed 22
      done
      ;;
    fig14hi)
      load
      run "switch-tuner-from${SWITCH_HIGH}" --tuner on --write-memory "${SWITCH_HIGH}m" --warmup "$WARMUP" \
        --duration "$SWITCH_DURATION" --mix-switch-at "$SWITCH_AT" --mix-after read-mostly --seed 21
      ;;
    fig12)
      for mem in $YCSB_MEMORIES; do
        loaded=$WORK/ycsb1-${mem}m
        ycsb_load "$loaded" --datasets 1 --records "$YCSB_RECORDS" --total-memory "${mem}m" --write-memory "$(( mem / 4 ))m"
        for r in $YCSB_RATIOS; do
          ycsb "$Y12_OUT" "ycsb-w$(printf '%.0f' "$(echo "$r * 100" | bc)")-${mem}m" "$loaded" --datasets 1 --records "$YCSB_RECORDS" \
            --write-ratio "$r" --total-memory "${mem}m" --write-memory "$(( mem / 4 ))m" --tuner on \
            --warmup "$YCSB_WARMUP" --duration "$YCSB_DURATION" --seed 12
        done
      done
      ;;
    fig12sweep)
      mem=${YCSB_MEMORIES%% *}
      loaded=$WORK/ycsb1-${mem}m
      ycsb_load "$loaded" --datasets 1 --records "$YCSB_RECORDS" --total-memory "${mem}m" --write-memory "$(( mem / 4 ))m"
      for x in $Y12_SPLITS; do
        ycsb "$Y12_OUT" "ycsb-fixed-${x}m" "$loaded" --datasets 1 --records "$YCSB_RECORDS" --write-ratio "$Y12_SWEEP_RATIO" \
          --total-memory "${mem}m" --write-memory "${x}m" --tuner off --warmup "$YCSB_WARMUP" --duration "$Y12_SWEEP_DURATION" --seed 12
      done
      ;;
    fig6ycsb)
      loaded=$WORK/ycsb${Y6_DATASETS}-${Y6_MEMORY}m
      Y6=(--datasets "$Y6_DATASETS" --records "$Y6_RECORDS" --hotspot 80/20 --workload WRITE_HEAVY --total-memory "${Y6_MEMORY}m")
      ycsb_load "$loaded" "${Y6[@]}" --write-memory "$(( Y6_MEMORY / 4 ))m"
      for x in $Y6_SPLITS; do
        ycsb "$Y6_OUT" "ycsb-fixed-${x}m" "$loaded" "${Y6[@]}" --write-memory "${x}m" --tuner off --warmup "$YCSB_WARMUP" \
          --duration "$Y6_DURATION" --seed 6
      done
      ycsb "$Y6_OUT" ycsb-tuner "$loaded" "${Y6[@]}" --write-memory "$(( Y6_MEMORY / 4 ))m" --tuner on --warmup "$YCSB_WARMUP" \
        --duration "$Y6_TUNER_DURATION" --seed 6
      ;;
    fig6long)
      # fixed splits measured as long as the tuner run (Y6_TUNER_DURATION): are the 45-second windows of fig6ycsb
      # comparable with the tuner run's? (named ycsb-long-*, outside fig6-ycsb.json)
      loaded=$WORK/ycsb${Y6_DATASETS}-${Y6_MEMORY}m
      Y6=(--datasets "$Y6_DATASETS" --records "$Y6_RECORDS" --hotspot 80/20 --workload WRITE_HEAVY --total-memory "${Y6_MEMORY}m")
      ycsb_load "$loaded" "${Y6[@]}" --write-memory "$(( Y6_MEMORY / 4 ))m"
      for x in ${Y6_LONG_SPLITS:-40}; do
        ycsb "$Y6_OUT" "ycsb-long-fixed-${x}m" "$loaded" "${Y6[@]}" --write-memory "${x}m" --tuner off --warmup "$YCSB_WARMUP" \
          --duration "$Y6_TUNER_DURATION" --seed 6
      done
      ;;
    plot)
      for d in "$OUT" "$Y6_OUT" "$Y12_OUT"; do
        [ -d "$d" ] && ls "$d"/*.json > /dev/null 2>&1 || continue
        java -cp "$BENCH" dev.breakwater.bench.tuner.TunerFigures --dir "$d" --initial "$INITIAL" --memory "$MEMORY" \
          --warmup "${WARMUP%s}" --period "${PERIOD%s}"
      done
      ;;
    *) echo "unknown step $step (fig13, sweep, versus, fig13m0, fig14, fig14hi, fig12, fig12sweep, fig6ycsb, fig6long, plot)" >&2; exit 2 ;;
  esac
done
