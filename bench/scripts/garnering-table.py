#!/usr/bin/env python3
"""Markdown tables from GarneringDriver JSON results (bench/scripts/garnering-run.sh): one row per run, then the
median per configuration (the label without its trailing -r<N>), and each configuration's medians relative to
the configuration named by --base (default the first one).

Usage: garnering-table.py [--base LABEL] RUN.json [RUN.json ...]
"""
import json, re, statistics, sys

args = sys.argv[1:]
base = None
REL = {'loadOpsPerSec', 'loadAndSettleOpsPerSec', 'pointReadOpsPerSec', 'shortRangeOpsPerSec', 'longRangeOpsPerSec'}
if args and args[0] == '--base':
    base, args = args[1], args[2:]
runs = [json.load(open(p)) for p in args]
cols = [('load ops/s', 'loadOpsPerSec', '{:,.0f}'), ('load+settle ops/s', 'loadAndSettleOpsPerSec', '{:,.0f}'),
        ('WA', 'writeAmplification', '{:.2f}'), ('space amp at load end', 'spaceAmplificationAtLoadEnd', '{:.3f}'),
        ('space amp', 'spaceAmplification', '{:.3f}'),
        ('point ops/s', 'pointReadOpsPerSec', '{:,.0f}'), ('short range ops/s', 'shortRangeOpsPerSec', '{:,.0f}'),
        ('long range ops/s', 'longRangeOpsPerSec', '{:,.0f}'), ('short pages/op', 'shortRangePagesReadPerOp', '{:.2f}'),
        ('long pages/op', 'longRangePagesReadPerOp', '{:.2f}')]

cols = [c for c in cols if all(c[1] in r for r in runs)]  # older results lack spaceAmplificationAtLoadEnd


def levels(r):
    return ' / '.join(f'{b / 2**20:.1f}' for b in r['levelBytes'])


print('| run | L0 / L1..LN MiB | ' + ' | '.join(c[0] for c in cols) + ' |')
print('|---' * (len(cols) + 2) + '|')
for r in runs:
    print(f"| {r['label']} | {levels(r)} | " + ' | '.join(f.format(r[k]) for _, k, f in cols) + ' |')

groups = {}
for r in runs:
    groups.setdefault(re.sub(r'-r\d+$', '', r['label']), []).append(r)
print()
print('| configuration, median of n | n | non-empty disk levels | ' + ' | '.join(c[0] for c in cols) + ' |')
print('|---' * (len(cols) + 3) + '|')
med = {}
for g, rs in groups.items():
    med[g] = {k: statistics.median(r[k] for r in rs) for _, k, _ in cols}
    lv = ', '.join(str(r['diskLevels']) for r in rs)
    print(f'| {g} | {len(rs)} | {lv} | ' + ' | '.join(f.format(med[g][k]) for _, k, f in cols) + ' |')
base = base or next(iter(groups))
print()
for g in groups:
    if g == base:
        continue
    parts = [f'{name} {100 * (med[g][k] / med[base][k] - 1):+.0f}%' for name, k, _ in cols if k in REL]
    print(f'{g} vs {base}: ' + ', '.join(parts))
