#!/usr/bin/env python3
"""Eq. 4 of paper 000 against two fixed-split TPC-C runs (docs/benchmarks-tuner.md, "write'(x)").

Usage: eq4-check.py RUN_AT_X.json RUN_AT_2X.json [--size-ratio 10]
Each JSON is a tpcc.jar --tuner off result with "trees" and "operations" (the measured window).
Per tree: merge pages per operation at x and at 2x, the drop eq. 4 predicts from the run at x,
    m(x) - m(2x) = m(x) * ln 2 / ln(|L_N| / (a*x))        (merge writes proportional to the level count)
with the tuner's guards (no term when |L_N| <= a*x; ln clamped at ln T), and the measured drop.
"""
import json, math, sys

PAGE = 16384

def load(path):
    d = json.load(open(path))
    ops = d["operations"]
    x = d["engineConfig"].get("write-memory")
    return d, ops, x

def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    t = 10
    if "--size-ratio" in sys.argv:
        t = int(sys.argv[sys.argv.index("--size-ratio") + 1])
    (d1, ops1, x1), (d2, ops2, x2) = load(args[0]), load(args[1])
    print(f"x = {x1/2**20:.0f} MiB ({ops1:,} ops), 2x = {x2/2**20:.0f} MiB ({ops2:,} ops)")
    print(f"{'tree':34s} {'m(x)':>8s} {'m(2x)':>8s} {'drop':>8s} {'eq4':>8s} {'|L_N|MB':>8s} {'a*x MB':>7s} {'ln':>5s} {'flushx':>7s} {'flush2x':>7s} levels(x) -> levels(2x) MB")
    tot = {"m1": 0, "m2": 0, "pred": 0, "predUnclamped": 0, "predScaled": 0, "f1": 0, "f2": 0}
    for name in sorted(d1["trees"]):
        a, b = d1["trees"][name], d2["trees"].get(name)
        if b is None:
            continue
        m1 = a["mergeBytesWritten"] / PAGE / ops1
        m2 = b["mergeBytesWritten"] / PAGE / ops2
        f1 = a["bytesFlushed"] / PAGE / ops1
        f2 = b["bytesFlushed"] / PAGE / ops2
        ax = a["averageMemoryBytes"]
        ln_n = a["deepestLevelBytes"]
        pred = 0.0
        lnr = float("nan")
        pred_u = 0.0
        if m1 > 0 and ax > 0 and ln_n > ax:
            lnr_raw = math.log(ln_n / ax)
            lnr = max(lnr_raw, math.log(t))
            pred = m1 * math.log(2) / lnr
            pred_u = m1 * math.log(2) / lnr_raw
        flushed = a["bytesFlushedForMemory"] + a["bytesFlushedForLog"]
        scale = 1.0 if flushed == 0 else a["bytesFlushedForMemory"] / flushed   # eq. 5's factor, as the tuner applies it
        tot["predScaled"] += pred * scale
        for k, v in (("m1", m1), ("m2", m2), ("pred", pred), ("predUnclamped", pred_u), ("f1", f1), ("f2", f2)):
            tot[k] += v
        lv = lambda w: "/".join(f"{v/1e6:.0f}" for v in w["levelBytes"])
        print(f"{name:34s} {m1:8.4f} {m2:8.4f} {m1-m2:8.4f} {pred:8.4f} {ln_n/1e6:8.1f} {ax/1e6:7.2f} {lnr:5.2f} {f1:7.4f} {f2:7.4f} {lv(a)} -> {lv(b)}")
    print(f"{'all trees':34s} {tot['m1']:8.4f} {tot['m2']:8.4f} {tot['m1']-tot['m2']:8.4f} {tot['pred']:8.4f}"
          f"   (without the ln T clamp {tot['predUnclamped']:.4f}; with eq. 5's flush-cause factor {tot['predScaled']:.4f});"
          f" flush pages/op {tot['f1']:.4f} -> {tot['f2']:.4f}")
    meas = tot["m1"] - tot["m2"]
    if tot["pred"] > 0:
        print(f"measured merge drop / eq. 4's = {meas / tot['pred']:.2f}; / eq. 4 with eq. 5's factor = {meas / tot['predScaled']:.2f}")

main()
