//! The one account of what a search thread may hold under `-m`: a short game's search tables, a
//! plan's beam and its routes' DP table, each scaled down to the thread's share of the limit.
//
// A search runs in two phases that never hold their tables at once: the planned solver (beam
// plans, then routes) and, in a short game only, the whole-game search (`spell::exhaustive`,
// `spell::deep`, `spell::bound`). Each phase's tables are scaled to the whole share. The
// exhaustive search takes its caps as an argument; the beam (`place::beam`) and the DP
// (`spell::dp`), deep inside every plan and route, read the caps `play` installed on the thread
// ([`SearchMemory::install`]), as threading them through every call of `solve` would.

use std::cell::Cell;

/// Bytes of one memo state with the map's spare room (2 M states took ~110 MB).
const MEMO_STATE_BYTES: usize = 55;

/// Bytes of one cell of the repeat table (`u32`).
const REPEAT_CELL_BYTES: usize = 4;

/// Bytes of one entry of the DP's table (`spell::dp::Entry`).
pub const ROUTE_ENTRY_BYTES: usize = 16;

/// The caps of a search thread's tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchMemory {
    /// Bytes the exhaustive beam's nodes may take, and after it the children the branch and
    /// bound holds along its path.
    pub nodes: usize,
    /// States the branch and bound's memo holds at most: past it, new states are not remembered.
    pub memo_states: usize,
    /// Cells the repeat table of the bound holds at most (with columns, or every break).
    pub repeat_cells: usize,
    /// Bytes the bound's caches (per board, per phrases used) keep at most: past it, a cache
    /// starts afresh.
    pub bound_caches: usize,
    /// Bytes a plan's beam may hold: its two layers' boards, one layer's children and the
    /// links of every layer (`place::beam` splits it).
    pub beam: usize,
    /// Entries the DP of one phrase route holds at most (`spell::dp`): past it, fewer automaton
    /// states a position, or no DP route (the greedy route stands).
    pub route_entries: usize,
}

thread_local! {
    /// The caps of the search running on this thread ([`SearchMemory::install`]).
    static INSTALLED: Cell<SearchMemory> = const { Cell::new(SearchMemory::AMPLE) };
}

impl SearchMemory {
    /// The caps where memory is not short (no `-m`, or `-m 1024` on 2 cores on the qualifier
    /// boards). The short game's tables: ~330 MB a thread (problem 13 at `-t 30 -c 2` peaked
    /// at 152 MB for the process). The beam: up to 256 MB of boards (two layers of 128 MB at
    /// most; 8,000 boards of a 60-row board take 7.7 MB a layer), 128 MB of children (problem
    /// 13's widest layers, 4,000 nodes of ~130 locks, hold ~600 k children, 34 MB) and the rest
    /// for links (at least 8 M; 23 M on a 60-row board: 5,000 layers 4,000 wide). The routes: 4 M entries, 64 MB (a 60-row board's narrow route at 16
    /// states takes 0.8 M; a route down 10,000 rows took 794 MB before this cap).
    pub const AMPLE: SearchMemory = SearchMemory {
        nodes: 192 << 20,
        memo_states: 2 << 20,
        repeat_cells: 8 << 20,
        bound_caches: 128 << 20,
        beam: 512 << 20,
        route_entries: 4 << 20,
    };

    /// The bytes of the short game's tables at their caps.
    pub fn short_bytes(&self) -> usize {
        self.nodes
            + self.memo_states * MEMO_STATE_BYTES
            + self.repeat_cells * REPEAT_CELL_BYTES
            + self.bound_caches
    }

    /// The bytes of the planned solver's tables at their caps.
    pub fn planned_bytes(&self) -> usize {
        self.beam + self.route_entries * ROUTE_ENTRY_BYTES
    }

    /// The most either phase holds at its caps.
    pub fn bytes(&self) -> usize {
        self.short_bytes().max(self.planned_bytes())
    }

    /// [`SearchMemory::AMPLE`], each phase's caps scaled by one share so that they take at most
    /// `bytes` (each cap at least one entry).
    pub fn within(bytes: usize) -> SearchMemory {
        let ample = Self::AMPLE;
        let scaled = |total: usize| {
            let share = (bytes as f64 / total as f64).min(1.0);
            move |cap: usize| ((cap as f64 * share) as usize).max(1)
        };
        let short = scaled(ample.short_bytes());
        let planned = scaled(ample.planned_bytes());
        SearchMemory {
            nodes: short(ample.nodes),
            memo_states: short(ample.memo_states),
            repeat_cells: short(ample.repeat_cells),
            bound_caches: short(ample.bound_caches),
            beam: planned(ample.beam),
            route_entries: planned(ample.route_entries),
        }
    }

    /// Makes these the caps of the plans and routes this thread runs from now on (`play` does,
    /// on every thread it starts).
    pub fn install(self) {
        INSTALLED.with(|installed| installed.set(self));
    }

    /// The caps installed on this thread ([`SearchMemory::install`]), else
    /// [`SearchMemory::AMPLE`].
    pub fn installed() -> SearchMemory {
        INSTALLED.with(Cell::get)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_caps_fit_the_bytes_given() {
        assert_eq!(SearchMemory::within(usize::MAX), SearchMemory::AMPLE);
        let least = SearchMemory::within(0);
        for mb in [0usize, 1, 8, 40, 100, 300, 600] {
            let memory = SearchMemory::within(mb << 20);
            assert!(
                memory.bytes() <= (mb << 20).max(least.bytes()),
                "{memory:?}"
            );
            assert!(memory.nodes <= SearchMemory::AMPLE.nodes);
            assert!(memory.beam <= SearchMemory::AMPLE.beam);
            assert!(
                memory.memo_states >= 1 && memory.repeat_cells >= 1 && memory.route_entries >= 1,
                "{memory:?}"
            );
        }
        // Each phase is scaled on its own: at 480 MB the short game's tables are whole.
        let some = SearchMemory::within(480 << 20);
        assert_eq!(some.nodes, SearchMemory::AMPLE.nodes);
        assert!(some.beam < SearchMemory::AMPLE.beam);
    }

    #[test]
    fn the_caps_installed_are_the_threads_own() {
        assert_eq!(SearchMemory::installed(), SearchMemory::AMPLE);
        let small = SearchMemory::within(8 << 20);
        small.install();
        assert_eq!(SearchMemory::installed(), small);
        let other = std::thread::spawn(SearchMemory::installed).join().unwrap();
        assert_eq!(other, SearchMemory::AMPLE);
        SearchMemory::AMPLE.install();
    }
}
