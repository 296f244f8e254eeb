//! podium: fast, strong solvers for five programming-contest problems.
//! The library holds every solver; the `podium` binary is a thin CLI over it.

pub mod bananagrams;
pub mod bench;
pub mod bundle;
pub mod cephalopod;
pub mod compare;
pub mod core;
pub mod icfp2015;
pub mod slider;
pub mod store;
pub mod tetromino;
