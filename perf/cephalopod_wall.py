#!/usr/bin/env python3
"""usage: perf/cephalopod_wall.py [--runs N] [--stats] [--out FILE.jsonl] CONFIG... -- FILE...

Wall-time harness for `podium cephalopod`: each CONFIG is `LABEL=BINARY[,ARG...]` (e.g.
`layers=target/release/podium,--engine,layers`), or `LABEL=BINARY[,ARG...]@VAR=VALUE` to set
an environment variable. Every round runs every FILE under every CONFIG once, the configs in
a rotated order per round (so load falls on all of them alike), as one process each; records
its CPU time (user + sys from wait4), wall time and, with --stats, the `solve` ms it prints.
Prints per FILE and CONFIG the medians and the answer (a differing answer is flagged), with
the load average at the start and end; --out writes one JSON record per (FILE, CONFIG).
"""
import json
import os
import statistics
import subprocess
import sys
import time


def parse_config(text):
    label, _, rest = text.partition("=")
    env = {}
    if "@" in rest:
        rest, _, assign = rest.partition("@")
        var, _, value = assign.partition("=")
        env[var] = value
    parts = rest.split(",")
    return label, parts[0], parts[1:], env


def run_once(binary, args, env, path, stats):
    argv = [binary, "cephalopod", path] + args + (["--stats"] if stats else [])
    full_env = dict(os.environ)
    full_env.update(env)
    read_end, write_end = os.pipe()
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        os.dup2(write_end, 1)
        os.dup2(write_end, 2)
        os.close(read_end)
        os.close(write_end)
        try:
            os.execve(binary, argv, full_env)
        finally:
            os._exit(127)
    os.close(write_end)
    chunks = []
    while True:
        chunk = os.read(read_end, 65536)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(read_end)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    text = b"".join(chunks).decode()
    if status != 0:
        sys.exit(f"{' '.join(argv)}: exit status {status}\n{text}")
    lines = text.splitlines()
    answer = lines[0].strip()
    solve = None
    handoff = None
    for line in lines:
        if line.startswith("time:") and "solve" in line:
            solve = float(line.split("solve ")[1].split(" ms")[0])
        if line.startswith("engine:"):
            handoff = line.split(":", 1)[1].strip()
    return usage.ru_utime + usage.ru_stime, wall, solve, answer, handoff


def main():
    argv = sys.argv[1:]
    runs, stats, out = 5, False, None
    while argv and argv[0].startswith("--") and argv[0] != "--":
        flag = argv.pop(0)
        if flag == "--runs":
            runs = int(argv.pop(0))
        elif flag == "--stats":
            stats = True
        elif flag == "--out":
            out = argv.pop(0)
        else:
            sys.exit(__doc__.strip())
    if "--" not in argv:
        sys.exit(__doc__.strip())
    split = argv.index("--")
    configs = [parse_config(c) for c in argv[:split]]
    files = argv[split + 1:]
    if not configs or not files:
        sys.exit(__doc__.strip())
    load_start = os.getloadavg()[0]
    samples = {(f, c[0]): [] for f in files for c in configs}
    answers = {}
    handoffs = {}
    for round_ in range(runs):
        for path in files:
            k = round_ % len(configs)
            for label, binary, args, env in configs[k:] + configs[:k]:
                cpu, wall, solve, answer, handoff = run_once(binary, args, env, path, stats)
                samples[(path, label)].append((cpu, wall, solve))
                answers.setdefault(path, {})[label] = answer
                handoffs[(path, label)] = handoff
    load_end = os.getloadavg()[0]
    print(f"# runs {runs}, load average {load_start:.2f} -> {load_end:.2f}")
    print("# file\tconfig\tcpu_ms\twall_ms\tsolve_ms\tanswer")
    records = []
    for path in files:
        distinct = set(answers[path].values())
        for label, *_ in configs:
            rows = samples[(path, label)]
            cpu = statistics.median(r[0] for r in rows) * 1e3
            wall = statistics.median(r[1] for r in rows) * 1e3
            solve = statistics.median(r[2] for r in rows) if stats else None
            answer = answers[path][label]
            flag = "" if len(distinct) == 1 else " DIFFERS"
            solve_text = f"{solve:.3f}" if solve is not None else "-"
            print(f"{os.path.basename(path)}\t{label}\t{cpu:.3f}\t{wall:.3f}\t{solve_text}"
                  f"\t{answer}{flag}")
            records.append({
                "file": path, "config": label, "cpu_ms": cpu, "wall_ms": wall,
                "solve_ms": solve, "answer": answer, "agree": len(distinct) == 1,
                "handoff": handoffs[(path, label)],
                "cpu_runs_ms": [r[0] * 1e3 for r in rows],
                "solve_runs_ms": [r[2] for r in rows] if stats else None,
                "load": [load_start, load_end],
            })
    if out:
        with open(out, "w") as f:
            for record in records:
                f.write(json.dumps(record) + "\n")


main()
