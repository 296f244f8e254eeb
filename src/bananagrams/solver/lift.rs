//! Making room on a grid for new tiles: lifting a word that hangs off the rest by one junction,
//! as long as the grid stays connected and every run of it a word.

use crate::bananagrams::board::{Board, Dir, SIZE};
use crate::bananagrams::dict::Dawg;
use crate::bananagrams::letters::Tiles;

/// Lifts the tiles of one word that crosses nothing but one junction (the last such word in
/// reading order), keeping the grid valid and connected; false if there is none.
pub(super) fn lift_one_word(dawg: &Dawg, board: &mut Board, hand: &mut Tiles) -> bool {
    let words = board.words();
    for word in words.iter().rev() {
        let own: Vec<(u8, u8)> = (0..word.letters.len())
            .map(|i| word.cell(i))
            .filter(|&(r, c)| !in_perpendicular_run(board, word.dir, r, c))
            .map(|(r, c)| (r as u8, c as u8))
            .collect();
        if own.is_empty() || own.len() == word.letters.len() {
            continue;
        }
        let mut trial = board.clone();
        let mut lifted = *hand;
        trial.lift(&own, &mut lifted);
        if grid_is_sound(dawg, &trial) {
            *board = trial;
            *hand = lifted;
            return true;
        }
    }
    false
}

fn in_perpendicular_run(board: &Board, dir: Dir, row: usize, column: usize) -> bool {
    match dir {
        Dir::Across => {
            (row > 0 && board.get(row - 1, column).is_some())
                || (row + 1 < SIZE && board.get(row + 1, column).is_some())
        }
        Dir::Down => {
            (column > 0 && board.get(row, column - 1).is_some())
                || (column + 1 < SIZE && board.get(row, column + 1).is_some())
        }
    }
}

/// Connected, and every run of 2+ a word: checked with the board's own runs (the solver's
/// view; finished grids are re-checked by the independent validator).
fn grid_is_sound(dawg: &Dawg, board: &Board) -> bool {
    let Some(first) = board.occupancy().first_set() else {
        return true;
    };
    let mut seen = crate::core::bitboard::Bitboard::<SIZE>::EMPTY;
    let mut stack = vec![first];
    seen.set(first.0, first.1);
    let mut reached = 0;
    while let Some((r, c)) = stack.pop() {
        reached += 1;
        let around = [
            (r.wrapping_sub(1), c),
            (r + 1, c),
            (r, c.wrapping_sub(1)),
            (r, c + 1),
        ];
        for (nr, nc) in around {
            if nr < SIZE && nc < SIZE && board.get(nr, nc).is_some() && !seen.get(nr, nc) {
                seen.set(nr, nc);
                stack.push((nr, nc));
            }
        }
    }
    reached == board.tile_count()
        && board
            .words()
            .iter()
            .all(|w| dawg.contains(w.text().as_bytes()))
}
