//! x86_64 kernels.

pub(crate) mod avx2;
pub(crate) mod avx512;
