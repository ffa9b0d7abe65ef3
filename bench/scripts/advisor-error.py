#!/usr/bin/env python3
"""Model vs engine over every measured design (docs/benchmarks-advisor.md, 2026-11-27).

Reads AdvisorBench's advisor-designs.json files (measured and predicted Z0, Z1, Q, U per design) and
prints, over all (design, expected workload) pairs of the slides' 15 expected workloads, the
quantiles of the relative error (predicted - measured) / measured of the mix cost, the per-kind
ratio predicted / measured, and how many pairs of designs the model orders as the engine does.

usage: advisor-error.py designs.json [more.json ...]   (a design in several files: the first wins)
"""
import itertools
import json
import sys

W = [(25, 25, 25, 25), (97, 1, 1, 1), (1, 97, 1, 1), (1, 1, 97, 1), (1, 1, 1, 97), (49, 49, 1, 1), (49, 1, 49, 1),
     (49, 1, 1, 49), (1, 49, 49, 1), (1, 49, 1, 49), (1, 1, 49, 49), (33, 33, 33, 1), (33, 33, 1, 33), (33, 1, 33, 33),
     (1, 33, 33, 33)]
W = [tuple(x / sum(w) for x in w) for w in W]


def quantiles(xs):
    a = sorted(xs)
    return {f"p{int(p * 100)}": a[min(len(a) - 1, int(p * (len(a) - 1) + 0.5))] for p in (0, .1, .25, .5, .75, .9, 1)}


def cost(w, c):
    return sum(a * b for a, b in zip(w, c))


def main(files):
    designs = {}
    for f in files:
        for d in json.load(open(f)):
            key = (d["sizeRatio"], d["runsPerLevel"], d["bloomBitsPerKey"], d["writeMemoryBytes"])
            designs.setdefault(key, d)
    ds = list(designs.values())
    errors = [(cost(w, d["predicted"]) - cost(w, d["measured"])) / cost(w, d["measured"]) for d in ds for w in W]
    agree = pairs = 0
    for w in W:
        for a, b in itertools.combinations(ds, 2):
            pairs += 1
            m = cost(w, a["measured"]) - cost(w, b["measured"])
            p = cost(w, a["predicted"]) - cost(w, b["predicted"])
            agree += (m > 0) == (p > 0)
    out = {"designs": len(ds), "pairs": len(errors), "relativeError": quantiles(errors),
           "absRelativeError": quantiles([abs(e) for e in errors]), "orderAgreement": [agree, pairs, agree / pairs]}
    for i, k in enumerate(("z0", "z1", "q", "u")):
        out["ratio_" + k] = quantiles([d["predicted"][i] / d["measured"][i] for d in ds if d["measured"][i] > 0])
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
