import json,os,sys
# usage: table.py RUN.json ...   (the load.txt beside the first JSON gives each run's load average)
print("| run (order) | variant | keys, workload | write mem / max log (MiB) | ops/s | log / packer / flush / merge B/op | merge read B/op | flushed by memory / by log (MiB) | mean in write memory / log span / log on disk (MiB) | trim passes, ops dropped | writers stalled | CPU: process cores, machine idle | load start→end |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
loads={}
for line in open(os.path.join(os.path.dirname(os.path.abspath(sys.argv[1])), 'load.txt')):
    f=line.split()
    if len(f)>=6 and f[1] in('start','end'): loads.setdefault(f[0],{})[f[1]]=f[4]
M=2**20
for f in sys.argv[1:]:
    d=json.load(open(f)); p=d['phase']; t=p['trees']; b=p['bytes-per-op']; m=p['machine-cpu-share']
    n=f.split('/')[-1][:-5]
    stall=t['write-stall-nanos']/1e9/(d['threads']*d['seconds'])
    l=loads.get(n,{})
    pk=d['packer-run']
    print(f"| {n} | {d['variant']} | {d['distribution']}, {d['workload']} | {d['write-memory-mb']} / {d['max-log-mb']} | {d['opsPerSecond']:,.0f} "
          f"| {b['log']:.0f} / {b['packer']:.0f} / {b['flush']:.0f} / {b['merge']:.0f} | {b['merge-read']:.0f} "
          f"| {t['bytes-flushed-for-memory']/M:,.0f} / {t['bytes-flushed-for-log']/M:,.0f} "
          f"| {d['mean-write-memory-used']/M:.0f} / {d['mean-log-span-bytes']/M:.0f} / {d['mean-log-disk-bytes']/M:.0f} "
          f"| {pk['passes']}, {pk['recordsDropped']:,} | {stall:.0%} | {p['process-cpu-cores']:.2f}, {m['idle']:.0%} | {l.get('start','?')}→{l.get('end','?')} |")
