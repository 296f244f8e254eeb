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
    let reached = board.occupancy().component_of(first.0, first.1).count();
    reached == board.tile_count()
        && board
            .words()
            .iter()
            .all(|w| dawg.contains(w.text().as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bananagrams::board::Placement;
    use crate::bananagrams::dict::Lexicon;

    fn word(dir: Dir, line: u8, start: u8, text: &str) -> Placement {
        let letters = text.bytes().map(|b| b - b'A').collect();
        Placement {
            dir,
            line,
            start,
            letters,
        }
    }

    #[test]
    fn lifts_the_hanging_word_and_never_the_bridge() {
        let lexicon = Lexicon::from_list(b"cat\ncot\ntoe\n").unwrap();
        let mut board = Board::new();
        let mut hand = Tiles::parse("CATOTOE").unwrap();
        // CAT across row 10, COT down column 10, TOE across row 12: COT's O is the only tile
        // that joins CAT to TOE, so lifting it would split the grid; TOE's O and E hang off it.
        for placement in [
            word(Dir::Across, 10, 10, "CAT"),
            word(Dir::Down, 10, 10, "COT"),
            word(Dir::Across, 12, 10, "TOE"),
        ] {
            board.place(&placement, &mut hand).unwrap();
        }
        assert!(hand.is_empty());
        assert!(lift_one_word(&lexicon.dawg, &mut board, &mut hand));
        assert_eq!(board.tile_count(), 5);
        assert_eq!(hand, Tiles::parse("OE").unwrap());
        assert_eq!(board.get(11, 10), Some(b'O' - b'A'));
        assert_eq!(board.get(12, 11), None);
        // Left: CAT and COT share one tile, and either word's own tiles are all it has beyond
        // the junction; lifting COT's O and T leaves CAT, a sound grid.
        assert!(lift_one_word(&lexicon.dawg, &mut board, &mut hand));
        assert_eq!(board.tile_count(), 3);
    }
}
