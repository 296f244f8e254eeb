//! A cephalopod board as the puzzle states it (nine cells, 0 = empty, 1..6 = die), and its
//! packed 32-bit form: three bits per slot plus the empty-cell count (layout in tables/).

use super::tables::{EMPTY_SHIFT, SLOT_CELL};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// Row-major cells, 0 = empty, 1..=6 = a die.
    pub cells: [u8; 9],
}

impl Board {
    pub fn empty_cells(&self) -> u32 {
        self.cells.iter().filter(|&&c| c == 0).count() as u32
    }

    pub fn is_full(&self) -> bool {
        self.empty_cells() == 0
    }

    /// The puzzle's hash: the nine cells read row-major as a base-10 number.
    pub fn hash(&self) -> u32 {
        self.cells.iter().fold(0, |h, &c| h * 10 + c as u32)
    }

    /// The packed state; cells must be 0..=6.
    pub fn pack(&self) -> u32 {
        let dice = SLOT_CELL.iter().enumerate().fold(0u32, |s, (slot, &cell)| {
            s | (self.cells[cell] as u32) << (3 * slot)
        });
        dice | self.empty_cells() << EMPTY_SHIFT
    }

    pub fn unpack(state: u32) -> Board {
        let mut cells = [0u8; 9];
        for (slot, &cell) in SLOT_CELL.iter().enumerate() {
            cells[cell] = (state >> (3 * slot) & 7) as u8;
        }
        Board { cells }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_round_trips_and_counts_empties() {
        let b = Board {
            cells: [0, 6, 0, 2, 2, 2, 1, 6, 1],
        };
        let s = b.pack();
        assert_eq!(Board::unpack(s), b);
        assert_eq!(s >> EMPTY_SHIFT, 2);
        assert_eq!(b.hash(), 60222161);
    }
}
