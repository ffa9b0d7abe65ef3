#!/usr/bin/env python3
"""How many tuner cycles a run needs to get within a band of its final cost (seeded vs unseeded tuner).

Usage: seed-convergence.py [--window W] [--band B] [--json OUT] [--markdown] NAME=RUN.json [NAME=RUN.json ...]

RUN.json is a tpcc.jar result (cycles under "tuner") or an ExtendedYcsb result (cycles of the
measured phase under "run.engine.tuner"). NAME's prefix up to the first '-' is the run's group
(e.g. seeded-1, unseeded-2). For each run, from the engine's per-cycle history (docs/benchmarks-advisor.md,
"The measure"):

  cost_i     the cycle's weighted I/O cost per operation (omega * pages written + gamma * pages read,
             per operation; the tuner's own "cost"), cycles without operations dropped;
  final      the operation-weighted mean cost of the last third of the cycles (rounded up);
  window_i   the operation-weighted mean cost of cycles i-W+1 .. i (defined from cycle W on);
  reach      the first cycle k (1-based) from which every window_j, j >= k, is within B of final
             (|window_j - final| <= B * final); reach_up is the same with only the upper side
             (window_j <= (1 + B) * final), which ignores a run that is cheaper early on because its
             data is smaller;
  x          write memory after each cycle (MiB), compressed as "19, 22 x3, 25";
  x_reach    the first cycle from which x stays within 10% of the run's last x (where the tuner settles);
  ..._ops    the same points as the fraction of the run's operations done by the end of that cycle: timer
             cycles come faster in operations when a run is slower (a loaded machine), so runs of equal
             work compare on operations, not on cycle numbers.

--markdown also prints the table as Markdown rows (docs/benchmarks-advisor.md).
--json OUT writes every series (for bench's SeedPlots, which draws the PNG: no matplotlib here).
"""
import json, sys

MIB = 2 ** 20


def cycles_of(doc):
    if "tuner" in doc and isinstance(doc["tuner"], list):
        return doc["tuner"]
    return doc["run"]["engine"]["tuner"]


def weighted(cs):
    ops = sum(c["ops"] for c in cs)
    return sum(c["cost"] * c["ops"] for c in cs) / ops if ops else float("nan")


def reach(windows, final, band, upper_only):
    """First 1-based cycle number from which every window stays inside the band; None if the last is outside."""
    k = None
    for i, w in reversed(windows):
        ok = w <= (1 + band) * final if upper_only else abs(w - final) <= band * final
        if not ok:
            break
        k = i
    return k


def compress(xs):
    out = []
    for x in xs:
        if out and out[-1][0] == x:
            out[-1][1] += 1
        else:
            out.append([x, 1])
    return ", ".join(f"{x:.0f}" + (f" x{n}" if n > 1 else "") for x, n in out)


def analyse(name, path, window, band):
    doc = json.load(open(path))
    cs = [c for c in cycles_of(doc) if c["ops"] > 0]
    n = len(cs)
    last = cs[n - (n + 2) // 3:]
    final = weighted(last)
    windows = [(i + 1, weighted(cs[i - window + 1:i + 1])) for i in range(window - 1, n)]
    t0 = cs[0]["timeMillis"] if cs else 0
    total_ops = sum(c["ops"] for c in cs)
    done = []
    for c in cs:
        done.append((done[-1] if done else 0) + c["ops"])
    at = lambda k: None if k is None else round(done[k - 1] / total_ops, 2)
    r = {
        "name": name, "group": name.split("-")[0], "file": path, "cycles": n,
        "final": final, "meanCost": weighted(cs),
        "reach": reach(windows, final, band, False), "reachUp": reach(windows, final, band, True),
        "startMiB": cs[0]["writeMemoryBefore"] / MIB if cs else float("nan"),
        "endMiB": cs[-1]["writeMemoryAfter"] / MIB if cs else float("nan"),
        "xReach": reach([(i + 1, c["writeMemoryAfter"]) for i, c in enumerate(cs)], cs[-1]["writeMemoryAfter"], 0.10, False)
        if cs else None,
        "x": compress([c["writeMemoryAfter"] / MIB for c in cs]),
        "series": {
            "cycle": list(range(1, n + 1)),
            "seconds": [(c["timeMillis"] - t0) / 1000 for c in cs],
            "cost": [c["cost"] for c in cs],
            "window": [None] * (window - 1) + [w for _, w in windows],
            "xMiB": [c["writeMemoryAfter"] / MIB for c in cs],
        },
    }
    r["reachOps"], r["reachUpOps"], r["xReachOps"] = at(r["reach"]), at(r["reachUp"]), at(r["xReach"])
    if "tpmC" in doc:
        r["tpmC"], r["costPerTx"], r["seconds"] = doc["tpmC"], doc["ioCostPerTx"], doc["measuredSeconds"]
    else:
        r["opsPerSecond"], r["seconds"] = doc["run"]["opsPerSecond"], doc["run"]["seconds"]
    return r


def main():
    args = sys.argv[1:]
    window, band, out, markdown = 5, 0.05, None, False
    while args and args[0].startswith("--"):
        opt = args.pop(0)
        if opt == "--window":
            window = int(args.pop(0))
        elif opt == "--band":
            band = float(args.pop(0))
        elif opt == "--markdown":
            markdown = True
        elif opt == "--json":
            out = args.pop(0)
        else:
            sys.exit(f"unknown option {opt}; usage: seed-convergence.py [--window W] [--band B] [--json OUT] NAME=RUN.json ...")
    if not args or any("=" not in a for a in args):
        sys.exit("give runs as NAME=RUN.json (NAME's prefix before '-' is its group, e.g. seeded-1=out/seeded-1.json)")
    runs = [analyse(a.split("=", 1)[0], a.split("=", 1)[1], window, band) for a in args]
    print(f"window {window} cycles, band {band:.0%} of the final cost (mean of the last third of the cycles)")
    print(f"{'run':<14} {'cycles':>6} {'reach':>6} {'reach_up':>8} {'final':>8} {'mean':>8} {'speed':>12} {'x_reach':>7}  ops fraction at reach/reach_up/x_reach  x (MiB after each cycle)")
    for r in runs:
        speed = f"{r['tpmC']:,.0f} tpmC" if "tpmC" in r else f"{r['opsPerSecond']:,.0f}/s"
        print(f"{r['name']:<14} {r['cycles']:>6} {str(r['reach']):>6} {str(r['reachUp']):>8} {r['final']:>8.4f} "
              f"{r['meanCost']:>8.4f} {speed:>12} {str(r['xReach']):>7}  {r['reachOps']}/{r['reachUpOps']}/{r['xReachOps']}  {r['x']}")
    groups = {}
    for r in runs:
        groups.setdefault(r["group"], []).append(r)
    for g, rs in groups.items():
        reached = [r["reach"] for r in rs if r["reach"] is not None]
        print(f"{g}: reach {[r['reach'] for r in rs]} (mean {sum(reached) / len(reached) if reached else float('nan'):.1f}), "
              f"reach_up {[r['reachUp'] for r in rs]}, x_reach {[r['xReach'] for r in rs]}, final {[round(r['final'], 4) for r in rs]} "
              f"(mean {sum(r['final'] for r in rs) / len(rs):.4f}), whole-run cost {[round(r['meanCost'], 4) for r in rs]}")
    if markdown:
        print("| run | cycles | reach (ops done) | reach_up (ops done) | x_reach (ops done) | final cost | whole-run cost | speed | x after each cycle (MiB) |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
        for r in runs:
            speed = f"{r['tpmC']:,.0f} tpmC" if "tpmC" in r else f"{r['opsPerSecond']:,.0f} ops/s"
            dash = lambda v, f: "never" if v is None else f"{v} ({f:.0%})"
            print(f"| {r['name']} | {r['cycles']} | {dash(r['reach'], r['reachOps'])} | {dash(r['reachUp'], r['reachUpOps'])} | "
                  f"{dash(r['xReach'], r['xReachOps'])} | "
                  f"{r['final']:.4f} | {r['meanCost']:.4f} | {speed} | {r['x']} |")
    if out:
        with open(out, "w") as f:
            json.dump({"window": window, "band": band, "runs": runs}, f, indent=1)


main()
