import json, sys, statistics as st
# usage: summ.py name... (results/<name>.json): per workload, Partitioned and B+-dynamic medians, ratio, CPU/op, rewrite
def reps(rows):
    return ', '.join('%.0fk' % (r['opsPerSecond'] / 1000) for r in rows)
for name in sys.argv[1:]:
    d = json.load(open('/tmp/fig8s9/results/%s.json' % name))
    for wl in ['WRITE_ONLY', 'WRITE_HEAVY', 'READ_HEAVY']:
        P = [r for r in d['rows'] if r['workload'] == wl and r['scheme'].startswith('Partitioned')]
        D = [r for r in d['rows'] if r['workload'] == wl and not r['scheme'].startswith('Partitioned')]
        if not P or not D: continue
        pm = st.median(r['opsPerSecond'] for r in P); dm = st.median(r['opsPerSecond'] for r in D)
        pc = st.median(r['cpuNanosPerOp'] for r in P); dc = st.median(r['cpuNanosPerOp'] for r in D)
        rw = st.median(r['memoryRewritePerIngestedByte'] for r in P)
        print('| %s | %s | %s (%s) | %s (%s) | **%.2f** | %.1f µs / %.1f µs | %.1f | %.0f / %.0f MiB |' % (
            wl, name, format(round(pm), ','), reps(P), format(round(dm), ','), reps(D), pm / dm, pc / 1000, dc / 1000, rw,
            P[0]['writeMemoryUsedBytes'] / 2**20, D[0]['writeMemoryUsedBytes'] / 2**20))
