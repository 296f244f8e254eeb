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
//   discover: walk the level's boards by empty cells ascending (dice descending); each board's
//             range is final when the walk reaches it, so its counts row is laid out (and
//             zeroed) there, and its moves are generated once: each child canonicalised once
//             and recorded as an edge (child, symmetry); children land in this level (a
//             capture: more empty cells, later in the walk) or the next (a plain placement);
//             their depth ranges grow as their parents are seen. The one child of a board
//             with one empty cell and no capture is terminal: kept in the board's walk record;
//   push:     once the next level is discovered (its rows laid out), every board's counts are
//             final in the same walk order: each edge adds the parent's counts, permuted into
//             the child's frame and one depth later, to the child; terminals and the last depth
//             are hashed.
// Three levels are live at once (pushing p - 1, discovered p, discovering p + 1). The maps
// from board to node are open-addressing tables, zeroed (the part a level uses) per level.

use super::arch::{enter, Kernel, KernelRun, LaneOps};
use super::board::Board;
use super::engine::{children_hash, move_entry, ANSWER_MASK};
use super::memory;
use super::tables::{Lanes, EMPTY_SHIFT, MOVE_IMAGE, MOVE_SPAN};

/// An edge is one u32: the child's node index (bits 0..27) and the symmetry from the parent's
/// frame to the child's (27..30). Edges to the parent's own level (captures) and to the next
/// (placements) are kept apart, so the push needs no per-edge choice of level.
const EDGE_INDEX_MASK: u32 = (1 << 27) - 1;
const EDGE_SYMMETRY_SHIFT: u32 = 27;
/// At most 9 empty cells with at most 11 captures each (every subset of 2+ of 4 neighbours).
const MAX_MOVES: usize = 99;

/// The smallest map: 512 bytes, below glibc's large-request size (which would consolidate the
/// heap first: 25 k instructions on a tiny case).
const MIN_SLOTS: usize = 64;
/// Table slots: node index (bits 32..64) | key (0..32), so a probe compares the low half as it
/// is; 0 is empty (no key is 0: a board of a level has an empty cell). Indices stay below 2^24.
const SLOT_INDEX_MASK: u64 = 0xff_ffff;

/// Board-to-node map of one level: open addressing, multiplicative hashing; the slots a level
/// uses are zeroed when it begins (cheaper per probe than a generation stamp per slot, and no
/// `calloc` zeroing through `memset`, which callgrind counts per byte).
#[derive(Default)]
struct Index {
    slots: Vec<u64>,
    mask: usize,
    /// 32 - log2(capacity).
    shift: u32,
}

impl Index {
    /// Empties the map, sized for about `expected` boards so it rarely grows.
    fn begin(&mut self, expected: usize) {
        let capacity = (2 * expected).next_power_of_two().max(MIN_SLOTS);
        if capacity > self.slots.len() {
            self.slots = Vec::new();
            self.slots = Vec::with_capacity(capacity);
            memory::hint_huge_pages(self.slots.as_ptr().cast(), 8 * capacity);
        }
        // A zero the compiler cannot see, so the loop stays vector stores, not a `memset` call.
        let zero = std::hint::black_box(0u64);
        let out = self.slots.as_mut_ptr();
        for h in 0..capacity {
            // SAFETY: `capacity` is at most the allocation's (grown just above if not).
            unsafe { *out.add(h) = zero };
        }
        // SAFETY: the first `capacity` slots were written just above.
        unsafe { self.slots.set_len(self.slots.len().max(capacity)) };
        self.mask = capacity - 1;
        self.shift = 32 - capacity.trailing_zeros();
    }
}

/// One board of a level: its canonical state, the first and last depth at which it is
/// reachable (capped at the last depth whose children still count), and where its counts
/// start minus `lo` (so depth d's counts are at `base + d`), set when the walk reaches it.
#[derive(Clone, Copy, Debug, Default)]
struct Node {
    state: u32,
    /// `lo..=hi` as `Range::pack`s it.
    range: u32,
    base: u32,
}

/// A depth range `lo..=hi` packed as lo (bits 0..16) and !hi (16..32), so that widening one range
/// by another is the unsigned minimum of each half (`LaneOps::min_halves`, one `pminuw`).
struct Range;

impl Range {
    #[inline(always)]
    fn pack(lo: u16, hi: u16) -> u32 {
        u32::from(lo) | u32::from(!hi) << 16
    }

    #[inline(always)]
    fn unpack(range: u32) -> (u16, u16) {
        (range as u16, !((range >> 16) as u16))
    }
}

/// A board as the discover walk met it, in walk order: what the push pass needs.
#[derive(Clone, Copy, Debug)]
struct Walked {
    state: u32,
    lo: u16,
    hi: u16,
    /// Its counts: `counts[offset..offset + hi - lo + 1]`.
    offset: u32,
    /// Its edges to the next level end here (and start where the previous board's end).
    edge_end: u32,
    /// Its edges to its own level likewise.
    same_end: u32,
    /// Its terminal child in its own frame (one empty cell, no capture), or 0.
    terminal: u32,
}

/// The boards of one pip level and what the two passes know of them.
#[derive(Default)]
struct Level {
    index: Index,
    nodes: Vec<Node>,
    /// Node indices by empty cells (1..=9): the walk order.
    by_empty: [Vec<u32>; 10],
    walk: Vec<Walked>,
    /// One `Lanes` per depth of each board's range, board after board in walk order.
    counts: Vec<Lanes>,
    /// Edges to the next level, board after board in walk order.
    edges: Vec<u32>,
    /// Edges to this level (captures) likewise.
    same_edges: Vec<u32>,
}

/// Empties `v` with room for `n` elements: a fresh allocation when it must grow (so nothing is
/// copied, as `reserve` would copy the old capacity), else the one it has.
fn clear_for<T>(v: &mut Vec<T>, n: usize) {
    v.clear();
    if v.capacity() < n {
        *v = Vec::new();
        *v = Vec::with_capacity(n);
        memory::hint_huge_pages(v.as_ptr().cast(), n * std::mem::size_of::<T>());
    }
}

/// How much room a level is given before its walk, from the level before it (a level rarely
/// has more than a few times its predecessor's boards; untouched capacity costs no memory).
#[derive(Clone, Copy, Debug, Default)]
struct Expected {
    nodes: usize,
    rows: usize,
    edges: usize,
    same_edges: usize,
}

impl Expected {
    /// Room for a level after `done` (walked) and `partial` (being filled by that walk).
    fn after(done: &Level, partial: &Level) -> Expected {
        let walked = done.nodes.len().max(1);
        let nodes = 4 * done.nodes.len().max(partial.nodes.len());
        Expected {
            nodes,
            rows: nodes * (done.counts.len() / walked + 1),
            edges: nodes * (done.edges.len() / walked + 1),
            same_edges: nodes * (done.same_edges.len() / walked + 1),
        }
    }
}

impl Level {
    fn clear(&mut self, expected: Expected) {
        self.index.begin(expected.nodes / 2);
        clear_for(&mut self.nodes, expected.nodes);
        self.by_empty.iter_mut().for_each(Vec::clear);
        clear_for(&mut self.walk, expected.nodes);
        clear_for(&mut self.counts, expected.rows);
        clear_for(&mut self.edges, expected.edges);
        clear_for(&mut self.same_edges, expected.same_edges);
    }

    fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Adds `key` reachable over `range` (packed), or widens its range; its node index.
    #[inline(always)]
    fn reach<K: LaneOps>(&mut self, key: u32, range: u32) -> u32 {
        let mut h = (key.wrapping_mul(0x9e37_79b1) >> self.index.shift) as usize;
        loop {
            // SAFETY: `h` is below the capacity (the hash's top bits, or masked by `mask`),
            // which `Index::begin` keeps within `slots`.
            let slot = unsafe { *self.index.slots.get_unchecked(h) };
            if slot as u32 == key {
                let i = (slot >> 32) as u32;
                // SAFETY: an index in a slot was a node's when inserted, and nodes are only
                // cleared with the map.
                let node = unsafe { self.nodes.get_unchecked_mut(i as usize) };
                node.range = K::min_halves(node.range, range);
                return i;
            }
            if slot == 0 {
                return self.insert(h, key, range);
            }
            h = (h + 1) & self.index.mask;
        }
    }

    #[inline(always)]
    fn insert(&mut self, h: usize, key: u32, range: u32) -> u32 {
        let i = self.nodes.len();
        assert!(i <= SLOT_INDEX_MASK as usize, "a pip level of 2^24 boards");
        self.index.slots[h] = (i as u64) << 32 | u64::from(key);
        self.nodes.push(Node {
            state: key,
            range,
            base: 0,
        });
        self.by_empty[(key >> EMPTY_SHIFT) as usize].push(i as u32);
        if 2 * self.nodes.len() > self.index.mask + 1 {
            self.grow();
        }
        i as u32
    }

    /// Doubles the map's capacity and re-inserts the level's boards.
    #[cold]
    fn grow(&mut self) {
        let index = &mut self.index;
        index.begin(index.mask + 1);
        for (i, node) in self.nodes.iter().enumerate() {
            let mut h = (node.state.wrapping_mul(0x9e37_79b1) >> index.shift) as usize;
            while index.slots[h] != 0 {
                h = (h + 1) & index.mask;
            }
            index.slots[h] = (i as u64) << 32 | u64::from(node.state);
        }
    }
}

/// The moves at a move-table entry, as image deltas.
#[inline(always)]
fn move_images<K: LaneOps>(state: u32, slot: u32) -> &'static [Lanes] {
    let entry = move_entry::<K>(state, slot);
    // SAFETY: every span points inside MOVE_IMAGE; `table_checks` checks it for every entry.
    unsafe {
        let span = *MOVE_SPAN.get_unchecked(entry);
        let first = (span >> 4) as usize;
        MOVE_IMAGE.get_unchecked(first..first + (span & 15) as usize)
    }
}

/// Where a run starts: boards reachable at `depth` (canonical, distinct, none full) and their
/// counts in their canonical frames, as a layer of the layered engine holds them.
pub(crate) struct Start<'a> {
    pub depth: u16,
    pub states: &'a [u32],
    pub counts: &'a [Lanes],
}

/// The pips of a state: the sum of its dice.
fn pips_of(state: u32) -> u32 {
    (0..9).map(|slot| state >> (3 * slot) & 7).sum()
}

/// The start's boards by pip level (pips relative to the fewest of them).
struct Seeds {
    /// Indices into the start's boards, level after level.
    order: Vec<u32>,
    /// Level l's boards are `order[level_start[l]..level_start[l + 1]]`.
    level_start: Vec<u32>,
}

impl Seeds {
    fn of(start: &Start) -> Seeds {
        if let [_] = start.states {
            return Seeds {
                order: vec![0],
                level_start: vec![0, 1],
            };
        }
        let pips: Vec<u32> = start.states.iter().map(|&s| pips_of(s)).collect();
        let fewest = pips.iter().copied().min().unwrap_or(0);
        let levels = pips.iter().map(|&p| p - fewest + 1).max().unwrap_or(0) as usize;
        let mut level_start = vec![0u32; levels + 1];
        for &p in &pips {
            level_start[(p - fewest + 1) as usize] += 1;
        }
        for l in 1..=levels {
            level_start[l] += level_start[l - 1];
        }
        let mut next = level_start.clone();
        let mut order = vec![0u32; pips.len()];
        for (i, &p) in pips.iter().enumerate() {
            let slot = &mut next[(p - fewest) as usize];
            order[*slot as usize] = i as u32;
            *slot += 1;
        }
        Seeds { order, level_start }
    }

    fn levels(&self) -> usize {
        self.level_start.len() - 1
    }

    fn at(&self, level: usize) -> &[u32] {
        match self.level_start.get(level..level + 2) {
            Some(&[from, to]) => &self.order[from as usize..to as usize],
            _ => &[],
        }
    }

    /// Puts level `p`'s boards into `level` (just cleared), reachable at the start's depth.
    fn reach<K: LaneOps>(&self, start: &Start, p: usize, level: &mut Level) {
        let range = Range::pack(start.depth, start.depth);
        for &i in self.at(p) {
            level.reach::<K>(start.states[i as usize], range);
        }
    }

    /// Adds level `p`'s counts to their rows in `level` (laid out by its discover walk).
    fn add_counts<K: LaneOps>(&self, start: &Start, p: usize, level: &mut Level) {
        let range = Range::pack(start.depth, start.depth);
        for &i in self.at(p) {
            let node = level.reach::<K>(start.states[i as usize], range);
            let row = level.nodes[node as usize]
                .base
                .wrapping_add(u32::from(start.depth));
            let slot = &mut level.counts[row as usize];
            K::store(
                slot,
                K::add(K::load(slot), K::load(&start.counts[i as usize])),
            );
        }
    }
}

/// What one run saw, for `--stats`.
#[derive(Clone, Copy, Debug, Default)]
pub struct PipStats {
    /// Pip levels.
    pub levels: usize,
    /// Distinct canonical boards.
    pub boards: usize,
    /// Edges (board, move) recorded, terminals not counted.
    pub edges: usize,
    /// Counts rows: (board, depth) pairs, the layered engine's states.
    pub rows: usize,
    /// The most boards of one level.
    pub widest: usize,
}

/// The pip-ordered engine's working memory, kept between problems.
#[derive(Default)]
pub struct PipEngine {
    levels: [Level; 3],
    pub stats: PipStats,
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
        let (key, symmetry) = K::canonical(board.pack());
        let mut ways = Lanes::default();
        ways.0[symmetry as usize] = 1;
        let start = Start {
            depth: 0,
            states: &[key],
            counts: &[ways],
        };
        self.run_from::<K>(start, depth, K::zero())
    }

    /// The answer after `depth` turns from the boards of `start` (distinct, none full) with
    /// their counts, `acc` holding the hashes of the games that ended before it.
    #[inline(always)]
    pub(crate) fn run_from<K: LaneOps>(&mut self, start: Start, depth: u32, acc: K::V) -> u32 {
        self.stats = PipStats::default();
        let mut acc = acc;
        let seeds = Seeds::of(&start);
        // Children are kept up to depth - 1; the last depth is hashed without generating it.
        let last = (depth - 1).min(u32::from(u16::MAX) - 1) as u16;
        self.levels[0].clear(Expected::default());
        self.levels[1].clear(Expected::default());
        seeds.reach::<K>(&start, 0, &mut self.levels[0]);
        seeds.reach::<K>(&start, 1, &mut self.levels[1]);
        let mut p = 0;
        loop {
            let [pushing, current, next] = self.levels_at(p);
            discover::<K>(current, next, last);
            seeds.add_counts::<K>(&start, p, current);
            if p > 0 {
                push::<K>(pushing, current, last, &mut acc);
            }
            let current = &self.levels[p % 3];
            let stats = &mut self.stats;
            stats.levels += 1;
            stats.boards += current.nodes.len();
            stats.edges += current.edges.len() + current.same_edges.len();
            stats.rows += current.counts.len();
            stats.widest = stats.widest.max(current.nodes.len());
            let [_, current, next] = self.levels_at(p);
            if next.is_empty() && p + 2 >= seeds.levels() {
                push::<K>(current, next, last, &mut acc);
                break;
            }
            let expected = Expected::after(current, next);
            let after_next = &mut self.levels[(p + 2) % 3];
            after_next.clear(expected);
            seeds.reach::<K>(&start, p + 2, after_next);
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
    enter(kernel, PipsRun(engine, board, depth))
}

/// The answer after `depth` turns from `start`, `acc` holding the hashes of the games that
/// ended before it (see `PipEngine::run_from`), with `kernel`'s lane operations.
pub(crate) fn run_from(
    engine: &mut PipEngine,
    kernel: Kernel,
    start: Start,
    depth: u32,
    acc: Lanes,
) -> u32 {
    let run = PipsFromRun {
        engine,
        start,
        depth,
        acc,
    };
    enter(kernel, run)
}

/// `PipEngine::run_from`'s arguments, for a kernel's entry point.
struct PipsFromRun<'e, 's> {
    engine: &'e mut PipEngine,
    start: Start<'s>,
    depth: u32,
    acc: Lanes,
}

impl KernelRun for PipsFromRun<'_, '_> {
    #[inline(always)]
    fn run<K: LaneOps>(self) -> u32 {
        let acc = K::load(&self.acc);
        self.engine.run_from::<K>(self.start, self.depth, acc)
    }
}

/// `PipEngine::run`'s arguments, for a kernel's entry point.
struct PipsRun<'e>(&'e mut PipEngine, &'e Board, u32);

impl KernelRun for PipsRun<'_> {
    #[inline(always)]
    fn run<K: LaneOps>(self) -> u32 {
        self.0.run::<K>(self.1, self.2)
    }
}

// Inlined into each kernel's entry point, like the whole engine, so the lane operations compile
// for that kernel's instruction set.
/// Walks `level` (whose index, nodes and buckets are filled from the previous level): lays out
/// and zeroes each board's counts, and generates its moves once, recording its edges; children
/// go to `level` itself (captures) or to `next`.
#[inline(always)]
fn discover<K: LaneOps>(level: &mut Level, next: &mut Level, last: u16) {
    // A zero the compiler cannot see: with a literal zero it turned the row-zeroing loop below
    // into a `memset` call per board (421 k calls, ~14 M instructions on gen09_play).
    let zero = std::hint::black_box(K::zero());
    for empty_cells in 1..level.by_empty.len() {
        let mut k = 0;
        // Captures add boards with more empty cells only, so this bucket is complete.
        while k < level.by_empty[empty_cells].len() {
            let i = level.by_empty[empty_cells][k] as usize;
            k += 1;
            let node = &mut level.nodes[i];
            let Node {
                state: s, range, ..
            } = *node;
            let (lo, hi) = Range::unpack(range);
            // The range is final (every parent has been walked): lay out the row.
            let offset = level.counts.len();
            let rows = usize::from(hi - lo) + 1;
            node.base = (offset as u32).wrapping_sub(u32::from(lo));
            // Four rows at least (gen09_play averages 4.4 per board), stored without a loop, and
            // the rest four at a time with `zero`, so that none of it becomes a memset call.
            level.counts.reserve(rows + 3);
            // SAFETY: `rows + 3` places were reserved past the length just above, and the
            // stores go in fours below `rows + 3`; `Lanes` is plain data, so storing zeroes
            // initialises them (spare zero rows past the length are harmless).
            unsafe {
                let row = level.counts.as_mut_ptr().add(offset);
                let mut d = 0;
                loop {
                    K::store(&mut *row.add(d), zero);
                    K::store(&mut *row.add(d + 1), zero);
                    K::store(&mut *row.add(d + 2), zero);
                    K::store(&mut *row.add(d + 3), zero);
                    d += 4;
                    if d >= rows {
                        break;
                    }
                }
                level.counts.set_len(offset + rows);
            }
            let mut terminal = 0;
            if lo < last {
                let child_range = Range::pack(lo + 1, hi.min(last - 1) + 1);
                level.edges.reserve(MAX_MOVES);
                level.same_edges.reserve(MAX_MOVES);
                let (mut len, mut same_len) = (level.edges.len(), level.same_edges.len());
                // `reach` touches the index, nodes and buckets only, never the edges.
                let (out, same_out) = (level.edges.as_mut_ptr(), level.same_edges.as_mut_ptr());
                let images = K::images(s);
                let mut empty = K::empty_slots(s);
                while empty != 0 {
                    let slot = empty.trailing_zeros();
                    empty &= empty - 1;
                    let moves = move_images::<K>(s, slot);
                    // One entry's moves are all captures, or one placement without capture.
                    let first = K::add(images, K::load(&moves[0]));
                    let child_empty = K::first(first) >> EMPTY_SHIFT;
                    if child_empty as usize > empty_cells {
                        for delta in moves {
                            let (key, symmetry) = K::smallest(K::add(images, K::load(delta)));
                            let child = level.reach::<K>(key, child_range);
                            // SAFETY: a board has at most MAX_MOVES moves, reserved above
                            // (`same_len` counts this board's from the reserved length on).
                            unsafe {
                                *same_out.add(same_len) = symmetry << EDGE_SYMMETRY_SHIFT | child
                            };
                            same_len += 1;
                        }
                    } else if child_empty == 0 {
                        // The last empty cell filled without capture: the game ends there.
                        terminal = K::first(first);
                    } else {
                        let (key, symmetry) = K::smallest(first);
                        let child = next.reach::<K>(key, child_range);
                        // SAFETY: as above, for `len`.
                        unsafe { *out.add(len) = symmetry << EDGE_SYMMETRY_SHIFT | child };
                        len += 1;
                    }
                }
                // SAFETY: every edge below `len` and `same_len` was written above, inside the
                // reservations.
                unsafe {
                    level.edges.set_len(len);
                    level.same_edges.set_len(same_len);
                }
            }
            level.walk.push(Walked {
                state: s,
                lo,
                hi,
                offset: offset as u32,
                edge_end: level.edges.len() as u32,
                same_end: level.same_edges.len() as u32,
                terminal,
            });
        }
    }
}

/// With `level`'s counts final walk by walk: hashes its terminals and last depth into `acc`
/// and adds its counts along every edge, one depth later, to the children in `level` and
/// `next` (both laid out by their discover walks).
#[inline(always)]
fn push<K: LaneOps>(level: &mut Level, next: &mut Level, last: u16, acc: &mut K::V) {
    let counts_len = level.counts.len();
    // Every count and node is read and written through these pointers only, from here on.
    let same = (level.nodes.as_ptr(), level.counts.as_mut_ptr());
    let later = (next.nodes.as_ptr(), next.counts.as_mut_ptr());
    let (edges, same_edges) = (&level.edges, &level.same_edges);
    let (mut e, mut e_same) = (0, 0);
    for w in &level.walk {
        let Walked {
            state,
            lo,
            hi,
            offset,
            edge_end,
            same_end,
            terminal,
        } = *w;
        assert!(
            offset as usize + usize::from(hi - lo) < counts_len,
            "a board's counts lie in its level's"
        );
        let parent = same.1.wrapping_add(offset as usize) as *const Lanes;
        if hi == last {
            // SAFETY: depth `last` is in the board's range, inside the counts (asserted).
            let ways = K::load(unsafe { &*parent.add(usize::from(last - lo)) });
            *acc = K::add(*acc, K::mul(ways, children_hash::<K>(state).1));
        }
        if lo >= last {
            continue;
        }
        let span = usize::from(hi.min(last - 1) - lo) + 1;
        if terminal != 0 {
            let mut ways = K::zero();
            for d in 0..span {
                // SAFETY: `parent` points at this board's counts, `span` of them (asserted).
                ways = K::add(ways, K::load(unsafe { &*parent.add(d) }));
            }
            *acc = K::add(*acc, K::mul(ways, K::hash_lanes(terminal)));
        }
        let at = u32::from(lo) + 1;
        let targets = &edges[e..edge_end as usize];
        let same_targets = &same_edges[e_same..same_end as usize];
        e = edge_end as usize;
        e_same = same_end as usize;
        // SAFETY: for both calls, `parent` holds `span` rows (asserted); every edge's index is a
        // node of the level it was recorded for, whose range took in lo + 1..=lo + span when the
        // edge was found, inside that level's counts; a capture's child is another board than
        // the parent, so its rows are not the parent's.
        unsafe {
            add_along::<K>(targets, later, parent, at, span);
            add_along::<K>(same_targets, same, parent, at, span);
        }
    }
}

/// Adds the parent's `span` rows (depths `at - 1..`), permuted into each child's frame, to
/// the child's rows from depth `at` on, for every edge of `targets`.
///
/// # Safety
/// Every edge's node index lies in `level.0`, that node's rows for depths `at..at + span` lie
/// in `level.1`, and `parent` points at `span` rows disjoint from them.
#[inline(always)]
unsafe fn add_along<K: LaneOps>(
    targets: &[u32],
    level: (*const Node, *mut Lanes),
    parent: *const Lanes,
    at: u32,
    span: usize,
) {
    // SAFETY: the caller's contract covers every pointer below.
    unsafe {
        let (nodes, counts) = level;
        if span == 1 {
            let ways = K::load(&*parent);
            for &edge in targets {
                let child = *nodes.add((edge & EDGE_INDEX_MASK) as usize);
                let slot = &mut *counts.add(child.base.wrapping_add(at) as usize);
                let symmetry = edge >> EDGE_SYMMETRY_SHIFT;
                K::store(slot, K::add(K::load(slot), K::permute(ways, symmetry)));
            }
            return;
        }
        for &edge in targets {
            let child = *nodes.add((edge & EDGE_INDEX_MASK) as usize);
            let row = counts.add(child.base.wrapping_add(at) as usize);
            let symmetry = edge >> EDGE_SYMMETRY_SHIFT;
            for d in 0..span {
                let ways = K::permute(K::load(&*parent.add(d)), symmetry);
                let slot = &mut *row.add(d);
                K::store(slot, K::add(K::load(slot), ways));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cephalopod::arch::{all::Portable, select, KernelChoice};
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

    /// Random boards and depths (seeded): the pip engine against the layered one, with both
    /// kernels where the CPU has AVX2. Small depths, so it stays fast in the test profile.
    #[test]
    fn agrees_with_the_layered_engine_on_random_boards() {
        use crate::cephalopod::{engine, memory, Engine};
        let arena = memory::arena();
        let mut layered = Engine::new(memory::buffers(&arena));
        let mut pips = PipEngine::new();
        let kernels: Vec<Kernel> = [
            KernelChoice::Portable,
            KernelChoice::Avx2,
            KernelChoice::Avx512,
        ]
        .into_iter()
        .filter_map(|c| select(c).ok())
        .collect();
        let mut rng = crate::core::rng::Rng::new(0x2545_f491_4f6c_dd1du64);
        let mut next = move |n: u64| rng.below(n);
        for round in 0..300 {
            let empty_in_ten = next(10);
            let cells: [u8; 9] = std::array::from_fn(|_| {
                if next(10) < empty_in_ten {
                    0
                } else {
                    1 + next(6) as u8
                }
            });
            let board = Board { cells };
            let depth = 1 + next(if round % 10 == 0 { 14 } else { 9 }) as u32;
            let expected = engine::run(&mut layered, Kernel::Portable, &board, depth, None);
            for &kernel in &kernels {
                let answer = run(&mut pips, kernel, &board, depth);
                assert_eq!(
                    answer,
                    expected,
                    "{cells:?} depth {depth}, {}",
                    kernel.name()
                );
            }
        }
    }
}
