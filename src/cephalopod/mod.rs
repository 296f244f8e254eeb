//! Cephalopod (CodinGame Spring Challenge 2025): the sum of final-board hashes over every
//! move sequence of a given depth, computed by a symmetry-reduced BFS over 32-bit states.

pub mod arch;
pub mod board;
pub mod cases;
pub mod cli;
pub mod engine;
pub mod hybrid;
pub mod input;
pub mod judge;
pub mod memory;
pub mod pips;
pub mod reference;
pub mod svg;
#[cfg(test)]
mod table_checks;
pub mod tables;

pub use arch::{select, Kernel, KernelChoice};
pub use board::Board;
pub use engine::{Engine, LayerStats};
pub use input::{InputError, Problem};

/// Solves one problem in a fresh arena. To solve many, keep an arena and an `Engine`.
pub fn solve(problem: &Problem, kernel: Kernel) -> u32 {
    let arena = memory::arena();
    let mut engine = Engine::new(memory::buffers(&arena));
    engine::run(&mut engine, kernel, &problem.board, problem.depth, None)
}
