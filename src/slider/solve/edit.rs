//! The annealing's edits of an order of events, named for what they do, and the weights with
//! which one random draw picks among them.

use super::event::{block_of, drop_event, is_drop, shift_event, SHIFTS};
use super::order::{
    bound_events, chain_after, clear_before, insert_event, move_events, remove_event, Change,
};
use super::search::Search;
use crate::core::rng::Rng;
use crate::slider::board::{neighbour, Dir, HOLE};

/// One change to the current order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Edit {
    /// Move one event, or a bound unit of them, elsewhere: mostly within 12 places, else anywhere.
    Move,
    /// Swap an event with one of the next three.
    Swap,
    /// Drop a block that no event drops yet, anywhere in the order.
    AddDrop,
    /// Shift a block near the one an event plays, right before that event.
    AddShift,
    Remove,
    /// Drop the blocks lined up behind a drop right after it, one after another. A chain often
    /// starts with a worthless drop that frees a line: on seed 3 only 2 of 6 runs found row 5's
    /// chain by single edits; with this one all 6 do (+0.45%).
    ChainAfter,
    /// Drop the blocks between a drop's block and its hole right before it, nearest the hole
    /// first. This and `ReplaceDrop` gained 0.03% on 12 instances at 4 s (two runs each,
    /// 1.0034 -> 1.0037).
    ClearBefore,
    /// Drop a block that no event drops yet in place of a drop.
    ReplaceDrop,
}

/// Each edit with its weight: the chance of an edit is its weight over the sum.
pub(super) const EDITS: [(Edit, u32); 8] = [
    (Edit::Move, 9),
    (Edit::Swap, 3),
    (Edit::AddDrop, 3),
    (Edit::AddShift, 2),
    (Edit::Remove, 3),
    (Edit::ChainAfter, 1),
    (Edit::ClearBefore, 1),
    (Edit::ReplaceDrop, 1),
];

const TOTAL_WEIGHT: u64 = {
    let mut total = 0;
    let mut k = 0;
    while k < EDITS.len() {
        total += EDITS[k].1 as u64;
        k += 1;
    }
    total
};

/// The most blocks `Edit::ChainAfter` lines up behind one drop.
const MAX_CHAIN: usize = 8;

/// What the edits know of the blocks: where each started, the blocks near it, and the lines of
/// blocks behind it.
pub(super) struct Layout {
    n: usize,
    home: Vec<usize>,
    /// Per block, the other blocks that started within 3 steps (rows plus columns) of it.
    near: Vec<Vec<u16>>,
    /// Per block and direction (`Dir::ALL`), the blocks met walking from its starting cell that
    /// way until a hole or the border.
    lines: Vec<[Vec<u16>; 4]>,
}

impl Layout {
    pub(super) fn new(search: &Search) -> Layout {
        let blocks = search.home.len();
        let n = search.n;
        let near = (0..blocks)
            .map(|b| {
                let (r, c) = (search.home[b] / n, search.home[b] % n);
                (0..blocks as u16)
                    .filter(|&x| {
                        let (xr, xc) = (search.home[x as usize] / n, search.home[x as usize] % n);
                        x as usize != b && r.abs_diff(xr) + c.abs_diff(xc) <= 3
                    })
                    .collect()
            })
            .collect();
        Layout {
            n,
            home: search.home.clone(),
            near,
            lines: lines_behind(search),
        }
    }
}

impl Edit {
    /// One edit, drawn with the chances of [`EDITS`].
    pub(super) fn draw(rng: &mut Rng) -> Edit {
        let mut left = rng.below(TOTAL_WEIGHT);
        for (edit, weight) in EDITS {
            if left < u64::from(weight) {
                return edit;
            }
            left -= u64::from(weight);
        }
        unreachable!("the draw is below the sum of the weights")
    }

    /// The fewest events an order needs for this edit to apply to it.
    pub(super) fn fewest_events(self) -> usize {
        match self {
            Edit::Move | Edit::Swap => 2,
            Edit::AddDrop => 0,
            Edit::AddShift
            | Edit::Remove
            | Edit::ChainAfter
            | Edit::ClearBefore
            | Edit::ReplaceDrop => 1,
        }
    }

    /// Makes the edit of `order` in `candidate` (a copy of `order` of at least
    /// [`Edit::fewest_events`]), its places and blocks drawn from `rng`; `None` if the drawn
    /// ones do not fit (`active`: the blocks the order drops).
    pub(super) fn apply(
        self,
        layout: &Layout,
        active: &[bool],
        order: &[u16],
        candidate: &mut Vec<u16>,
        rng: &mut Rng,
    ) -> Option<Change> {
        let len = candidate.len();
        let blocks = layout.home.len();
        Some(match self {
            Edit::Move => {
                let i = rng.range(0..len);
                let unit = match rng.below(2) {
                    0 => bound_events(&candidate[i..], &layout.home, layout.n),
                    _ => 1,
                };
                let last = len - unit;
                let j = if rng.below(5) == 0 {
                    rng.range(0..last + 1)
                } else {
                    let reach = 1 + rng.range(0..12);
                    (i + rng.range(0..2 * reach + 1))
                        .saturating_sub(reach)
                        .min(last)
                };
                move_events(candidate, i, unit, j)
            }
            Edit::Swap => {
                let i = rng.range(0..len);
                let j = (i + 1 + rng.range(0..3)).min(len - 1);
                candidate.swap(i, j);
                Change {
                    from: i.min(j),
                    until: i.max(j) + 1,
                    shift: 0,
                }
            }
            Edit::AddDrop => {
                let b = rng.range(0..blocks);
                if active[b] {
                    return None;
                }
                let j = rng.range(0..len + 1);
                insert_event(candidate, j, drop_event(b))
            }
            Edit::AddShift => {
                let i = rng.range(0..len);
                let b = block_of(candidate[i]);
                let &x = rng.choose(&layout.near[b])?;
                let shift = rng.below(SHIFTS.len() as u64) as u16;
                insert_event(candidate, i, shift_event(x, shift))
            }
            Edit::Remove => remove_event(candidate, rng.range(0..len)),
            Edit::ChainAfter => {
                let (i, line) = a_drop_and_a_line(layout, order, rng)?;
                if line.is_empty() {
                    return None;
                }
                let chain = &line[..1 + rng.range(0..line.len().min(MAX_CHAIN))];
                chain_after(order, i, chain, candidate)
            }
            Edit::ClearBefore => {
                let (i, line) = a_drop_and_a_line(layout, order, rng)?;
                if line.is_empty() || line.len() > MAX_CHAIN {
                    return None;
                }
                clear_before(order, i, line, candidate)
            }
            Edit::ReplaceDrop => {
                let i = rng.range(0..len);
                if !is_drop(order[i]) {
                    return None;
                }
                let b = rng.range(0..blocks);
                if active[b] {
                    return None;
                }
                candidate[i] = drop_event(b);
                Change {
                    from: i,
                    until: i + 1,
                    shift: 0,
                }
            }
        })
    }
}

/// A random event of `order` if it is a drop (`None` if not), and the line of blocks behind its
/// block in a random direction.
fn a_drop_and_a_line<'a>(
    layout: &'a Layout,
    order: &[u16],
    rng: &mut Rng,
) -> Option<(usize, &'a [u16])> {
    let i = rng.range(0..order.len());
    if !is_drop(order[i]) {
        return None;
    }
    let line = &layout.lines[block_of(order[i])][rng.range(0..Dir::ALL.len())];
    Some((i, line))
}

/// Per block and direction, the blocks met walking from its starting cell that way until a hole
/// or the border.
fn lines_behind(search: &Search) -> Vec<[Vec<u16>; 4]> {
    let block_at: std::collections::HashMap<usize, u16> = search
        .home
        .iter()
        .enumerate()
        .map(|(b, &c)| (c, b as u16))
        .collect();
    search
        .home
        .iter()
        .map(|&home| {
            Dir::ALL.map(|dir| {
                let mut line = Vec::new();
                let mut at = home;
                while let Some(next) = neighbour(search.n, at, dir) {
                    if search.start[next] == HOLE {
                        break;
                    }
                    if let Some(&b) = block_at.get(&next) {
                        line.push(b);
                    }
                    at = next;
                }
                line
            })
        })
        .collect()
}
