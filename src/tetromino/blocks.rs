//! Squares assembled from solvable blocks: every multiset that tiles a 4x4, 4x6 or 6x4 block (one
//! tiling each, found by search at first use), dealt out to a signature's counts, and skewed mixes.

use super::figures::Figure;
use super::signature::all_multisets;
use super::signature::Signature;
use super::solution::Placement;
use super::solver::{self, random_tiling, search_rectangle, Options, Outcome};
use crate::core::rng::Rng;
use crate::core::timer::Deadline;
use std::sync::OnceLock;
use std::time::Duration;

/// One solvable multiset of a block shape, with a tiling of it at the block's origin.
pub struct Entry {
    pub counts: [u32; 7],
    pub tiling: Vec<Placement>,
}

/// The block shapes (height, width) squares are cut into: bands of 4, and one band of 6 when the
/// side is 2 mod 4.
pub const SHAPES: [(usize, usize); 3] = [(4, 4), (4, 6), (6, 4)];

/// Every solvable multiset of shape `SHAPES[shape]`, classified at first use (each shape apart,
/// so a side of 0 mod 4 never classifies the 4 x 6 blocks).
pub fn library(shape: usize) -> &'static [Entry] {
    static LIBRARY: [OnceLock<Vec<Entry>>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    LIBRARY[shape].get_or_init(|| {
        let (height, width) = SHAPES[shape];
        all_multisets((height * width / 4) as u32)
            .into_iter()
            .filter_map(|signature| {
                match search_rectangle(height, width, &signature, &Options::default()) {
                    Outcome::Solved(tiling) => Some(Entry {
                        counts: signature.counts,
                        tiling,
                    }),
                    _ => None,
                }
            })
            .collect()
    })
}

fn shape_index(height: usize, width: usize) -> Option<usize> {
    SHAPES.iter().position(|&s| s == (height, width))
}

/// The band heights a side is cut into: 4s, then a 6 when the side is 2 mod 4.
fn bands(size: usize) -> Vec<usize> {
    let mut bands = vec![4; size / 4];
    if size % 4 == 2 {
        if bands.is_empty() {
            return vec![2];
        }
        bands.pop();
        bands.push(6);
    }
    bands
}

fn shifted(tiling: &[Placement], top: usize, left: usize) -> impl Iterator<Item = Placement> + '_ {
    tiling.iter().map(move |p| Placement {
        x: p.x + left,
        y: p.y + top,
        ..*p
    })
}

/// How many times [`assemble`] deals the blocks before giving the square to the search.
pub const ASSEMBLY_ATTEMPTS: u32 = 8;
/// Bands on each side of the corner square the residual counts are searched in: the first
/// attempts leave 8 x 8 (or 10 x 10), later ones 12 x 12 (14 x 14) for more freedom.
const CORNER_BANDS: [usize; 2] = [2, 3];
/// The corner search's share of the time left, so a bad deal costs little.
const CORNER_TIME_SHARE: f64 = 0.1;

/// A tiling of the `size` x `size` square with `signature` from blocks of the library and a
/// corner square searched exactly; `None` if the deals within the deadline all failed.
pub fn assemble(
    size: usize,
    signature: &Signature,
    seed: u64,
    deadline: &Deadline,
) -> Option<Vec<Placement>> {
    let bands = bands(size);
    let mut rng = Rng::new(seed);
    let mix = nonnegative_mix(library(0), signature.counts);
    for attempt in 0..ASSEMBLY_ATTEMPTS {
        if deadline.expired() {
            return None;
        }
        let corner_bands =
            CORNER_BANDS[(attempt as usize * CORNER_BANDS.len()) / ASSEMBLY_ATTEMPTS as usize];
        if bands.len() <= corner_bands {
            return None;
        }
        let first_corner = bands.len() - corner_bands;
        let offsets: Vec<usize> = bands
            .iter()
            .scan(0, |at, &b| {
                let here = *at;
                *at += b;
                Some(here)
            })
            .collect();
        let mut blocks: Vec<(usize, usize)> = (0..bands.len())
            .flat_map(|r| (0..bands.len()).map(move |c| (r, c)))
            .filter(|&(r, c)| r < first_corner || c < first_corner)
            .collect();
        rng.shuffle(&mut blocks);
        // Even attempts deal the 4x4 blocks from the mix (the signature as a sum of library
        // entries), odd ones by the proportional rule alone.
        let mut planned = if attempt % 2 == 0 {
            let square_blocks = blocks
                .iter()
                .filter(|&&(r, c)| bands[r] == 4 && bands[c] == 4)
                .count();
            planned_entries(&mix, square_blocks, &mut rng)
        } else {
            Vec::new()
        };
        let mut left = signature.counts;
        let mut pieces_left = signature.total() as f64;
        let mut tiling = Vec::with_capacity(signature.total() as usize);
        let mut dealt = true;
        for &(r, c) in &blocks {
            let shape = shape_index(bands[r], bands[c]).expect("blocks are 4 or 6 a side");
            let block_pieces = (bands[r] * bands[c] / 4) as f64;
            if shape == 0 {
                if let Some(entry) = planned.pop().map(|e| &library(0)[e]) {
                    if (0..7).all(|f| entry.counts[f] <= left[f]) {
                        for (count, used) in left.iter_mut().zip(entry.counts) {
                            *count -= used;
                        }
                        pieces_left -= block_pieces;
                        tiling.extend(shifted(&entry.tiling, offsets[r], offsets[c]));
                        continue;
                    }
                }
            }
            let share = block_pieces / pieces_left;
            let best = library(shape)
                .iter()
                .filter(|e| (0..7).all(|f| e.counts[f] <= left[f]))
                .map(|e| {
                    let distance: f64 = (0..7)
                        .map(|f| {
                            let gap = f64::from(e.counts[f]) - share * f64::from(left[f]);
                            gap * gap
                        })
                        .sum();
                    (distance + rng.f64() * DEAL_NOISE, e)
                })
                .min_by(|a, b| a.0.total_cmp(&b.0));
            let Some((_, entry)) = best else {
                dealt = false;
                break;
            };
            for (count, used) in left.iter_mut().zip(entry.counts) {
                *count -= used;
            }
            pieces_left -= block_pieces;
            tiling.extend(shifted(&entry.tiling, offsets[r], offsets[c]));
        }
        if !dealt {
            continue;
        }
        let corner = size - offsets[first_corner];
        let remaining = deadline.remaining();
        let options = Options {
            seed: rng.next_u64(),
            time_budget: Some(remaining.mul_f64(CORNER_TIME_SHARE)),
            ..Options::default()
        };
        if let (Outcome::Solved(part), _) =
            solver::solve_by_search(corner, &Signature::new(left), &options)
        {
            let at = offsets[first_corner];
            tiling.extend(shifted(&part, at, at));
            return Some(tiling);
        }
    }
    None
}

/// Coordinate-descent sweeps of [`nonnegative_mix`]: 24 unknowns and 7 equations converge
/// far sooner.
const MIX_SWEEPS: usize = 400;

/// How many of each entry make `target`, as non-negative reals: the least-squares fit of the
/// entries' count vectors to `target` under `x >= 0`. A signature tiled by blocks of the library
/// is such a sum exactly, so a deal that follows the mix leaves no figure without partners (the
/// proportional rule can spend the L's that the Z's need on blocks that did not need them).
fn nonnegative_mix(entries: &[Entry], target: [u32; 7]) -> Vec<f64> {
    let vectors: Vec<[f64; 7]> = entries.iter().map(|e| e.counts.map(f64::from)).collect();
    let mut residual = target.map(f64::from);
    let mut mix = vec![0.0; entries.len()];
    for _ in 0..MIX_SWEEPS {
        for (amount, vector) in mix.iter_mut().zip(&vectors) {
            let norm: f64 = vector.iter().map(|v| v * v).sum();
            let along: f64 = vector.iter().zip(&residual).map(|(v, r)| v * r).sum();
            let next = (*amount + along / norm).max(0.0);
            let change = next - *amount;
            if change != 0.0 {
                for (r, v) in residual.iter_mut().zip(vector) {
                    *r -= change * v;
                }
                *amount = next;
            }
        }
    }
    mix
}

/// `blocks` entries of the 4x4 library in the proportions of `mix`, shuffled: each entry's
/// share rounded down, the rest to the largest remainders (randomly jittered per attempt).
fn planned_entries(mix: &[f64], blocks: usize, rng: &mut Rng) -> Vec<usize> {
    let total: f64 = mix.iter().sum();
    if total <= 0.0 || blocks == 0 {
        return Vec::new();
    }
    let shares: Vec<f64> = mix.iter().map(|m| m * blocks as f64 / total).collect();
    let mut planned: Vec<usize> = Vec::with_capacity(blocks);
    for (entry, share) in shares.iter().enumerate() {
        planned.extend(std::iter::repeat_n(entry, share.floor() as usize));
    }
    let mut remainders: Vec<(f64, usize)> = shares
        .iter()
        .enumerate()
        .map(|(entry, share)| (share.fract() + rng.f64() * 0.1, entry))
        .collect();
    remainders.sort_by(|a, b| b.0.total_cmp(&a.0));
    for &(_, entry) in remainders
        .iter()
        .cycle()
        .take(blocks.saturating_sub(planned.len()))
    {
        planned.push(entry);
    }
    planned.truncate(blocks);
    rng.shuffle(&mut planned);
    planned
}

/// Random jitter added to a deal's squared distance, so attempts differ where choices tie.
const DEAL_NOISE: f64 = 0.5;

/// How much more likely each piece of a dominant figure makes a block in [`skewed`].
const DOMINANT_WEIGHT: f64 = 6.0;

/// A solvable signature dominated by two or three figures, with its tiling: each block of the
/// square drawn from the library with weight `DOMINANT_WEIGHT` per dominant piece it holds (a
/// 2 x 2 or 6 x 6 corner, when the side is 2 mod 4, is a random tiling). `None` for odd sizes.
pub fn skewed(size: usize, rng: &mut Rng) -> Option<(Signature, Vec<Placement>, Vec<Figure>)> {
    if size % 2 == 1 || !(2..=solver::MAX_SIZE).contains(&size) {
        return None;
    }
    let mut figures = Figure::ALL.to_vec();
    rng.shuffle(&mut figures);
    let dominant: Vec<Figure> = figures[..rng.range(2..4)].to_vec();
    let mut weight = [1.0f64; 7];
    for f in &dominant {
        weight[f.index()] = DOMINANT_WEIGHT;
    }
    let bands = bands(size);
    let mut cumulative: [Vec<f64>; 3] = Default::default();
    for (shape, sums) in cumulative.iter_mut().enumerate() {
        let (height, width) = SHAPES[shape];
        if bands.contains(&height) && bands.contains(&width) {
            *sums = library(shape)
                .iter()
                .scan(0.0, |total, e| {
                    *total += (0..7)
                        .map(|f| weight[f].powi(e.counts[f] as i32))
                        .product::<f64>();
                    Some(*total)
                })
                .collect();
        }
    }
    let mut tiling = Vec::with_capacity(size * size / 4);
    let mut top = 0;
    for &height in &bands {
        let mut left = 0;
        for &width in &bands {
            match shape_index(height, width) {
                Some(shape) => {
                    let sums = &cumulative[shape];
                    let pick = rng.f64() * sums.last().copied().unwrap_or(0.0);
                    let index = sums.partition_point(|&s| s <= pick).min(sums.len() - 1);
                    tiling.extend(shifted(&library(shape)[index].tiling, top, left));
                }
                None => {
                    let part = random_tiling(height, rng.next_u64())?;
                    tiling.extend(shifted(&part, top, left));
                }
            }
            left += width;
        }
        top += height;
    }
    let mut counts = [0u32; 7];
    for p in &tiling {
        counts[p.figure.index()] += 1;
    }
    Some((Signature::new(counts), tiling, dominant))
}

/// How long [`super::decide::solve`] lets the blocks try before its search: most of a second.
pub const ASSEMBLY_TIME: Duration = Duration::from_millis(700);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tetromino::solution::verify;

    #[test]
    fn library_holds_the_known_4x4_count() {
        assert_eq!(library(0).len(), 24);
        for (index, shape) in SHAPES.iter().enumerate() {
            for e in library(index) {
                let mut covered = vec![false; shape.0 * shape.1];
                let mut counts = [0u32; 7];
                for p in &e.tiling {
                    counts[p.figure.index()] += 1;
                    for (r, c) in p.cells() {
                        assert!(r < shape.0 && c < shape.1, "{shape:?} {p:?}");
                        assert!(!std::mem::replace(&mut covered[r * shape.1 + c], true));
                    }
                }
                assert_eq!(counts, e.counts);
            }
        }
    }

    #[test]
    fn skewed_tilings_verify_and_are_dominated() {
        let mut rng = Rng::new(5);
        for size in [2, 4, 6, 10, 16, 30, 48] {
            let (sig, tiling, dominant) = skewed(size, &mut rng).unwrap();
            assert_eq!(verify(size, &sig, &tiling), Ok(()), "{size} {sig}");
            let main: u64 = dominant.iter().map(|f| u64::from(sig.count(*f))).sum();
            if size >= 16 {
                assert!(main * 2 > sig.total(), "{size} {sig} {dominant:?}");
            }
        }
    }

    #[test]
    fn the_issue_mixes_are_assembled() {
        for (size, text) in [
            (48, "S144,Z144,J144,L144"),
            (48, "S144,I144,L144,J144"),
            (48, "Z260,L260,T56"),
            (100, "Z1200,L1200,T100"),
            (100, "S625,I625,L625,J625"),
        ] {
            let sig = Signature::parse(text).unwrap();
            let deadline = Deadline::after(Duration::from_secs(10));
            let tiling = assemble(size, &sig, 1, &deadline).expect(text);
            assert_eq!(verify(size, &sig, &tiling), Ok(()), "{text}");
        }
    }
}
