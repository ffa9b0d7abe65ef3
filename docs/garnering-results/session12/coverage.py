#!/usr/bin/env python3
"""Per run: L0 groups, and the share of the range reads' start keys inside each disk level's tables
(GarneringDriver's runCoverage), with the sums. Usage: coverage.py RUN.json [RUN.json ...]"""
import json, sys

print('| run | L0 groups | coverage L1, L2, ... | disk levels covered (sum) | all runs covered |')
print('|---|---|---|---|---|')
for p in sys.argv[1:]:
    r = json.load(open(p))
    cs = r['runCoverage']
    disk = [c for c in cs if c['level'] > 0]
    l0 = sum(c['coverage'] for c in cs if c['level'] == 0)
    print(f"| {r['label']} | {r['l0Groups']} | " + ', '.join(f"{c['coverage']:.2f}" for c in disk)
          + f" | {sum(c['coverage'] for c in disk):.2f} | {l0 + sum(c['coverage'] for c in disk):.2f} |")
