#!/usr/bin/env python3
"""Times solvers as a judge whose clock starts at the input: start the process, wait until it
has done its start-up (tables, pre-faulting), then time from writing stdin to its exit.

usage: perf/judge_time.py [--runs N] [--settle MS] CASEFILE... -- CMD [ARGS...] [-- CMD ...]
Prints, per case and command, the median input-to-exit time in ms and the answer's first line;
the ratio of each command to the first one is taken from the same interleaved runs."""
import statistics, subprocess, sys, time


def main(argv):
    runs, settle = 7, 0.15
    while argv and argv[0].startswith("--") and argv[0] != "--":
        flag, value, argv = argv[0], argv[1], argv[2:]
        if flag == "--runs":
            runs = int(value)
        elif flag == "--settle":
            settle = float(value) / 1000
        else:
            sys.exit(f"judge_time: unknown flag {flag}")
    if "--" not in argv:
        sys.exit(__doc__)
    cut = argv.index("--")
    cases, rest = argv[:cut], argv[cut + 1:]
    commands, current = [], []
    for word in rest:
        if word == "--":
            commands.append(current)
            current = []
        else:
            current.append(word)
    commands.append(current)
    for case in cases:
        data = open(case, "rb").read()
        times = [[] for _ in commands]
        answers = [None] * len(commands)
        for _ in range(runs):
            for i, cmd in enumerate(commands):
                proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
                time.sleep(settle)
                start = time.perf_counter()
                out, _ = proc.communicate(data)
                times[i].append((time.perf_counter() - start) * 1e3)
                answers[i] = out.decode().split("\n")[0]
        medians = [statistics.median(t) for t in times]
        cells = [f"{m:8.2f} ms ({m / medians[0]:.2f}x) {a}" for m, a in zip(medians, answers)]
        print(f"{case.split('/')[-1]:<16} " + " | ".join(cells))


if __name__ == "__main__":
    main(sys.argv[1:])
