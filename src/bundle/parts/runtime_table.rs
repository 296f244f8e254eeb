//! Bundle-only: a static that the bundle fills at start-up, for a build-time table too big to
//! ship as a literal; it derefs to the crate's own array type, so solver code is unchanged.

use std::cell::UnsafeCell;
use std::mem::{size_of, MaybeUninit};
use std::ops::Deref;

/// An array of `A` (made of `u32`s only), in static memory, written once before any read.
pub struct Table<A>(UnsafeCell<MaybeUninit<A>>);

// SAFETY: the only write is `fill`, whose contract puts it before any read and on one thread;
// after it, the table is only read, from any thread.
unsafe impl<A: Sync> Sync for Table<A> {}

impl<A> Table<A> {
    /// An unfilled table.
    ///
    /// # Safety
    /// The table must be filled before the first deref.
    pub const unsafe fn new() -> Table<A> {
        Table(UnsafeCell::new(MaybeUninit::uninit()))
    }

    /// Writes the table's values: `runs` of `u32`s that together cover it in memory order.
    ///
    /// # Safety
    /// `A` must consist of `u32`s only, and no reference to the table may exist or be taken
    /// concurrently (fill it at start-up, before any use).
    pub unsafe fn fill<'w>(&self, runs: impl IntoIterator<Item = &'w [u32]>) {
        let (base, len) = (self.0.get().cast::<u32>(), size_of::<A>() / 4);
        let mut at = 0;
        for run in runs {
            assert!(at + run.len() <= len, "table size");
            // SAFETY: `at..at + run.len()` lies within the table, whose memory is writable and
            // unshared by the contract; a u32 is no more aligned than an `A` made of u32s.
            unsafe { std::ptr::copy_nonoverlapping(run.as_ptr(), base.add(at), run.len()) };
            at += run.len();
        }
        assert_eq!(at, len, "table size");
    }
}

impl<A> Deref for Table<A> {
    type Target = A;

    #[inline(always)]
    fn deref(&self) -> &A {
        // SAFETY: `new`'s contract has the table filled before this first runs, and nothing
        // writes it afterwards.
        unsafe { (*self.0.get()).assume_init_ref() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[repr(C, align(32))]
    struct Lanes([u32; 8]);

    // SAFETY: filled first thing in the test below, before any read.
    static LANES: Table<[Lanes; 2]> = unsafe { Table::new() };

    #[test]
    fn fills_in_memory_order_and_keeps_alignment() {
        let words: Vec<u32> = (0..16).collect();
        // SAFETY: `Lanes` is made of u32s; this is the only test touching `LANES`.
        unsafe { LANES.fill(words.chunks(5)) };
        assert_eq!(LANES[1].0, [8, 9, 10, 11, 12, 13, 14, 15]);
        assert_eq!(LANES.as_ptr() as usize % 32, 0);
    }

    #[test]
    #[should_panic(expected = "table size")]
    fn refuses_a_wrong_size() {
        // SAFETY: this table is never read.
        let table: Table<[u32; 3]> = unsafe { Table::new() };
        // SAFETY: `[u32; 3]` is made of u32s and `table` is local to this thread.
        unsafe { table.fill([&[1, 2][..]]) };
    }
}
