#!/usr/bin/env python3
"""Merges the Figure 10 result files of the second run into fig10.json for --replot.

Part a: fig10-16m.json, fig10-64m.json, fig10-256m.json (one run per write memory, each with its own
max log size). Part b: fig10-skew.json (50/50, 70/30, 90/10 at 16 MiB) plus a copy of the 16 MiB
80/20 part-a rows, marked part b and reusedFromPartA (as the driver does when part a and b share a
configuration).
"""
import json
import os

here = os.path.dirname(os.path.abspath(__file__))
rows = []
for name in ("fig10-16m.json", "fig10-64m.json", "fig10-256m.json"):
    rows += json.load(open(os.path.join(here, name)))["rows"]
merged = list(rows)
skew = os.path.join(here, "fig10-skew.json")
if os.path.exists(skew):
    merged += json.load(open(skew))["rows"]
    for r in rows:
        if r["writeMemory"] == 16 << 20 and r["hotspot"] == "80/20":
            c = dict(r, part="b", reusedFromPartA=True)
            merged.append(c)
out = {"figure": "paper 000 Figure 10 (scaled), merged by merge-fig10.py", "rows": merged}
with open(os.path.join(here, "fig10.json"), "w") as f:
    json.dump(out, f, indent=2)
print("wrote", os.path.join(here, "fig10.json"), len(merged), "rows")
