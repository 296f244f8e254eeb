//! Random ICFP 2015 problems and phrase sets from documented distributions, deterministic by
//! seed: what `podium icfp2015 gen` writes and `bench --generated` plays.

pub mod phrases;
pub mod problem;
pub mod set;
