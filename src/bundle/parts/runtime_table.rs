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

    /// The table's memory as u32s, in memory order, for its one writer (not yet written).
    ///
    /// # Safety
    /// `A` must consist of `u32`s only; call it once, before any deref, on one thread, and
    /// write every word before the table is read.
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn words(&'static self) -> &'static mut [u32] {
        // SAFETY: the memory is the static's own, `size_of::<A>()` bytes of u32s (any bytes
        // are a u32, and bss starts zeroed), and by the contract nothing else refers to it.
        unsafe { std::slice::from_raw_parts_mut(self.0.get().cast::<u32>(), size_of::<A>() / 4) }
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

    // SAFETY: written first thing in the test below, before any read.
    static LANES: Table<[Lanes; 2]> = unsafe { Table::new() };

    #[test]
    fn hands_out_its_memory_as_words_and_keeps_alignment() {
        // SAFETY: `Lanes` is made of u32s; this is the only test touching `LANES`.
        let words = unsafe { LANES.words() };
        assert_eq!(words.len(), 16);
        for (i, word) in words.iter_mut().enumerate() {
            *word = i as u32;
        }
        assert_eq!(LANES[1].0, [8, 9, 10, 11, 12, 13, 14, 15]);
        assert_eq!(LANES.as_ptr() as usize % 32, 0);
    }
}
