//! Software prefetch: a hint to bring a cache line in ahead of a dependent random access.
//! A no-op on targets without a prefetch instruction.

#[inline(always)]
pub fn prefetch_read<T>(address: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetch never faults, whatever the address; SSE is part of the x86_64 baseline.
    #[allow(unused_unsafe)]
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(address as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = address;
}
