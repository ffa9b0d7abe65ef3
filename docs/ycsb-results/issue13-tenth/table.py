#!/usr/bin/env python3
"""Prints the tenth session's table from the runs' JSON and hold logs in this directory.

Usage: python3 docs/ycsb-results/issue13-tenth/table.py [DIR]   (DIR defaults to this file's directory)
For each run TAG it reads TAG-breakwater.json (SideBySide --json) and hold-TAG-breakwater.log (the
hold's load averages). Merge bytes are the engine's merge.L* counters (bytes written by merges, by
output level); B/op is the engine's bytes written per operation.
"""
import json
import os
import re
import sys

here = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
runs = [f[:-len('-breakwater.json')] for f in os.listdir(here) if f.endswith('-breakwater.json')]


def load_avgs(tag):
    path = os.path.join(here, 'hold-%s-breakwater.log' % tag)
    out = []
    if os.path.exists(path):
        for line in open(path):
            m = re.match(r'hold (start|end) (\S+) .*load average: ([0-9.]+)', line)
            if m:
                out.append('%s %s' % (m.group(2), m.group(3)))
    return ' → '.join(out)


runs.sort(key=lambda tag: load_avgs(tag))  # in the order they ran (hold start time first)
print('| run | hold (UTC, load average) | phase | ops/s | B/op (engine) | merge bytes by output level | merges | disk levels after |')
print('|---|---|---|---|---|---|---|---|')
for tag in runs:
    rows = json.load(open(os.path.join(here, tag + '-breakwater.json')))
    for r in rows:
        b = r['engineBreakdown']
        merged = {k: v for k, v in b.items() if k.startswith('merge.L') and v}
        total = sum(merged.values())
        levels = [k[len('size.'):] + ' ' + '%.0f MB' % (v / 1e6) for k, v in sorted(b.items()) if k.startswith('size.L')]
        by_level = ', '.join('%s %.0f MB' % (k[len('merge.'):], v / 1e6) for k, v in sorted(merged.items())) or '0'
        print('| %s | %s | %s | %s | %s | %s (total %.0f MB) | %d | %s |' % (
            tag, load_avgs(tag), r['workload'], format(round(r['opsPerSecond']), ','),
            format(round(r['engineBytesWritten'] / r['operations']), ','), by_level, total / 1e6, b.get('merges', 0),
            ', '.join(levels)))
