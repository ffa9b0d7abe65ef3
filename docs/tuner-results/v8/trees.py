import json,sys
fs=sys.argv[1:]
ds=[json.load(open(f)) for f in fs]
print('per tree: merges, merge MB written (into L1 / L2), flushed MB (memory/log)')
for t in ['customer.primary','order_line.primary','stock.primary','history.primary']:
  row=[]
  for d in ds:
    x=d['trees'][t]; b=x['mergeBytesWrittenByLevel']+[0,0,0]
    row.append('%4d %5d (%4d/%4d) %3d/%3d'%(x['merges'],x['mergeBytesWritten']/1e6,b[1]/1e6,b[2]/1e6,x['bytesFlushedForMemory']/1e6,x['bytesFlushedForLog']/1e6))
  print('%-19s'%t,' | '.join(row))
print('columns:',' | '.join(f.split('/')[-1] for f in fs))
