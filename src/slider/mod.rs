//! Slider (TopCoder Marathon Match 126): slide valued blocks into holes before the multiplier runs
//! out. Model, independent scorer, bit-exact generator, solver, replay views and CLI.
//
// What podium decides where the contest left it open (data/slider/README.md has the rules):
// - Scoring: a drop on turn t (1-based) scores (N*N - t + 1) * (c - 1); every turn counts, even
//   one whose block cannot move. Empty output scores 0.
// - Invalid output scores -1 and names its first bad line: T not an integer or outside 0..N*N,
//   fewer than T turn lines, a line that is not `row column M|S U|D|L|R`, a cell outside the
//   grid or without a block. Blank lines are skipped; lines after the T-th are not read.
// - Input: N in 1..64 (the contest's is 10..30), C in 1..9, H must equal the number of -1 cells;
//   bad input is one line naming the line and value (exit 2).
// - The generator is data/slider/GENERATOR.md exactly (CPython's MT19937 and its sampling), so
//   `podium slider gen --seed S` reproduces instances/seed_001..040.txt byte for byte.

pub mod board;
pub mod bound;
pub mod cases;
pub mod cli;
pub mod gen;
pub mod score;
pub mod show;
pub mod solve;
