//! How hard each letter is to place, and which are vowels: the letter facts the search's move
//! order and window and the impossibility proofs share.

use crate::bananagrams::letters::LETTERS;

/// Difficulty of placing each letter, A..Z: high for letters in few words and few two-letter
/// words (J, Q, X, Z, V, K...), low for the ones that fit anywhere.
pub(super) const HARDNESS: [i32; LETTERS] = [
    1, 3, 3, 2, 1, 3, 3, 2, 1, 9, 5, 2, 2, 1, 1, 3, 12, 1, 1, 1, 2, 6, 4, 7, 3, 9,
];
pub(super) const VOWELS: u32 = 1 << 0 | 1 << 4 | 1 << 8 | 1 << 14 | 1 << 20;
