//! x86_64 kernels.

pub(crate) mod avx2;
