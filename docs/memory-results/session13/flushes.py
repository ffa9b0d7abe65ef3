#!/usr/bin/env python3
"""Session 13: memory held and flushes by cause, hot trees (40% of the updates each) against cold ones, from the
per-tree series of MultiTreeWriteFigure JSON (first to last sample, so the measured phase without the warm-up).
Per scheme and class: average write memory per tree, average pool in use, memory- and log-triggered flushes with
their mean size, and the memory flushed to make room for the tree's own seal. Markdown table on stdout."""
import json, sys, os

def main(files):
    print('| run | scheme | trees | memory per tree (MiB) | pool in use (MiB) | memory-triggered flushes (mean KB) | log-triggered flushes (mean KB) | flushed for own seal room (MiB) |')
    print('|---|---|---|---|---|---|---|---|')
    for f in files:
        d = json.load(open(f))
        for r in d['rows']:
            ts = r['treeSeries']; tr = r['trees']; n = len(ts)
            hot = [t for t in tr if tr[t]['entriesWritten'] > 100000]
            used = sum(s['writeMemoryUsed'] for s in ts) / n / 2**20
            for cls, ns in (('hot', hot), ('cold', [t for t in tr if t not in hot])):
                first, last = ts[0]['trees'], ts[-1]['trees']
                D = lambda k: sum(last[t][k] - first[t][k] for t in ns)
                mem = sum(s['trees'][t]['memoryBytes'] for s in ts for t in ns) / n / len(ns) / 2**20
                fm, fl = D('flushesForMemory'), D('flushesForLog')
                print(f"| {os.path.basename(f)[:-5]} | {r['scheme']} | {cls} ({len(ns)}) | {mem:.2f} | {used:.1f} | "
                      f"{fm} ({D('bytesFlushedForMemory') / max(1, fm) / 1024:.0f}) | {fl} ({D('bytesFlushedForLog') / max(1, fl) / 1024:.0f}) | "
                      f"{D('bytesFlushedForSealRoom') / 2**20:.0f} |")

if __name__ == '__main__':
    main(sys.argv[1:])
