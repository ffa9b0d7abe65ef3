#!/usr/bin/env python3
"""Weighted I/O cost per operation of a tpcc.jar run in windows of its time line.

Usage: cost-windows.py [SECONDS] RUN.json [RUN.json ...]   (SECONDS: window length, default 100)
Reads the per-cycle history the engine records every tuner period (also with --tuner off, where every
cycle is STOP_DISABLED) and sums cost, write and read pages per operation over each window, weighted
by the cycle's operations. Shows whether a run's cost is stationary or still moving (data growth,
merges deferred by a larger write memory), which one whole-run figure hides.
"""
import json, sys

def main():
    args = sys.argv[1:]
    window = int(args.pop(0)) * 1000 if args and args[0].isdigit() else 100_000
    for path in args:
        d = json.load(open(path))
        cycles = d["tuner"]
        t0 = cycles[0]["timeMillis"]
        acc = {}
        for c in cycles:
            a = acc.setdefault((c["timeMillis"] - t0) // window, [0, 0.0, 0.0, 0.0, []])
            a[0] += c["ops"]
            a[1] += c["cost"] * c["ops"]
            a[2] += c["writeCost"] * c["ops"]
            a[3] += c["readCost"] * c["ops"]
            a[4].append(c["writeMemoryAfter"] / 2**20)
        print(f"{path}: ioCostPerTx {d['ioCostPerTx']:.3f}, tpmC {d['tpmC']:,.0f}")
        for k in sorted(acc):
            ops, cost, w, r, xs = acc[k]
            if ops:
                print(f"  {k*window//1000:5d}-{(k+1)*window//1000:5d} s  ops {ops:10,d}  cost/op {cost/ops:.4f}"
                      f"  write/op {w/ops:.4f}  read/op {r/ops:.4f}  write memory {min(xs):.0f}-{max(xs):.0f} MiB")

main()
