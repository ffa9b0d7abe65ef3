#!/usr/bin/env python3
"""Session 13: one line per Figure 10 run: both schemes' bytes per update (flush + merge, the driver's
engineBytesPerOp), the ratio, and Partitioned-OPT's cold trees (the eight with 2.5% of the updates each):
flush / intra-L0 / L0->L1 bytes per update and their mean flush. Markdown on stdout."""
import json, sys, os

def main(files):
    print('| run | B+-dynamic-MEM | Partitioned-OPT | ratio (target ≤ 0.8) | P-OPT hot: flush / intra / L1 | P-OPT cold: flush / intra / L1 | P-OPT cold flushes (mean KB) |')
    print('|---|---|---|---|---|---|---|')
    for f in files:
        rows = {r['scheme']: r for r in json.load(open(f))['rows']}
        b, p = rows.get('B+-dynamic-MEM'), rows['Partitioned-OPT']
        ops = p['operations']; tr = p['trees']
        hot = [n for n in tr if tr[n]['entriesWritten'] > 100000]
        def split(ns):
            fl = sum(tr[n]['bytesFlushed'] for n in ns) / ops
            l0 = sum((tr[n]['mergeBytesWrittenByLevel'] or [0])[0] for n in ns) / ops
            l1 = sum(sum(tr[n]['mergeBytesWrittenByLevel'][1:]) for n in ns) / ops
            return f'{fl:.0f} / {l0:.0f} / {l1:.0f}'
        cold = [n for n in tr if n not in hot]
        cf = sum(tr[n]['flushes'] for n in cold)
        ratio = p['engineBytesPerOp'] / b['engineBytesPerOp'] if b else float('nan')
        print(f"| {os.path.basename(f)[:-5]} | {b['engineBytesPerOp']:.0f} | {p['engineBytesPerOp']:.0f} | **{ratio:.3f}×** | {split(hot)} | {split(cold)} | "
              f"{cf} ({sum(tr[n]['bytesFlushed'] for n in cold) / max(1, cf) / 1024:.0f}) |")

if __name__ == '__main__':
    main(sys.argv[1:])
