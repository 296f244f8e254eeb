//! The cephalopod tables, generated at build time by `tables/cephalopod.rs` (see build.rs):
//! move deltas and hash sums per neighbourhood, symmetry XOR slices, lane permutations, hashes.

/// Eight u32 lanes, one per symmetry, aligned for one AVX2 load.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(32))]
pub struct Lanes(pub [u32; 8]);

include!(concat!(env!("OUT_DIR"), "/cephalopod_tables.rs"));
