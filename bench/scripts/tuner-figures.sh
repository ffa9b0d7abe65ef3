#!/usr/bin/env bash
# Paper 000's tuner figures on TPC-C, scaled to a small machine (docs/benchmarks-tuner.md):
#   fig13 (and fig6): fixed splits of --memory, the tuner from INITIAL (twice), the best split again;
#   fig13m0: fixed splits again with the tuner run's active component M0 (INITIAL/8): a tuner run keeps
#          the M0 of its initial split, a fixed split's M0 is its own x/8;
#   fig14: the tuner through a switch from the standard mix to read-mostly, and fixed splits under
#          read-mostly for the new optimum;
#   fig14hi: the same switch with the tuner starting at SWITCH_HIGH, far above the read-mostly optimum;
#   fig12: YCSB on one tree (ExtendedYcsb --write-ratio), the tuner on, one run per write ratio;
#   plot:  summary JSON + PNGs from the run JSONs (dev.breakwater.bench.tuner.TunerFigures).
# The database is loaded once (LOADED) and copied for every run, so each run starts from the same data.
#   sweep: fig13's fixed splits alone; versus: the tuner and the best split back to back, REPEATS times each.
# Usage: bench/scripts/tuner-figures.sh [fig13] [sweep] [versus] [fig13m0] [fig14] [fig14hi] [fig12] [plot]
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
YCSB_RECORDS=${YCSB_RECORDS:-300000}            # fig12: 1 KB records in one tree (~5x of 64m)
YCSB_RATIOS=${YCSB_RATIOS:-"0.1 0.3 0.5"}
YCSB_DURATION=${YCSB_DURATION:-90}
M0_SPLITS=${M0_SPLITS:-"8 16 32 48"}
SWITCH_HIGH=${SWITCH_HIGH:-48}
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
      for r in $YCSB_RATIOS; do
        name=ycsb-w$(printf '%.0f' "$(echo "$r * 100" | bc)")
        echo "$(date -u +%H:%M:%S) $name: write ratio $r"
        before=$(cut -d' ' -f1-3 /proc/loadavg)
        ${LOCK:+flock "$LOCK"} java $(cat bin/jvm-options) -cp "$BENCH" dev.breakwater.bench.ycsb.ExtendedYcsb --dir "$WORK/ycsb" --datasets 1 \
          --records "$YCSB_RECORDS" --write-ratio "$r" --threads 2 --warmup 10 --duration "$YCSB_DURATION" \
          --total-memory "$MEMORY" --write-memory "${INITIAL}m" --max-log-size "$MAX_LOG" --tuner on \
          --engine-option "tuner-period=$(( ${PERIOD%s} * 1000 ))" --engine-option "tuner-write-weight=${WEIGHTS%,*}" \
          --engine-option "tuner-read-weight=${WEIGHTS#*,}" --engine-option log-segment-size=8m --quiet --out "$OUT/$name.json" > "$WORK/$name.log" 2>&1 \
          || echo "  $name exited $? (see $WORK/$name.log)"
        echo "$name load-average start=$before end=$(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/load.txt"
      done
      ;;
    plot)
      java -cp "$BENCH" dev.breakwater.bench.tuner.TunerFigures --dir "$OUT" --initial "$INITIAL" --memory "$MEMORY" \
        --warmup "${WARMUP%s}" --period "${PERIOD%s}"
      ;;
    *) echo "unknown step $step (fig13, fig14, plot)" >&2; exit 2 ;;
  esac
done
