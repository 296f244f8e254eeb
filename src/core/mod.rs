//! What every solver shares, knowing no particular problem: memory arenas, bitboards, budgets,
//! RNG, deadlines, CPU features, counters, and the command line's parsers and errors.

pub mod arena;
pub mod bitboard;
pub mod budget;
pub mod cli;
pub mod counters;
pub mod cpu;
pub mod http;
pub mod prefetch;
pub mod progress;
pub mod report;
pub mod rng;
pub mod stamp;
pub mod text;
pub mod timer;
