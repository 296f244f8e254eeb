//! Rearrangements of an order of events (move a stretch, insert, remove, gather a chain of drops
//! next to one event), each reporting the stretch it changed so that a replay can skip the rest.

use super::event::{block_of, drop_event, is_drop, EVENT_KINDS};

/// Where a candidate order differs from the current one: events `from..until` changed, and
/// event k >= until of the candidate is event k + shift of the current one.
#[derive(Clone, Copy)]
pub(super) struct Change {
    pub(super) from: usize,
    pub(super) until: usize,
    pub(super) shift: isize,
}

impl Change {
    /// All of an order of `len` events: nothing of the current trace is reused.
    pub(super) fn everything(len: usize) -> Change {
        Change {
            from: 0,
            until: len,
            shift: 0,
        }
    }
}

/// Moves the `len` events from `i` to place `j` (counted after their removal).
pub(super) fn move_events(order: &mut [u16], i: usize, len: usize, j: usize) -> Change {
    if j < i {
        order[j..i + len].rotate_right(len);
    } else {
        order[i..j + len].rotate_left(len);
    }
    Change {
        from: i.min(j),
        until: i.max(j) + len,
        shift: 0,
    }
}

/// How many events from the first of `events` form one unit that moves together: shifts with
/// the drop after them, then further drops of blocks that started in the same row or column.
pub(super) fn bound_events(events: &[u16], home: &[usize], n: usize) -> usize {
    let mut len = 0;
    let mut last_drop = None;
    for &e in events.iter().take(MAX_BOUND) {
        let block = block_of(e);
        let (row, col) = (home[block] / n, home[block] % n);
        if let Some((r, c)) = last_drop {
            if !is_drop(e) || (r != row && c != col) {
                break;
            }
        }
        len += 1;
        if is_drop(e) {
            last_drop = Some((row, col));
        }
    }
    len.max(1)
}

/// The most events one bound unit holds.
const MAX_BOUND: usize = 8;

/// Writes into `candidate` the order with the drops of `chain` (taken from wherever they were)
/// right after event `i`: a line of blocks behind a drop falls in one after another.
pub(super) fn chain_after(
    order: &[u16],
    i: usize,
    chain: &[u16],
    candidate: &mut Vec<u16>,
) -> Change {
    chain_at(order, i, chain, false, candidate)
}

/// Writes into `candidate` the order with the drops of `chain` in reverse right before event
/// `i`: the blocks between a block and its hole fall first, the nearest to the hole first.
pub(super) fn clear_before(
    order: &[u16],
    i: usize,
    chain: &[u16],
    candidate: &mut Vec<u16>,
) -> Change {
    chain_at(order, i, chain, true, candidate)
}

/// The order with `chain`'s drops moved next to event `i` (before it, reversed, or after it),
/// written into `candidate`, and the stretch that differs from `order`.
fn chain_at(
    order: &[u16],
    i: usize,
    chain: &[u16],
    before: bool,
    candidate: &mut Vec<u16>,
) -> Change {
    let in_chain = |e: u16| is_drop(e) && chain.contains(&(e / EVENT_KINDS));
    candidate.clear();
    for (k, &e) in order.iter().enumerate() {
        if k == i && before {
            candidate.extend(chain.iter().rev().map(|&b| drop_event(b as usize)));
        }
        if !in_chain(e) {
            candidate.push(e);
        }
        if k == i && !before {
            candidate.extend(chain.iter().map(|&b| drop_event(b as usize)));
        }
    }
    let same_start = order
        .iter()
        .zip(candidate.iter())
        .take_while(|(a, b)| a == b)
        .count();
    let room = order.len().min(candidate.len()) - same_start;
    let same_end = order
        .iter()
        .rev()
        .zip(candidate.iter().rev())
        .take(room)
        .take_while(|(a, b)| a == b)
        .count();
    Change {
        from: same_start,
        until: candidate.len() - same_end,
        shift: order.len() as isize - candidate.len() as isize,
    }
}

/// Inserts `event` at place `j`.
pub(super) fn insert_event(order: &mut Vec<u16>, j: usize, event: u16) -> Change {
    order.insert(j, event);
    Change {
        from: j,
        until: j + 1,
        shift: -1,
    }
}

/// Removes the event at `i`.
pub(super) fn remove_event(order: &mut Vec<u16>, i: usize) -> Change {
    order.remove(i);
    Change {
        from: i,
        until: i,
        shift: 1,
    }
}
