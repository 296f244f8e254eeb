//! ICFP Programming Contest 2015 (hexagonal Tetris with phrases of power): the exact game
//! engine, the official evaluator's scoring, a terminal/SVG viewer and the `podium icfp2015` CLI.

pub mod cli;
pub mod place;
pub mod play;
pub mod rules;
pub mod show;
pub mod solve;
pub mod spell;

pub use rules::board::Board;
pub use rules::commands::Command;
pub use rules::game::{evaluate, EvalError, Evaluation, Game, Outcome, Probe, Setup, Status};
pub use rules::hex::Cell;
pub use rules::phrases::PhraseSet;
pub use rules::problem::{Problem, Solution};
pub use rules::unit::{Pos, Unit};
