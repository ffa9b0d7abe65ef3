import re,sys,collections
# tree X: merged IN B into Lk (OUT B written; share S B; levels [..]): reason
pat=re.compile(r'(\d\d):(\d\d):(\d\d) DEBUG MergeExecutor - tree (\S+): merged (\d+) B into L(\d+) \((\d+) B written; share (\d+) B; levels \[([\d ]+)\]\): (.*)$')
trees=sys.argv[2].split(',') if len(sys.argv)>2 else ['stock.primary','order_line.primary']
lines=open(sys.argv[1],errors='replace').read().replace('\r','\n').split('\n')
t0=None; win=collections.defaultdict(lambda: collections.Counter())
for l in lines:
  m=pat.search(l)
  if not m: continue
  h,mi,s,tree,inb,lvl,out,share,levels,reason=m.groups()
  t=int(h)*3600+int(mi)*60+int(s)
  if t0 is None: t0=t
  if tree not in trees: continue
  w=(t-t0)//30*30
  k=(tree,w)
  win[k]['n%s'%lvl]+=1; win[k]['MB%s'%lvl]+=int(out)/1e6; win[k]['share']=int(share)/1e6; win[k]['levels']=levels
  why=reason.split(':')[0][:40]
  win[k]['why:'+why]+=1
for tree in trees:
  print(tree)
  for (tr,w),c in sorted(win.items()):
    if tr!=tree: continue
    whys=' '.join('%s=%d'%(k[4:],v) for k,v in c.items() if k.startswith('why:'))
    print('  %4ds n1=%2d %5.0fMB n2=%2d %5.0fMB share %.1fMB levels %s | %s'%(w,c['n1'],c['MB1'],c['n2'],c['MB2'],c['share'],' '.join('%.1f'%(int(x)/1e6) for x in c['levels'].split()),whys))
