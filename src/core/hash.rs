//! Hashers for the solvers' own tables (positions, boards, counts, random keys), where SipHash's
//! defence against chosen keys costs more than the table: at worst a hostile input is slow.
//
// Measured: SipHash took 12.3 % of `icfp2015 play` on problem 6 (callgrind, 2026-11-25: the
// beam's board dedup and the placement search's maps) and dominated tetromino's colouring stage.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// Multiply-rotate over 64-bit words (the FxHash construction): a few instructions a word, for
/// keys whose bits are not already random.
#[derive(Clone, Copy, Default)]
pub struct FastHasher(u64);

/// The odd constant of the golden ratio: multiplying by it spreads each word over the high bits.
const GOLDEN: u64 = 0x9e37_79b9_7f4a_7c15;

impl Hasher for FastHasher {
    #[inline]
    fn finish(&self) -> u64 {
        // The multiply leaves the entropy in the high bits; hashbrown indexes with the low ones.
        self.0.rotate_left(26)
    }
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.write_u64(u64::from_le_bytes(chunk.try_into().expect("8 bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.write_u64(u64::from_le_bytes(word));
        }
    }
    #[inline]
    fn write_u8(&mut self, value: u8) {
        self.write_u64(u64::from(value));
    }
    #[inline]
    fn write_u16(&mut self, value: u16) {
        self.write_u64(u64::from(value));
    }
    #[inline]
    fn write_u32(&mut self, value: u32) {
        self.write_u64(u64::from(value));
    }
    #[inline]
    fn write_u64(&mut self, value: u64) {
        self.0 = (self.0.rotate_left(5) ^ value).wrapping_mul(GOLDEN);
    }
    #[inline]
    fn write_u128(&mut self, value: u128) {
        self.write_u64(value as u64);
        self.write_u64((value >> 64) as u64);
    }
    #[inline]
    fn write_usize(&mut self, value: usize) {
        self.write_u64(value as u64);
    }
}

/// For keys that are already uniformly random (Zobrist hashes): the low word as it is.
#[derive(Clone, Copy, Default)]
pub struct RandomKeyHasher(u64);

impl Hasher for RandomKeyHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    #[inline]
    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
    #[inline]
    fn write_u128(&mut self, key: u128) {
        self.0 = key as u64;
    }
}

pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;
pub type FastSet<K> = HashSet<K, BuildHasherDefault<FastHasher>>;
/// A set of uniformly random keys (`u64` or `u128` Zobrist hashes, or [`fast_hash`]es).
pub type RandomKeySet<K> = HashSet<K, BuildHasherDefault<RandomKeyHasher>>;
/// A map from uniformly random keys.
pub type RandomKeyMap<K, V> = HashMap<K, V, BuildHasherDefault<RandomKeyHasher>>;

/// The [`FastHasher`] hash of one value.
pub fn fast_hash<T: std::hash::Hash + ?Sized>(value: &T) -> u64 {
    let mut hasher = FastHasher::default();
    value.hash(&mut hasher);
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinct_small_keys_spread_over_the_low_bits() {
        // hashbrown takes the bucket from the low bits: 4096 consecutive positions must not
        // crowd into a few of 4096 buckets.
        let mut buckets = vec![0u32; 4096];
        for y in 0..64i32 {
            for x in 0..64i32 {
                buckets[(fast_hash(&(x, y, 3u8)) & 4095) as usize] += 1;
            }
        }
        let crowded = buckets.iter().max().copied().unwrap_or(0);
        assert!(crowded <= 12, "a bucket holds {crowded} of 4096 keys");
    }

    #[test]
    fn bytes_and_words_hash_the_same_words() {
        let words: [u64; 2] = [7, 9];
        let mut by_words = FastHasher::default();
        words.iter().for_each(|&w| by_words.write_u64(w));
        let mut by_bytes = FastHasher::default();
        by_bytes.write(bytemuck::cast_slice(&words));
        assert_eq!(by_words.finish(), by_bytes.finish());
        assert_ne!(fast_hash(&[1u128, 2]), fast_hash(&[2u128, 1]));
    }
}
