//! What a short game's search may hold: the exhaustive beam's nodes, the branch and bound's memo
//! and its bound's repeat table, scaled down together to a thread's share of `-m`.

/// Bytes of one memo state with the map's spare room (2 M states took ~110 MB).
const MEMO_STATE_BYTES: usize = 55;

/// Bytes of one cell of the repeat table (`u32`).
const REPEAT_CELL_BYTES: usize = 4;

/// The caps of a short game's search tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchMemory {
    /// Bytes the beam's nodes may take.
    pub nodes: usize,
    /// States the branch and bound's memo holds at most: past it, new states are not remembered.
    pub memo_states: usize,
    /// Cells the repeat table of the bound holds at most (with columns, or every break).
    pub repeat_cells: usize,
}

impl SearchMemory {
    /// The caps where memory is not short (no `-m`, or `-m 1024` on 2 cores): about 330 MB a
    /// thread in all; problem 13 at `-t 30 -c 2` peaked at 152 MB for the process.
    pub const AMPLE: SearchMemory = SearchMemory {
        nodes: 192 << 20,
        memo_states: 2 << 20,
        repeat_cells: 8 << 20,
    };

    /// The bytes of all the tables at their caps.
    pub fn bytes(&self) -> usize {
        self.nodes + self.memo_states * MEMO_STATE_BYTES + self.repeat_cells * REPEAT_CELL_BYTES
    }

    /// [`SearchMemory::AMPLE`], every cap scaled by one share so that all of them take at most
    /// `bytes` (each at least one entry).
    pub fn within(bytes: usize) -> SearchMemory {
        let ample = Self::AMPLE;
        if bytes >= ample.bytes() {
            return ample;
        }
        let share = bytes as f64 / ample.bytes() as f64;
        let scale = |cap: usize, unit: usize| ((cap as f64 * share) as usize).max(unit);
        SearchMemory {
            nodes: scale(ample.nodes, 1),
            memo_states: scale(ample.memo_states, 1),
            repeat_cells: scale(ample.repeat_cells, 1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_caps_fit_the_bytes_given() {
        assert_eq!(SearchMemory::within(usize::MAX), SearchMemory::AMPLE);
        for mb in [0usize, 1, 8, 40, 100, 300] {
            let memory = SearchMemory::within(mb << 20);
            assert!(memory.bytes() <= (mb << 20).max(1 + MEMO_STATE_BYTES + REPEAT_CELL_BYTES));
            assert!(memory.nodes <= SearchMemory::AMPLE.nodes);
            assert!(
                memory.memo_states >= 1 && memory.repeat_cells >= 1,
                "{memory:?}"
            );
        }
    }
}
