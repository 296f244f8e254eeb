//! What every solver shares, knowing no particular problem: memory arenas, bitboards, budgets,
//! RNG, deadlines, CPU features, counters, the command line's parsers and errors, the terminal.

pub mod arena;
pub mod bitboard;
pub mod budget;
pub mod cli;
pub mod counters;
pub mod cpu;
pub mod hash;
pub mod http;
pub mod prefetch;
pub mod progress;
pub mod report;
pub mod rng;
pub mod shard;
pub mod signal;
pub mod stamp;
pub mod terminal;
pub mod text;
pub mod timer;
