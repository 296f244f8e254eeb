//! Bundle-only stand-in for `core::cpu`: the CPU features the kernels dispatch on, from std's
//! runtime detection; `PODIUM_NO_AVX2` hides AVX2 as it does in the crate.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CpuFeatures {
    pub avx2: bool,
    pub bmi1: bool,
    pub bmi2: bool,
}

#[cfg(target_arch = "x86_64")]
pub fn features() -> CpuFeatures {
    use std::arch::is_x86_feature_detected;
    CpuFeatures {
        avx2: is_x86_feature_detected!("avx2") && std::env::var_os("PODIUM_NO_AVX2").is_none(),
        bmi1: is_x86_feature_detected!("bmi1"),
        bmi2: is_x86_feature_detected!("bmi2"),
    }
}

#[cfg(not(target_arch = "x86_64"))]
pub fn features() -> CpuFeatures {
    CpuFeatures {
        avx2: false,
        bmi1: false,
        bmi2: false,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn agrees_with_the_crate() {
        let ours = super::features();
        let crate_cpu = crate::core::cpu::features();
        assert_eq!(
            (ours.avx2, ours.bmi1, ours.bmi2),
            (crate_cpu.avx2, crate_cpu.bmi1, crate_cpu.bmi2)
        );
    }
}
