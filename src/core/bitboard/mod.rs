//! Bit-per-cell boards for grid games, one word type `W` (u64 or u128) per row: `Bitboard` (fixed
//! rows, by value), `RowBoard` (run-time rows: falling blocks), `BitGrid` (any width, bordered).

mod fixed;
mod grid;
#[cfg(test)]
mod model;
mod rows;
mod word;

pub use fixed::{Bitboard, BitboardIter};
pub use grid::BitGrid;
pub use rows::RowBoard;
pub use word::{row_mask, RowWord};

const WORD_BITS: usize = 64;
