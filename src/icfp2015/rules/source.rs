//! The unit source: the contest's LCG (`s' = 1103515245 s + 12345 mod 2^32`, value
//! `(s >> 16) & 0x7FFF`, the first value from the seed itself) and the unit order it picks.

/// The random values of a seed, an endless iterator.
#[derive(Clone, Debug)]
pub struct Lcg {
    state: u32,
}

impl Lcg {
    pub fn new(seed: u32) -> Lcg {
        Lcg { state: seed }
    }
}

impl Iterator for Lcg {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        let value = (self.state >> 16) & 0x7FFF;
        self.state = self.state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        Some(value)
    }
}

/// The unit indices of a game: unit k is `units[value_k mod unit_count]`.
pub fn unit_order(seed: u32, unit_count: usize, length: usize) -> Vec<u32> {
    assert!(unit_count > 0, "a source needs at least one unit");
    Lcg::new(seed)
        .take(length)
        .map(|value| value % unit_count as u32)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_17_matches_the_spec() {
        let values: Vec<u32> = Lcg::new(17).take(10).collect();
        assert_eq!(
            values,
            [0, 24107, 16552, 12125, 9427, 13152, 21440, 3383, 6873, 16117]
        );
        assert_eq!(unit_order(17, 10, 4), [0, 7, 2, 5]);
    }
}
