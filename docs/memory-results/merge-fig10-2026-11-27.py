#!/usr/bin/env python3
"""Merges the 2026-11-27 Figure 10 part-a result files into fig10-2026-11-27.json for --replot.

Each write memory ran in two lock holds (the six dynamic and partitioned schemes, then the two static
ones): fig10-2026-11-27-<wm>-dyn.json and fig10-2026-11-27-<wm>-static.json for wm in 16m, 64m, 256m.
The second repetitions (-pair-rep2) and the diagnostics (-diag-*) are not merged: they are not part of
the figure.
"""
import json
import os

here = os.path.dirname(os.path.abspath(__file__))
order = ["B+-static", "B+-static-tuned", "B+-dynamic-MEM", "B+-dynamic-LSN", "B+-dynamic-OPT",
         "Partitioned-MEM", "Partitioned-LSN", "Partitioned-OPT"]
rows = []
for wm in ("16m", "64m", "256m"):
    for part in ("dyn", "static"):
        rows += json.load(open(os.path.join(here, "fig10-2026-11-27-%s-%s.json" % (wm, part))))["rows"]
rows.sort(key=lambda r: (r["writeMemory"], order.index(r["scheme"])))
out = {"figure": "paper 000 Figure 10 (scaled), 2026-11-27, merged by merge-fig10-2026-11-27.py", "rows": rows}
with open(os.path.join(here, "fig10-2026-11-27.json"), "w") as f:
    json.dump(out, f, indent=2)
print("wrote", os.path.join(here, "fig10-2026-11-27.json"), len(rows), "rows")
