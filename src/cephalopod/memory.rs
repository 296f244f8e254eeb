//! Where the engine's buffers live: one pre-faultable mmap arena reserved at the worst case
//! (every non-full board up to symmetry in one layer), of which a run touches only what it uses.

use super::engine::{Buffers, TABLE_SLOTS};
use super::tables::{Lanes, MAX_LAYER_STATES};
use crate::core::arena::{hint_huge_pages_past, prefault, Arena, HUGE_PAGE_BYTES};

// SAFETY: `Lanes` is `repr(C)` over `[u32; 8]`: 32 bytes, no padding, every bit pattern valid.
unsafe impl bytemuck::Zeroable for Lanes {}
// SAFETY: as above; it is also `Copy` and `'static`.
unsafe impl bytemuck::Pod for Lanes {}

/// Address space the buffers need (about 353 MB, reserved but untouched until used): the
/// buffers and the padding that places each one (see `buffers`).
pub fn arena_bytes() -> usize {
    let layer = MAX_LAYER_STATES * (4 + std::mem::size_of::<Lanes>());
    2 * layer + 8 * TABLE_SLOTS + 4096 + BUFFERS * HUGE_PAGE_BYTES
}

pub fn arena() -> Arena {
    Arena::new(arena_bytes())
}

/// The buffers, each placed `SMALL_PAGES_FIRST_BYTES` before a 2 MiB boundary of the arena
/// (whose base is 2 MiB aligned when mapped), so that `small_pages_first` can give huge pages
/// to everything past a buffer's first `SMALL_PAGES_FIRST_BYTES`.
pub fn buffers(arena: &Arena) -> Buffers<'_> {
    let states_0 = arena.alloc_slice_huge_after(MAX_LAYER_STATES, SMALL_PAGES_FIRST_BYTES);
    let states_1 = arena.alloc_slice_huge_after(MAX_LAYER_STATES, SMALL_PAGES_FIRST_BYTES);
    let counts_0 = arena.alloc_slice_huge_after(MAX_LAYER_STATES, SMALL_PAGES_FIRST_BYTES);
    let counts_1 = arena.alloc_slice_huge_after(MAX_LAYER_STATES, SMALL_PAGES_FIRST_BYTES);
    let slots = arena.alloc_slice_huge_after(TABLE_SLOTS, SMALL_PAGES_FIRST_BYTES);
    Buffers {
        states: [states_0, states_1],
        counts: [counts_0, counts_1],
        slots,
    }
}

/// How many buffers `buffers` places.
const BUFFERS: usize = 5;

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

/// Under `auto`, each buffer's first this many bytes stay in small pages (a small game touches
/// only them); past them, 2 MiB pages get the huge-page hint (`buffers` places each buffer
/// so that its first huge page starts right there).
const SMALL_PAGES_FIRST_BYTES: usize = 512 << 10;

/// Withdraws the arena's huge-page hint from the first `SMALL_PAGES_FIRST_BYTES` of each of
/// `buffers` and keeps it past them. Measured (docs/cephalopod.md, ceph12): a layered run kept
/// wholly in small pages cost 1.1-1.35x the same run in huge pages on games with layers of
/// 40 k-100 k states (the table and counts rows are read at random: page faults and TLB
/// misses), while a tiny game given huge pages pays 2 MiB of zeroing per buffer it touches.
pub fn small_pages_first(arena: &Arena, buffers: &Buffers) {
    arena.prefer_small_pages();
    let Buffers {
        states,
        counts,
        slots,
    } = buffers;
    for states in states {
        hint_huge_pages_past(states, SMALL_PAGES_FIRST_BYTES);
    }
    for counts in counts {
        hint_huge_pages_past(counts, SMALL_PAGES_FIRST_BYTES);
    }
    hint_huge_pages_past(slots, SMALL_PAGES_FIRST_BYTES);
}

/// Blocks at least this big get the huge-page hint from the pip engine.
const HUGE_HINT_FROM_BYTES: usize = 4 << 20;

/// The huge-page hint for one of the pip engine's fresh blocks, if it is big enough to pay.
pub fn hint_huge_pages(start: *const u8, bytes: usize) {
    if bytes >= HUGE_HINT_FROM_BYTES {
        crate::core::arena::hint_huge_pages(start, bytes);
    }
}
