//! ICFP Programming Contest 2015 (hexagonal Tetris with phrases of power): the exact game
//! engine, the official evaluator's scoring, a terminal/SVG viewer and the `podium icfp2015` CLI.

pub mod board;
pub mod chain;
pub mod cli;
pub mod commands;
pub mod dp;
pub mod game;
pub mod hex;
pub mod phrases;
pub mod placement;
pub mod play;
pub mod problem;
pub mod route;
pub mod show;
pub mod solver;
pub mod source;
pub mod span;
pub mod sweep;
pub mod unit;

pub use board::Board;
pub use commands::Command;
pub use game::{evaluate, EvalError, Evaluation, Game, Outcome, Probe, Setup, Status};
pub use hex::Cell;
pub use phrases::PhraseSet;
pub use problem::{Problem, Solution};
pub use unit::{Pos, Unit};
