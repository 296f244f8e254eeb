//! The AVX-512 kernel (F, VL, BW): AVX2's 256-bit lanes, with AVX-512VL's three-way XOR for a
//! state's images and a compare straight into a mask register for the smallest image's lane.

use super::super::{KernelRun, LaneOps};
use super::avx2::Avx2;
use crate::cephalopod::tables::{Lanes, LANE_PERMUTATION, SYMMETRY_XOR};
use std::arch::x86_64::*;

pub(crate) struct Avx512;

/// Whether this CPU runs the kernel: AVX-512 F, VL and BW besides what the AVX2 kernel needs
/// (detected by `core::cpu`, so `PODIUM_NO_AVX2` turns this one off too). std caches the answer.
pub(crate) fn detected() -> bool {
    let cpu = crate::core::cpu::features();
    cpu.avx2
        && cpu.bmi1
        && cpu.bmi2
        && cpu.avx512f
        && std::arch::is_x86_feature_detected!("avx512vl")
        && std::arch::is_x86_feature_detected!("avx512bw")
}

// SAFETY (for every method below): as for `Avx2`; each is only called from code compiled with
// this kernel's `target_feature`s, entered only after `detected()` found them on this CPU.
impl LaneOps for Avx512 {
    type V = __m256i;

    #[inline(always)]
    fn zero() -> __m256i {
        Avx2::zero()
    }
    #[inline(always)]
    fn splat(x: u32) -> __m256i {
        Avx2::splat(x)
    }
    #[inline(always)]
    fn load(lanes: &Lanes) -> __m256i {
        Avx2::load(lanes)
    }
    #[inline(always)]
    fn store(lanes: &mut Lanes, v: __m256i) {
        Avx2::store(lanes, v)
    }
    #[inline(always)]
    fn add(a: __m256i, b: __m256i) -> __m256i {
        Avx2::add(a, b)
    }
    #[inline(always)]
    fn mul(a: __m256i, b: __m256i) -> __m256i {
        Avx2::mul(a, b)
    }
    #[inline(always)]
    fn permute(x: __m256i, symmetry: u32) -> __m256i {
        Avx2::permute(x, symmetry)
    }
    #[inline(always)]
    fn sum(x: __m256i) -> u32 {
        Avx2::sum(x)
    }
    #[inline(always)]
    fn images(state: u32) -> __m256i {
        let a = Self::load(&SYMMETRY_XOR[0][(state & 255) as usize]);
        let b = Self::load(&SYMMETRY_XOR[1][(state >> 8 & 255) as usize]);
        let c = Self::load(&SYMMETRY_XOR[2][(state >> 16 & 255) as usize]);
        // SAFETY: see the impl comment. 0x96 is the truth table of a ^ b ^ c.
        unsafe {
            _mm256_xor_si256(
                _mm256_ternarylogic_epi32::<0x96>(a, b, c),
                Self::splat(state),
            )
        }
    }
    #[inline(always)]
    fn smallest(images: __m256i) -> (u32, u32) {
        // SAFETY: see the impl comment.
        unsafe {
            let m = Avx2::lane_min(images);
            let hits = _mm256_cmpeq_epu32_mask(images, m);
            (_mm256_cvtsi256_si32(m) as u32, hits.trailing_zeros() & 7)
        }
    }
    #[inline(always)]
    fn first(x: __m256i) -> u32 {
        Avx2::first(x)
    }
    #[inline(always)]
    fn empty_slots(state: u32) -> u32 {
        Avx2::empty_slots(state)
    }
    #[inline(always)]
    fn neighbour_index(state: u32, slot: usize) -> usize {
        Avx2::neighbour_index(state, slot)
    }
    #[inline(always)]
    fn min_halves(a: u32, b: u32) -> u32 {
        Avx2::min_halves(a, b)
    }
    #[inline(always)]
    fn hash_lanes(state: u32) -> __m256i {
        Avx2::hash_lanes(state)
    }
    #[inline(always)]
    fn smallest_permute(images: __m256i, ways: __m256i) -> (u32, __m256i) {
        Self::smallest_permute_from(images, ways, &LANE_PERMUTATION)
    }
    #[inline(always)]
    fn neighbour_index_masked(state: u32, slot: usize, mask: u32) -> usize {
        Avx2::neighbour_index_masked(state, slot, mask)
    }
    #[inline(always)]
    fn smallest_permute_from(images: __m256i, ways: __m256i, rows: &[Lanes; 8]) -> (u32, __m256i) {
        // SAFETY: see the impl comment; `hits` has a bit for the lane holding the minimum and
        // none above bit 7, so its lowest set bit indexes one of the 8 rows.
        unsafe {
            let m = Avx2::lane_min(images);
            let hits = _mm256_cmpeq_epu32_mask(images, m);
            let lanes = rows.get_unchecked(hits.trailing_zeros() as usize);
            let permuted = _mm256_permutevar8x32_epi32(ways, Self::load(lanes));
            (_mm256_cvtsi256_si32(m) as u32, permuted)
        }
    }
}

/// `run` (an engine's run, inlined here) compiled for this kernel.
///
/// # Safety
/// `detected()` must be true.
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx2,bmi1,bmi2")]
pub(crate) unsafe fn run<R: KernelRun>(run: R) -> u32 {
    run.run::<Avx512>()
}
