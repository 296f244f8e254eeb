//! ICFP Programming Contest 2015 (hexagonal Tetris with phrases of power): the exact engine, a
//! solver in layers, the contest's program interface, a terminal/SVG viewer and the CLI.
//
// Layers, each importing only those before it (tests/icfp2015_layers.rs checks it): `rules`, the
// evaluator's engine; `place`, where each unit locks; `spell`, how it gets there spelling
// phrases; `solve`, one game end to end; `play`, many games under one time limit; `cli`. The
// viewer, `show`, and the generators, `gen`, need `rules` only; `memory`, the account of `-m` that
// plans, routes and searches read, and `trace`, the trace switch, need none. Plans never ask routes: `place` assumes a fixed power per
// row fallen, and what a game's routes cost is measured by `solve` (`route_cost`).

pub mod cli;
pub mod gen;
pub mod manual;
pub mod memory;
pub mod place;
pub mod play;
pub mod rules;
pub mod show;
pub mod solve;
pub mod spell;
pub mod trace;

pub use rules::board::Board;
pub use rules::commands::Command;
pub use rules::game::{evaluate, EvalError, Evaluation, Game, Outcome, Probe, Setup, Status};
pub use rules::hex::Cell;
pub use rules::phrases::PhraseSet;
pub use rules::problem::{Problem, Solution};
pub use rules::unit::{Pos, Unit};
