# Summarises a JFR file: execution samples (running Java code) and native-method samples (threads in
# native code, e.g. blocked in pread/pwrite/fsync) by thread group and by top frame.
import subprocess,sys,re,collections
f=sys.argv[1]
def samples(ev):
    out=subprocess.run(['jfr','print','--events',ev,f],capture_output=True,text=True).stdout
    for block in out.split('\n}\n'):
        m=re.search(r'sampledThread = "([^"]*)"',block)
        if not m: continue
        th=re.sub(r'[-#]?\d+$','',m.group(1))
        frames=re.findall(r'^\s+([\w.$<>]+\.[\w$<>]+)\(',block,re.M)
        yield th,frames
for ev in ['jdk.ExecutionSample','jdk.NativeMethodSample']:
    by_thread=collections.Counter(); by_top=collections.Counter(); n=0
    for th,fr in samples(ev):
        n+=1; by_thread[th]+=1
        # first frame in breakwater code, plus the top frame
        bw=next((x for x in fr if 'breakwater' in x),'-')
        by_top[(th, fr[0] if fr else '-', bw)]+=1
    print(f'== {ev}: {n} samples')
    for k,v in by_thread.most_common(12): print(f'  {v:6d} {v/max(1,n):5.1%}  {k}')
    print('  -- top (thread, top frame, first breakwater frame)')
    for k,v in by_top.most_common(25): print(f'  {v:6d} {v/max(1,n):5.1%}  {k[0]} | {k[1]} | {k[2]}')
