# Prints one row per TPC-C result JSON given as arguments (default: the fifteenth session's s15-*.json):
# cost and pages per transaction, tpmC, CPU microseconds per transaction by thread group, write memory over the run.
import json,sys,glob,os
fs=sys.argv[1:] or sorted(glob.glob('/tmp/levels/out13/s15-*.json'),key=os.path.getmtime)
print('%-22s %7s %7s %6s %6s %6s | %5s %5s %5s %5s %5s %4s | %s'%('run','cost','tpmC','r/tx','w/tx','KBw','proc','term','merge','flush','logf','gc','x MiB'))
for f in fs:
    d=json.load(open(f)); c=d.get('cpuMicrosPerTx') or {}
    xs=[t.get('writeMemoryAfter',0)/2**20 for t in d.get('tuner',[])]
    xs=' '.join('%g'%round(x) for i,x in enumerate(xs) if i==0 or round(x)!=round(xs[i-1]))
    print('%-22s %7.3f %7.0f %6.3f %6.3f %6.2f | %5.0f %5.0f %5.1f %5.1f %5.1f %4.1f | %s'%(os.path.basename(f)[:-5],d['ioCostPerTx'],d['tpmC'],d['pagesReadPerTx'],d['pagesWrittenPerTx'],d['kbWrittenPerTx'],
      c.get('process',0),c.get('terminals',0),c.get('merge',0),c.get('flush',0),c.get('logFlusher',0),c.get('gc',0),xs))
