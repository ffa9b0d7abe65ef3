#!/usr/bin/env python3
"""Summarizes Breakwater's merges per phase from a hold log of bench/scripts/issue13-side-by-side.sh run with
JAVA_EXTRA=-Dlog4j2.configurationFile=bench/scripts/log4j2-merges.xml (one DEBUG line per merge the scheduler starts:
its input bytes, output level, the bytes in L0 at the time, and the picker's reason).

Kinds: "L0 picker" (LevelingPicker's L0 merge by groups: the reason starts "L0 group"), "L0 volume" ("all of L0"),
"L0 oldest-group" (Coalescing's merge of a stretch of the oldest group with its L1 tables), "L0 coalesce" (into a gap
of L1), "L0 intra" (L0IntraMerge: all L0 groups into one, output in L0), "L<i> -> L<i+1>" (level merges). Per kind: merges, input MB (about the bytes the merge writes), MB taken from L0
(for the L0 picker: the L0 bytes at the time, all of which an L0 merge under random keys takes).

Usage: issue13-merges.py HOLD.log
"""
import re, sys


def kind(reason, out):
    if reason.startswith('L0 group'):
        return 'L0 picker'
    if reason.startswith('all of L0'):
        return 'L0 volume'
    if reason.startswith('merge ') and 'oldest L0 group' in reason:
        return 'L0 oldest-group'
    if reason.startswith('coalesce'):
        return 'L0 coalesce'
    if reason.startswith('L0 intra-merge'):
        return 'L0 intra'
    return f'L{int(out) - 1} -> L{out}'


def main():
    stats = {}
    for line in open(sys.argv[1]):
        m = re.match(r'(\w+) (\w+) rep \d+: ', line)
        if m and m.group(1) in ('breakwater',):
            report(m.group(2), stats)
            stats = {}
            continue
        m = re.search(r'merge of (\d+) B into L(\d+) \((\d+) B in L0\): (.*)', line)
        if m:
            k = kind(m.group(4), m.group(2))
            s = stats.setdefault(k, [0, 0, 0])
            s[0] += 1
            s[1] += int(m.group(1))
            s[2] += int(m.group(3)) if k == 'L0 picker' else 0


def report(phase, stats):
    parts = []
    for k in sorted(stats):
        n, b, l0 = stats[k]
        extra = f', {l0 / n / 2**20:.0f} MB of L0 each' if l0 else ''
        parts.append(f'{k}: {n} merges, {b / 2**20:,.0f} MB in{extra}')
    print(f'| {phase} | ' + '; '.join(parts) + ' |')


main()
