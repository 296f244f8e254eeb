//! Bump arena over one anonymous memory mapping, for solvers that size every big array once.
//! [`prefault`] makes a slice's pages resident so no page fault lands inside a timed loop.

use std::alloc::{self, Layout};
use std::cell::Cell;
use std::fmt;
use std::mem::{align_of, size_of};
use std::ptr::NonNull;

use bytemuck::Pod;
use memmap2::{MmapMut, MmapOptions};

/// The huge page size the arena aligns its mapping to and hints for.
pub const HUGE_PAGE_BYTES: usize = 2 << 20;
const HEAP_ALIGN: usize = 4096;
const MIN_SLICE_ALIGN: usize = 64;
/// The smallest page size of any supported target: stepping by it reaches every page.
const TOUCH_STRIDE: usize = 4096;

/// Linux 5.14+; older kernels answer EINVAL and [`prefault`] falls back to touching pages.
#[cfg(target_os = "linux")]
const MADV_POPULATE_WRITE: libc::c_int = 23;

#[expect(
    dead_code,
    reason = "the memory owner is only ever dropped, never read"
)]
enum Backing {
    Mapped(MmapMut),
    Heap(HeapBlock),
}

/// A zeroed heap block used when the kernel refuses the mapping.
struct HeapBlock {
    ptr: NonNull<u8>,
    layout: Layout,
}

impl Drop for HeapBlock {
    fn drop(&mut self) {
        // SAFETY: `ptr` came from `alloc_zeroed(layout)` with this very layout and is freed once.
        unsafe { alloc::dealloc(self.ptr.as_ptr(), self.layout) }
    }
}

/// A fixed reservation handed out front to back; memory is released only when the arena drops.
///
/// Slices borrow the arena, so it cannot be dropped or moved while any of them is alive.
pub struct Arena {
    /// First usable byte: 2 MiB aligned when mapped, 4096 aligned on the heap.
    base: NonNull<u8>,
    capacity: usize,
    used: Cell<usize>,
    backing: Backing,
}

// SAFETY: the arena owns its memory exclusively and every slice borrows the arena, so moving it
// to another thread can only happen while no slice is alive. `Cell` still keeps it `!Sync`.
unsafe impl Send for Arena {}

fn rounded_capacity(bytes: usize) -> usize {
    bytes
        .max(1)
        .checked_next_multiple_of(HUGE_PAGE_BYTES)
        .expect("arena size overflows usize")
}

impl Arena {
    /// Reserves at least `bytes` (rounded up to 2 MiB), mapped if the kernel allows, else on the heap.
    ///
    /// The mapping uses `MAP_NORESERVE`: a solver reserves its worst case, and untouched pages
    /// should cost neither memory nor swap accounting (heuristic overcommit could otherwise
    /// refuse a large reservation that is mostly never used).
    pub fn new(bytes: usize) -> Arena {
        let capacity = rounded_capacity(bytes);
        let mapped = capacity.checked_add(HUGE_PAGE_BYTES).and_then(|map_len| {
            MmapOptions::new()
                .len(map_len)
                .no_reserve_swap()
                .map_anon()
                .ok()
        });
        let Some(mut map) = mapped else {
            return Arena::heap(bytes);
        };
        let map_addr = map.as_ptr() as usize;
        let align_skip = map_addr.next_multiple_of(HUGE_PAGE_BYTES) - map_addr;
        let base = NonNull::new(map[align_skip..].as_mut_ptr()).expect("mapping is never null");
        #[cfg(target_os = "linux")]
        {
            // Only a hint: kernels without transparent huge pages just keep 4 KiB pages.
            let _ = map.advise_range(memmap2::Advice::HugePage, align_skip, capacity);
        }
        Arena {
            base,
            capacity,
            used: Cell::new(0),
            backing: Backing::Mapped(map),
        }
    }

    /// The fallback of [`Arena::new`]: a zeroed, 4096-aligned heap block of the same rounded size.
    pub(crate) fn heap(bytes: usize) -> Arena {
        let capacity = rounded_capacity(bytes);
        let layout = Layout::from_size_align(capacity, HEAP_ALIGN).expect("arena size too large");
        // SAFETY: `layout` has a non-zero size (capacity >= 2 MiB).
        let raw = unsafe { alloc::alloc_zeroed(layout) };
        let Some(ptr) = NonNull::new(raw) else {
            alloc::handle_alloc_error(layout);
        };
        Arena {
            base: ptr,
            capacity,
            used: Cell::new(0),
            backing: Backing::Heap(HeapBlock { ptr, layout }),
        }
    }

    pub fn is_mmap(&self) -> bool {
        matches!(self.backing, Backing::Mapped(_))
    }

    /// Withdraws the huge-page hint from the whole reservation, for a run that will touch only a
    /// little of it: its first touches then fault 4 KiB pages instead of zeroing 2 MiB ones.
    pub fn prefer_small_pages(&self) {
        #[cfg(target_os = "linux")]
        if let Backing::Mapped(map) = &self.backing {
            let offset = self.base.as_ptr() as usize - map.as_ptr() as usize;
            // Only a hint: a refusal leaves the huge-page hint in place.
            let _ = map.advise_range(memmap2::Advice::NoHugePage, offset, self.capacity);
        }
    }

    /// Bytes handed out so far, alignment padding included.
    pub fn used(&self) -> usize {
        self.used.get()
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Returns `len` zeroed elements aligned to at least 64 bytes (a cache line).
    ///
    /// Empty requests take no space. Panics when the reservation is exhausted: the arena was
    /// sized too small for the solver's worst case.
    #[allow(clippy::mut_from_ref)]
    pub fn alloc_slice<T: Pod>(&self, len: usize) -> &mut [T] {
        let size_bytes = len
            .checked_mul(size_of::<T>())
            .unwrap_or_else(|| panic!("arena request of {len} elements overflows usize"));
        if size_bytes == 0 {
            // SAFETY: a slice covering zero bytes may use any non-null, aligned pointer.
            return unsafe {
                std::slice::from_raw_parts_mut(NonNull::<T>::dangling().as_ptr(), len)
            };
        }
        let align = align_of::<T>().max(MIN_SLICE_ALIGN);
        let base_addr = self.base.as_ptr() as usize;
        let start = (base_addr + self.used.get())
            .checked_next_multiple_of(align)
            .map(|aligned_addr| aligned_addr - base_addr);
        let end = start.and_then(|start| start.checked_add(size_bytes));
        let (Some(start), Some(end)) = (start, end) else {
            panic!("arena request of {size_bytes} bytes overflows the address space");
        };
        if end > self.capacity {
            panic!(
                "arena exhausted: {size_bytes} bytes requested (align {align}), {} of {} bytes used",
                self.used.get(),
                self.capacity
            );
        }
        self.used.set(end);
        // SAFETY: `start..end` lies inside the reservation, which stays valid while `self` is
        // borrowed. The bump offset only grows, so this range is disjoint from every earlier
        // slice and is never handed out again. The memory was zeroed at creation and never
        // written since, and all-zero bytes are a valid `T` because `T: Pod`. `start` is a
        // multiple of `align` counted from an address, so the pointer is aligned for `T`.
        unsafe { std::slice::from_raw_parts_mut(self.base.as_ptr().add(start).cast::<T>(), len) }
    }

    /// As [`Arena::alloc_slice`], placed so that the slice's first `small_bytes` (below 2 MiB)
    /// end on a 2 MiB boundary of a mapped arena, for [`hint_huge_pages_past`]. The padding
    /// skipped costs address space only (at most 2 MiB a slice).
    #[allow(clippy::mut_from_ref)]
    pub fn alloc_slice_huge_after<T: Pod>(&self, len: usize, small_bytes: usize) -> &mut [T] {
        let used = self
            .used()
            .next_multiple_of(align_of::<T>().max(MIN_SLICE_ALIGN));
        let start = HUGE_PAGE_BYTES - small_bytes % HUGE_PAGE_BYTES;
        let pad = (start + HUGE_PAGE_BYTES - used % HUGE_PAGE_BYTES) % HUGE_PAGE_BYTES;
        if pad > 0 {
            self.alloc_slice::<u8>(pad);
        }
        self.alloc_slice(len)
    }
}

impl fmt::Debug for Arena {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Arena")
            .field("used", &self.used())
            .field("capacity", &self.capacity)
            .field("is_mmap", &self.is_mmap())
            .finish()
    }
}

/// Asks for huge pages on the whole 2 MiB pages inside `bytes` bytes from `start`, a fresh,
/// untouched block the caller owns (malloc maps big blocks afresh; a `Vec`'s reserved capacity
/// counts), so its first touches fault 2 MiB at a time instead of 4 KiB. Only a hint.
pub fn hint_huge_pages(start: *const u8, bytes: usize) {
    #[cfg(target_os = "linux")]
    {
        let first = (start as usize).next_multiple_of(HUGE_PAGE_BYTES);
        let end = (start as usize).saturating_add(bytes) / HUGE_PAGE_BYTES * HUGE_PAGE_BYTES;
        if end > first {
            // SAFETY: `first..end` is whole pages inside the caller's own block; MADV_HUGEPAGE
            // changes neither contents nor access, and a refusal just leaves small pages.
            unsafe {
                libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
            }
        }
    }
}

/// Asks for huge pages on `slice` past its first `small_bytes` (see [`hint_huge_pages`]):
/// a run that touches only the start pays small pages, one that goes further gets 2 MiB ones.
pub fn hint_huge_pages_past<T>(slice: &[T], small_bytes: usize) {
    let bytes = std::mem::size_of_val(slice);
    if bytes > small_bytes {
        hint_huge_pages(
            slice.as_ptr().cast::<u8>().wrapping_add(small_bytes),
            bytes - small_bytes,
        );
    }
}

/// Makes every page under `slice` resident and writable, leaving its contents unchanged.
///
/// Call it before timing starts. Works for any slice, page aligned or not, mapped or on the heap.
pub fn prefault<T: Pod>(slice: &mut [T]) {
    if std::mem::size_of_val(slice) == 0 {
        return;
    }
    let bytes: &mut [u8] = bytemuck::cast_slice_mut(slice);
    #[cfg(target_os = "linux")]
    if populate_write(bytes) {
        return;
    }
    touch_each_page(bytes);
}

#[cfg(target_os = "linux")]
fn page_size() -> usize {
    // SAFETY: sysconf only reads a system constant.
    let reported = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    usize::try_from(reported)
        .ok()
        .filter(|size| size.is_power_of_two())
        .unwrap_or(TOUCH_STRIDE)
}

/// Asks the kernel to fault in the pages `bytes` overlaps; false if it declined.
#[cfg(target_os = "linux")]
fn populate_write(bytes: &mut [u8]) -> bool {
    let page = page_size();
    let start_addr = bytes.as_mut_ptr() as usize;
    let first_page = start_addr - start_addr % page;
    let Some(end_page) = (start_addr + bytes.len()).checked_next_multiple_of(page) else {
        return false;
    };
    // SAFETY: the range covers exactly the pages that `bytes` overlaps; they are mapped and
    // writable because `bytes` is a live `&mut` slice. MADV_POPULATE_WRITE only fills page
    // tables as a write fault would and never changes memory contents, so other objects sharing
    // the first or last page are untouched.
    let status = unsafe {
        libc::madvise(
            first_page as *mut libc::c_void,
            end_page - first_page,
            MADV_POPULATE_WRITE,
        )
    };
    status == 0
}

/// Rewrites one byte per 4096-byte page with its own value, forcing a write fault on each page.
pub(crate) fn touch_each_page(bytes: &mut [u8]) {
    let start_addr = bytes.as_ptr() as usize;
    let mut offset = 0;
    while offset < bytes.len() {
        let byte: *mut u8 = &mut bytes[offset];
        // SAFETY: `byte` points into the live, exclusively borrowed `bytes`; writing back the
        // value just read leaves the contents unchanged, and volatile keeps the write from being
        // optimised away.
        unsafe { byte.write_volatile(byte.read_volatile()) };
        offset = (start_addr + offset + 1).next_multiple_of(TOUCH_STRIDE) - start_addr;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_after_places_the_first_bytes_before_a_huge_page_boundary() {
        let arena = Arena::new(8 * HUGE_PAGE_BYTES);
        if !arena.is_mmap() {
            return; // only the mapping is 2 MiB aligned
        }
        arena.alloc_slice::<u8>(100);
        for small in [0, 4096, 512 << 10] {
            let slice = arena.alloc_slice_huge_after::<u64>(1000, small);
            assert_eq!(
                (slice.as_ptr() as usize + small) % HUGE_PAGE_BYTES,
                0,
                "{small}"
            );
            assert!(slice.iter().all(|&x| x == 0));
        }
    }

    #[test]
    fn capacity_rounds_up_to_huge_pages() {
        let arena = Arena::new(1);
        assert_eq!(arena.capacity(), HUGE_PAGE_BYTES);
        assert_eq!(
            Arena::new(HUGE_PAGE_BYTES + 1).capacity(),
            2 * HUGE_PAGE_BYTES
        );
        assert_eq!(arena.used(), 0);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn new_maps_on_linux_and_heap_does_not() {
        assert!(Arena::new(1 << 20).is_mmap());
        assert!(!Arena::heap(1 << 20).is_mmap());
    }

    #[test]
    fn slices_are_aligned_to_a_cache_line_at_least() {
        #[derive(Clone, Copy, bytemuck::Zeroable, bytemuck::Pod)]
        #[repr(C, align(256))]
        struct Wide {
            bytes: [u8; 256],
        }
        for arena in [Arena::new(1 << 20), Arena::heap(1 << 20)] {
            let odd = arena.alloc_slice::<u8>(3);
            assert_eq!(odd.as_ptr() as usize % 64, 0);
            let words = arena.alloc_slice::<u64>(5);
            assert_eq!(words.as_ptr() as usize % 64, 0);
            let _ = arena.alloc_slice::<u8>(1);
            let wide = arena.alloc_slice::<Wide>(2);
            assert_eq!(wide.as_ptr() as usize % 256, 0);
            assert_eq!(wide.len(), 2);
        }
    }

    #[test]
    fn slices_start_zeroed() {
        for arena in [Arena::new(4 << 20), Arena::heap(4 << 20)] {
            let words = arena.alloc_slice::<u64>(300_000);
            assert!(words.iter().all(|&word| word == 0));
            let bytes = arena.alloc_slice::<u8>(12345);
            assert!(bytes.iter().all(|&byte| byte == 0));
        }
    }

    #[test]
    fn live_slices_are_disjoint() {
        for arena in [Arena::new(1 << 20), Arena::heap(1 << 20)] {
            let first = arena.alloc_slice::<u32>(1000);
            let second = arena.alloc_slice::<u32>(1000);
            first.fill(0xdead_beef);
            assert!(second.iter().all(|&value| value == 0));
            second.fill(7);
            assert!(first.iter().all(|&value| value == 0xdead_beef));
            assert!(arena.used() >= 8000);
        }
    }

    #[test]
    fn empty_requests_take_no_space() {
        let arena = Arena::new(1);
        assert!(arena.alloc_slice::<u64>(0).is_empty());
        assert_eq!(arena.alloc_slice::<()>(10).len(), 10);
        assert_eq!(arena.used(), 0);
    }

    #[test]
    fn whole_capacity_can_be_used() {
        let arena = Arena::new(1);
        let all = arena.alloc_slice::<u8>(arena.capacity());
        all[all.len() - 1] = 1;
        assert_eq!(arena.used(), arena.capacity());
    }

    #[test]
    #[should_panic(expected = "arena exhausted")]
    fn exhaustion_panics() {
        let arena = Arena::new(1);
        let _ = arena.alloc_slice::<u8>(arena.capacity() - 10);
        let _ = arena.alloc_slice::<u8>(100);
    }

    #[test]
    #[should_panic(expected = "arena exhausted")]
    fn exhaustion_panics_on_heap() {
        let arena = Arena::heap(1);
        let _ = arena.alloc_slice::<u64>(arena.capacity() / 8 + 1);
    }

    #[test]
    fn prefault_keeps_contents_of_unaligned_subslices() {
        for arena in [Arena::new(1 << 20), Arena::heap(1 << 20)] {
            let words = arena.alloc_slice::<u32>(100_000);
            for (index, word) in words.iter_mut().enumerate() {
                *word = (index as u32).wrapping_mul(2_654_435_761);
            }
            prefault(&mut words[1..]);
            prefault(&mut words[1023..1025]);
            prefault(&mut words[3..3]);
            prefault(words);
            for (index, &word) in words.iter().enumerate() {
                assert_eq!(word, (index as u32).wrapping_mul(2_654_435_761));
            }
        }
    }

    #[test]
    fn prefault_works_on_ordinary_heap_memory() {
        let mut values: Vec<u16> = (0..50_000).collect();
        prefault(&mut values[17..40_001]);
        assert!(values.iter().enumerate().all(|(i, &v)| v as usize == i));
    }

    #[test]
    fn page_touching_fallback_keeps_contents() {
        let arena = Arena::heap(1 << 20);
        let bytes = arena.alloc_slice::<u8>(3 * TOUCH_STRIDE + 500);
        for (index, byte) in bytes.iter_mut().enumerate() {
            *byte = (index % 251) as u8;
        }
        touch_each_page(&mut bytes[1..]);
        touch_each_page(&mut bytes[TOUCH_STRIDE - 1..TOUCH_STRIDE + 1]);
        touch_each_page(&mut bytes[5..5]);
        touch_each_page(bytes);
        assert!(bytes
            .iter()
            .enumerate()
            .all(|(index, &byte)| byte == (index % 251) as u8));
    }

    #[cfg(target_os = "linux")]
    fn resident_page_count(bytes: &[u8]) -> usize {
        let page = page_size();
        let start_addr = bytes.as_ptr() as usize;
        let first_page = start_addr - start_addr % page;
        let end_page = (start_addr + bytes.len()).next_multiple_of(page);
        let mut residency = vec![0u8; (end_page - first_page) / page];
        // SAFETY: the range covers mapped pages under a live slice, and `residency` holds one
        // byte per page as mincore requires.
        let status = unsafe {
            libc::mincore(
                first_page as *mut libc::c_void,
                end_page - first_page,
                residency.as_mut_ptr(),
            )
        };
        assert_eq!(status, 0, "mincore failed");
        residency.iter().filter(|&&flags| flags & 1 != 0).count()
    }

    /// A fresh mapping of small pages only, none of them resident yet.
    #[cfg(target_os = "linux")]
    fn small_page_mapping(pages: usize) -> MmapMut {
        let mapping = MmapOptions::new()
            .len(pages * page_size())
            .map_anon()
            .unwrap();
        mapping.advise(memmap2::Advice::NoHugePage).unwrap();
        assert_eq!(resident_page_count(&mapping), 0);
        mapping
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn prefault_and_fallback_make_every_page_resident() {
        let page = page_size();
        for use_fallback in [false, true] {
            let mut mapping = small_page_mapping(64);
            let unaligned = &mut mapping[page + 17..40 * page + 100];
            if use_fallback {
                touch_each_page(unaligned);
            } else {
                prefault(unaligned);
            }
            assert_eq!(resident_page_count(unaligned), 40);
            assert!(unaligned.iter().all(|&byte| byte == 0));
            assert_eq!(resident_page_count(&mapping[41 * page..]), 0);
        }
    }
}
