//! The board: hex cells over the core's falling-block rows (`RowBoard<u128>`: one `u128` per
//! row, bit x = column x, width <= 128), with a unit's fit test and locking done on whole rows.

use super::hex::Cell;
use super::unit::{Pos, Shape, Unit};
use crate::core::bitboard::RowBoard;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    width: i32,
    height: i32,
    rows: RowBoard<u128>,
}

impl Board {
    /// An empty board; panics unless `1 <= width <= 128` (the problem parser checks this).
    pub fn new(width: usize, height: usize) -> Board {
        assert!((1..=128).contains(&width), "board width {width}");
        Board {
            width: width as i32,
            height: height as i32,
            rows: RowBoard::new(width, height),
        }
    }

    pub fn width(&self) -> usize {
        self.width as usize
    }

    pub fn height(&self) -> usize {
        self.height as usize
    }

    /// The occupied columns of each row, top row first.
    pub fn rows(&self) -> &[u128] {
        self.rows.rows()
    }

    /// Overwrites the board with `rows`, the rows of a board of the same size.
    #[inline]
    pub fn load_rows(&mut self, rows: &[u128]) {
        self.rows.load(rows);
    }

    pub fn is_on_board(&self, cell: Cell) -> bool {
        cell.x >= 0 && cell.x < self.width && cell.y >= 0 && cell.y < self.height
    }

    /// Whether `cell` is filled; cells off the board are not.
    pub fn get(&self, cell: Cell) -> bool {
        self.is_on_board(cell) && self.rows.get(cell.y as usize, cell.x as usize)
    }

    /// Fills `cell`, which must be on the board.
    pub fn set(&mut self, cell: Cell) {
        assert!(self.is_on_board(cell), "cell {cell:?} is off the board");
        self.rows.set(cell.y as usize, cell.x as usize);
    }

    /// Number of filled cells.
    pub fn count(&self) -> usize {
        self.rows.count()
    }

    /// Whether `unit` fits at `pos`: every member on the board and on an empty cell.
    #[inline]
    pub fn fits_unit(&self, unit: &Unit, pos: Pos) -> bool {
        self.fits(unit.shape(pos.orientation, pos.y), pos.x, pos.y)
    }

    /// Whether `shape` with its pivot at `(x, y)` lies on the board over empty cells.
    #[inline]
    pub fn fits(&self, shape: &Shape, x: i32, y: i32) -> bool {
        let left = x + shape.dx_min;
        let top = y + shape.dy_min;
        if left < 0 || x + shape.dx_max >= self.width || top < 0 || y + shape.dy_max >= self.height
        {
            return false;
        }
        self.rows.fits(top as usize, left as usize, &shape.rows)
    }

    /// Fills the cells of `shape` at `(x, y)` (which must fit), removes every full row and
    /// returns how many were removed.
    #[inline]
    pub fn lock(&mut self, shape: &Shape, x: i32, y: i32) -> u32 {
        debug_assert!(self.fits(shape, x, y));
        let left = (x + shape.dx_min) as usize;
        let top = (y + shape.dy_min) as usize;
        self.rows.place(top, left, &shape.rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::icfp2015::rules::problem::UnitSpec;
    use crate::icfp2015::rules::unit::{Pos, Unit};

    #[test]
    fn full_rows_drop_the_rows_above() {
        let mut board = Board::new(3, 4);
        for (x, y) in [(0, 1), (1, 1), (0, 2), (0, 3), (1, 3)] {
            board.set(Cell::new(x, y));
        }
        let unit = Unit::new(
            &UnitSpec {
                members: vec![Cell::new(0, 0), Cell::new(0, 1)],
                pivot: Cell::new(0, 0),
            },
            3,
        );
        // The vertical pair at pivot (2, 2) covers (2, 2) and (2, 3) on an even pivot row:
        // cube offset (0, 1) from an even row is column offset 0.
        let pos = Pos {
            x: 2,
            y: 2,
            orientation: 0,
        };
        assert_eq!(unit.cells(pos), [Cell::new(2, 2), Cell::new(2, 3)]);
        assert!(board.fits(unit.shape(0, 2), 2, 2));
        assert!(!board.fits(unit.shape(0, 2), 1, 2));
        assert!(!board.fits(unit.shape(0, 3), 2, 3));
        let cleared = board.lock(unit.shape(0, 2), 2, 2);
        assert_eq!(cleared, 1);
        let cells: Vec<(i32, i32)> = (0..4)
            .flat_map(|y| (0..3).map(move |x| (x, y)))
            .filter(|&(x, y)| board.get(Cell::new(x, y)))
            .collect();
        assert_eq!(cells, [(0, 2), (1, 2), (0, 3), (2, 3)]);
    }

    #[test]
    fn the_widest_board_works() {
        let mut board = Board::new(128, 2);
        for x in 0..127 {
            board.set(Cell::new(x, 1));
        }
        let unit = Unit::new(
            &UnitSpec {
                members: vec![Cell::new(0, 0)],
                pivot: Cell::new(0, 0),
            },
            128,
        );
        assert!(board.fits(unit.shape(0, 1), 127, 1));
        assert!(!board.fits(unit.shape(0, 1), 128, 1));
        assert_eq!(board.lock(unit.shape(0, 1), 127, 1), 1);
        assert_eq!(board.count(), 0);
    }
}
