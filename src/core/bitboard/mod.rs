//! Bit-per-cell boards for grid games: `Bitboard` keeps a fixed number of rows by value, one
//! word per row; `BitGrid` keeps any width on the heap. Cells are `(row, column)`; bit c is column c.

mod fixed;
mod grid;
#[cfg(test)]
mod model;
mod word;

pub use fixed::{Bitboard, BitboardIter};
pub use grid::{BitGrid, BitGridIter};
pub use word::{row_mask, RowWord};

const WORD_BITS: usize = 64;
