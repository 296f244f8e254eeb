//! Fast seeded pseudo-random numbers (xoshiro256++ seeded through splitmix64) for search and tests.
//! Output depends only on the seed, so runs reproduce exactly on every platform.

use std::ops::Range;

/// One step of splitmix64: advances `state` and returns the next output.
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut mixed = *state;
    mixed = (mixed ^ (mixed >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    mixed = (mixed ^ (mixed >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    mixed ^ (mixed >> 31)
}

/// xoshiro256++ generator. Not `Copy`, so a stream is never duplicated by accident: use [`Rng::fork`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng {
    state: [u64; 4],
}

impl Rng {
    /// Fills the state with four splitmix64 outputs. splitmix64 is a bijection of its counter,
    /// so at most one of them can be zero and the forbidden all-zero state never occurs.
    pub fn new(seed: u64) -> Rng {
        let mut seeder = seed;
        Rng {
            state: std::array::from_fn(|_| splitmix64(&mut seeder)),
        }
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let [s0, s1, s2, s3] = &mut self.state;
        let result = s0.wrapping_add(*s3).rotate_left(23).wrapping_add(*s0);
        let shifted = *s1 << 17;
        *s2 ^= *s0;
        *s3 ^= *s1;
        *s1 ^= *s2;
        *s0 ^= *s3;
        *s2 ^= shifted;
        *s3 = s3.rotate_left(45);
        result
    }

    /// The upper half of [`Rng::next_u64`], the better-mixed bits.
    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    /// Uniform in `0..bound` without bias (Lemire's multiply-shift with rejection). Panics if `bound == 0`.
    #[inline]
    pub fn below(&mut self, bound: u64) -> u64 {
        assert!(bound > 0, "Rng::below needs a positive bound");
        let mut product = u128::from(self.next_u64()) * u128::from(bound);
        if (product as u64) < bound {
            let rejection_threshold = bound.wrapping_neg() % bound;
            while (product as u64) < rejection_threshold {
                product = u128::from(self.next_u64()) * u128::from(bound);
            }
        }
        (product >> 64) as u64
    }

    /// Uniform in `range`. Panics if it is empty.
    #[inline]
    pub fn range(&mut self, range: Range<usize>) -> usize {
        assert!(
            range.start < range.end,
            "Rng::range on empty range {range:?}"
        );
        range.start + self.below((range.end - range.start) as u64) as usize
    }

    /// Uniform in [0, 1) with 53 random bits.
    #[inline]
    pub fn f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// True with probability `probability` (always false at <= 0, always true at >= 1).
    #[inline]
    pub fn chance(&mut self, probability: f64) -> bool {
        self.f64() < probability
    }

    /// Fisher-Yates shuffle: every permutation equally likely.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for last in (1..items.len()).rev() {
            let pick = self.below(last as u64 + 1) as usize;
            items.swap(last, pick);
        }
    }

    pub fn choose<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() {
            None
        } else {
            Some(&items[self.below(items.len() as u64) as usize])
        }
    }

    /// A new independent stream (e.g. one per thread), seeded from this one's next output.
    pub fn fork(&mut self) -> Rng {
        Rng::new(self.next_u64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Straight transcription of the reference C code by Blackman and Vigna.
    struct ReferenceXoshiro {
        s: [u64; 4],
    }

    impl ReferenceXoshiro {
        fn next(&mut self) -> u64 {
            fn rotl(x: u64, k: u32) -> u64 {
                x.rotate_left(k)
            }
            let result = rotl(self.s[0].wrapping_add(self.s[3]), 23).wrapping_add(self.s[0]);
            let t = self.s[1] << 17;
            self.s[2] ^= self.s[0];
            self.s[3] ^= self.s[1];
            self.s[1] ^= self.s[2];
            self.s[0] ^= self.s[3];
            self.s[2] ^= t;
            self.s[3] = rotl(self.s[3], 45);
            result
        }
    }

    fn reference_splitmix64(x: &mut u64) -> u64 {
        *x = x.wrapping_add(0x9e3779b97f4a7c15);
        let mut z = *x;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58476d1ce4e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d049bb133111eb);
        z ^ (z >> 31)
    }

    #[test]
    fn splitmix64_matches_published_first_output() {
        let mut state = 0;
        assert_eq!(splitmix64(&mut state), 0xe220_a839_7b1d_cdaf);
    }

    #[test]
    fn matches_reference_xoshiro256plusplus() {
        for seed in [0, 1, 42, u64::MAX, 0x0123_4567_89ab_cdef] {
            let mut seeder = seed;
            let mut reference = ReferenceXoshiro {
                s: [0; 4].map(|_: u64| reference_splitmix64(&mut seeder)),
            };
            let mut rng = Rng::new(seed);
            for _ in 0..1000 {
                assert_eq!(rng.next_u64(), reference.next());
            }
        }
    }

    #[test]
    fn next_u32_is_the_upper_half() {
        let mut rng = Rng::new(9);
        let mut twin = rng.clone();
        for _ in 0..100 {
            assert_eq!(u64::from(rng.next_u32()), twin.next_u64() >> 32);
        }
    }

    #[test]
    fn same_seed_same_sequence_different_seed_differs() {
        let mut first = Rng::new(7);
        let mut second = Rng::new(7);
        let mut other = Rng::new(8);
        let a: Vec<u64> = (0..100).map(|_| first.next_u64()).collect();
        let b: Vec<u64> = (0..100).map(|_| second.next_u64()).collect();
        let c: Vec<u64> = (0..100).map(|_| other.next_u64()).collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn below_stays_in_bounds() {
        let mut rng = Rng::new(3);
        for bound in [1, 2, 3, 7, 10, 1 << 40, u64::MAX / 3 * 2, u64::MAX] {
            for _ in 0..2000 {
                assert!(rng.below(bound) < bound);
            }
        }
        assert!((0..100).all(|_| rng.below(1) == 0));
    }

    #[test]
    fn below_is_roughly_uniform() {
        let mut rng = Rng::new(12345);
        let draws = 100_000;
        let mut buckets = [0u32; 10];
        for _ in 0..draws {
            buckets[rng.below(10) as usize] += 1;
        }
        let expected = f64::from(draws) / 10.0;
        let chi_square: f64 = buckets
            .iter()
            .map(|&observed| (f64::from(observed) - expected).powi(2) / expected)
            .sum();
        // 9 degrees of freedom: p = 0.001 lies near 27.9, so 40 is generous.
        assert!(
            chi_square < 40.0,
            "chi-square {chi_square}, buckets {buckets:?}"
        );
    }

    #[test]
    #[should_panic(expected = "positive bound")]
    fn below_zero_panics() {
        Rng::new(1).below(0);
    }

    #[test]
    fn range_covers_exactly_its_bounds() {
        let mut rng = Rng::new(5);
        let mut seen = [false; 5];
        for _ in 0..1000 {
            let value = rng.range(10..15);
            assert!((10..15).contains(&value));
            seen[value - 10] = true;
        }
        assert!(seen.iter().all(|&hit| hit));
    }

    #[test]
    fn f64_lies_in_unit_interval_with_mean_near_half() {
        let mut rng = Rng::new(77);
        let samples: Vec<f64> = (0..100_000).map(|_| rng.f64()).collect();
        assert!(samples.iter().all(|&x| (0.0..1.0).contains(&x)));
        let mean = samples.iter().sum::<f64>() / samples.len() as f64;
        assert!((mean - 0.5).abs() < 0.01, "mean {mean}");
    }

    #[test]
    fn chance_respects_extremes_and_rate() {
        let mut rng = Rng::new(11);
        assert!((0..1000).all(|_| !rng.chance(0.0)));
        assert!((0..1000).all(|_| rng.chance(1.0)));
        let hits = (0..100_000).filter(|_| rng.chance(0.3)).count();
        assert!((28_000..32_000).contains(&hits), "hits {hits}");
    }

    #[test]
    fn shuffle_is_a_permutation_and_moves_things() {
        let mut rng = Rng::new(2);
        let original: Vec<u32> = (0..1000).collect();
        let mut shuffled = original.clone();
        rng.shuffle(&mut shuffled);
        assert_ne!(shuffled, original);
        shuffled.sort_unstable();
        assert_eq!(shuffled, original);
        let mut empty: [u8; 0] = [];
        rng.shuffle(&mut empty);
        let mut single = [9];
        rng.shuffle(&mut single);
        assert_eq!(single, [9]);
    }

    #[test]
    fn choose_picks_members_and_none_from_empty() {
        let mut rng = Rng::new(4);
        let items = [3, 1, 4, 1, 5];
        for _ in 0..100 {
            assert!(items.contains(rng.choose(&items).unwrap()));
        }
        assert_eq!(rng.choose::<u8>(&[]), None);
    }

    #[test]
    fn forks_are_deterministic_and_distinct() {
        let mut parent = Rng::new(100);
        let mut parent_twin = Rng::new(100);
        let mut child = parent.fork();
        let mut child_twin = parent_twin.fork();
        let mut sibling = parent.fork();
        let child_run: Vec<u64> = (0..50).map(|_| child.next_u64()).collect();
        let twin_run: Vec<u64> = (0..50).map(|_| child_twin.next_u64()).collect();
        let sibling_run: Vec<u64> = (0..50).map(|_| sibling.next_u64()).collect();
        let parent_run: Vec<u64> = (0..50).map(|_| parent.next_u64()).collect();
        assert_eq!(child_run, twin_run);
        assert_ne!(child_run, sibling_run);
        assert_ne!(child_run, parent_run);
    }
}
