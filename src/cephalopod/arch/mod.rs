//! The eight-lane operations the engine is written against, and the choice of kernel: AVX2
//! when the CPU has it (detected once), else the portable one, which gives identical results.

pub mod all;
#[cfg(target_arch = "x86_64")]
pub mod x86_64;

use super::board::Board;
use super::engine::{Engine, LayerStats};
use super::tables::Lanes;

/// One value per symmetry lane. The engine is generic over this and is inlined into each
/// kernel's entry point, so the AVX2 build of the loop sees AVX2 types throughout.
pub trait LaneOps {
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
    /// The smallest image of `state` under the 8 symmetries, and the lowest symmetry giving it.
    fn canonical(state: u32) -> (u32, u32);
    /// The hash of the board each lane stands for (lane t: the state mapped back by t).
    fn hash_lanes(state: u32) -> Self::V;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum KernelChoice {
    #[default]
    Auto,
    Avx2,
    Portable,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    Avx2,
    Portable,
}

impl Kernel {
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Avx2 => "avx2",
            Kernel::Portable => "portable",
        }
    }
}

/// Resolves a choice against this CPU; asking for AVX2 where it is missing is an error.
pub fn select(choice: KernelChoice) -> Result<Kernel, String> {
    let avx2 = crate::core::cpu::features().avx2;
    match choice {
        KernelChoice::Portable => Ok(Kernel::Portable),
        KernelChoice::Auto if avx2 => Ok(Kernel::Avx2),
        KernelChoice::Auto => Ok(Kernel::Portable),
        KernelChoice::Avx2 if avx2 => Ok(Kernel::Avx2),
        KernelChoice::Avx2 => {
            Err("this CPU does not support AVX2 (or PODIUM_NO_AVX2 is set)".into())
        }
    }
}

/// Runs the engine with `kernel`'s lane operations.
pub fn run(
    engine: &mut Engine,
    kernel: Kernel,
    board: &Board,
    depth: u32,
    stats: Option<&mut Vec<LayerStats>>,
) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if kernel == Kernel::Avx2 && crate::core::cpu::features().avx2 {
        // SAFETY: AVX2 was detected on this CPU just above.
        return unsafe { x86_64::avx2::run(engine, board, depth, stats) };
    }
    engine.run::<all::Portable>(board, depth, stats)
}
