//! Playing an order of events on the board: one event at a time with its cost and points (and,
//! when asked, its turns), or again without search for a stretch already known to act.

use super::event::{action, block_of, is_drop, SHIFTS};
use super::search::{key, Search};
use crate::slider::board::{travel, Outcome, Turn, EMPTY};

/// Where `Play::at` puts a block that has fallen.
const GONE: usize = usize::MAX;

/// Board and block positions while an order is replayed.
#[derive(Default)]
pub(super) struct Play {
    cells: Vec<i8>,
    at: Vec<usize>,
    pub(super) hash: u64,
    /// Summed value (c - 1) of the blocks dropped.
    pub(super) worth: i64,
}

impl Play {
    pub(super) fn reset(&mut self, search: &Search, start_hash: u64) {
        self.cells.clone_from(&search.start);
        self.at.clone_from(&search.home);
        self.hash = start_hash;
        self.worth = 0;
    }

    /// Plays again an event known to act, without searching for its path; the hash and worth
    /// are left for the caller to restore.
    pub(super) fn redo(&mut self, search: &mut Search, event: u16) {
        let block = block_of(event);
        if is_drop(event) {
            self.cells[self.at[block]] = EMPTY;
            self.at[block] = GONE;
        } else {
            self.event(search, event, 0, None);
        }
    }

    /// Plays one event with `turns` already spent: `Some((turns used, points))` if it acted.
    /// `path` receives its turns.
    pub(super) fn event(
        &mut self,
        search: &mut Search,
        event: u16,
        turns: usize,
        path: Option<&mut Vec<Turn>>,
    ) -> Option<(usize, i64)> {
        let n2 = search.n * search.n;
        let block = block_of(event);
        let from = self.at[block];
        search.cut = turns >= n2;
        if from == GONE || turns >= n2 {
            return None;
        }
        let worth = i64::from(search.value[block] - 1);
        if is_drop(event) {
            let limit = n2 - turns;
            let d = match path {
                Some(path) => {
                    let d = search.distance(&mut self.cells, from, limit)?;
                    path.extend(search.path(from));
                    d
                }
                None => search.memoised_distance(&mut self.cells, from, block, self.hash, limit)?,
            };
            self.cells[from] = EMPTY;
            self.at[block] = GONE;
            self.hash ^= key(from, block);
            self.worth += worth;
            return Some((d, (n2 - turns - d + 1) as i64 * worth));
        }
        let (kind, dir) = SHIFTS[action(event) as usize - 1];
        let value = self.cells[from];
        let outcome = travel(&self.cells, search.n, from, kind, dir, value);
        let points = match outcome {
            Outcome::Moved(to) => {
                self.cells[from] = EMPTY;
                self.cells[to] = value;
                self.at[block] = to;
                self.hash ^= key(from, block) ^ key(to, block);
                0
            }
            Outcome::Dropped(_) => {
                self.cells[from] = EMPTY;
                self.at[block] = GONE;
                self.hash ^= key(from, block);
                self.worth += worth;
                (n2 - turns) as i64 * worth
            }
            _ => return None,
        };
        if let Some(path) = path {
            path.push(Turn {
                row: from / search.n,
                col: from % search.n,
                kind,
                dir,
            });
        }
        Some((1, points))
    }
}

/// The turns of `order` (events that cannot act are skipped).
pub(super) fn turns_of(search: &mut Search, play: &mut Play, order: &[u16]) -> Vec<Turn> {
    let start_hash = search.start_hash;
    play.reset(search, start_hash);
    let mut turns = Vec::new();
    for &event in order {
        let spent = turns.len();
        play.event(search, event, spent, Some(&mut turns));
    }
    turns
}
