#!/usr/bin/env python3
"""Session 12 tables (docs/benchmarks-garnering.md) from GarneringDriver JSON: one row per run, the median
per configuration (the label without its trailing -r<N>), and each configuration's medians against --base.
Adds the model of how many pages a range read of n entries reads when no leaf is cached (Session 12, "what
a range read touches"): runs * (1 + 1/E) + n/E leaf pages, E = 31 entries per 4 KiB leaf (16 B keys, 100 B values).

"runs covered": the sum over runs of the share of the short range reads' start keys that fall inside one of
the run's tables (GarneringDriver's runCoverage; a seek into a gap reads the next table's first leaf, which is cached).

Usage: table.py --base LABEL RUN.json [RUN.json ...]
"""
import json, re, statistics, sys

E = 31
args = sys.argv[1:]
base = None
if args and args[0] == '--base':
    base, args = args[1], args[2:]
runs = [json.load(open(p)) for p in args]
cols = [('load ops/s', 'loadOpsPerSec', '{:,.0f}'), ('load+settle ops/s', 'loadAndSettleOpsPerSec', '{:,.0f}'),
        ('WA', 'writeAmplification', '{:.2f}'),
        ('point ops/s', 'pointReadOpsPerSec', '{:,.0f}'), ('point pages/op', 'pointReadPagesReadPerOp', '{:.2f}'),
        ('short range ops/s', 'shortRangeOpsPerSec', '{:,.0f}'), ('short pages/op', 'shortRangePagesReadPerOp', '{:.2f}'),
        ('long range ops/s', 'longRangeOpsPerSec', '{:,.0f}'), ('long pages/op', 'longRangePagesReadPerOp', '{:.2f}')]
REL = ['loadOpsPerSec', 'loadAndSettleOpsPerSec', 'writeAmplification', 'pointReadOpsPerSec', 'pointReadPagesReadPerOp',
       'shortRangeOpsPerSec', 'shortRangePagesReadPerOp', 'longRangeOpsPerSec', 'longRangePagesReadPerOp']
NAMES = {k: n for n, k, _ in cols}


def levels(r):
    return ' / '.join(f'{b / 2**20:.1f}' for b in r['levelBytes'])


def model(r, n):
    return r['runs'] * (1 + 1 / E) + n / E


def covered(r):
    """Runs a seek lands inside of (sum over runs of the share of start keys within a table's range); None if not recorded."""
    return sum(c['coverage'] for c in r['runCoverage']) if 'runCoverage' in r else None


def fmt_cov(r):
    c = covered(r)
    return '-' if c is None else f'{c:.2f}'


print('| run | runs (L0 groups + levels) | L0 / L1..LN MiB | ' + ' | '.join(c[0] for c in cols)
      + ' | runs covered | model short / long leaf pages |')
print('|---' * (len(cols) + 5) + '|')
for r in runs:
    print(f"| {r['label']} | {r['runs']} ({r['l0Groups']} + {r['diskLevels']}) | {levels(r)} | "
          + ' | '.join(f.format(r[k]) for _, k, f in cols) + f" | {fmt_cov(r)} | {model(r, 10):.2f} / {model(r, 100):.2f} |")

groups = {}
for r in runs:
    groups.setdefault(re.sub(r'-r\d+$', '', r['label']), []).append(r)
print()
print('| configuration, median of n | n | runs per repetition | ' + ' | '.join(c[0] for c in cols) + ' |')
print('|---' * (len(cols) + 3) + '|')
med = {}
for g, rs in groups.items():
    med[g] = {k: statistics.median(r[k] for r in rs) for _, k, _ in cols}
    lv = ', '.join(str(r['runs']) for r in rs)
    print(f'| {g} | {len(rs)} | {lv} | ' + ' | '.join(f.format(med[g][k]) for _, k, f in cols) + ' |')
base = base or next(iter(groups))
print()
for g in groups:
    if g == base:
        continue
    parts = [f'{NAMES[k]} {100 * (med[g][k] / med[base][k] - 1):+.1f}%' for k in REL]
    print(f'- {g} vs {base}: ' + ', '.join(parts))
