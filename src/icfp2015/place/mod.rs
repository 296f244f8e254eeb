//! Where each unit locks: the move generator, the weights and value of a lock, the beam search
//! and the band plans. Built on `rules` alone; how a unit reaches its lock is `spell`'s.

pub mod bands;
pub mod beam;
mod children;
pub mod placement;
pub mod value;
pub mod weights;
