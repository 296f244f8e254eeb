//! The events a plan is an order of: drop one block along its shortest path, or shift one block
//! a single move or slide aside; each is one `u16`.

use crate::slider::board::{Dir, Kind};

/// An event is `block * EVENT_KINDS + action`: action 0 drops the block along its shortest path,
/// action 1 + k plays `SHIFTS[k]` once (moving a block aside; it counts as a drop if it falls).
pub(super) const EVENT_KINDS: u16 = 9;
pub(super) const SHIFTS: [(Kind, Dir); 8] = [
    (Kind::Move, Dir::Up),
    (Kind::Move, Dir::Down),
    (Kind::Move, Dir::Left),
    (Kind::Move, Dir::Right),
    (Kind::Slide, Dir::Up),
    (Kind::Slide, Dir::Down),
    (Kind::Slide, Dir::Left),
    (Kind::Slide, Dir::Right),
];

pub(super) fn drop_event(block: usize) -> u16 {
    block as u16 * EVENT_KINDS
}

/// The event that plays `SHIFTS[shift]` on `block`.
pub(super) fn shift_event(block: u16, shift: u16) -> u16 {
    block * EVENT_KINDS + 1 + shift
}

pub(super) fn is_drop(event: u16) -> bool {
    action(event) == 0
}

pub(super) fn block_of(event: u16) -> usize {
    (event / EVENT_KINDS) as usize
}

/// 0 for a drop, 1 + k for `SHIFTS[k]`.
pub(super) fn action(event: u16) -> u16 {
    event % EVENT_KINDS
}
