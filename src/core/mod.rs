//! What every solver shares: memory arenas, bitboards, RNG, deadlines, CPU features, counters.
//! Nothing here knows about any particular problem.

pub mod arena;
pub mod bitboard;
pub mod cli;
pub mod counters;
pub mod cpu;
pub mod prefetch;
pub mod rng;
pub mod timer;
