#!/usr/bin/env python3
"""Merges the per-hold JSON files of bench/scripts/issue13-side-by-side.sh into one SideBySide JSON per
scale and prints Markdown tables: ops/s and ratio per phase and repetition, bytes written per op from
/proc/self/io and from the engine counters split into log / flush / merges per output level, GC share.

Usage: issue13-report.py OUT.json TAG[:REP] ...   (e.g. out.json q1:1 q2:2)
"""
import json, sys, statistics, os

RUNS = os.environ.get('ISSUE13_DIR', '/tmp/ycsb13') + '/runs'
TARGETS = {'load': ('≥ 1.0', 1.0), 'writeonly': ('≥ 1.2', 1.2), 'a': ('≥ 1.0', 1.0), 'c': ('≥ 0.9', 0.9), 'e': ('≥ 1.0', 1.0)}
ORDER = ['load', 'writeonly', 'a', 'c', 'e']


def load(tags):
    rows = []
    for t in tags:
        tag, rep = (t.split(':') + ['1'])[:2]
        for engine in ('breakwater', 'rocksdb'):
            for part in ('all', 1, 2):
                p = f'{RUNS}/{tag}-{engine}-part{part}.json'
                if os.path.exists(p):
                    for r in json.load(open(p)):
                        r['repetition'] = int(rep)
                        rows.append(r)
    return rows


def parts(r):
    b = r['engineBreakdown']
    n = r['operations']
    merges = {k: v for k, v in b.items() if k.startswith('merge.L') or (k.startswith('compaction.L'))}
    s = f"{b.get('log', 0) / n / 1024:.2f} / {b.get('flush', 0) / n / 1024:.2f} / "
    s += ', '.join(f"{k.split('.')[1]} {v / n / 1024:.2f}" for k, v in sorted(merges.items()) if v) or '0'
    return s


def main():
    out, tags = sys.argv[1], sys.argv[2:]
    rows = load(tags)
    json.dump(rows, open(out, 'w'), indent=1)
    get = lambda e, w, rep: next((r for r in rows if r['engine'] == e and r['workload'] == w and r['repetition'] == rep), None)
    reps = sorted({r['repetition'] for r in rows})
    print('| phase | rep | Breakwater ops/s | RocksDB ops/s | ratio | B written/op /proc: BW / Rocks (ratio) | engine: BW / Rocks (ratio) | BW KB/op log / flush / merges by level | Rocks KB/op log / flush / compactions by level | GC % of phase BW / Rocks |')
    print('|---|---|---|---|---|---|---|---|---|---|')
    summary = {}
    for w in ORDER:
        for rep in reps:
            b, k = get('breakwater', w, rep), get('rocksdb', w, rep)
            if not b or not k:
                continue
            ratio = b['opsPerSecond'] / k['opsPerSecond']
            pb, pk = b['procWriteBytes'] / b['operations'], k['procWriteBytes'] / k['operations']
            eb, ek = b['engineBytesWritten'] / b['operations'], k['engineBytesWritten'] / k['operations']
            pr = f'{pb / pk:.2f}' if pk > 0 else '—'
            er = f'{eb / ek:.2f}' if ek > 0 else '—'
            summary.setdefault(w, []).append((ratio, b['opsPerSecond'], k['opsPerSecond'], eb, ek, pb, pk))
            print(f"| {w} | {rep} | {b['opsPerSecond']:,.0f} | {k['opsPerSecond']:,.0f} | {ratio:.2f} | {pb:,.0f} / {pk:,.0f} ({pr}) | "
                  f"{eb:,.0f} / {ek:,.0f} ({er}) | {parts(b)} | {parts(k)} | "
                  f"{100 * b['gcMillis'] / b['millis']:.2f} / {100 * k['gcMillis'] / k['millis']:.2f} |")
    print()
    print('| phase | ratio per rep | median ratio | target | bytes/op engine ratio per rep |')
    print('|---|---|---|---|---|')
    for w, v in summary.items():
        rs = [x[0] for x in v]
        br = [f'{x[3] / x[4]:.2f}' if x[4] else '—' for x in v]
        t = TARGETS.get(w, ('', 0))
        med = statistics.median(rs)
        print(f"| {w} | {' / '.join(f'{x:.2f}' for x in rs)} | {med:.2f} | {t[0]} {'met' if med >= t[1] and min(rs) >= t[1] else 'missed' if max(rs) < t[1] else 'mixed'} | {' / '.join(br)} |")
    print()
    for r in rows:
        print(r['engine'], r['workload'], r['repetition'], r['operations'], r['millis'], {k: v for k, v in r['engineBreakdown'].items() if 'Stall' in k or k in ('merges', 'flushes') or k.startswith('size')}, file=sys.stderr)


main()
