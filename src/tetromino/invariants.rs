//! Colouring invariants: for each periodic colouring of the board, the colour counts a figure can
//! cover (computed from its shapes), and an exact test whether the signature can sum to the board's.

use super::figures::{Figure, ORIENTATIONS};
use super::signature::Signature;
use crate::core::hash::FastSet;
use std::fmt::Write as _;
use std::sync::OnceLock;

/// The most colours a colouring has: (i mod 4, j mod 4).
pub const MAX_COLOURS: usize = 16;

/// A colour-count vector: how many cells of each colour (unused colours stay 0).
type Counts = [u32; MAX_COLOURS];

/// A colouring of the plane that repeats every `period` rows and columns.
pub struct Colouring {
    /// How a proof names it, e.g. `diagonal (i + j) mod 4`.
    pub name: &'static str,
    pub period: usize,
    pub colours: usize,
    colour: fn(usize, usize) -> usize,
}

impl Colouring {
    pub fn colour(&self, row: usize, column: usize) -> usize {
        (self.colour)(row % self.period, column % self.period)
    }
}

/// The family, cheapest first: a proof names the first colouring that refutes the signature.
pub static COLOURINGS: [Colouring; 9] = [
    Colouring {
        name: "checkerboard (i + j) mod 2",
        period: 2,
        colours: 2,
        colour: |i, j| (i + j) % 2,
    },
    Colouring {
        name: "column stripes j mod 2",
        period: 2,
        colours: 2,
        colour: |_, j| j % 2,
    },
    Colouring {
        name: "row stripes i mod 2",
        period: 2,
        colours: 2,
        colour: |i, _| i % 2,
    },
    Colouring {
        name: "diagonal (i + j) mod 4",
        period: 4,
        colours: 4,
        colour: |i, j| (i + j) % 4,
    },
    Colouring {
        name: "anti-diagonal (i - j) mod 4",
        period: 4,
        colours: 4,
        colour: |i, j| (i + 3 * j) % 4,
    },
    Colouring {
        name: "rows i mod 4",
        period: 4,
        colours: 4,
        colour: |i, _| i % 4,
    },
    Colouring {
        name: "columns j mod 4",
        period: 4,
        colours: 4,
        colour: |_, j| j % 4,
    },
    Colouring {
        name: "pairs (i mod 2, j mod 2)",
        period: 2,
        colours: 4,
        colour: |i, j| 2 * (i % 2) + j % 2,
    },
    Colouring {
        name: "(i mod 4, j mod 4)",
        period: 4,
        colours: 16,
        colour: |i, j| 4 * (i % 4) + j % 4,
    },
];

/// Each figure's distinct colour-count vectors under each colouring, derived once from the shapes.
fn figure_vectors() -> &'static Vec<[Vec<Counts>; 7]> {
    static VECTORS: OnceLock<Vec<[Vec<Counts>; 7]>> = OnceLock::new();
    VECTORS.get_or_init(|| COLOURINGS.iter().map(vectors_of).collect())
}

fn vectors_of(colouring: &Colouring) -> [Vec<Counts>; 7] {
    std::array::from_fn(|f| {
        let mut found: Vec<Counts> = Vec::new();
        for o in ORIENTATIONS.iter().filter(|o| o.figure.index() == f) {
            for top in 0..colouring.period {
                for left in 0..colouring.period {
                    let mut v = [0u32; MAX_COLOURS];
                    for &(r, c) in &o.cells {
                        v[colouring.colour(top + r as usize, left + c as usize)] += 1;
                    }
                    if !found.contains(&v) {
                        found.push(v);
                    }
                }
            }
        }
        found.sort_unstable();
        found
    })
}

/// The colour counts of the `size` x `size` board, from how many rows and columns fall in each
/// residue class (no pass over the cells).
fn board_vector(colouring: &Colouring, size: usize) -> [u64; MAX_COLOURS] {
    let p = colouring.period;
    let in_class = |r: usize| (size + p - 1 - r) / p;
    let mut v = [0u64; MAX_COLOURS];
    for r in 0..p {
        for c in 0..p {
            v[colouring.colour(r, c)] += (in_class(r) * in_class(c)) as u64;
        }
    }
    v
}

/// Partial sums the exact stage may hold before the remaining figures go modulo m.
const EXACT_STATE_CAP: usize = 1 << 12;
/// State x vector additions the exact stage may spend per colouring (a few ms).
const EXACT_WORK_CAP: u64 = 1 << 16;
/// The modular stage's group has at most 2^12 elements: m = 2^(12 / (colours - 1)).
const MODULAR_BITS: u32 = 12;

// Multiply-rotate hashing of the partial sums: the std SipHash dominated the exact stage.
type Sums = FastSet<Counts>;

/// How a colouring refuted a signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refutation {
    pub colouring: &'static str,
    /// `None`: exact over the integers; `Some(m)`: not even modulo m.
    pub modulus: Option<u32>,
    pub line: String,
}

/// The first colouring whose counts the signature cannot meet on the `size` x `size` board (area
/// must already match: four cells a figure).
///
/// A placed figure covers a vector of colour counts, and a tiling's vectors sum to the board's.
/// Each figure's vectors are taken over every orientation and every position modulo the period:
/// a superset of what any board allows, so a signature that cannot reach the board's vector has
/// no tiling. Reachability (is the board a sum of n_f vectors from V_f for every f?) is decided
/// by an integer dynamic programme over partial sums, figures with fewest sums first, pruned by
/// the least and most the figures still to come can add per colour: exact when it covers every
/// figure. Past a state cap the rest are added modulo a power of two m (a breadth-first closure on
/// the finite group, exact there), and the board must be reachable modulo m from an exact sum.
pub fn refute(size: usize, signature: &Signature) -> Option<Refutation> {
    let vectors = figure_vectors();
    COLOURINGS
        .iter()
        .zip(vectors)
        .find_map(|(colouring, vectors)| refute_with(colouring, vectors, size, signature))
}

/// The refutation by one colouring (by name), for the exhaustive checks' per-colouring counts.
pub fn refute_by(index: usize, size: usize, signature: &Signature) -> Option<Refutation> {
    refute_with(
        &COLOURINGS[index],
        &figure_vectors()[index],
        size,
        signature,
    )
}

fn refute_with(
    colouring: &'static Colouring,
    vectors: &[Vec<Counts>; 7],
    size: usize,
    signature: &Signature,
) -> Option<Refutation> {
    let board = board_vector(colouring, size);
    let k = colouring.colours;
    let modulus = reachable(k, vectors, &board, &signature.counts).err()?;
    let mut line = format!("{} colouring: the board has ", colouring.name);
    line.push_str(&show_vector(&board.map(|c| c as i64)[..k]));
    line.push_str(" cells per colour, and ");
    line.push_str(&signature.to_string());
    match modulus {
        None => line.push_str(" cannot sum to it"),
        Some(m) => {
            let _ = write!(line, " cannot sum to it even modulo {m}");
        }
    }
    if k <= 4 {
        line.push_str(" (");
        let mut first = true;
        for f in Figure::ALL.iter().filter(|f| signature.count(**f) > 0) {
            if !first {
                line.push_str("; ");
            }
            first = false;
            let _ = write!(line, "each {f} covers ");
            let shown: Vec<String> = vectors[f.index()]
                .iter()
                .map(|v| show_vector(&v.map(i64::from)[..k]))
                .collect();
            line.push_str(&shown.join(" or "));
        }
        line.push(')');
    } else {
        line.push_str(" (the figures' colour counts over all orientations and positions)");
    }
    Some(Refutation {
        colouring: colouring.name,
        modulus,
        line,
    })
}

fn show_vector(v: &[i64]) -> String {
    let parts: Vec<String> = v.iter().map(|c| c.to_string()).collect();
    format!("({})", parts.join(","))
}

/// `Ok` if some choice of one vector per piece sums to `board`; otherwise `Err(None)` when the
/// exact stage covered every figure, `Err(Some(m))` when it was refuted modulo m.
fn reachable(
    k: usize,
    vectors: &[Vec<Counts>; 7],
    board: &[u64; MAX_COLOURS],
    counts: &[u32; 7],
) -> Result<(), Option<u32>> {
    let mut order: Vec<usize> = (0..7).filter(|&f| counts[f] > 0).collect();
    order.sort_by_key(|&f| (vectors[f].len() > 1, counts[f]));
    let board: Vec<i64> = board[..k].iter().map(|&c| c as i64).collect();
    let bound = |f: usize, pick: fn(u32, u32) -> u32| -> Vec<i64> {
        (0..k)
            .map(|c| {
                let extreme = vectors[f].iter().map(|v| v[c]).reduce(pick).unwrap_or(0);
                i64::from(extreme) * i64::from(counts[f])
            })
            .collect()
    };
    // Per colour, the least and most the figures from position t on can cover.
    let mut least_after = vec![vec![0i64; k]; order.len() + 1];
    let mut most_after = vec![vec![0i64; k]; order.len() + 1];
    for t in (0..order.len()).rev() {
        let (lo, hi) = (bound(order[t], u32::min), bound(order[t], u32::max));
        for c in 0..k {
            least_after[t][c] = least_after[t + 1][c] + lo[c];
            most_after[t][c] = most_after[t + 1][c] + hi[c];
        }
    }
    let mut states: Sums = Sums::default();
    states.insert([0u32; MAX_COLOURS]);
    let mut work = 0u64;
    let mut exact_upto = 0;
    while exact_upto < order.len()
        && (k <= SPAN_FROM_COLOURS || vectors[order[exact_upto]].len() == 1)
    {
        let f = order[exact_upto];
        match add_exactly(
            &states,
            &vectors[f],
            counts[f],
            &board,
            &least_after[exact_upto + 1],
            &most_after[exact_upto + 1],
            &mut work,
        ) {
            Some(next) => states = next,
            None => break,
        }
        if states.is_empty() {
            return Err(None);
        }
        exact_upto += 1;
    }
    if exact_upto == order.len() {
        return Ok(());
    }
    let rest = |s: &Counts| -> Vec<i64> { (0..k).map(|c| board[c] - i64::from(s[c])).collect() };
    if k > SPAN_FROM_COLOURS {
        let mut span = Span::default();
        let mut modular = order[exact_upto..].to_vec();
        modular.sort_by_key(|&f| std::cmp::Reverse(counts[f]));
        for &f in &modular {
            if !span.add_copies(&vectors[f], counts[f], k) {
                return Ok(());
            }
        }
        return if states.iter().any(|s| span.contains(&rest(s), k)) {
            Ok(())
        } else {
            Err(Some(2))
        };
    }
    let group = Group::new(k);
    let mut reach = vec![false; group.size];
    reach[0] = true;
    for &f in &order[exact_upto..] {
        reach = group.add_copies(&reach, &vectors[f], counts[f]);
    }
    if states.iter().any(|s| reach[group.index(&rest(s))]) {
        Ok(())
    } else {
        Err(Some(group.modulus))
    }
}

/// Colourings with more colours than this go modulo 2 by linear algebra, most numerous figures
/// first so the rest search a small quotient: their exact stage rarely ends, and a bitset over
/// Z_m^(colours - 1) would not be small.
const SPAN_FROM_COLOURS: usize = 4;
/// Representatives the modulo-2 stage may hold, and representative x difference steps it may
/// take (about a millisecond), before it stops proving anything.
const SPAN_REPRESENTATIVE_CAP: usize = 1 << 15;
const SPAN_WORK_CAP: u64 = 1 << 17;

/// Sums modulo 2 as a set of representatives plus a subspace of F_2^colours: n copies of a
/// figure add n times its first vector plus at most n of the differences to the others, which
/// is their whole span once n reaches its rank (a span element is a sum of independent ones).
struct Span {
    /// `basis[b]`: a vector whose highest set bit is b, or 0.
    basis: [u32; MAX_COLOURS],
    representatives: Vec<u32>,
    work: u64,
}

impl Default for Span {
    fn default() -> Span {
        Span {
            basis: [0; MAX_COLOURS],
            representatives: vec![0],
            work: 0,
        }
    }
}

impl Span {
    fn parity(v: &[i64], k: usize) -> u32 {
        (0..k).fold(0, |acc, c| acc | ((v[c].rem_euclid(2) as u32) << c))
    }

    fn reduce(&self, mut x: u32) -> u32 {
        for b in (0..MAX_COLOURS).rev() {
            if x >> b & 1 == 1 && self.basis[b] != 0 {
                x ^= self.basis[b];
            }
        }
        x
    }

    /// Adds `x` to the subspace; false if it was already in it.
    fn insert(&mut self, x: u32) -> bool {
        let x = self.reduce(x);
        if x == 0 {
            return false;
        }
        self.basis[31 - x.leading_zeros() as usize] = x;
        true
    }

    fn normalise(&mut self) {
        let mut reps: Vec<u32> = self
            .representatives
            .iter()
            .map(|&r| self.reduce(r))
            .collect();
        reps.sort_unstable();
        reps.dedup();
        self.representatives = reps;
    }

    /// False once the representatives pass their cap (the stage then proves nothing).
    fn add_copies(&mut self, vectors: &[Counts], count: u32, k: usize) -> bool {
        let as_i64 = |v: &Counts| -> Vec<i64> { v.iter().map(|&c| i64::from(c)).collect() };
        let base = Self::parity(&as_i64(&vectors[0]), k);
        let differences: Vec<u32> = vectors[1..]
            .iter()
            .map(|v| Self::parity(&as_i64(v), k) ^ base)
            .filter(|&d| d != 0)
            .collect();
        let shift = if count % 2 == 1 { base } else { 0 };
        for r in &mut self.representatives {
            *r ^= shift;
        }
        let mut own = Span {
            basis: [0; MAX_COLOURS],
            representatives: Vec::new(),
            work: 0,
        };
        let rank = differences.iter().filter(|&&d| own.insert(d)).count();
        if count as usize >= rank {
            for d in differences {
                self.insert(d);
            }
            self.normalise();
            return true;
        }
        let mut seen = vec![false; 1 << MAX_COLOURS];
        self.normalise();
        for &r in &self.representatives {
            seen[r as usize] = true;
        }
        let mut frontier = self.representatives.clone();
        for _ in 0..count {
            let mut fresh = Vec::new();
            self.work += (frontier.len() * differences.len()) as u64;
            if self.work > SPAN_WORK_CAP {
                return false;
            }
            for &x in &frontier {
                for &d in &differences {
                    let y = self.reduce(x ^ d);
                    if !seen[y as usize] {
                        seen[y as usize] = true;
                        fresh.push(y);
                    }
                }
            }
            if fresh.is_empty() {
                break;
            }
            self.representatives.extend_from_slice(&fresh);
            if self.representatives.len() > SPAN_REPRESENTATIVE_CAP {
                return false;
            }
            frontier = fresh;
        }
        true
    }

    fn contains(&self, v: &[i64], k: usize) -> bool {
        let x = self.reduce(Self::parity(v, k));
        self.representatives.iter().any(|&r| self.reduce(r) == x)
    }
}

/// The partial sums after `count` more copies of `vectors`, kept only where the figures still to
/// come (`least`, `most` per colour) can complete the board; `None` past the caps.
fn add_exactly(
    states: &Sums,
    vectors: &[Counts],
    count: u32,
    board: &[i64],
    least: &[i64],
    most: &[i64],
    work: &mut u64,
) -> Option<Sums> {
    let k = board.len();
    let (lo, hi): (Vec<i64>, Vec<i64>) = (0..k)
        .map(|c| {
            let column = vectors.iter().map(|v| i64::from(v[c]));
            (column.clone().min().unwrap_or(0), column.max().unwrap_or(0))
        })
        .unzip();
    if let [only] = vectors {
        let next: Sums = states
            .iter()
            .filter_map(|s| {
                let mut t = *s;
                for c in 0..k {
                    t[c] += only[c] * count;
                    let have = i64::from(t[c]);
                    if have + least[c] > board[c] || have + most[c] < board[c] {
                        return None;
                    }
                }
                Some(t)
            })
            .collect();
        return Some(next);
    }
    let mut current = states.clone();
    for placed in 1..=i64::from(count) {
        let left = i64::from(count) - placed;
        let mut next = Sums::with_capacity_and_hasher(current.len() * 2, Default::default());
        for s in &current {
            'vector: for v in vectors {
                *work += 1;
                let mut t = *s;
                for c in 0..k {
                    t[c] += v[c];
                    let have = i64::from(t[c]);
                    if have + left * lo[c] + least[c] > board[c]
                        || have + left * hi[c] + most[c] < board[c]
                    {
                        continue 'vector;
                    }
                }
                next.insert(t);
            }
        }
        if next.len() > EXACT_STATE_CAP || *work > EXACT_WORK_CAP {
            return None;
        }
        if next.is_empty() {
            return Some(next);
        }
        current = next;
    }
    Some(current)
}

/// Z_m^(k-1) with m a power of two, elements packed as `bits`-bit fields (the last colour is
/// implied: every vector sums to four times its pieces).
struct Group {
    dims: usize,
    bits: u32,
    modulus: u32,
    size: usize,
    high: u32,
}

impl Group {
    fn new(colours: usize) -> Group {
        let dims = colours - 1;
        let bits = (MODULAR_BITS / dims as u32).max(1);
        let mut high = 0u32;
        for d in 0..dims as u32 {
            high |= 1 << (d * bits + bits - 1);
        }
        Group {
            dims,
            bits,
            modulus: 1 << bits,
            size: 1 << (bits * dims as u32),
            high,
        }
    }

    fn index(&self, v: &[i64]) -> usize {
        let m = i64::from(self.modulus);
        (0..self.dims).fold(0usize, |acc, c| {
            acc | ((v[c].rem_euclid(m) as usize) << (c as u32 * self.bits))
        })
    }

    /// Field-wise addition modulo m, with no carry between fields.
    fn add(&self, a: usize, b: usize) -> usize {
        let (a, b) = (a as u32, b as u32);
        let low = !self.high;
        (((a & low) + (b & low)) ^ ((a ^ b) & self.high)) as usize & (self.size - 1)
    }

    /// `reach` + the sums of `count` vectors: `count` times the first vector, then a
    /// breadth-first closure under the differences (each element enters the frontier once).
    fn add_copies(&self, reach: &[bool], vectors: &[Counts], count: u32) -> Vec<bool> {
        let as_i64 = |v: &Counts| -> Vec<i64> { v.iter().map(|&c| i64::from(c)).collect() };
        let base = as_i64(&vectors[0]);
        let shift = self.index(
            &base
                .iter()
                .map(|&c| c * i64::from(count))
                .collect::<Vec<_>>(),
        );
        let steps: Vec<usize> = vectors[1..]
            .iter()
            .map(|v| {
                let d: Vec<i64> = as_i64(v).iter().zip(&base).map(|(a, b)| a - b).collect();
                self.index(&d)
            })
            .filter(|&d| d != 0)
            .collect();
        let mut next = vec![false; self.size];
        let mut frontier = Vec::new();
        for (x, &present) in reach.iter().enumerate() {
            if present {
                let y = self.add(x, shift);
                next[y] = true;
                frontier.push(y);
            }
        }
        let mut layer = 0;
        while layer < count && !frontier.is_empty() {
            layer += 1;
            let mut fresh = Vec::new();
            for &x in &frontier {
                for &d in &steps {
                    let y = self.add(x, d);
                    if !next[y] {
                        next[y] = true;
                        fresh.push(y);
                    }
                }
            }
            frontier = fresh;
        }
        next
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refuted(size: usize, sig: &str) -> Option<Refutation> {
        refute(size, &Signature::parse(sig).unwrap())
    }

    #[test]
    fn vectors_come_from_the_shapes() {
        let diagonal = COLOURINGS
            .iter()
            .position(|c| c.name.starts_with("diagonal (i + j) mod 4"))
            .unwrap();
        let v = &figure_vectors()[diagonal];
        assert_eq!(v[Figure::I.index()].len(), 1);
        assert_eq!(&v[Figure::I.index()][0][..4], &[1, 1, 1, 1]);
        assert_eq!(v[Figure::O.index()].len(), 4);
        assert!(v[Figure::O.index()].iter().any(|o| o[..4] == [1, 2, 1, 0]));
        let checker = &figure_vectors()[0];
        let t: Vec<&[u32]> = checker[Figure::T.index()].iter().map(|v| &v[..2]).collect();
        assert_eq!(t, [&[1, 3][..], &[3, 1][..]]);
    }

    #[test]
    fn board_vectors_count_every_cell() {
        for colouring in &COLOURINGS {
            for size in [2, 6, 8, 10] {
                let mut direct = [0u64; MAX_COLOURS];
                for i in 0..size {
                    for j in 0..size {
                        direct[colouring.colour(i, j)] += 1;
                    }
                }
                assert_eq!(board_vector(colouring, size), direct, "{}", colouring.name);
            }
        }
    }

    #[test]
    fn the_issue_examples_are_refuted() {
        let r = refuted(16, "I61,O3").unwrap();
        assert!(r.line.contains("(i + j) mod 4"), "{}", r.line);
        assert!(!r.line.contains('\n'));
        assert!(refuted(40, "I399,O1").is_some());
        assert!(refuted(4, "T1,O3")
            .unwrap()
            .line
            .starts_with("checkerboard"));
        assert!(refuted(4, "L1,O3").is_some());
        assert!(refuted(6, "I9").is_some());
    }

    #[test]
    fn solvable_signatures_pass() {
        for sig in ["I4", "I2,J2", "O4", "T4", "I1,J1,L1,Z1", "L2,Z2"] {
            assert_eq!(refuted(4, sig), None, "{sig}");
        }
        assert_eq!(refuted(48, "S144,Z144,J144,L144"), None);
        assert_eq!(refuted(100, "Z1200,L1200,T100"), None);
        assert_eq!(refuted(2000, "I1000000"), None);
    }
}
