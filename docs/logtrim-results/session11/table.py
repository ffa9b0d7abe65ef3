import json,os,sys
# usage: table.py RUN.json ...   (the load.txt beside the first JSON gives each run's load average)
# Columns: jar ("old" = main at f49305b, every changed segment rewritten; "new" = pack16, log-trim-min-dead 0.5;
# "new2 θ=…" = the same engine with --trim-min-dead θ).
print("| run (order) | jar, variant | workload | ops/s | log / packer / flush / merge B/op | packer B / log B | flushed by memory / by log (MiB) | mean in write memory / log on disk (MiB) | peak log/ (MiB) | passes; segments rewritten / kept whole / forced | packer read B/op | CPU cores | load start→end |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
loads={}
for line in open(os.path.join(os.path.dirname(os.path.abspath(sys.argv[1])), 'load.txt')):
    f=line.split()
    if len(f)>=6 and f[1] in('start','end'): loads.setdefault(f[0],{})[f[1]]=f[4]
M=2**20
for f in sys.argv[1:]:
    d=json.load(open(f)); p=d['phase']; t=p['trees']; b=p['bytes-per-op']
    n=f.split('/')[-1][:-5]
    tag=n.split('-')[1]
    jar=tag if tag in ('old','new') else ('new2 θ=0.' + tag[1:] if tag.startswith('t') else 'old')
    l=loads.get(n,{})
    pk=d['packer-run']
    ratio=b['packer']/b['log'] if b['log'] else 0
    kept=pk.get('segmentsKeptWhole','–'); forced=pk.get('segmentsForced','–')
    print(f"| {n} | {jar}, {d['variant']} | {d['workload']} | {d['opsPerSecond']:,.0f} "
          f"| {b['log']:.0f} / {b['packer']:.0f} / {b['flush']:.0f} / {b['merge']:.0f} | {ratio:.2f} "
          f"| {t['bytes-flushed-for-memory']/M:,.0f} / {t['bytes-flushed-for-log']/M:,.0f} "
          f"| {d['mean-write-memory-used']/M:.0f} / {d['mean-log-disk-bytes']/M:.0f} | {d['peak-log-bytes']/M:.0f} "
          f"| {pk['passes']}; {pk['trimmedSegments']} / {kept} / {forced} | {pk['bytesRead']/d['ops']:.0f} "
          f"| {p['process-cpu-cores']:.2f} | {l.get('start','?')}→{l.get('end','?')} |")
