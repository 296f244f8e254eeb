//! A seat's grid as the server keeps it: the letters on the cells of the 64 x 64 board, with the
//! text forms the clients and the validator read.

use super::protocol::{Cell, GridText};
use crate::bananagrams::letters::{Tiles, LETTERS};
use std::collections::BTreeMap;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Grid {
    cells: BTreeMap<Cell, u8>,
}

impl Grid {
    /// A grid of `tiles`; a cell given twice keeps its last letter.
    pub fn from_tiles(tiles: &[(Cell, u8)]) -> Grid {
        Grid {
            cells: tiles.iter().copied().collect(),
        }
    }

    pub fn len(&self) -> usize {
        self.cells.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// Puts `letter` on an empty cell; false if the cell is taken.
    pub fn put(&mut self, at: Cell, letter: u8) -> bool {
        if self.cells.contains_key(&at) {
            return false;
        }
        self.cells.insert(at, letter);
        true
    }

    pub fn take(&mut self, at: Cell) -> Option<u8> {
        self.cells.remove(&at)
    }

    /// Moves the tile at `from` to the empty cell `to`; false (no change) otherwise.
    pub fn relocate(&mut self, from: Cell, to: Cell) -> bool {
        if from == to || self.cells.contains_key(&to) {
            return false;
        }
        match self.cells.remove(&from) {
            Some(letter) => {
                self.cells.insert(to, letter);
                true
            }
            None => false,
        }
    }

    /// Whether every letter of the grid is among `owned`, counted without overflow.
    pub fn counts_within(&self, owned: &Tiles) -> bool {
        if self.cells.len() > owned.len() {
            return false;
        }
        let mut counts = [0usize; LETTERS];
        for &letter in self.cells.values() {
            counts[usize::from(letter)] += 1;
        }
        (0..LETTERS).all(|l| counts[l] <= usize::from(owned.count(l as u8)))
    }

    /// The letters on the grid (at most the tiles a seat holds, so the counts fit).
    pub fn tiles(&self) -> Tiles {
        let mut tiles = Tiles::EMPTY;
        for &letter in self.cells.values() {
            tiles.add(letter);
        }
        tiles
    }

    /// Rows over the bounding box, `.` for an empty cell; no rows for an empty grid.
    pub fn text(&self) -> GridText {
        let Some(top) = self.cells.keys().map(|c| c.0).min() else {
            return GridText::default();
        };
        let bottom = self.cells.keys().map(|c| c.0).max().unwrap_or(top);
        let left = self.cells.keys().map(|c| c.1).min().unwrap_or(0);
        let right = self.cells.keys().map(|c| c.1).max().unwrap_or(left);
        let width = usize::from(right - left) + 1;
        let mut rows = vec![vec![b'.'; width]; usize::from(bottom - top) + 1];
        for (&(r, c), &letter) in &self.cells {
            rows[usize::from(r - top)][usize::from(c - left)] = b'A' + letter;
        }
        GridText {
            top: usize::from(top),
            left: usize::from(left),
            rows: rows
                .into_iter()
                .map(|row| String::from_utf8(row).expect("ASCII"))
                .collect(),
        }
    }

    /// The grid as the validator reads it: one line per row.
    pub fn render(&self) -> String {
        self.text()
            .rows
            .iter()
            .map(|row| format!("{row}\n"))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_and_text() {
        let mut grid = Grid::default();
        assert!(grid.put((5, 7), 2) && grid.put((5, 8), 0) && grid.put((6, 8), 19));
        assert!(!grid.put((5, 7), 0));
        assert_eq!(
            grid.text(),
            GridText {
                top: 5,
                left: 7,
                rows: vec!["CA".into(), ".T".into()]
            }
        );
        assert_eq!(grid.render(), "CA\n.T\n");
        assert!(grid.relocate((6, 8), (4, 8)));
        assert!(!grid.relocate((6, 8), (3, 3)));
        assert_eq!(grid.render(), ".T\nCA\n");
        assert_eq!(grid.take((4, 8)), Some(19));
        assert_eq!(grid.tiles().to_string(), "AC");
        let cat = Tiles::parse("CAT").unwrap();
        assert!(grid.counts_within(&cat));
        assert!(!Grid::from_tiles(&[((0, 0), 2), ((0, 1), 2)]).counts_within(&cat));
    }
}
