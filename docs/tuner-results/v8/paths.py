import re,sys,collections
pat=re.compile(r'DEBUG MergeExecutor - tree (\S+): merged (\d+) B into L(\d+) \((\d+) B written; share (\d+) B; levels \[([\d ]+)\]\): (.*)$')
for f in sys.argv[1:]:
  st=collections.defaultdict(lambda:[0,0,0])  # count, L0 bytes taken, bytes written
  for l in open(f,errors='replace').read().replace('\r','\n').split('\n'):
    m=pat.search(l)
    if not m: continue
    tree,inb,lvl,out,share,levels,reason=m.groups()
    if tree not in ('stock.primary','order_line.primary'): continue
    inb=int(inb); out=int(out)
    if reason.startswith('merge ') and 'key-consecutive' in reason:
      kind='Coalescing oldest-group merge'; l0=int(re.search(r'oldest L0 group \((\d+) B\)',reason).group(1))
    elif reason.startswith('L0 group'):
      kind='picker fromL0'; r=float(re.search(r'overlap ratio ([\d.]+)',reason).group(1)); l0=inb/(1+r)
    elif reason.startswith('all of L0'):
      kind='picker allOfL0'; r=float(re.search(r'overlap ratio ([\d.]+)',reason).group(1)); l0=inb/(1+r)
    elif reason.startswith('coalesce'):
      kind='Coalescing coalesce'; l0=inb
    elif reason.startswith('L1 table'):
      kind='L1 -> L2'; l0=0
    else:
      kind='other: '+reason[:30]; l0=0
    s=st[(tree,kind)]; s[0]+=1; s[1]+=l0; s[2]+=out
  print(f)
  for (tree,kind),(n,l0,out) in sorted(st.items()):
    print('  %-19s %-30s n=%3d  L0 taken %6.0f MB (%.1f MB each)  written %6.0f MB  written/L0 %s'%(tree,kind,n,l0/1e6,l0/1e6/n,out/1e6,('%.1f'%(out/l0)) if l0 else '-'))
