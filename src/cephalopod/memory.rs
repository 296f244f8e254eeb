//! Where the engine's buffers live: one pre-faultable mmap arena reserved at the worst case
//! (every non-full board up to symmetry in one layer), of which a run touches only what it uses.

use super::engine::{Buffers, TABLE_SLOTS};
use super::tables::{Lanes, MAX_LAYER_STATES};
use crate::core::arena::{prefault, Arena};

// SAFETY: `Lanes` is `repr(C)` over `[u32; 8]`: 32 bytes, no padding, every bit pattern valid.
unsafe impl bytemuck::Zeroable for Lanes {}
// SAFETY: as above; it is also `Copy` and `'static`.
unsafe impl bytemuck::Pod for Lanes {}

/// Address space the buffers need (about 343 MB, reserved but untouched until used).
pub fn arena_bytes() -> usize {
    let layer = MAX_LAYER_STATES * (4 + std::mem::size_of::<Lanes>());
    2 * layer + 8 * TABLE_SLOTS + 4096
}

pub fn arena() -> Arena {
    Arena::new(arena_bytes())
}

pub fn buffers(arena: &Arena) -> Buffers<'_> {
    Buffers {
        states: [
            arena.alloc_slice(MAX_LAYER_STATES),
            arena.alloc_slice(MAX_LAYER_STATES),
        ],
        counts: [
            arena.alloc_slice(MAX_LAYER_STATES),
            arena.alloc_slice(MAX_LAYER_STATES),
        ],
        slots: arena.alloc_slice(TABLE_SLOTS),
    }
}

/// Makes resident the pages a layer of up to `states` states uses, so that no page fault
/// lands inside the timed loop.
pub fn prefault_for(buffers: &mut Buffers, states: usize) {
    let states = states.min(MAX_LAYER_STATES);
    for layer in &mut buffers.states {
        prefault(&mut layer[..states]);
    }
    for layer in &mut buffers.counts {
        prefault(&mut layer[..states]);
    }
    let slots = (4 * states).next_power_of_two().min(TABLE_SLOTS);
    prefault(&mut buffers.slots[..slots]);
}

/// Cases whose depth is at most this have small layers (the empty board's widest at depth 8 is
/// 185 states): the huge-page hint would only make the kernel zero 2 MiB pages they never fill.
pub const SMALL_CASE_DEPTH: u32 = 8;

/// Whether a case at `depth` is small (see `SMALL_CASE_DEPTH`); a full board has no moves.
pub fn is_small(depth: u32, empty_cells: u32) -> bool {
    depth <= SMALL_CASE_DEPTH || empty_cells == 0
}

/// Blocks at least this big get the huge-page hint from the pip engine.
const HUGE_HINT_FROM_BYTES: usize = 4 << 20;

/// The huge-page hint for one of the pip engine's fresh blocks, if it is big enough to pay.
pub fn hint_huge_pages(start: *const u8, bytes: usize) {
    if bytes >= HUGE_HINT_FROM_BYTES {
        crate::core::arena::hint_huge_pages(start, bytes);
    }
}
