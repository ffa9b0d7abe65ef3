#!/usr/bin/env python3
"""Session 12: the cold trees' L0 cycles from the per-second tree series (warm-up included, every cold tree).
A merge that writes >= 12 MiB is taken as an L0 -> L1 merge (L1 holds the tree's 18 MB), a smaller one as an
intra-L0 merge (samples with both kinds are split that way too). Per scheme: L0 -> L1 merges, mean L0 bytes
just before them (the batch), intra-L0 merges and their bytes per L0 -> L1 merge, and merge bytes per byte flushed
over whole cycles: less sensitive to where in its cycle a tree was when the run stopped than the totals."""
import json, sys, os
M = 1 << 20
def main(files):
    print('| run | scheme | cold L0→L1 merges | mean L0 before one (MiB) | intra-L0 merges | intra MiB per L0→L1 merge | merge B per flushed B over the cycles |')
    print('|---|---|---|---|---|---|---|')
    for f in files:
        d = json.load(open(f))
        for r in d['rows']:
            ser = r['treeSeries']; last = ser[-1]['trees']
            cold = [n for n in last if last[n]['writeShare'] < 0.1]
            l1 = intra = 0; batch = 0.0; intra_b = 0.0; l1_b = 0.0; flushed = 0.0
            cyc_merge = 0.0
            for n in cold:
                marks = []  # sample indexes that hold an L0 -> L1 merge
                for k, (a, b) in enumerate(zip(ser, ser[1:])):
                    x, y = a['trees'][n], b['trees'][n]
                    dm = y['merges'] - x['merges']; db = y['mergeBytesWritten'] - x['mergeBytesWritten']
                    if dm <= 0:
                        continue
                    big = min(dm, int(db // (12 * M)))
                    if big > 0:
                        l1 += big; batch += x['levelBytes'][0] / big; marks.append(k + 1)
                    if dm - big > 0:
                        intra += dm - big
                        if big == 0:
                            intra_b += db
                if len(marks) >= 2:  # whole cycles: from just after one L0 -> L1 merge to the end of a later one
                    fx, fy = ser[marks[0]]['trees'][n], ser[marks[-1]]['trees'][n]
                    cyc_merge += fy['mergeBytesWritten'] - fx['mergeBytesWritten']
                    flushed += (fy['bytesFlushedForMemory'] + fy['bytesFlushedForLog']) - (fx['bytesFlushedForMemory'] + fx['bytesFlushedForLog'])
            print(f"| {os.path.basename(f)[:-5]} | {r['scheme']} | {l1} | {batch/max(1,l1)/M:.1f} | {intra} | {intra_b/max(1,l1)/M:.1f} | "
                  f"{cyc_merge/max(1,flushed):.2f} |")
if __name__ == '__main__':
    main(sys.argv[1:])
