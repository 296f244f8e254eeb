//! The portable kernel: eight scalar lanes, for any CPU; results are identical to AVX2's.

use super::LaneOps;
use crate::cephalopod::tables::{Lanes, HASH_SLICE, LANE_PERMUTATION, SYMMETRY_XOR};

pub(crate) struct Portable;

impl LaneOps for Portable {
    type V = [u32; 8];

    #[inline(always)]
    fn zero() -> [u32; 8] {
        [0; 8]
    }
    #[inline(always)]
    fn splat(x: u32) -> [u32; 8] {
        [x; 8]
    }
    #[inline(always)]
    fn load(lanes: &Lanes) -> [u32; 8] {
        lanes.0
    }
    #[inline(always)]
    fn store(lanes: &mut Lanes, v: [u32; 8]) {
        lanes.0 = v;
    }
    #[inline(always)]
    fn add(a: [u32; 8], b: [u32; 8]) -> [u32; 8] {
        std::array::from_fn(|i| a[i].wrapping_add(b[i]))
    }
    #[inline(always)]
    fn mul(a: [u32; 8], b: [u32; 8]) -> [u32; 8] {
        std::array::from_fn(|i| a[i].wrapping_mul(b[i]))
    }
    #[inline(always)]
    fn permute(x: [u32; 8], symmetry: u32) -> [u32; 8] {
        let idx = &LANE_PERMUTATION[symmetry as usize].0;
        std::array::from_fn(|i| x[idx[i] as usize])
    }
    #[inline(always)]
    fn sum(x: [u32; 8]) -> u32 {
        x.iter().fold(0, |a, &b| a.wrapping_add(b))
    }
    #[inline(always)]
    fn images(state: u32) -> [u32; 8] {
        let a = &SYMMETRY_XOR[0][(state & 255) as usize].0;
        let b = &SYMMETRY_XOR[1][(state >> 8 & 255) as usize].0;
        let c = &SYMMETRY_XOR[2][(state >> 16 & 255) as usize].0;
        std::array::from_fn(|t| state ^ a[t] ^ b[t] ^ c[t])
    }
    #[inline(always)]
    fn smallest(images: [u32; 8]) -> (u32, u32) {
        let mut best = (images[0], 0);
        for (t, &image) in images.iter().enumerate().skip(1) {
            if image < best.0 {
                best = (image, t as u32);
            }
        }
        best
    }
    #[inline(always)]
    fn first(x: [u32; 8]) -> u32 {
        x[0]
    }
    #[inline(always)]
    fn hash_lanes(state: u32) -> [u32; 8] {
        let a = HASH_SLICE[0][(state & 511) as usize].0;
        let b = HASH_SLICE[1][(state >> 9 & 511) as usize].0;
        let c = HASH_SLICE[2][(state >> 18 & 511) as usize].0;
        Self::add(Self::add(a, b), c)
    }
}
