//! The per-block distance search: the fewest turns to drop one block moving only it (a BFS over
//! its moves and slides), the path it found, and the memo of known distances replays consult.

use crate::core::stamp::StampSet;
use crate::slider::board::{neighbour, travel, Dir, Kind, Outcome, Problem, Turn, EMPTY};

/// The board a run starts from, its blocks, and the scratch space of the distance search.
pub(super) struct Search {
    pub(super) n: usize,
    pub(super) start: Vec<i8>,
    /// Cell index of each block id.
    pub(super) home: Vec<usize>,
    pub(super) value: Vec<i8>,
    /// Cells the current distance search has reached.
    seen: StampSet,
    queue: Vec<(u16, u16)>,
    /// For path recovery: (previous cell, kind, dir) of each reached cell.
    parent: Vec<(u16, Kind, Dir)>,
    /// The cell and action that dropped the block in the last successful search.
    pub(super) hit: (usize, Kind, Dir),
    /// Whether the last failed search stopped at its limit (a looser one might succeed).
    pub(super) cut: bool,
    pub(super) start_hash: u64,
    /// Known distances by (board hash, block): `(key, distance or UNREACHABLE)`, direct-mapped.
    memo: Vec<(u64, u32)>,
}

const MEMO_BITS: u32 = 15;
const UNREACHABLE: u32 = u32::MAX;

impl Search {
    pub(super) fn new(problem: &Problem) -> Search {
        let home: Vec<usize> = (0..problem.cells.len())
            .filter(|&i| problem.cells[i] > 0)
            .collect();
        let value = home.iter().map(|&i| problem.cells[i]).collect();
        let cells = problem.cells.len();
        Search {
            n: problem.n,
            start: problem.cells.clone(),
            value,
            seen: StampSet::new(cells),
            queue: Vec::with_capacity(cells),
            parent: vec![(0, Kind::Move, Dir::Up); cells],
            hit: (0, Kind::Move, Dir::Up),
            cut: false,
            start_hash: home.iter().enumerate().fold(0, |h, (b, &c)| h ^ key(c, b)),
            memo: vec![(0, 0); 1 << MEMO_BITS],
            home,
        }
    }

    /// Fewest turns (at most `limit`) to drop the block at `from` moving only it, on `cells`.
    pub(super) fn distance(
        &mut self,
        cells: &mut [i8],
        from: usize,
        limit: usize,
    ) -> Option<usize> {
        self.cut = limit == 0;
        if limit == 0 {
            return None;
        }
        let value = cells[from];
        cells[from] = EMPTY;
        self.seen.clear();
        self.queue.clear();
        self.queue.push((from as u16, 0));
        self.seen.insert(from);
        let mut head = 0;
        let mut found = None;
        'search: while head < self.queue.len() {
            let (at, depth) = self.queue[head];
            head += 1;
            let at = at as usize;
            for dir in Dir::ALL {
                if neighbour(self.n, at, dir).is_none() {
                    continue;
                }
                for kind in [Kind::Move, Kind::Slide] {
                    match travel(cells, self.n, at, kind, dir, value) {
                        Outcome::Dropped(_) => {
                            self.hit = (at, kind, dir);
                            found = Some(depth as usize + 1);
                            break 'search;
                        }
                        Outcome::Moved(to) if self.seen.insert(to) => {
                            self.parent[to] = (at as u16, kind, dir);
                            if (depth as usize) + 2 <= limit {
                                self.queue.push((to as u16, depth + 1));
                            } else {
                                self.cut = true;
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
        cells[from] = value;
        found
    }

    /// [`Search::distance`] through the memo of known distances; `hash` is the board's and
    /// `block` the block at `from`.
    pub(super) fn memoised_distance(
        &mut self,
        cells: &mut [i8],
        from: usize,
        block: usize,
        hash: u64,
        limit: usize,
    ) -> Option<usize> {
        let memo_key = hash ^ (block as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let slot = (memo_key >> (64 - MEMO_BITS)) as usize;
        let (known_key, known) = self.memo[slot];
        if known_key == memo_key {
            self.cut = known != UNREACHABLE && known as usize > limit;
            return (known as usize <= limit).then_some(known as usize);
        }
        let found = self.distance(cells, from, limit);
        match found {
            Some(d) => self.memo[slot] = (memo_key, d as u32),
            None if !self.cut => self.memo[slot] = (memo_key, UNREACHABLE),
            None => {}
        }
        found
    }

    /// The turns of the last successful `distance` from `from`.
    pub(super) fn path(&self, from: usize) -> Vec<Turn> {
        let (mut at, kind, dir) = self.hit;
        let mut actions = vec![(at, kind, dir)];
        while at != from {
            let (previous, kind, dir) = self.parent[at];
            at = previous as usize;
            actions.push((at, kind, dir));
        }
        actions
            .into_iter()
            .rev()
            .map(|(at, kind, dir)| Turn {
                row: at / self.n,
                col: at % self.n,
                kind,
                dir,
            })
            .collect()
    }
}

/// The hash key of block `block` standing on `cell`.
pub(super) fn key(cell: usize, block: usize) -> u64 {
    let mut state = (cell as u64) << 20 | block as u64;
    crate::core::rng::splitmix64(&mut state)
}
