//! Bananagrams: the dictionary, boards, an independent validator, the hand solver, players and
//! simultaneous multiplayer games (threaded, or deterministic on a simulated clock).

pub mod board;
pub mod cli;
pub mod dict;
pub mod game;
pub mod games_bench;
pub mod letters;
pub mod movegen;
pub mod online;
pub mod players;
pub mod scorers;
pub mod solver;
pub mod svg;
pub mod validate;
