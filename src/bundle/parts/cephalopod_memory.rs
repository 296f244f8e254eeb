//! Bundle-only stand-in for `cephalopod::memory`: the engine's buffers in one zeroed heap block,
//! with no crate; the kernel hands out its pages lazily, so a run touches only what it uses.

use crate::cephalopod::engine::{Buffers, TABLE_SLOTS};
use crate::cephalopod::tables::{Lanes, MAX_LAYER_STATES};
use std::alloc::{alloc_zeroed, dealloc, handle_alloc_error, Layout};
use std::cell::Cell;
use std::mem::{align_of, size_of};

/// Where the buffers start (a huge-page boundary) and how each is aligned (a cache line).
const BLOCK_ALIGN: usize = 2 << 20;
const SLICE_ALIGN: usize = 64;

/// Address space the buffers need, as in the crate.
pub fn arena_bytes() -> usize {
    let layer = MAX_LAYER_STATES * (4 + size_of::<Lanes>());
    2 * layer + 8 * TABLE_SLOTS + 4096
}

/// One zeroed block, handed out front to back from its first huge-page boundary `base`.
pub struct Arena {
    block: *mut u8,
    layout: Layout,
    base: *mut u8,
    capacity: usize,
    used: Cell<usize>,
}

pub fn arena() -> Arena {
    // A 16-byte alignment lets the allocator take a block this big from calloc, whose fresh
    // mmap pages are zero already; a stricter one would be memset, touching every page. So the
    // block is over-allocated and aligned by hand.
    let layout = Layout::from_size_align(arena_bytes() + BLOCK_ALIGN, 16).expect("arena layout");
    // SAFETY: the layout's size is not zero.
    let block = unsafe { alloc_zeroed(layout) };
    if block.is_null() {
        handle_alloc_error(layout);
    }
    let skip = (BLOCK_ALIGN - block as usize % BLOCK_ALIGN) % BLOCK_ALIGN;
    // SAFETY: `skip` is below BLOCK_ALIGN, within the over-allocation.
    let base = unsafe { block.add(skip) };
    let capacity = layout.size() - skip;
    advise_huge_pages(base, capacity - capacity % BLOCK_ALIGN);
    Arena {
        block,
        layout,
        base,
        capacity,
        used: Cell::new(0),
    }
}

/// Gives Linux `advice` (`madvise`) on `len` bytes from `start`, whole 2 MiB pages of ours, as
/// the crate's arena does. libc is no crate here, but std links it anyway.
#[cfg(target_os = "linux")]
fn advise(start: *mut u8, len: usize, advice: std::os::raw::c_int) {
    use std::os::raw::{c_int, c_void};
    extern "C" {
        fn madvise(addr: *mut c_void, len: usize, advice: c_int) -> c_int;
    }
    // SAFETY: the range is page aligned and inside our own block; the page-size hints change
    // neither contents nor access rights, and a failure (an old kernel) changes nothing.
    unsafe { madvise(start.cast(), len, advice) };
}

#[cfg(not(target_os = "linux"))]
fn advise(_start: *mut u8, _len: usize, _advice: std::os::raw::c_int) {}

/// Huge pages for `len` bytes at `start`: a hint that saves TLB misses in the big layers.
fn advise_huge_pages(start: *mut u8, len: usize) {
    const MADV_HUGEPAGE: std::os::raw::c_int = 14;
    advise(start, len, MADV_HUGEPAGE);
}

/// Withdraws the huge-page hint from `len` bytes at `start`.
fn advise_small_pages(start: *mut u8, len: usize) {
    const MADV_NOHUGEPAGE: std::os::raw::c_int = 15;
    advise(start, len, MADV_NOHUGEPAGE);
}

/// Cases whose depth is at most this have small layers, as in the crate.
pub const SMALL_CASE_DEPTH: u32 = 8;

/// Whether a case at `depth` is small, as in the crate; a full board has no moves.
pub fn is_small(depth: u32, empty_cells: u32) -> bool {
    depth <= SMALL_CASE_DEPTH || empty_cells == 0
}

impl Drop for Arena {
    fn drop(&mut self) {
        // SAFETY: `block` came from `alloc_zeroed(layout)` and is freed only here.
        unsafe { dealloc(self.block, self.layout) }
    }
}

impl Arena {
    /// Small pages for the whole arena, as the crate's judge path asks under `auto`: the layered
    /// BFS there only runs games too small or short for huge pages to pay.
    pub fn prefer_small_pages(&self) {
        advise_small_pages(self.base, self.capacity - self.capacity % BLOCK_ALIGN);
    }

    /// `len` zeroed `T`s after everything handed out before.
    ///
    /// # Safety
    /// All-zero bytes must be a valid `T`.
    #[allow(clippy::mut_from_ref)]
    unsafe fn take<T>(&self, len: usize) -> &mut [T] {
        let align = align_of::<T>().max(SLICE_ALIGN);
        let start = (self.used.get() + align - 1) & !(align - 1);
        let end = start + len * size_of::<T>();
        assert!(end <= self.capacity, "arena exhausted");
        self.used.set(end);
        // SAFETY: `start..end` lies in the block, after every earlier slice and never handed
        // out again, so the slice is unaliased for as long as the arena is borrowed; the block
        // is zeroed, which the caller says is a valid `T`; `base` is 2 MiB aligned and `start`
        // a multiple of `align`, itself a multiple of T's alignment.
        unsafe { std::slice::from_raw_parts_mut(self.base.add(start).cast(), len) }
    }
}

pub fn buffers(arena: &Arena) -> Buffers<'_> {
    // SAFETY: zero is a valid u32, u64 and `Lanes` (eight u32s).
    unsafe {
        Buffers {
            states: [arena.take(MAX_LAYER_STATES), arena.take(MAX_LAYER_STATES)],
            counts: [arena.take(MAX_LAYER_STATES), arena.take(MAX_LAYER_STATES)],
            slots: arena.take(TABLE_SLOTS),
        }
    }
}

/// Writes each 4096-byte page of `slice` once, leaving its contents as they were.
fn touch_pages<T: Copy>(slice: &mut [T]) {
    let step = (4096 / size_of::<T>()).max(1);
    for x in slice.iter_mut().step_by(step) {
        *x = std::hint::black_box(*x);
    }
}

/// Makes resident the pages a layer of up to `states` states uses, as in the crate.
pub fn prefault_for(buffers: &mut Buffers, states: usize) {
    let states = states.min(MAX_LAYER_STATES);
    for layer in &mut buffers.states {
        touch_pages(&mut layer[..states]);
    }
    for layer in &mut buffers.counts {
        touch_pages(&mut layer[..states]);
    }
    let slots = (2 * states).next_power_of_two().min(TABLE_SLOTS);
    touch_pages(&mut buffers.slots[..slots]);
}

/// As in the crate: the huge-page hint on the whole 2 MiB pages inside a fresh heap block of at
/// least 4 MiB.
pub fn hint_huge_pages(start: *const u8, bytes: usize) {
    if bytes >= 4 << 20 {
        let first = start as usize + (BLOCK_ALIGN - start as usize % BLOCK_ALIGN) % BLOCK_ALIGN;
        let end = (start as usize + bytes) / BLOCK_ALIGN * BLOCK_ALIGN;
        advise_huge_pages(first as *mut u8, end - first);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cephalopod::{cases, engine, select, Engine, KernelChoice};

    #[test]
    fn small_cases_are_the_crates() {
        for (depth, empty) in [(1, 5), (8, 9), (9, 9), (40, 1), (40, 0)] {
            assert_eq!(
                is_small(depth, empty),
                crate::cephalopod::memory::is_small(depth, empty),
                "depth {depth}, {empty} empty"
            );
        }
    }

    #[test]
    fn the_huge_page_hint_keeps_a_block_as_it_was() {
        let mut block = vec![7u32; 3 << 20];
        hint_huge_pages(block.as_ptr().cast(), 4 * block.len());
        block[1 << 20] = 9;
        assert_eq!(block.iter().filter(|&&x| x == 7).count(), (3 << 20) - 1);
    }

    #[test]
    fn buffers_are_aligned_zeroed_and_solve_as_the_crate_does() {
        let arena = arena();
        arena.prefer_small_pages();
        let mut buffers = buffers(&arena);
        assert_eq!(buffers.counts[1].as_ptr() as usize % 32, 0);
        assert!(buffers.slots[..1 << 16].iter().all(|&s| s == 0));
        prefault_for(&mut buffers, 1000);
        let mut engine = Engine::new(buffers);
        let kernel = select(KernelChoice::Auto).unwrap();
        for case in cases::all().iter().filter(|c| c.problem.depth <= 20) {
            let answer = engine::run(&mut engine, kernel, case.board(), case.problem.depth, None);
            assert_eq!(answer, case.expected, "{}", case.id);
        }
    }
}
