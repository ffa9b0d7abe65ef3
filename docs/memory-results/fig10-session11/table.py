#!/usr/bin/env python3
"""Session-11 tables: per run the pair's bytes per update and ratio; per hot tree (measured phase) where flushes came from."""
import json, sys, glob, os
M = 1 << 20
def measured(row):
    ser = row['treeSeries']; w = row.get('treeSeriesWarmupSeconds', 10)
    a = next(s for s in ser if s['seconds'] >= w); b = ser[-1]
    return ser, w, a, b
def main(files):
    print('| run | write memory | B+-dynamic-MEM flush / merge / total | Partitioned-OPT flush / merge / total | ratio |')
    print('|---|---|---|---|---|')
    for f in files:
        d = json.load(open(f)); rows = {r['scheme']: r for r in d['rows']}
        dy, po = rows.get('B+-dynamic-MEM'), rows.get('Partitioned-OPT')
        fmt = lambda r: '%.0f / %.0f / %.0f' % (r['flushBytesPerOp'], r['mergeBytesPerOp'], r['engineBytesPerOp']) if r else '–'
        ratio = '%.2f×' % (po['engineBytesPerOp'] / dy['engineBytesPerOp']) if dy and po else '–'
        print(f"| {os.path.basename(f)} | {d['rows'][0]['writeMemory']>>20} MiB | {fmt(dy)} | {fmt(po)} | {ratio} |")
    print()
    print('| run | scheme | hot tree | memory held (share of used) | M1 average | flushed for memory: policy / seal room | flushed for the log | flush B per write | L0→L1 merges | merge B per write |')
    print('|---|---|---|---|---|---|---|---|---|---|')
    for f in files:
        d = json.load(open(f))
        for row in d['rows']:
            if 'treeSeries' not in row: continue
            ser, w, a, b = measured(row)
            ms = [s for s in ser if s['seconds'] >= w]
            used = sum(s['writeMemoryUsed'] for s in ms) / len(ms)
            names = sorted(a['trees'], key=lambda n: -(b['trees'][n]['entriesWritten'] - a['trees'][n]['entriesWritten']))[:2]
            for n in names:
                x, y = a['trees'][n], b['trees'][n]
                g = lambda k: y.get(k, 0) - x.get(k, 0)
                mem = sum(s['trees'][n]['memoryBytes'] for s in ms) / len(ms)
                m1 = sum(sum(s['trees'][n]['runBytes']) for s in ms) / len(ms)
                room = g('bytesFlushedForSealRoom'); logreq = g('bytesFlushedForLogRequest')
                fm, fl = g('bytesFlushedForMemory'), g('bytesFlushedForLog')
                # log-requested flushes may be labelled memory when the pool was full
                policy = fm + fl - room - logreq if row['scheme'].startswith('Partitioned') else fm
                logb = logreq if row['scheme'].startswith('Partitioned') else fl
                wr = max(1, g('entriesWritten'))
                print(f"| {os.path.basename(f)} | {row['scheme']} | {n.split('.')[0]} | {mem/M:.1f} MiB ({mem/used:.0%} of {used/M:.1f}) | {m1/M:.1f} MiB | {policy/M:.1f} / {room/M:.1f} MiB | {logb/M:.1f} MiB | {(fm+fl)/wr:.0f} | {g('merges')} | {g('mergeBytesWritten')/wr:.0f} |")
if __name__ == '__main__':
    main(sys.argv[1:])
