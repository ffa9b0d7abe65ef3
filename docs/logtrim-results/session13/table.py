import json,os,sys
# usage: table.py RUN.json ...   (load.txt beside the first JSON gives each run's load average)
M=2**20
print("| run (order) | jar, variant | write mem (MiB) | ops/s | log / packer / flush / merge B/op | merge read B/op | flushed by memory / by log (MiB) | mean in write memory / log span / log on disk (MiB) | peak log/ (MiB) | passes; segs rewritten / kept whole / forced; ops dropped | dead share judged | writers stalled | CPU cores, machine idle | load start→end |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
loads={}; jars={}
for line in open(os.path.join(os.path.dirname(os.path.abspath(sys.argv[1])), 'load.txt')):
    f=line.split()
    if len(f)>=6 and f[1] in('start','end'): loads.setdefault(f[0],{})[f[1]]=f[4]
    if len(f)>=9 and f[1]=='start': jars[f[0]]=f[8]
for f in sys.argv[1:]:
    d=json.load(open(f)); p=d['phase']; t=p['trees']; b=p['bytes-per-op']
    n=os.path.basename(f)[:-5]
    l=loads.get(n,{})
    pk=d['packer-run']
    kept=pk.get('segmentsKeptWhole','–'); forced=pk.get('segmentsForced','–')
    stall=t['write-stall-nanos']/1e9/(d['threads']*d['seconds'])
    jar={'trim13-main-bench.jar':'A','trim13-diag-bench.jar':'D','trim13-value-bench.jar':'E','trim13-cfirst-bench.jar':'F'}.get(jars.get(n,'?').split('/')[-1],'?')
    dj=f"{pk['deadBytesJudged']/pk['bytesJudged']:.1%}" if pk.get('bytesJudged') else '–'
    print(f"| {n} | {jar}, {d['variant']} | {d['write-memory-mb']} | {d['opsPerSecond']:,.0f} "
          f"| {b['log']:.0f} / {b['packer']:.0f} / {b['flush']:.0f} / {b['merge']:.0f} | {b['merge-read']:.0f} "
          f"| {t['bytes-flushed-for-memory']/M:,.0f} / {t['bytes-flushed-for-log']/M:,.0f} "
          f"| {d['mean-write-memory-used']/M:.0f} / {d['mean-log-span-bytes']/M:.0f} / {d['mean-log-disk-bytes']/M:.0f} | {d['peak-log-bytes']/M:.0f} "
          f"| {pk['passes']}; {pk['trimmedSegments']} / {kept} / {forced}; {pk['recordsDropped']:,} | {dj} "
          f"| {stall:.0%} | {p['process-cpu-cores']:.2f}, {p['machine-cpu-share']['idle']:.0%} | {l.get('start','?')}→{l.get('end','?')} |")
