#!/usr/bin/env python3
"""Session 12: Figure 10 bytes per update by cause, from MultiTreeWriteFigure JSON (whole run, warm-up included,
as the driver's own bytes/op). Per scheme: log; flush (by cause: memory / log); disk merges by output level
(L0 = intra-L0 merges, L1 = L0 -> L1); and, not disk bytes, the seals' and memory merges' copies (write-memory
traffic). Then the same split between the two hot trees (40% of the updates each) and the eight cold ones."""
import json, sys, os

def per_op(x, ops):
    return x / ops

def main(files):
    print('| run | scheme | total (flush+merge) | log | flush: memory / log | merge into L0 (intra) / L1 | seal copies / memory merges (not disk) | hot: flush / intra / L1 | cold: flush / intra / L1 | cold flushes (avg KB) | ratio |')
    print('|---|---|---|---|---|---|---|---|---|---|---|')
    for f in files:
        d = json.load(open(f))
        rows = {r['scheme']: r for r in d['rows']}
        base = rows.get('B+-dynamic-MEM')
        for r in d['rows']:
            ops = r['operations']; tr = r['trees']
            hot = [n for n in tr if tr[n]['entriesWritten'] > 100000]
            cold = [n for n in tr if n not in hot]
            def S(ns, key, i=None):
                if i is None:
                    return sum(tr[n].get(key, 0) for n in ns)
                return sum(tr[n][key][i] if len(tr[n][key]) > i else 0 for n in ns)
            allt = list(tr)
            seal = S(allt, 'memorySealBytes'); mm = S(allt, 'memoryMergeBytes')
            fl = lambda ns: S(ns, 'bytesFlushed') / ops
            l0 = lambda ns: S(ns, 'mergeBytesWrittenByLevel', 0) / ops
            l1 = lambda ns: sum(sum(tr[n]['mergeBytesWrittenByLevel'][1:]) for n in ns) / ops
            cf = S(cold, 'flushes')
            ratio = '%.2f×' % (r['engineBytesPerOp'] / base['engineBytesPerOp']) if base and r is not base else ''
            print(f"| {os.path.basename(f)[:-5]} | {r['scheme']} | {r['engineBytesPerOp']:.0f} | {r['logBytesPerOp']:.0f} | "
                  f"{r['bytesFlushedForMemory']/ops:.0f} / {r['bytesFlushedForLog']/ops:.0f} | {l0(allt):.0f} / {l1(allt):.0f} | "
                  f"{seal/ops:.0f} / {mm/ops:.0f} | {fl(hot):.0f} / {l0(hot):.0f} / {l1(hot):.0f} | {fl(cold):.0f} / {l0(cold):.0f} / {l1(cold):.0f} | "
                  f"{cf} ({S(cold,'bytesFlushed')/max(1,cf)/1024:.0f}) | {ratio} |")

if __name__ == '__main__':
    main(sys.argv[1:])
