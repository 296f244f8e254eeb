//! The AVX2 kernel: the eight symmetry lanes of a state live in one 256-bit register, so a
//! canonical form is three table loads, two XORs and a horizontal min.

use super::super::{KernelRun, LaneOps};
use crate::cephalopod::tables::{
    Lanes, HASH_SLICE, LANE_PERMUTATION, NEIGHBOUR_MASK, SYMMETRY_XOR,
};
use std::arch::x86_64::*;

pub(crate) struct Avx2;

impl Avx2 {
    /// The smallest of the 8 lanes, in every lane.
    ///
    /// # Safety
    /// Only from code compiled with AVX2 enabled (the kernels' entries), as every method here.
    #[inline(always)]
    pub(crate) unsafe fn lane_min(images: __m256i) -> __m256i {
        // SAFETY: the caller runs with AVX2 enabled (this function's contract).
        unsafe {
            let m = _mm256_min_epu32(images, _mm256_permute4x64_epi64(images, 0b01_00_11_10));
            let m = _mm256_min_epu32(m, _mm256_shuffle_epi32(m, 0b01_00_11_10));
            _mm256_min_epu32(m, _mm256_shuffle_epi32(m, 0b10_11_00_01))
        }
    }
}

// SAFETY (for every method below): each is only called from code compiled with
// `#[target_feature(enable = "avx2,bmi1,bmi2")]`, which the dispatcher enters only after runtime
// detection found AVX2 and BMI2; `Lanes` is 32-byte aligned, so the aligned loads and stores hold.
impl LaneOps for Avx2 {
    type V = __m256i;

    #[inline(always)]
    fn zero() -> __m256i {
        // SAFETY: see the impl comment.
        unsafe { _mm256_setzero_si256() }
    }
    #[inline(always)]
    fn splat(x: u32) -> __m256i {
        // SAFETY: see the impl comment.
        unsafe { _mm256_set1_epi32(x as i32) }
    }
    #[inline(always)]
    fn load(lanes: &Lanes) -> __m256i {
        // SAFETY: see the impl comment.
        unsafe { _mm256_load_si256(lanes as *const Lanes as *const __m256i) }
    }
    #[inline(always)]
    fn store(lanes: &mut Lanes, v: __m256i) {
        // SAFETY: see the impl comment.
        unsafe { _mm256_store_si256(lanes as *mut Lanes as *mut __m256i, v) }
    }
    #[inline(always)]
    fn add(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: see the impl comment.
        unsafe { _mm256_add_epi32(a, b) }
    }
    #[inline(always)]
    fn mul(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: see the impl comment.
        unsafe { _mm256_mullo_epi32(a, b) }
    }
    #[inline(always)]
    fn permute(x: __m256i, symmetry: u32) -> __m256i {
        // SAFETY: see the impl comment.
        unsafe {
            _mm256_permutevar8x32_epi32(x, Self::load(&LANE_PERMUTATION[symmetry as usize & 7]))
        }
    }
    #[inline(always)]
    fn sum(x: __m256i) -> u32 {
        // SAFETY: see the impl comment.
        unsafe {
            let s = _mm_add_epi32(_mm256_castsi256_si128(x), _mm256_extracti128_si256(x, 1));
            let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b01_00_11_10));
            let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b10_11_00_01));
            _mm_cvtsi128_si32(s) as u32
        }
    }
    #[inline(always)]
    fn images(state: u32) -> __m256i {
        let a = Self::load(&SYMMETRY_XOR[0][(state & 255) as usize]);
        let b = Self::load(&SYMMETRY_XOR[1][(state >> 8 & 255) as usize]);
        let c = Self::load(&SYMMETRY_XOR[2][(state >> 16 & 255) as usize]);
        // SAFETY: see the impl comment.
        unsafe {
            _mm256_xor_si256(
                _mm256_xor_si256(a, b),
                _mm256_xor_si256(c, Self::splat(state)),
            )
        }
    }
    #[inline(always)]
    fn smallest(images: __m256i) -> (u32, u32) {
        // SAFETY: see the impl comment.
        unsafe {
            let m = Avx2::lane_min(images);
            let hits = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(images, m)));
            (_mm256_cvtsi256_si32(m) as u32, hits.trailing_zeros() & 7)
        }
    }
    #[inline(always)]
    fn first(x: __m256i) -> u32 {
        // SAFETY: see the impl comment.
        unsafe { _mm256_cvtsi256_si32(x) as u32 }
    }
    #[inline(always)]
    fn empty_slots(state: u32) -> u32 {
        let fields = !(state | state >> 1 | state >> 2);
        // SAFETY: see the impl comment.
        unsafe { _pext_u32(fields, 0o111_111_111) }
    }
    #[inline(always)]
    fn neighbour_index(state: u32, slot: usize) -> usize {
        // SAFETY: see the impl comment.
        unsafe { _pext_u32(state, NEIGHBOUR_MASK[slot]) as usize }
    }
    #[inline(always)]
    fn min_halves(a: u32, b: u32) -> u32 {
        // SAFETY: see the impl comment (SSE4.1's `pminuw` comes with AVX2).
        unsafe {
            let m = _mm_min_epu16(_mm_cvtsi32_si128(a as i32), _mm_cvtsi32_si128(b as i32));
            _mm_cvtsi128_si32(m) as u32
        }
    }
    #[inline(always)]
    fn hash_lanes(state: u32) -> __m256i {
        let a = Self::load(&HASH_SLICE[0][(state & 511) as usize]);
        let b = Self::load(&HASH_SLICE[1][(state >> 9 & 511) as usize]);
        let c = Self::load(&HASH_SLICE[2][(state >> 18 & 511) as usize]);
        Self::add(Self::add(a, b), c)
    }
    #[inline(always)]
    fn smallest_permute(images: __m256i, ways: __m256i) -> (u32, __m256i) {
        Self::smallest_permute_from(images, ways, &LANE_PERMUTATION)
    }
    #[inline(always)]
    fn neighbour_index_masked(state: u32, _slot: usize, mask: u32) -> usize {
        // SAFETY: see the impl comment.
        unsafe { _pext_u32(state, mask) as usize }
    }
    #[inline(always)]
    fn smallest_permute_from(images: __m256i, ways: __m256i, rows: &[Lanes; 8]) -> (u32, __m256i) {
        // SAFETY: see the impl comment; `hits` has a bit for the lane holding the minimum and
        // none above bit 7, so its lowest set bit indexes one of the 8 rows.
        unsafe {
            let m = Avx2::lane_min(images);
            let hits = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(images, m)));
            let lanes = rows.get_unchecked(hits.trailing_zeros() as usize);
            let permuted = _mm256_permutevar8x32_epi32(ways, Self::load(lanes));
            (_mm256_cvtsi256_si32(m) as u32, permuted)
        }
    }
}

/// `run` (an engine's run, inlined here) compiled for this kernel.
///
/// # Safety
/// The CPU must support AVX2, BMI1 and BMI2.
#[target_feature(enable = "avx2,bmi1,bmi2")]
pub(crate) unsafe fn run<R: KernelRun>(run: R) -> u32 {
    run.run::<Avx2>()
}
