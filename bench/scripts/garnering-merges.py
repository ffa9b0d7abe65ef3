#!/usr/bin/env python3
"""Merges per kind from the DEBUG merge logs of bench/scripts/garnering-run.sh (log4j2-merges.xml: one line per
merge the scheduler starts, with its input bytes, output level, the bytes in L0 at the time and the picker's reason;
one line per level change).

Kinds: "L0 -> L<k>" (the reason starts "L0 group" or "all of L0"), "L<i> -> L<i+1>" (level merges),
"trivial/coalesce" (anything else). Per kind: merges, input MB (about the bytes the merge writes: every key
distinct) and, for L0 merges, the mean MB of L0 at the time. Also the number of level changes.

Usage: garnering-merges.py RUN.log [RUN.log ...]   (one table row per log)
"""
import os, re, sys


def kind(reason, out):
    if reason.startswith('L0 group') or reason.startswith('all of L0'):
        return f'L0 -> L{out}'
    m = re.match(r'L(\d+) table', reason)
    if m:
        # One table with nothing below it: the executor moves it by a version edit (TrivialMove), writing nothing.
        move = ' (moves)' if re.search(r'overlap ratio 0\.00', reason) else ''
        return f'L{m.group(1)} -> L{out}{move}'
    return 'other'


def summarize(path):
    stats, changes, total = {}, 0, 0
    for line in open(path, errors='replace'):
        m = re.search(r'merge of (\d+) B into L(\d+) \((\d+) B in L0\): (.*)', line)
        if m:
            k = kind(m.group(4), m.group(2))
            s = stats.setdefault(k, [0, 0, 0])
            s[0] += 1
            s[1] += int(m.group(1))
            s[2] += int(m.group(3))
            total += int(m.group(1))
        elif 'level change' in line.lower() or 'append an empty' in line or 'add an empty' in line or 'remove L1' in line:
            changes += 1
    parts = []
    for k in sorted(stats):
        n, b, l0 = stats[k]
        extra = f', {l0 / n / 2**20:.1f} MB L0 each' if k.startswith('L0') else ''
        parts.append(f'{k}: {n} merges, {b / 2**20:,.0f} MB{extra}')
    print(f'| {os.path.basename(path)[:-4]} | {total / 2**20:,.0f} | ' + '; '.join(parts) + f' | {changes} |')


print('| run | merge input MB (moves included) | per kind | level changes |')
print('|---|---|---|---|')
for p in sys.argv[1:]:
    summarize(p)
