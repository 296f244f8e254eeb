#!/usr/bin/env python3
"""usage: perf/cephalopod_handover_sweep.py [--runs N] [--evaluate-only] BINARY OUTDIR FILE...

Retunes `hybrid::RULE` on wall time. BINARY is podium built with
perf/cephalopod_handover_at.patch (`CEPH12_AT=D` hands over before layer D, 999 never).
1. Profiles each FILE's layer widths (`--stats`, never handed over) into OUTDIR/profiles.json.
2. For each game of at least 20 k layer states, times (perf/cephalopod_wall.py, CPU time per
   process, alternating) `--engine layers`, `--engine pips`, auto never handing over, and auto
   handed over at each depth where 15 k states expanded are passed and 60 % of the game is not
   (every other depth if more than 10): OUTDIR/sweep/NAME.jsonl, kept if present (resumable).
3. Reads each rule's cost off those times (the depth it would hand over at, interpolated
   between measured depths) and prints auto / min(layers, pips) (median, p90, worst) for a grid
   of (from_states, until_states, min_work_left) of the rule's form in src/cephalopod/hybrid.rs.
"""
import glob
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def profile(binary, path):
    env = dict(os.environ, CEPH12_AT="999")
    done = subprocess.run([binary, "cephalopod", path, "--stats"], env=env,
                          capture_output=True, text=True, check=True)
    widths, table = [], False
    for line in done.stderr.splitlines():
        if line.startswith("depth"):
            table = True
        elif table:
            fields = line.split()
            if not fields or not fields[0].isdigit():
                break
            widths.append(int(fields[1]))
    depth = int(open(path).read().split()[0])
    return {"depth": depth, "widths": widths}


def candidate_depths(widths, depth):
    total, expanded, found = sum(widths), 0, []
    for d, width in enumerate(widths):
        if 15_000 <= expanded + width <= 0.6 * total and d + 1 < depth:
            found.append(d)
        expanded += width
    return found[::2] if len(found) > 10 else found


def projected_work_left(widths4, remaining):
    """As `hybrid::projected_work_left`."""
    if widths4[0] == 0:
        return None
    growth = [widths4[i + 1] / widths4[i] for i in range(3)]
    fall = max((growth[0] - growth[2]) / 2, 0.005)
    width = work = float(widths4[3])
    for k in range(1, remaining):
        width *= max(growth[2] - fall * k, 0.3)
        work += width
    return work


def decide(widths, depth, from_states, until_states, min_work_left):
    """The depth `hybrid::Rule::stops` hands over at, or None."""
    expanded = 0
    for d, width in enumerate(widths):
        if d + 1 >= depth:
            return None
        if expanded + width > until_states:
            return None
        if expanded + width > from_states and d >= 3:
            work = projected_work_left(widths[d - 3:d + 1], depth - d)
            if work is not None and work >= min_work_left:
                return d
        expanded += width
    return None


def cost(times, d):
    if d is None:
        return times["noho"]
    at = {int(k[2:]): v for k, v in times.items() if k.startswith("at")}
    if d in at or not at:
        return at.get(d, times["noho"])
    lower = [k for k in at if k < d]
    upper = [k for k in at if k > d]
    if lower and upper:
        a, b = max(lower), min(upper)
        return at[a] + (at[b] - at[a]) * (d - a) / (b - a)
    return at[max(lower)] if lower else at[min(upper)]


def evaluate(profiles, times, rule):
    ratios = []
    for path, t in times.items():
        p = profiles[path]
        d = decide(p["widths"], p["depth"], *rule)
        ratios.append((cost(t, d) / min(t["layers"], t["pips"]), os.path.basename(path)))
    ratios.sort()
    values = [r for r, _ in ratios]
    p90 = values[int(0.9 * (len(values) - 1) + 0.5)]
    return statistics.median(values), p90, values[-1], ratios[-1][1]


def main():
    argv = sys.argv[1:]
    runs, evaluate_only = 7, False
    while argv and argv[0].startswith("--"):
        flag = argv.pop(0)
        if flag == "--runs":
            runs = int(argv.pop(0))
        elif flag == "--evaluate-only":
            evaluate_only = True
        else:
            sys.exit(__doc__.strip())
    if len(argv) < 3:
        sys.exit(__doc__.strip())
    binary, out, files = argv[0], argv[1], argv[2:]
    os.makedirs(os.path.join(out, "sweep"), exist_ok=True)
    profiles_path = os.path.join(out, "profiles.json")
    profiles = json.load(open(profiles_path)) if os.path.exists(profiles_path) else {}
    for path in files:
        if path not in profiles and not evaluate_only:
            profiles[path] = profile(binary, path)
    json.dump(profiles, open(profiles_path, "w"))
    for path in files:
        p = profiles.get(path)
        if evaluate_only or p is None or sum(p["widths"]) < 20_000:
            continue
        record = os.path.join(out, "sweep", os.path.basename(path) + ".jsonl")
        if os.path.exists(record):
            continue
        configs = [f"layers={binary},--engine,layers", f"pips={binary},--engine,pips",
                   f"noho={binary}@CEPH12_AT=999"]
        configs += [f"at{d}={binary}@CEPH12_AT={d}"
                    for d in candidate_depths(p["widths"], p["depth"])]
        subprocess.run([sys.executable, os.path.join(HERE, "cephalopod_wall.py"), "--runs",
                        str(runs), "--out", record] + configs + ["--", path], check=True,
                       stdout=subprocess.DEVNULL)
    times = {}
    for record in glob.glob(os.path.join(out, "sweep", "*.jsonl")):
        for line in open(record):
            r = json.loads(line)
            if not r["agree"]:
                sys.exit(f"{r['file']}: answers differ")
            times.setdefault(r["file"], {})[r["config"]] = r["cpu_ms"]
    times = {f: t for f, t in times.items() if f in profiles}
    print(f"# {len(times)} games; auto / min(layers, pips): median, p90, worst (case)")
    results = []
    for from_states in (15_000, 20_000, 30_000, 40_000):
        for until_states in (60_000, 100_000, 150_000, 250_000):
            for work in (500e3, 600e3, 650e3, 700e3, 750e3, 800e3, 900e3, 1000e3, 1200e3):
                rule = (from_states, until_states, work)
                results.append((evaluate(profiles, times, rule), rule))
    for (median, p90, worst, case), rule in sorted(results, key=lambda r: (r[0][2], r[0][1])):
        print(f"{rule[0]:>7} {rule[1]:>7} {int(rule[2]):>8}  {median:.3f} {p90:.3f} "
              f"{worst:.3f} ({case})")


main()
