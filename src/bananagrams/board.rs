//! A player's grid on the core bitboards: letters in both orientations, occupancy bitboards for
//! anchors and free space, placing and lifting words. Every run of 2+ letters is a candidate word.
//
// The grid is 64 x 64 (one u64 per line) and is kept twice, by rows and by columns, so that a
// search along a column reads a contiguous line exactly as one along a row does. Free space in
// a direction (the seed engine's `lims`) is a bit scan of the occupancy line, so it is always
// current after place/lift without bookkeeping of its own.

use super::letters::Tiles;
use crate::core::bitboard::Bitboard;

pub const SIZE: usize = 64;
pub const EMPTY: u8 = 0;

/// The direction a word reads in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Left to right along a row.
    Across = 0,
    /// Top to bottom along a column.
    Down = 1,
}

impl Dir {
    pub const BOTH: [Dir; 2] = [Dir::Across, Dir::Down];

    pub fn other(self) -> Dir {
        match self {
            Dir::Across => Dir::Down,
            Dir::Down => Dir::Across,
        }
    }
}

/// A word on the grid: its first cell (`line`, `start`) in orientation `dir` (for Across the
/// line is the row and start the column; for Down the line is the column and start the row),
/// and its letters (0..26).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Placement {
    pub dir: Dir,
    pub line: u8,
    pub start: u8,
    pub letters: Vec<u8>,
}

impl Placement {
    /// (row, column) of the word's `i`-th letter.
    pub fn cell(&self, i: usize) -> (usize, usize) {
        let along = self.start as usize + i;
        match self.dir {
            Dir::Across => (self.line as usize, along),
            Dir::Down => (along, self.line as usize),
        }
    }

    pub fn text(&self) -> String {
        self.letters.iter().map(|&c| (b'A' + c) as char).collect()
    }
}

/// Why a word cannot go where it was asked to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlaceError {
    OffGrid,
    /// A cell holds a different letter.
    Clash,
    /// The hand lacks a letter the word needs.
    Missing,
}

#[derive(Clone)]
pub struct Board {
    /// `lines[dir][line][position]`: EMPTY or letter + 1.
    lines: [[[u8; SIZE]; SIZE]; 2],
    /// `occupied[Across].rows[row]` bit column; `occupied[Down].rows[column]` bit row.
    occupied: [Bitboard<SIZE>; 2],
    tiles: usize,
}

impl Default for Board {
    fn default() -> Self {
        Board::new()
    }
}

impl Board {
    pub fn new() -> Board {
        Board {
            lines: [[[EMPTY; SIZE]; SIZE]; 2],
            occupied: [Bitboard::EMPTY; 2],
            tiles: 0,
        }
    }

    pub fn tile_count(&self) -> usize {
        self.tiles
    }

    pub fn is_empty(&self) -> bool {
        self.tiles == 0
    }

    /// The letter (0..26) at (row, column), if any.
    #[inline]
    pub fn get(&self, row: usize, column: usize) -> Option<u8> {
        let cell = self.lines[0][row][column];
        (cell != EMPTY).then(|| cell - 1)
    }

    /// One line of cells (EMPTY or letter + 1) in orientation `dir`.
    #[inline]
    pub fn line(&self, dir: Dir, line: usize) -> &[u8; SIZE] {
        &self.lines[dir as usize][line]
    }

    /// Occupancy of one line in orientation `dir`: bit p set if position p holds a tile.
    #[inline]
    pub fn line_bits(&self, dir: Dir, line: usize) -> u64 {
        self.occupied[dir as usize].rows[line]
    }

    /// Occupancy, by rows.
    pub fn occupancy(&self) -> &Bitboard<SIZE> {
        &self.occupied[0]
    }

    /// Empty cells next to a tile, by rows (the centre cell on an empty board).
    pub fn anchors(&self) -> Bitboard<SIZE> {
        let occupied = self.occupied[0];
        if self.tiles == 0 {
            let mut centre = Bitboard::EMPTY;
            centre.set(SIZE / 2, SIZE / 2);
            return centre;
        }
        let around = occupied.shift_left(1)
            | occupied.shift_right(1)
            | occupied.shift_up(1)
            | occupied.shift_down(1);
        around.and_not(&occupied)
    }

    /// Empty cells in a row from (row, column) going right, not counting the cell itself.
    pub fn free_right(&self, row: usize, column: usize) -> usize {
        free_after(self.occupied[0].rows[row], column)
    }

    pub fn free_left(&self, row: usize, column: usize) -> usize {
        free_before(self.occupied[0].rows[row], column)
    }

    pub fn free_down(&self, row: usize, column: usize) -> usize {
        free_after(self.occupied[1].rows[column], row)
    }

    pub fn free_up(&self, row: usize, column: usize) -> usize {
        free_before(self.occupied[1].rows[column], row)
    }

    fn put(&mut self, row: usize, column: usize, letter: u8) {
        self.lines[0][row][column] = letter + 1;
        self.lines[1][column][row] = letter + 1;
        self.occupied[0].set(row, column);
        self.occupied[1].set(column, row);
        self.tiles += 1;
    }

    /// Removes the tile at (row, column) and returns its letter.
    pub fn remove(&mut self, row: usize, column: usize) -> Option<u8> {
        let letter = self.get(row, column)?;
        self.lines[0][row][column] = EMPTY;
        self.lines[1][column][row] = EMPTY;
        self.occupied[0].clear(row, column);
        self.occupied[1].clear(column, row);
        self.tiles -= 1;
        Some(letter)
    }

    /// Puts a single tile on an empty cell (no word checks).
    pub fn put_tile(&mut self, row: usize, column: usize, letter: u8) {
        assert!(
            self.get(row, column).is_none(),
            "put_tile on an occupied cell"
        );
        self.put(row, column, letter);
    }

    /// Writes `placement`'s letters on its empty cells, taking them from `hand`; the cells it
    /// filled, for [`Board::lift`]. Word validity is the caller's business (the move generator
    /// only proposes valid words; the validator checks finished grids).
    pub fn place(
        &mut self,
        placement: &Placement,
        hand: &mut Tiles,
    ) -> Result<Vec<(u8, u8)>, PlaceError> {
        let end = placement.start as usize + placement.letters.len();
        if end > SIZE || placement.line as usize >= SIZE {
            return Err(PlaceError::OffGrid);
        }
        let mut needed = Tiles::EMPTY;
        for (i, &letter) in placement.letters.iter().enumerate() {
            let (row, column) = placement.cell(i);
            match self.get(row, column) {
                Some(existing) if existing != letter => return Err(PlaceError::Clash),
                Some(_) => {}
                None => needed.add(letter),
            }
        }
        *hand = hand.minus(&needed).ok_or(PlaceError::Missing)?;
        let mut filled = Vec::with_capacity(needed.len());
        for (i, &letter) in placement.letters.iter().enumerate() {
            let (row, column) = placement.cell(i);
            if self.get(row, column).is_none() {
                self.put(row, column, letter);
                filled.push((row as u8, column as u8));
            }
        }
        Ok(filled)
    }

    /// Takes the tiles at `cells` off the grid into `hand`.
    pub fn lift(&mut self, cells: &[(u8, u8)], hand: &mut Tiles) {
        for &(row, column) in cells {
            if let Some(letter) = self.remove(row as usize, column as usize) {
                hand.add(letter);
            }
        }
    }

    /// Every maximal run of 2+ letters, across then down.
    pub fn words(&self) -> Vec<Placement> {
        let mut words = Vec::new();
        for dir in Dir::BOTH {
            for line in 0..SIZE {
                let mut bits = self.line_bits(dir, line);
                while bits != 0 {
                    let start = bits.trailing_zeros() as usize;
                    let run = (!(bits >> start)).trailing_zeros() as usize;
                    if run >= 2 {
                        let cells = &self.lines[dir as usize][line][start..start + run];
                        words.push(Placement {
                            dir,
                            line: line as u8,
                            start: start as u8,
                            letters: cells.iter().map(|&c| c - 1).collect(),
                        });
                    }
                    bits &= !(run_mask(run) << start);
                }
            }
        }
        words
    }

    /// The tiles on the grid.
    pub fn tiles(&self) -> Tiles {
        let mut tiles = Tiles::EMPTY;
        for (row, column) in self.occupied[0].iter() {
            tiles.add(self.lines[0][row][column] - 1);
        }
        tiles
    }

    /// (top, left, bottom, right), inclusive; None on an empty grid.
    pub fn bounds(&self) -> Option<(usize, usize, usize, usize)> {
        let rows: Vec<usize> = (0..SIZE)
            .filter(|&r| self.occupied[0].rows[r] != 0)
            .collect();
        let columns = self.occupied[0].rows.iter().fold(0u64, |a, &r| a | r);
        Some((
            *rows.first()?,
            columns.trailing_zeros() as usize,
            *rows.last()?,
            63 - columns.leading_zeros() as usize,
        ))
    }

    /// The grid as text rows over its bounding box, `.` for an empty cell.
    pub fn render(&self) -> String {
        let Some((top, left, bottom, right)) = self.bounds() else {
            return String::new();
        };
        let mut out = String::new();
        for row in top..=bottom {
            for column in left..=right {
                out.push(self.get(row, column).map_or('.', |c| (b'A' + c) as char));
            }
            out.push('\n');
        }
        out
    }

    /// Moves every tile by (rows, columns); false (and no change) if one would leave the grid.
    pub fn translate(&mut self, rows: isize, columns: isize) -> bool {
        let Some((top, left, bottom, right)) = self.bounds() else {
            return true;
        };
        let inside = |low: usize, high: usize, by: isize| {
            low as isize + by >= 0 && high as isize + by < SIZE as isize
        };
        if !inside(top, bottom, rows) || !inside(left, right, columns) {
            return false;
        }
        let cells: Vec<(usize, usize, u8)> = self.occupied[0]
            .iter()
            .map(|(r, c)| (r, c, self.lines[0][r][c] - 1))
            .collect();
        *self = Board::new();
        for (r, c, letter) in cells {
            self.put(
                (r as isize + rows) as usize,
                (c as isize + columns) as usize,
                letter,
            );
        }
        true
    }

    /// Moves the tiles so that their bounding box sits in the middle of the grid.
    pub fn recentre(&mut self) {
        if let Some((top, left, bottom, right)) = self.bounds() {
            let rows = (SIZE - 1 - bottom + top) / 2;
            let columns = (SIZE - 1 - right + left) / 2;
            self.translate(
                rows as isize - top as isize,
                columns as isize - left as isize,
            );
        }
    }
}

#[inline]
fn run_mask(run: usize) -> u64 {
    if run >= 64 {
        u64::MAX
    } else {
        (1u64 << run) - 1
    }
}

#[inline]
fn free_after(bits: u64, position: usize) -> usize {
    let beyond = SIZE - 1 - position;
    if beyond == 0 {
        return 0;
    }
    ((bits >> (position + 1)).trailing_zeros() as usize).min(beyond)
}

#[inline]
fn free_before(bits: u64, position: usize) -> usize {
    if position == 0 {
        return 0;
    }
    ((bits << (SIZE - position)).leading_zeros() as usize).min(position)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(dir: Dir, line: u8, start: u8, text: &str) -> Placement {
        Placement {
            dir,
            line,
            start,
            letters: text.bytes().map(|b| b - b'A').collect(),
        }
    }

    #[test]
    fn place_lift_and_free_space() {
        let mut board = Board::new();
        let mut hand = Tiles::parse("CATSAT").unwrap();
        let cat = board
            .place(&word(Dir::Across, 10, 5, "CAT"), &mut hand)
            .unwrap();
        assert_eq!(cat.len(), 3);
        assert_eq!(hand.to_string(), "AST");
        // SAT down through the A of CAT: only S and T are new.
        let sat = board
            .place(&word(Dir::Down, 6, 9, "SAT"), &mut hand)
            .unwrap();
        assert_eq!(sat, vec![(9, 6), (11, 6)]);
        assert_eq!(hand.to_string(), "A");
        assert_eq!(board.render(), ".S.\nCAT\n.T.\n");
        assert_eq!(board.free_right(10, 5), 0);
        assert_eq!(board.free_right(10, 7), SIZE - 8);
        assert_eq!(board.free_left(10, 5), 5);
        assert_eq!(board.free_up(9, 6), 9);
        assert_eq!(board.free_down(11, 6), SIZE - 12);
        assert_eq!(board.free_down(9, 5), 0);
        let texts: Vec<String> = board.words().iter().map(Placement::text).collect();
        assert_eq!(texts, ["CAT", "SAT"]);
        assert_eq!(board.anchors().count(), 8);
        assert_eq!(
            board.place(&word(Dir::Across, 10, 5, "COT"), &mut hand),
            Err(PlaceError::Clash)
        );
        assert_eq!(
            board.place(&word(Dir::Across, 12, 5, "TT"), &mut hand),
            Err(PlaceError::Missing)
        );
        assert_eq!(
            board.place(&word(Dir::Across, 12, 63, "AT"), &mut hand),
            Err(PlaceError::OffGrid)
        );
        board.lift(&sat, &mut hand);
        assert_eq!(board.render(), "CAT\n");
        assert_eq!(hand.to_string(), "AST");
        assert_eq!(board.tiles().to_string(), "ACT");
        board.recentre();
        assert_eq!(board.bounds(), Some((31, 30, 31, 32)));
        assert!(!board.translate(40, 0));
    }
}
