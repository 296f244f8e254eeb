//! The pip-ordered engine: every distinct canonical board expanded once, with its path counts
//! kept per depth of its reach, instead of once per depth as the layered BFS does.
//
// Why it is exact: a placement without capture adds one die of 1 (one pip more, one die more);
// a capture keeps the pips and removes dice. So (pips ascending, dice descending) orders the
// game graph topologically: a board is final (all its parents seen) when its turn comes. The
// depths at which a board is reachable form one range, [lo, hi]; its counts are one `Lanes`
// per depth of that range (lane t: the paths to the board that symmetry t maps onto it).
//
// Levels are pip counts relative to the start. Per level, two passes:
//   discover: walk the level's boards by empty cells ascending (dice descending), generate each
//             board's moves once, canonicalise each child once and record the edge (child,
//             symmetry) or, for a full board, the terminal; children land in this level (a
//             capture: more empty cells, later in the walk) or the next (a plain placement);
//             their depth ranges grow as their parents are seen;
//   push:     once the next level is discovered, every board's counts are final in the same
//             order: each edge adds the parent's counts, permuted into the child's frame and one
//             depth later, to the child; terminals and the last depth are hashed.
// Three levels are live at once (pushing p - 1, discovered p, discovering p + 1).

use super::arch::{all::Portable, select, Kernel, KernelChoice, LaneOps};
use super::board::Board;
use super::engine::ANSWER_MASK;
use super::tables::{Lanes, EMPTY_SHIFT, MOVE_BASE, MOVE_HASH_SUM, MOVE_IMAGE, MOVE_SPAN};

/// What an edge leads to, in its top bits; the low 32 bits hold the child's index in its level
/// (or, for a terminal, the full board in the parent's frame).
const EDGE_SAME_LEVEL: u64 = 1 << 40;
const EDGE_TERMINAL: u64 = 1 << 41;
const EDGE_SYMMETRY_SHIFT: u32 = 32;

/// The smallest map: small cases never grow it, and clearing it costs nothing.
const MIN_SLOTS: usize = 1024;

/// Children ahead of the one being added whose counts are prefetched (the adds scatter over
/// the next level's counts, which miss the cache on the large cases).
const PUSH_PREFETCH_DISTANCE: usize = 8;

/// Board-to-index map of one level: open addressing over `key << 32 | index + 1` slots.
#[derive(Default)]
struct Index {
    slots: Vec<u64>,
    len: usize,
}

impl Index {
    /// Empties the map, sized for about `expected` boards so it rarely grows.
    fn clear(&mut self, expected: usize) {
        let capacity = (2 * expected).next_power_of_two().max(MIN_SLOTS);
        self.slots.clear();
        self.slots.resize(capacity, 0);
        self.len = 0;
    }

    #[inline(always)]
    fn slot_of(&self, key: u32) -> usize {
        let shift = 32 - self.slots.len().trailing_zeros();
        (key.wrapping_mul(0x9e37_79b1) >> shift) as usize
    }

    /// The index of `key`, inserting it as `fresh` if absent; true when inserted.
    #[inline(always)]
    fn find_or_insert(&mut self, key: u32, fresh: u32) -> (u32, bool) {
        let mask = self.slots.len() - 1;
        let mut h = self.slot_of(key);
        loop {
            let slot = self.slots[h];
            if slot == 0 {
                self.slots[h] = (key as u64) << 32 | (fresh as u64 + 1);
                self.len += 1;
                if 2 * self.len > self.slots.len() {
                    self.grow();
                }
                return (fresh, true);
            }
            if (slot >> 32) as u32 == key {
                return ((slot as u32) - 1, false);
            }
            h = (h + 1) & mask;
        }
    }

    #[cold]
    fn grow(&mut self) {
        let doubled = vec![0; 2 * self.slots.len()];
        let old = std::mem::replace(&mut self.slots, doubled);
        let mask = self.slots.len() - 1;
        for slot in old.into_iter().filter(|&s| s != 0) {
            let mut h = self.slot_of((slot >> 32) as u32);
            while self.slots[h] != 0 {
                h = (h + 1) & mask;
            }
            self.slots[h] = slot;
        }
    }
}

/// One board of a level: its canonical state, the first and last depth at which it is
/// reachable (capped at the last depth whose children still count), and where its counts start.
#[derive(Clone, Copy, Debug, Default)]
struct Node {
    state: u32,
    lo: u16,
    hi: u16,
    offset: u32,
}

/// The boards of one pip level and what the two passes know of them.
#[derive(Default)]
struct Level {
    index: Index,
    nodes: Vec<Node>,
    /// Boards by empty cells (1..=9): the walk order of both passes.
    by_empty: [Vec<u32>; 10],
    /// One `Lanes` per depth of each board's range, board after board.
    counts: Vec<Lanes>,
    /// Per board in walk order, its edges: `edges[edge_start[k]..edge_start[k + 1]]`.
    edges: Vec<u64>,
    edge_start: Vec<u32>,
}

impl Level {
    fn clear(&mut self, expected: usize) {
        self.index.clear(expected);
        self.nodes.clear();
        self.by_empty.iter_mut().for_each(Vec::clear);
        self.counts.clear();
        self.edges.clear();
        self.edge_start.clear();
    }

    fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Adds `key` reachable over `lo..=hi`, or widens its range; its index.
    #[inline(always)]
    fn reach(&mut self, key: u32, lo: u16, hi: u16) -> u32 {
        let (i, fresh) = self.index.find_or_insert(key, self.nodes.len() as u32);
        if fresh {
            self.nodes.push(Node {
                state: key,
                lo,
                hi,
                offset: 0,
            });
            self.by_empty[(key >> EMPTY_SHIFT) as usize].push(i);
        } else {
            let node = &mut self.nodes[i as usize];
            node.lo = node.lo.min(lo);
            node.hi = node.hi.max(hi);
        }
        i
    }

    /// Lays out the counts once every board's range is final, all zero.
    fn allocate_counts(&mut self) {
        let mut total = 0u32;
        for node in &mut self.nodes {
            node.offset = total;
            total += u32::from(node.hi - node.lo) + 1;
        }
        self.counts.clear();
        self.counts.resize(total as usize, Lanes::default());
    }
}

/// The moves at a move-table entry, as image deltas.
#[inline(always)]
fn move_images<K: LaneOps>(state: u32, slot: u32) -> &'static [Lanes] {
    let entry = MOVE_BASE[slot as usize] as usize + K::neighbour_index(state, slot as usize);
    let span = MOVE_SPAN[entry];
    let first = (span >> 4) as usize;
    &MOVE_IMAGE[first..first + (span & 15) as usize]
}

/// The lane sums of the hashes of every child of `state` (the layered engine's last layer).
#[inline(always)]
fn children_hash<K: LaneOps>(state: u32) -> K::V {
    let mut empty = K::empty_slots(state);
    let mut moves = 0;
    let mut change = K::zero();
    while empty != 0 {
        let slot = empty.trailing_zeros();
        empty &= empty - 1;
        let entry = MOVE_BASE[slot as usize] as usize + K::neighbour_index(state, slot as usize);
        moves += MOVE_SPAN[entry] & 15;
        change = K::add(change, K::load(&MOVE_HASH_SUM[entry]));
    }
    K::add(change, K::mul(K::splat(moves), K::hash_lanes(state)))
}

/// The pip-ordered engine's working memory, kept between problems.
#[derive(Default)]
pub struct PipEngine {
    levels: [Level; 3],
}

impl PipEngine {
    pub fn new() -> PipEngine {
        PipEngine::default()
    }

    /// The puzzle's answer for `board` after `depth` turns, with lane operations `K`.
    #[inline(always)]
    pub(crate) fn run<K: LaneOps>(&mut self, board: &Board, depth: u32) -> u32 {
        if depth == 0 || board.is_full() {
            return board.hash() & ANSWER_MASK;
        }
        // Children are kept up to depth - 1; the last depth is hashed without generating it.
        let last = (depth - 1).min(u32::from(u16::MAX) - 1) as u16;
        let mut acc = K::zero();
        self.levels.iter_mut().for_each(|level| level.clear(0));
        let (key, symmetry) = K::canonical(board.pack());
        let start = &mut self.levels[0];
        start.reach(key, 0, 0);
        let mut p = 0;
        loop {
            let [pushing, current, next] = self.levels_at(p);
            discover::<K>(current, next, last);
            current.allocate_counts();
            if p == 0 {
                current.counts[0].0[symmetry as usize] = 1;
            } else {
                push::<K>(pushing, current, last, &mut acc);
            }
            if next.is_empty() {
                push::<K>(current, next, last, &mut acc);
                break;
            }
            let expected = self.levels[(p + 1) % 3].nodes.len();
            self.levels[(p + 2) % 3].clear(expected);
            p += 1;
        }
        K::sum(acc) & ANSWER_MASK
    }

    /// Levels p - 1, p and p + 1 of the ring.
    fn levels_at(&mut self, p: usize) -> [&mut Level; 3] {
        let [a, b, c] = &mut self.levels;
        match p % 3 {
            0 => [c, a, b],
            1 => [a, b, c],
            _ => [b, c, a],
        }
    }
}

/// The answer for `board` after `depth` turns, with `kernel`'s lane operations.
pub fn run(engine: &mut PipEngine, kernel: Kernel, board: &Board, depth: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if kernel == Kernel::Avx2 && select(KernelChoice::Avx2).is_ok() {
        // SAFETY: AVX2, BMI1 and BMI2 were detected on this CPU just above.
        return unsafe { run_avx2(engine, board, depth) };
    }
    engine.run::<Portable>(board, depth)
}

/// The engine compiled for AVX2, BMI1 and BMI2.
///
/// # Safety
/// The CPU must support AVX2, BMI1 and BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2")]
unsafe fn run_avx2(engine: &mut PipEngine, board: &Board, depth: u32) -> u32 {
    engine.run::<super::arch::x86_64::avx2::Avx2>(board, depth)
}

// Inlined into each kernel's entry point, like the whole engine, so the lane operations compile
// for that kernel's instruction set.
/// Generates the moves of every board of `level` once, recording its edges; children go to
/// `level` itself (captures) or to `next`.
#[inline(always)]
fn discover<K: LaneOps>(level: &mut Level, next: &mut Level, last: u16) {
    level.edges.clear();
    level.edge_start.clear();
    for empty_cells in 1..level.by_empty.len() {
        let mut k = 0;
        // Captures add boards with more empty cells only, so this bucket is complete.
        while k < level.by_empty[empty_cells].len() {
            let i = level.by_empty[empty_cells][k] as usize;
            k += 1;
            level.edge_start.push(level.edges.len() as u32);
            let Node {
                state: s, lo, hi, ..
            } = level.nodes[i];
            if lo >= last {
                continue;
            }
            let (child_lo, child_hi) = (lo + 1, hi.min(last - 1) + 1);
            let images = K::images(s);
            let mut empty = K::empty_slots(s);
            while empty != 0 {
                let slot = empty.trailing_zeros();
                empty &= empty - 1;
                for delta in move_images::<K>(s, slot) {
                    let child = K::add(images, K::load(delta));
                    let own = K::first(child);
                    let child_empty = own >> EMPTY_SHIFT;
                    if child_empty == 0 {
                        level.edges.push(EDGE_TERMINAL | own as u64);
                        continue;
                    }
                    let (key, symmetry) = K::smallest(child);
                    let sym = (symmetry as u64) << EDGE_SYMMETRY_SHIFT;
                    let edge = if child_empty as usize > empty_cells {
                        EDGE_SAME_LEVEL | sym | level.reach(key, child_lo, child_hi) as u64
                    } else {
                        sym | next.reach(key, child_lo, child_hi) as u64
                    };
                    level.edges.push(edge);
                }
            }
        }
    }
    level.edge_start.push(level.edges.len() as u32);
}

/// With `level`'s counts final walk by walk: hashes its terminals and last depth into `acc`
/// and adds its counts along every edge, one depth later, to the children in `level` and
/// `next` (whose counts are allocated).
#[inline(always)]
fn push<K: LaneOps>(level: &mut Level, next: &mut Level, last: u16, acc: &mut K::V) {
    let order = std::mem::take(&mut level.by_empty);
    // First where each child's counts for its parent's first depth start, in place of its
    // index: independent loads the CPU overlaps, so the adds below know their addresses early.
    for (k, &i) in order.iter().flatten().enumerate() {
        let lo = level.nodes[i as usize].lo;
        for e in level.edge_start[k] as usize..level.edge_start[k + 1] as usize {
            let edge = level.edges[e];
            if edge & EDGE_TERMINAL != 0 {
                continue;
            }
            let child = if edge & EDGE_SAME_LEVEL != 0 {
                level.nodes[edge as u32 as usize]
            } else {
                next.nodes[edge as u32 as usize]
            };
            let base = child.offset + u32::from(lo + 1 - child.lo);
            level.edges[e] = edge & !u64::from(u32::MAX) | u64::from(base);
        }
    }
    // Every count is read and written through these two pointers only, from here on.
    let (same, same_len) = (level.counts.as_mut_ptr(), level.counts.len());
    let later: *mut Lanes = next.counts.as_mut_ptr();
    for (k, &i) in order.iter().flatten().enumerate() {
        let Node {
            state,
            lo,
            hi,
            offset,
        } = level.nodes[i as usize];
        let base = offset as usize;
        assert!(
            base + usize::from(hi - lo) < same_len,
            "a board's counts lie in its level's"
        );
        let parent = same.wrapping_add(base) as *const Lanes;
        if hi == last {
            // SAFETY: depth `last` is in the board's range, inside the counts (asserted).
            let ways = K::load(unsafe { &*parent.add(usize::from(last - lo)) });
            *acc = K::add(*acc, K::mul(ways, children_hash::<K>(state)));
        }
        if lo >= last {
            continue;
        }
        let span = usize::from(hi.min(last - 1) - lo) + 1;
        for e in level.edge_start[k] as usize..level.edge_start[k + 1] as usize {
            if let Some(&ahead) = level.edges.get(e + PUSH_PREFETCH_DISTANCE) {
                let counts = if ahead & EDGE_SAME_LEVEL != 0 {
                    same
                } else {
                    later
                };
                crate::core::prefetch::prefetch_read(counts.wrapping_add(ahead as u32 as usize));
            }
            let edge = level.edges[e];
            if edge & EDGE_TERMINAL != 0 {
                let mut ways = K::zero();
                for d in 0..span {
                    // SAFETY: `parent` points at this board's counts, `span` of them (asserted).
                    ways = K::add(ways, K::load(unsafe { &*parent.add(d) }));
                }
                *acc = K::add(*acc, K::mul(ways, K::hash_lanes(edge as u32)));
                continue;
            }
            let symmetry = (edge >> EDGE_SYMMETRY_SHIFT & 7) as u32;
            let counts = if edge & EDGE_SAME_LEVEL != 0 {
                same
            } else {
                later
            };
            let child = counts.wrapping_add(edge as u32 as usize);
            for d in 0..span {
                // SAFETY: the child was reached over [lo + 1, top + 1] when this edge was found,
                // so its range holds these `span` depths from `child` on, inside its level's
                // counts; a capture's child is another board than the parent, so its counts
                // never overlap the parent's, and no reference to either is alive here.
                unsafe {
                    let ways = K::permute(K::load(&*parent.add(d)), symmetry);
                    let slot = &mut *child.add(d);
                    K::store(slot, K::add(K::load(slot), ways));
                }
            }
        }
    }
    level.by_empty = order;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cephalopod::cases;

    #[test]
    fn answers_every_bundled_case_with_the_portable_kernel() {
        let mut engine = PipEngine::new();
        for case in cases::all() {
            let answer = engine.run::<Portable>(case.board(), case.problem.depth);
            assert_eq!(answer, case.expected, "{}", case.id);
        }
    }

    #[test]
    fn every_kernel_gives_the_same_answers() {
        let Ok(kernel) = crate::cephalopod::select(crate::cephalopod::KernelChoice::Auto) else {
            return;
        };
        let mut engine = PipEngine::new();
        for case in cases::all().iter().filter(|c| c.problem.depth <= 30) {
            let answer = run(&mut engine, kernel, case.board(), case.problem.depth);
            assert_eq!(answer, case.expected, "{} with {}", case.id, kernel.name());
        }
    }
}
