#!/usr/bin/env python3
"""usage: perf/cephalopod_fresh.py SEED COUNT OUTDIR [MIN_DEPTH MAX_DEPTH]

Writes COUNT random cephalopod cases (CodinGame input: depth, then 3 lines of 3 cells) to
OUTDIR/freshSEED_I.txt: boards with a random share of empty cells, depths MIN..MAX (5..40),
from a seeded xorshift unrelated to data/cephalopod/generated.tsv's; answers are not known.
"""
import os
import sys


def main():
    if len(sys.argv) not in (4, 6):
        sys.exit(__doc__.strip())
    seed, count, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    lo, hi = (int(sys.argv[4]), int(sys.argv[5])) if len(sys.argv) == 6 else (5, 40)
    state = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & (2**64 - 1) or 1

    def rand(n):
        nonlocal state
        state ^= (state << 13) & (2**64 - 1)
        state ^= state >> 7
        state ^= (state << 17) & (2**64 - 1)
        return (state >> 11) % n

    os.makedirs(out, exist_ok=True)
    for i in range(count):
        empty_in_ten = 2 + rand(9)
        cells = [0 if rand(10) < empty_in_ten else 1 + rand(6) for _ in range(9)]
        depth = lo + rand(hi - lo + 1)
        rows = [" ".join(map(str, cells[r * 3:r * 3 + 3])) for r in range(3)]
        with open(os.path.join(out, f"fresh{seed}_{i:03}.txt"), "w") as f:
            f.write(f"{depth}\n" + "\n".join(rows) + "\n")


main()
