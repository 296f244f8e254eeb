//! x86_64 kernels.

pub mod avx2;
