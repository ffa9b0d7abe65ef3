import sys, subprocess, re, collections
# Aggregates jdk.ExecutionSample stacks of the main thread: share of samples whose stack contains each marker, and top self frames.
f = sys.argv[1]
out = subprocess.run(['jfr', 'print', '--events', 'jdk.ExecutionSample', '--stack-depth', '96', f], capture_output=True, text=True).stdout
events = out.split('jdk.ExecutionSample')
markers = collections.OrderedDict([
 ('seal (Flusher.sealIntoMemory)', 'Flusher.sealIntoMemory'),
 ('memory merge (MemoryMerger.mergeOnce)', 'MemoryMerger.mergeOnce'),
 ('memory SSTable build (MemorySSTableBuilder)', 'MemorySSTableBuilder'),
 ('RecordMerger', 'RecordMerger'),
 ('skip-list put (M0 insert)', 'SkipListMemoryComponent.put'),
 ('LsmTree.put', 'LsmTree.put'),
 ('LsmTree.get', 'LsmTree.get'),
 ('memory SSTable get', 'MemorySSTable.get'),
])
counts = collections.Counter(); self_frames = collections.Counter(); n = 0
for e in events[1:]:
    if 'main' not in e.split('stackTrace')[0]:
        continue
    frames = re.findall(r'^\s+([\w.$<>]+)\(', e, re.M)
    if not frames:
        continue
    n += 1
    self_frames[frames[0]] += 1
    for k, m in markers.items():
        if any(m in fr for fr in frames):
            counts[k] += 1
print(f'{n} main-thread samples in {f}')
for k in markers:
    print(f'  {100.0*counts[k]/max(1,n):5.1f}%  {k}')
print('  top self frames:')
for fr, c in self_frames.most_common(12):
    print(f'  {100.0*c/max(1,n):5.1f}%  {fr}')
