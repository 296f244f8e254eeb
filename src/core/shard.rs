//! `--shard I/N`: which part of a bench's cases one machine runs. A case belongs to the shard its
//! id hashes to (FNV-1a mod N), so adding cases never moves the others between shards.

use std::fmt;

/// Shard `index` of `count` (0-based: `0/2` and `1/2` together are the whole run).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

/// The most shards a run may be split into.
pub const MAX_SHARDS: u64 = 1 << 20;

impl Shard {
    /// Reads `I/N` with `0 <= I < N <= MAX_SHARDS` (clap `value_parser`).
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || {
            format!(
                "shard '{}' is not I/N with 0 <= I < N <= {MAX_SHARDS}",
                crate::core::text::quote(text)
            )
        };
        let (index, count) = text.trim().split_once('/').ok_or_else(bad)?;
        let index: u64 = index.trim().parse().map_err(|_| bad())?;
        let count: u64 = count.trim().parse().map_err(|_| bad())?;
        if count == 0 || count > MAX_SHARDS || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Whether the case named `id` is this shard's.
    pub fn contains(&self, id: &str) -> bool {
        shard_of(id, self.count) == self.index
    }
}

/// Whether `shard` (none: the whole run) takes the case named `id`.
pub fn takes(shard: Option<Shard>, id: &str) -> bool {
    shard.is_none_or(|s| s.contains(id))
}

/// The shard of `count` that the case named `id` belongs to.
pub fn shard_of(id: &str, count: u64) -> u64 {
    fnv1a(id.as_bytes()) % count.max(1)
}

/// 64-bit FNV-1a: fixed forever, so shards agree across versions and machines.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_bad_ones_are_named() {
        assert_eq!(Shard::parse("1/4"), Ok(Shard { index: 1, count: 4 }));
        for bad in ["4/4", "0/0", "x/2", "1", "-1/2", "1/2/3"] {
            let e = Shard::parse(bad).unwrap_err();
            assert!(e.contains(bad), "{e}");
        }
    }

    #[test]
    fn every_case_is_in_exactly_one_shard() {
        let ids: Vec<String> = (0..500).map(|i| format!("case {i}")).collect();
        for count in 1..=7 {
            let mut sizes = vec![0; count as usize];
            for id in &ids {
                let owners: Vec<u64> = (0..count)
                    .filter(|&index| Shard { index, count }.contains(id))
                    .collect();
                assert_eq!(owners.len(), 1, "{id} in {owners:?} of {count}");
                sizes[owners[0] as usize] += 1;
            }
            // A hash, not positions: no shard is empty or holds most of 500 cases.
            assert!(
                sizes.iter().all(|&s| s > 500 / count as usize / 2),
                "{sizes:?}"
            );
        }
    }

    #[test]
    fn adding_cases_moves_no_other_case() {
        let before: Vec<u64> = (0..100).map(|i| shard_of(&i.to_string(), 3)).collect();
        let after: Vec<u64> = (0..200).map(|i| shard_of(&i.to_string(), 3)).collect();
        assert_eq!(before[..], after[..100]);
        // The hash is pinned: a shard's cases are the same on every machine and version.
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
