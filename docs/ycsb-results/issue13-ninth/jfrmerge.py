import re,collections,sys,subprocess
txt=subprocess.run(['jfr','print','--events','jdk.NativeMethodSample,jdk.ExecutionSample','--stack-depth','6',sys.argv[1]],capture_output=True,text=True).stdout
total=0; pread=0; kinds=collections.Counter()
for e in txt.split('jdk.')[1:]:
    m=re.search(r'sampledThread = "([^"]+)"',e)
    if not m or 'breakwater-merge' not in m.group(1): continue
    total+=1
    kinds[e.split(' ',1)[0]]+=1
    if 'pread0' in e: pread+=1
print(f"{sys.argv[1]}: merge-thread samples {total} ({dict(kinds)}), in pread {pread} ({100*pread/max(1,total):.0f}%)")
