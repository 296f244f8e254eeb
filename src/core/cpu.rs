//! CPU features the solvers dispatch on, detected once per process and cached in an atomic.
//! Setting the environment variable `PODIUM_NO_AVX2` (any value) reports AVX2 as absent, to test portable paths.

use std::fmt;
use std::sync::atomic::{AtomicU8, Ordering};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CpuFeatures {
    pub avx2: bool,
    pub bmi1: bool,
    pub bmi2: bool,
    pub popcnt: bool,
    pub avx512f: bool,
}

const AVX2_BIT: u8 = 1;
const BMI2_BIT: u8 = 1 << 1;
const POPCNT_BIT: u8 = 1 << 2;
const AVX512F_BIT: u8 = 1 << 3;
const BMI1_BIT: u8 = 1 << 4;
const DETECTED_BIT: u8 = 1 << 7;

/// Zero until the first detection; afterwards the feature bits plus `DETECTED_BIT`.
static CACHED_FEATURES: AtomicU8 = AtomicU8::new(0);

impl CpuFeatures {
    const NONE: CpuFeatures = CpuFeatures {
        avx2: false,
        bmi1: false,
        bmi2: false,
        popcnt: false,
        avx512f: false,
    };

    fn to_bits(self) -> u8 {
        let mut bits = 0;
        for (present, bit) in [
            (self.avx2, AVX2_BIT),
            (self.bmi1, BMI1_BIT),
            (self.bmi2, BMI2_BIT),
            (self.popcnt, POPCNT_BIT),
            (self.avx512f, AVX512F_BIT),
        ] {
            if present {
                bits |= bit;
            }
        }
        bits
    }

    fn from_bits(bits: u8) -> CpuFeatures {
        CpuFeatures {
            avx2: bits & AVX2_BIT != 0,
            bmi1: bits & BMI1_BIT != 0,
            bmi2: bits & BMI2_BIT != 0,
            popcnt: bits & POPCNT_BIT != 0,
            avx512f: bits & AVX512F_BIT != 0,
        }
    }

    fn without_avx2_if(self, avx2_disabled: bool) -> CpuFeatures {
        CpuFeatures {
            avx2: self.avx2 && !avx2_disabled,
            ..self
        }
    }
}

#[cfg(target_arch = "x86_64")]
fn detect_hardware() -> CpuFeatures {
    CpuFeatures {
        avx2: std::arch::is_x86_feature_detected!("avx2"),
        bmi1: std::arch::is_x86_feature_detected!("bmi1"),
        bmi2: std::arch::is_x86_feature_detected!("bmi2"),
        popcnt: std::arch::is_x86_feature_detected!("popcnt"),
        avx512f: std::arch::is_x86_feature_detected!("avx512f"),
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn detect_hardware() -> CpuFeatures {
    CpuFeatures::NONE
}

fn avx2_disabled_by_env() -> bool {
    std::env::var_os("PODIUM_NO_AVX2").is_some()
}

/// The features of this CPU, after the `PODIUM_NO_AVX2` override.
///
/// Detection runs on the first call; concurrent first calls may both detect, harmlessly,
/// since they store the same value.
pub fn features() -> CpuFeatures {
    let cached = CACHED_FEATURES.load(Ordering::Relaxed);
    if cached & DETECTED_BIT != 0 {
        return CpuFeatures::from_bits(cached);
    }
    let detected = detect_hardware().without_avx2_if(avx2_disabled_by_env());
    CACHED_FEATURES.store(detected.to_bits() | DETECTED_BIT, Ordering::Relaxed);
    detected
}

/// The instruction this build assumes every CPU has and this one lacks, if any: x86-64 builds
/// assume POPCNT (`.cargo/config.toml`; every x86-64 CPU since 2008, x86-64-v2), which would
/// otherwise end the process with an illegal instruction at the first count of set bits.
pub fn missing_baseline() -> Option<&'static str> {
    #[cfg(all(target_arch = "x86_64", target_feature = "popcnt"))]
    if !std::arch::is_x86_feature_detected!("popcnt") {
        return Some("popcnt");
    }
    None
}

impl fmt::Display for CpuFeatures {
    /// Present features separated by spaces, e.g. `avx2 bmi2 popcnt`, or `none`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == CpuFeatures::NONE {
            return f.write_str("none");
        }
        let present = [
            (self.avx2, "avx2"),
            (self.bmi1, "bmi1"),
            (self.bmi2, "bmi2"),
            (self.popcnt, "popcnt"),
            (self.avx512f, "avx512f"),
        ];
        let names: Vec<&str> = present
            .iter()
            .filter(|&&(is_present, _)| is_present)
            .map(|&(_, name)| name)
            .collect();
        f.write_str(&names.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_are_cached_and_stable() {
        let first = features();
        assert_ne!(CACHED_FEATURES.load(Ordering::Relaxed) & DETECTED_BIT, 0);
        assert_eq!(features(), first);
        assert_eq!(
            CpuFeatures::from_bits(CACHED_FEATURES.load(Ordering::Relaxed)),
            first
        );
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn matches_std_detection_without_override() {
        let found = features();
        if !avx2_disabled_by_env() {
            assert_eq!(found.avx2, std::arch::is_x86_feature_detected!("avx2"));
        } else {
            assert!(!found.avx2);
        }
        assert_eq!(found.bmi2, std::arch::is_x86_feature_detected!("bmi2"));
        assert_eq!(found.popcnt, std::arch::is_x86_feature_detected!("popcnt"));
        assert_eq!(
            found.avx512f,
            std::arch::is_x86_feature_detected!("avx512f")
        );
    }

    #[test]
    fn the_build_baseline_is_present_here() {
        assert_eq!(missing_baseline(), None);
        if cfg!(all(target_arch = "x86_64", target_feature = "popcnt")) {
            assert!(features().popcnt);
        }
    }

    #[test]
    fn override_clears_only_avx2() {
        let all = CpuFeatures {
            avx2: true,
            bmi1: true,
            bmi2: true,
            popcnt: true,
            avx512f: true,
        };
        let overridden = all.without_avx2_if(true);
        assert!(!overridden.avx2);
        assert!(overridden.bmi2 && overridden.popcnt && overridden.avx512f);
        assert_eq!(all.without_avx2_if(false), all);
    }

    #[test]
    fn bits_round_trip() {
        for bits in 0..16u8 {
            assert_eq!(CpuFeatures::from_bits(bits).to_bits(), bits);
        }
    }

    #[test]
    fn display_lists_present_features() {
        assert_eq!(CpuFeatures::NONE.to_string(), "none");
        let some = CpuFeatures {
            avx2: true,
            bmi1: true,
            bmi2: true,
            popcnt: true,
            avx512f: false,
        };
        assert_eq!(some.to_string(), "avx2 bmi1 bmi2 popcnt");
        let only_avx512 = CpuFeatures {
            avx512f: true,
            ..CpuFeatures::NONE
        };
        assert_eq!(only_avx512.to_string(), "avx512f");
    }
}
