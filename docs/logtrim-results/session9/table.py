import json,os,sys
# usage: table.py RUN.json ...   (the load.txt beside the first JSON gives each run's load average)
print("| run (order) | variant | ops/s | log / packer / flush / merge B/op | merge read B/op | /proc write / read B/op | flushed by memory / by log (MiB) | trim passes | writers stalled | CPU: process cores, machine idle / iowait | GC | peak `log/` | load start→end |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
loads={}
for line in open(os.path.join(os.path.dirname(os.path.abspath(sys.argv[1])), 'load.txt')):
    f=line.split()
    if len(f)>=6 and f[1] in('start','end'): loads.setdefault(f[0],{})[f[1]]=f[4]
for f in sys.argv[1:]:
    d=json.load(open(f)); p=d['phase']; t=p['trees']; b=p['bytes-per-op']; m=p['machine-cpu-share']
    n=f.split('/')[-1][:-5]
    stall=t['write-stall-nanos']/1e9/(d['threads']*d['seconds'])
    l=loads.get(n,{})
    print(f"| {n} | {d['variant']}{' (fix)' if 'fix' in n else ''} | {d['opsPerSecond']:,.0f} | {b['log']:.0f} / {b['packer']:.0f} / {b['flush']:.0f} / {b['merge']:.0f} | {b['merge-read']:.0f} | {b['proc-write-bytes']:.0f} / {b['proc-read-bytes']:.0f} | {t['bytes-flushed-for-memory']/2**20:,.0f} / {t['bytes-flushed-for-log']/2**20:,.0f} | {d['packer-run']['passes']} | {stall:.0%} | {p['process-cpu-cores']:.2f}, {m['idle']:.0%} / {m['iowait']:.0%} | {p['gc-share']:.1%} | {d['peak-log-bytes']/2**20:.0f} MiB | {l.get('start','?')}→{l.get('end','?')} |")
