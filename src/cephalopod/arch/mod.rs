//! The eight-lane operations the engine is written against, and the choice of kernel: AVX-512,
//! else AVX2, as the CPU has them (detected once), else the portable one; identical results.

pub(crate) mod all;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_64;

use super::tables::{Lanes, LANE_PERMUTATION, NEIGHBOUR_SHIFTS};

/// One value per symmetry lane. The engine is generic over this and is inlined into each
/// kernel's entry point, so the AVX2 build of the loop sees AVX2 types throughout.
pub(crate) trait LaneOps {
    type V: Copy;
    fn zero() -> Self::V;
    fn splat(x: u32) -> Self::V;
    fn load(lanes: &Lanes) -> Self::V;
    fn store(lanes: &mut Lanes, v: Self::V);
    fn add(a: Self::V, b: Self::V) -> Self::V;
    fn mul(a: Self::V, b: Self::V) -> Self::V;
    /// `out[v] = x[LANE_PERMUTATION[symmetry][v]]`.
    fn permute(x: Self::V, symmetry: u32) -> Self::V;
    /// Wrapping sum of the lanes.
    fn sum(x: Self::V) -> u32;
    /// The images of `state` under the 8 symmetries (lane 0: `state` itself).
    fn images(state: u32) -> Self::V;
    /// The smallest of 8 images and the lowest lane holding it.
    fn smallest(images: Self::V) -> (u32, u32);
    /// Lane 0.
    fn first(x: Self::V) -> u32;

    /// The canonical form of `state` and the symmetry that gives it.
    #[inline(always)]
    fn canonical(state: u32) -> (u32, u32) {
        Self::smallest(Self::images(state))
    }
    /// The hash of the board each lane stands for (lane t: the state mapped back by t).
    fn hash_lanes(state: u32) -> Self::V;

    /// The unsigned minimum of each 16-bit half of `a` and `b`.
    #[inline(always)]
    fn min_halves(a: u32, b: u32) -> u32 {
        let low = (a as u16).min(b as u16);
        let high = ((a >> 16) as u16).min((b >> 16) as u16);
        u32::from(low) | u32::from(high) << 16
    }

    /// Bit k set for every empty slot k.
    #[inline(always)]
    fn empty_slots(state: u32) -> u32 {
        let fields = !(state | state >> 1 | state >> 2);
        (0..9).fold(0, |mask, k| mask | (fields >> (3 * k) & 1) << k)
    }

    /// Slot k's neighbour values, 3 bits each in ascending slot order (the move-table index).
    #[inline(always)]
    fn neighbour_index(state: u32, slot: usize) -> usize {
        let s = state as u64;
        let sh = &NEIGHBOUR_SHIFTS[slot];
        let index = (s >> sh[0] & 7)
            | (s >> sh[1] & 7) << 3
            | (s >> sh[2] & 7) << 6
            | (s >> sh[3] & 7) << 9;
        index as usize
    }

    /// `smallest(images)`'s key and `ways` permuted by its symmetry, in one call, so a kernel
    /// can skip the lane index's range check (a lowest set bit of an 8-bit mask is below 8).
    #[inline(always)]
    fn smallest_permute(images: Self::V, ways: Self::V) -> (u32, Self::V) {
        let (key, symmetry) = Self::smallest(images);
        (key, Self::permute(ways, symmetry))
    }

    /// `neighbour_index(state, slot)` where `mask` is `NEIGHBOUR_MASK[slot]`, which a caller
    /// may keep nearer than the static table (a kernel with BMI2 gathers with it directly).
    #[inline(always)]
    fn neighbour_index_masked(state: u32, slot: usize, mask: u32) -> usize {
        let _ = mask;
        Self::neighbour_index(state, slot)
    }

    /// `smallest_permute` with LANE_PERMUTATION's rows read from `rows`, a copy of it that a
    /// caller keeps where its address needs no register of its own (its stack frame).
    #[inline(always)]
    fn smallest_permute_from(images: Self::V, ways: Self::V, rows: &[Lanes; 8]) -> (u32, Self::V) {
        debug_assert!(rows == &LANE_PERMUTATION, "rows are LANE_PERMUTATION's");
        let _ = rows;
        Self::smallest_permute(images, ways)
    }
}

/// One engine run, generic over the lane operations: a kernel's entry point inlines it into code
/// compiled for that kernel's instruction set.
pub(crate) trait KernelRun {
    fn run<K: LaneOps>(self) -> u32;
}

/// Runs `run` compiled for `kernel`: AVX-512 where it was detected, else AVX2 where this CPU
/// has it, else the portable lanes. Each engine's run is its own monomorphised entry point.
pub(crate) fn enter<R: KernelRun>(kernel: Kernel, run: R) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if kernel == Kernel::Avx512 && x86_64::avx512::detected() {
        // SAFETY: the kernel's features were detected on this CPU just above.
        return unsafe { x86_64::avx512::run(run) };
    }
    #[cfg(target_arch = "x86_64")]
    if kernel != Kernel::Portable && select(KernelChoice::Avx2).is_ok() {
        // SAFETY: AVX2, BMI1 and BMI2 were detected on this CPU just above.
        return unsafe { x86_64::avx2::run(run) };
    }
    run.run::<all::Portable>()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum KernelChoice {
    #[default]
    Auto,
    Avx512,
    Avx2,
    Portable,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    Avx512,
    Avx2,
    Portable,
}

impl Kernel {
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Avx512 => "avx512",
            Kernel::Avx2 => "avx2",
            Kernel::Portable => "portable",
        }
    }
}

/// Resolves a choice against this CPU; asking for a kernel it lacks is an error.
pub fn select(choice: KernelChoice) -> Result<Kernel, String> {
    let cpu = crate::core::cpu::features();
    let avx2 = cpu.avx2 && cpu.bmi1 && cpu.bmi2;
    #[cfg(target_arch = "x86_64")]
    let avx512 = x86_64::avx512::detected();
    #[cfg(not(target_arch = "x86_64"))]
    let avx512 = false;
    match choice {
        KernelChoice::Portable => Ok(Kernel::Portable),
        KernelChoice::Auto if avx512 => Ok(Kernel::Avx512),
        KernelChoice::Auto if avx2 => Ok(Kernel::Avx2),
        KernelChoice::Auto => Ok(Kernel::Portable),
        KernelChoice::Avx512 if avx512 => Ok(Kernel::Avx512),
        KernelChoice::Avx512 => {
            Err("this CPU does not support AVX-512 F/VL/BW (or PODIUM_NO_AVX2 is set)".into())
        }
        KernelChoice::Avx2 if avx2 => Ok(Kernel::Avx2),
        KernelChoice::Avx2 => {
            Err("this CPU does not support AVX2 (or PODIUM_NO_AVX2 is set)".into())
        }
    }
}
