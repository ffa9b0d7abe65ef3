#!/usr/bin/env python3
"""Markdown tables from the YCSB results of bench/scripts/garnering-ycsb.sh (ycsb-POLICY-W-rREP.json): one row per
workload and repetition (leveling and Garnering side by side), then per workload the medians over repetitions and
the Garnering/leveling ratio of the run throughput.

Usage: garnering-ycsb-table.py DIR
"""
import glob, json, os, re, statistics, sys

d = sys.argv[1]
res = {}
for p in sorted(glob.glob(os.path.join(d, 'ycsb-*-r*.json'))):
    m = re.match(r'ycsb-(\w+)-(\w)-r(\d+)\.json', os.path.basename(p))
    res[(m.group(2), int(m.group(3)), m.group(1))] = json.load(open(p))


def read_mean(r):
    ops = r['run']['ops']
    for k in ('SCAN', 'READ'):
        if k in ops:
            return k.lower(), ops[k]['latencyMicros']['mean']
    return '-', float('nan')


def levels(r):
    for tree in r['run']['engine']['trees'].values():
        return ' / '.join(f'{b / 2**20:.1f}' for b in tree['levelBytes'])
    return '?'


print('| workload | rep | leveling load ops/s | Garnering load ops/s | leveling run ops/s | Garnering run ops/s | run G/L '
      '| read or scan mean µs (L; G) | levels at end, MiB (L; G) |')
print('|---|---|---|---|---|---|---|---|---|')
ratios = {}
for (w, rep) in sorted({(w, rep) for w, rep, _ in res}):
    L, G = res.get((w, rep, 'LEVELING')), res.get((w, rep, 'GARNERING'))
    if not L or not G:
        continue
    rl, rg = L['run']['opsPerSecond'], G['run']['opsPerSecond']
    ratios.setdefault(w, []).append((L['load']['opsPerSecond'], G['load']['opsPerSecond'], rl, rg))
    kind, ml = read_mean(L)
    _, mg = read_mean(G)
    print(f"| {w} | {rep} | {L['load']['opsPerSecond']:,.0f} | {G['load']['opsPerSecond']:,.0f} | {rl:,.0f} | {rg:,.0f} | "
          f"{rg / rl:.2f} | {kind} {ml:,.0f}; {mg:,.0f} | {levels(L)}; {levels(G)} |")
print()
print('| workload | reps | median leveling run ops/s | median Garnering run ops/s | G/L of medians | G/L per rep | load G/L of medians |')
print('|---|---|---|---|---|---|---|')
for w, xs in sorted(ratios.items()):
    ml, mg = statistics.median(x[2] for x in xs), statistics.median(x[3] for x in xs)
    ll, lg = statistics.median(x[0] for x in xs), statistics.median(x[1] for x in xs)
    per = ', '.join(f'{x[3] / x[2]:.2f}' for x in xs)
    print(f'| {w} | {len(xs)} | {ml:,.0f} | {mg:,.0f} | {mg / ml:.2f} | {per} | {lg / ll:.2f} |')
