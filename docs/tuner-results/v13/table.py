#!/usr/bin/env python3
"""Figure 13 table from run3.sh's JSON files: cost per transaction of the measured half (omega=2, gamma=1),
pages written/read per transaction, tpmC, warm-up length, and write memory at the start and end of the
measured half (tuner runs). usage: table.py DIR [NAME...]"""
import json, os, sys

d = sys.argv[1]
names = sys.argv[2:] or sorted(f[:-5] for f in os.listdir(d) if f.endswith('.json'))
print('| run | cost/tx | pages written / read per tx | tpmC | warm-up s | measured s | write memory, measured half (MiB) |')
print('|---|---:|---|---:|---:|---:|---|')
for n in names:
    r = json.load(open(os.path.join(d, n + '.json')))
    wm = [s['writeMemoryCapacity'] / 2**20 for s in r['samples'] if s['measuring']]
    span = f"{wm[0]:.0f} → {wm[-1]:.0f} (min {min(wm):.0f}, max {max(wm):.0f})" if wm else ''
    print(f"| {n} | {r['ioCostPerTx']:.3f} | {r['pagesWrittenPerTx']:.2f} / {r['pagesReadPerTx']:.2f} | "
          f"{r['tpmC']:,.0f} | {r['warmupSeconds']:.0f} | {r['measuredSeconds']:.0f} | {span} |")
