//! The pip-ordered engine: every distinct canonical board expanded once, with its path counts
//! kept per depth of its reach, instead of once per depth as the layered BFS does.
//
// Why it is exact: a placement without capture adds one die of 1 (one pip more, one die more);
// a capture keeps the pips and removes dice. So (pips ascending, dice descending) orders the
// game graph topologically: a board is final (all its parents seen) when its turn comes. The
// depths at which a board is reachable form one range, [lo, hi]; its counts are one `Lanes`
// per depth of that range (lane t: the paths to the board that symmetry t maps onto it).
//
// Where a board's counts live before its range is known: in a window of exactly the range its
// first parent gives it, moved to the end of its level's counts when a later parent widens
// the range (rare: 9,402 of gen09_play's 1.71 M edges). The depths of a board are bounded by
// its pip level and empty cells alone (a capture of k dice keeps the pips and adds k - 1 to
// pips - dice: `Seeds::windows`), which sizes the room kept for inserts. One walk per level
// does everything:
// boards by empty cells ascending (dice descending; captures only add boards later in the
// walk), each board's counts final when it is reached; its moves generated once, each child
// canonicalised, found or added (this level: a capture; the next: a placement), its range
// widened and the parent's counts added along, permuted into its frame, one depth later.
// Terminals and the last depth are hashed. Two levels are live at once; the maps from board
// to node are open-addressing tables, zeroed (the part a level uses) per level.

use super::arch::{enter, Kernel, KernelRun, LaneOps};
use super::board::Board;
use super::engine::{children_hash, move_entry, ANSWER_MASK};
use super::memory;
use super::tables::{Lanes, EMPTY_SHIFT, MOVE_IMAGE, MOVE_SPAN};
use crate::core::prefetch::prefetch_read;

/// The smallest map: 64 slots (1 KiB).
const MIN_SLOTS: usize = 64;
/// Boards of one level stay below 2^24 (an assert in `Level::make_room`).
const MAX_LEVEL_BOARDS: usize = 1 << 24;

/// One board of a level, where its map put it: its canonical state (0: the slot is empty; no
/// board of a level is full, so none is 0), the first and last depth at which it is reachable
/// (capped at the last depth whose children still count), and where its counts window starts
/// minus its first depth (so depth d's counts are at `base + d`). A probe that finds
/// the board has its range and counts in the same 16 bytes.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(16))]
struct Slot {
    state: u32,
    /// `lo..=hi` as `Range::pack`s it.
    range: u32,
    base: u32,
    unused: u32,
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

/// The boards of one pip level and their counts.
#[derive(Default)]
struct Level {
    /// Board-to-slot map: open addressing, multiplicative hashing; the slots a level uses are
    /// zeroed when it begins (no `calloc` zeroing through `memset`, which callgrind counts per
    /// byte).
    slots: Vec<Slot>,
    mask: usize,
    /// 32 - log2(capacity).
    shift: u32,
    /// Boards in the map.
    boards: usize,
    /// Slot positions by empty cells (1..=9): the walk order.
    by_empty: [Vec<u32>; 10],
    /// Each board's counts window (its range's rows), board after board in the order they
    /// were reached or moved.
    counts: Vec<Lanes>,
    /// Per number of empty cells: the first depth and the rows a board's range may take.
    window: [(u16, u16); 10],
    /// The most rows of a range.
    widest_window: usize,
    /// Inserts left before `make_room` must be called again.
    room: usize,
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
}

impl Expected {
    /// Room for a level after `done` (walked) and `partial` (being filled by that walk).
    fn after(done: &Level, partial: &Level) -> Expected {
        let walked = done.boards.max(1);
        let nodes = 4 * done.boards.max(partial.boards);
        Expected {
            nodes,
            rows: nodes * (done.counts.len() / walked + 1),
        }
    }
}

/// Inserts a level can take between two `Level::make_room` calls (at most; a small level gets
/// room for its own size, at least `MAX_MOVES`): its vectors and map have room for them, so an
/// insert checks nothing and nothing moves while a board's moves are followed.
const ROOM_CHUNK: usize = 1024;
/// The most children a board adds to one level: at most 9 empty cells with at most 11 captures
/// each (every subset of 2+ of 4 neighbours).
const MAX_MOVES: usize = 99;

impl Level {
    #[inline(always)]
    fn clear(&mut self, expected: Expected, window: [(u16, u16); 10]) {
        self.begin_map(expected.nodes / 2);
        self.boards = 0;
        for (empty, bucket) in self.by_empty.iter_mut().enumerate() {
            clear_for(bucket, if empty == 0 { 0 } else { expected.nodes / 2 });
        }
        clear_for(&mut self.counts, expected.rows);
        self.window = window;
        self.widest_window = window.iter().map(|w| usize::from(w.1)).max().unwrap_or(0);
        self.room = 0;
    }

    /// Empties the map, sized for about `boards` boards (at most half full).
    #[inline(always)]
    fn begin_map(&mut self, boards: usize) {
        let capacity = (2 * boards).next_power_of_two().max(MIN_SLOTS);
        if capacity > self.slots.len() {
            self.slots = Vec::new();
            self.slots = Vec::with_capacity(capacity);
            memory::hint_huge_pages(self.slots.as_ptr().cast(), 16 * capacity);
        }
        // A zero the compiler cannot see, so the loop stays vector stores, not a `memset` call.
        let zero = std::hint::black_box(0u64);
        let out = self.slots.as_mut_ptr().cast::<u64>();
        for h in 0..2 * capacity {
            // SAFETY: `capacity` slots of 16 bytes are at most the allocation's (grown just
            // above if not).
            unsafe { *out.add(h) = zero };
        }
        // SAFETY: the first `capacity` slots were written just above (all zero: a valid `Slot`).
        unsafe { self.slots.set_len(self.slots.len().max(capacity)) };
        self.mask = capacity - 1;
        self.shift = 32 - capacity.trailing_zeros();
    }

    fn is_empty(&self) -> bool {
        self.boards == 0
    }

    /// Makes room for up to `ROOM_CHUNK` inserts without a check (a fresh level has none).
    #[cold]
    #[inline(never)]
    fn make_room(&mut self) {
        // Small levels small chunks: a tiny case's map and vectors stay small (cg02 1.32 M
        // instructions with 1024 a time, the old engine's 0.89 M).
        let n = self.boards.clamp(MAX_MOVES, ROOM_CHUNK);
        assert!(
            self.boards + n <= MAX_LEVEL_BOARDS,
            "a pip level of 2^24 boards"
        );
        self.by_empty.iter_mut().for_each(|b| b.reserve(n));
        self.counts.reserve(n * self.widest_window + 3);
        if 2 * (self.boards + n) > self.mask + 1 {
            // A quarter full after it, so a growing level rehashes rarely.
            self.grow(2 * (self.boards + n));
        }
        self.room = n;
    }

    /// Rebuilds the map with room for `boards` boards at least, moving every board's slot and
    /// its place in the walk order with it.
    fn grow(&mut self, boards: usize) {
        let old = std::mem::take(&mut self.slots);
        self.begin_map(boards);
        for bucket in &mut self.by_empty {
            for at in bucket.iter_mut() {
                let slot = old[*at as usize];
                let mut h = (slot.state.wrapping_mul(0x9e37_79b1) >> self.shift) as usize;
                while self.slots[h].state != 0 {
                    h = (h + 1) & self.mask;
                }
                self.slots[h] = slot;
                *at = h as u32;
            }
        }
    }

    /// Where `key`'s probe starts.
    #[inline(always)]
    fn home(&self, key: u32) -> usize {
        (key.wrapping_mul(0x9e37_79b1) >> self.shift) as usize
    }

    /// Brings `key`'s first slot toward the cache, for a probe a board later.
    #[inline(always)]
    fn prefetch(&self, key: u32) {
        prefetch_read(self.slots.as_ptr().wrapping_add(self.home(key)));
    }

    /// Adds `key` reachable over `range` (packed), or widens its range; where its counts are
    /// (`Slot::base`). The rows of its range are zero where no parent has added to them yet.
    /// Needs `room` for one insert.
    #[inline(always)]
    fn reach<K: LaneOps>(&mut self, key: u32, range: u32, zero: K::V) -> u32 {
        let mut h = self.home(key);
        loop {
            // SAFETY: `h` is below the capacity (the hash's top bits, or masked by `mask`),
            // which `begin_map` keeps within `slots`.
            let slot = unsafe { self.slots.get_unchecked_mut(h) };
            if slot.state == key {
                let (old, base) = (slot.range, slot.base);
                let widened = K::min_halves(old, range);
                if widened != old {
                    return self.relocate(h, widened);
                }
                return base;
            }
            if slot.state == 0 {
                return self.insert::<K>(h, key, range, zero);
            }
            h = (h + 1) & self.mask;
        }
    }

    /// Gives the board at slot `h`, its range widened to `widened`, a new window of exactly
    /// that range at the end of the counts: its rows copied, the new ones zeroed; its new base.
    /// Rare (gen09_play: 9,402 of 1.71 M edges widen a range), so windows are kept exact
    /// rather than as wide as the depth bound (`Seeds::windows`, ~2x the rows in use).
    /// Needs `room` for one insert; takes it.
    #[inline(never)]
    fn relocate(&mut self, h: usize, widened: u32) -> u32 {
        assert!(self.room > 0, "a relocation without room");
        self.room -= 1;
        let slot = &mut self.slots[h];
        let (old_lo, old_hi) = Range::unpack(slot.range);
        let (lo, hi) = Range::unpack(widened);
        let old_base = slot.base;
        let offset = self.counts.len();
        let base = (offset as u32).wrapping_sub(u32::from(lo));
        slot.range = widened;
        slot.base = base;
        for d in lo..=hi {
            let ways = if (old_lo..=old_hi).contains(&d) {
                self.counts[old_base.wrapping_add(u32::from(d)) as usize]
            } else {
                Lanes::default()
            };
            self.counts.push(ways);
        }
        base
    }

    /// Adds `key` at the empty slot `h`, with a window of exactly `range`, zeroed.
    #[inline(always)]
    fn insert<K: LaneOps>(&mut self, h: usize, key: u32, range: u32, zero: K::V) -> u32 {
        assert!(self.room > 0, "an insert without room");
        self.room -= 1;
        self.boards += 1;
        // SAFETY: `make_room` keeps the map at most half full and the vectors with spare
        // capacity for `room` more inserts (a range is at most `widest_window` rows); `empty`
        // is at most 9 (a field of 5 bits).
        unsafe {
            let empty = (key >> EMPTY_SHIFT) as usize;
            let (lo, hi) = Range::unpack(range);
            let offset = self.counts.len();
            self.counts.set_len(offset + usize::from(hi - lo) + 1);
            let base = (offset as u32).wrapping_sub(u32::from(lo));
            *self.slots.get_unchecked_mut(h) = Slot {
                state: key,
                range,
                base,
                unused: 0,
            };
            let bucket = self.by_empty.get_unchecked_mut(empty);
            bucket.as_mut_ptr().add(bucket.len()).write(h as u32);
            bucket.set_len(bucket.len() + 1);
            // Four rows at a time: past the range is spare room (`make_room` keeps 3 rows more).
            let row = self
                .counts
                .as_mut_ptr()
                .add(base.wrapping_add(u32::from(lo)) as usize);
            let rows = usize::from(hi - lo) + 1;
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
            base
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

/// Pips minus dice: constant under a placement, grown by k - 1 by a capture of k dice.
fn growth_of(state: u32) -> i32 {
    pips_of(state) as i32 - 9 + (state >> EMPTY_SHIFT) as i32
}

/// The start's boards by pip level (pips relative to the fewest of them).
struct Seeds {
    /// Indices into the start's boards, level after level.
    order: Vec<u32>,
    /// Level l's boards are `order[level_start[l]..level_start[l + 1]]`.
    level_start: Vec<u32>,
    /// The fewest pips of a start board.
    fewest: u32,
    /// The distinct (pip level, pips - dice) of the start's boards.
    kinds: Vec<(u32, i32)>,
}

impl Seeds {
    fn of(start: &Start) -> Seeds {
        if let [state] = start.states {
            return Seeds {
                order: vec![0],
                level_start: vec![0, 1],
                fewest: pips_of(*state),
                kinds: vec![(0, growth_of(*state))],
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
        let mut kinds: Vec<(u32, i32)> = start
            .states
            .iter()
            .zip(&pips)
            .map(|(&s, &p)| (p - fewest, growth_of(s)))
            .collect();
        kinds.sort_unstable();
        kinds.dedup();
        Seeds {
            order,
            level_start,
            fewest,
            kinds,
        }
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

    /// The counts window of a board of pip level `level` by its empty cells: the depths at
    /// which some start board can reach it, as [first depth, rows], capped at `last`. From a
    /// start board s at depth d0, a board b takes (pips b - pips s) placements and c captures
    /// with (growth b - growth s) / 3 <= c <= growth b - growth s (see `growth_of`).
    fn windows(&self, depth: u16, last: u16, level: usize) -> [(u16, u16); 10] {
        let mut window = [(0, 0); 10];
        for (empty, out) in window.iter_mut().enumerate().skip(1) {
            let growth = (self.fewest + level as u32) as i32 - 9 + empty as i32;
            let (mut first, mut end) = (i32::MAX, i32::MIN);
            for &(kind_level, kind_growth) in &self.kinds {
                if kind_level as usize > level || kind_growth > growth {
                    continue;
                }
                let placed = i32::from(depth) + (level as i32 - kind_level as i32);
                let captures = growth - kind_growth;
                first = first.min(placed + (captures + 2) / 3);
                end = end.max(placed + captures);
            }
            let end = end.min(i32::from(last));
            if first <= end {
                *out = (first as u16, (end - first + 1) as u16);
            }
        }
        window
    }

    /// Adds level `p`'s boards to `level`, reachable at the start's depth, with their counts.
    fn add<K: LaneOps>(&self, start: &Start, p: usize, level: &mut Level, zero: K::V) {
        let range = Range::pack(start.depth, start.depth);
        for &i in self.at(p) {
            if level.room == 0 {
                level.make_room();
            }
            let base = level.reach::<K>(start.states[i as usize], range, zero);
            let row = base.wrapping_add(u32::from(start.depth));
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
    /// Edges (board, move) followed, terminals not counted.
    pub edges: usize,
    /// Counts rows in use: (board, depth) pairs, the layered engine's states.
    pub rows: usize,
    /// The most boards of one level.
    pub widest: usize,
}

/// The pip-ordered engine's working memory, kept between problems.
#[derive(Default)]
pub struct PipEngine {
    levels: [Level; 2],
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
        let zero = std::hint::black_box(K::zero());
        let [first, _] = &mut self.levels;
        first.clear(Expected::default(), seeds.windows(start.depth, last, 0));
        seeds.add::<K>(&start, 0, first, zero);
        let mut p = 0;
        loop {
            let [a, b] = &mut self.levels;
            let (current, next) = if p % 2 == 0 { (a, b) } else { (b, a) };
            // `next` still holds level p - 1, walked: the room for level p + 1 follows from it.
            let expected = Expected::after(next, current);
            next.clear(expected, seeds.windows(start.depth, last, p + 1));
            walk::<K>(current, next, last, &mut acc, &mut self.stats);
            seeds.add::<K>(&start, p + 1, next, zero);
            if next.is_empty() && p + 1 >= seeds.levels() {
                break;
            }
            p += 1;
        }
        K::sum(acc) & ANSWER_MASK
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

/// A walked board whose children are found but not yet merged: they are merged `LAG` boards
/// later, so that their slots, prefetched when they were found, are in cache by then.
struct Pending {
    /// Per child: its canonical state (low 32 bits), the symmetry from the board's frame to
    /// its (bits 32..35) and whether it is a placement (bit 35; else a capture).
    children: [u64; MAX_MOVES],
    /// Children found.
    len: usize,
    /// The board's first row with children (an offset into its level's counts, which may move
    /// before the merge).
    from: usize,
    span: usize,
    /// Its children's first depth and their range.
    at: u32,
    child_range: u32,
}

impl Pending {
    fn new() -> Pending {
        Pending {
            children: [0; MAX_MOVES],
            len: 0,
            from: 0,
            span: 0,
            at: 0,
            child_range: 0,
        }
    }
}

/// Boards walked between finding a board's children and merging them (1: gen09_play in-process
/// 164.8 ms, 2: 161.2 ms, 4: 120.7 against 2's 126.2 but +5 M instructions; load 6-7).
const LAG: usize = 2;

/// `Pending::children`'s flag of a placement.
const PLACEMENT: u64 = 1 << 35;

// Inlined into each kernel's entry point, like the whole engine, so the lane operations compile
// for that kernel's instruction set.
/// Walks `level` (its boards complete but for its own captures' children, which the walk adds
/// behind itself): hashes each board's terminals and last depth into `acc`, and adds its
/// counts, one depth later, to each child's in `level` (a capture) or `next` (a placement).
/// Each board's children are found, and their slots prefetched, `LAG` boards before they are
/// merged.
#[inline(always)]
fn walk<K: LaneOps>(
    level: &mut Level,
    next: &mut Level,
    last: u16,
    acc: &mut K::V,
    stats: &mut PipStats,
) {
    // A zero the compiler cannot see: with a literal zero it turned the window-zeroing loop
    // into a `memset` call per board.
    let zero = std::hint::black_box(K::zero());
    let mut rows = 0usize;
    // Edges followed, counted per board (a count per child in `reach` cost an increment in
    // memory per child).
    let mut edges = 0usize;
    let mut pending: [Pending; LAG + 1] = std::array::from_fn(|_| Pending::new());
    // Which of `pending` takes the children being found; the others wait to be merged, the
    // oldest at `current + 1`.
    let mut current = 0;
    for empty_cells in 1..level.by_empty.len() {
        let mut k = 0;
        // Captures add boards with more empty cells only, so this bucket is complete.
        while k < level.by_empty[empty_cells].len() {
            let bucket = &level.by_empty[empty_cells];
            // The walk's slots are in hash order, not walk order: the slot 8 boards ahead is
            // prefetched. (Its window 4 boards ahead too, before the merge lagged two boards:
            // without it gen09_play 280.3 -> 276.6 M instructions, 72.2 -> 66.2 ms in-process.)
            if let Some(&ahead) = bucket.get(k + 8) {
                prefetch_read(level.slots.as_ptr().wrapping_add(ahead as usize));
            }
            // SAFETY: `k` is below the bucket's length, and a bucket holds slot positions.
            let Slot {
                state, range, base, ..
            } = unsafe {
                let h = *bucket.get_unchecked(k);
                *level.slots.get_unchecked(h as usize)
            };
            k += 1;
            let (lo, hi) = Range::unpack(range);
            rows += usize::from(hi - lo) + 1;
            debug_assert!({
                let (first, n) = level.window[empty_cells];
                first <= lo && hi < first + n
            });
            // The board's rows are final: its parents have fewer empty cells (merged before
            // this bucket began) or are in the level before.
            if hi == last {
                let row = base.wrapping_add(u32::from(last)) as usize;
                let ways = K::load(&level.counts[row]);
                *acc = K::add(*acc, K::mul(ways, children_hash::<K>(state).1));
            }
            if lo >= last {
                continue;
            }
            let top = hi.min(last - 1);
            let span = usize::from(top - lo) + 1;
            // The parent's first row.
            let from = base.wrapping_add(u32::from(lo)) as usize;
            assert!(
                from + span <= level.counts.len(),
                "a board's counts lie in its level's"
            );
            let found = &mut pending[current];
            found.from = from;
            found.span = span;
            found.at = u32::from(lo) + 1;
            found.child_range = Range::pack(lo + 1, top + 1);
            let terminal = find_children::<K>(level, next, state, found);
            edges += found.len;
            if terminal != 0 {
                let mut ways = K::zero();
                for d in 0..span {
                    ways = K::add(ways, K::load(&level.counts[from + d]));
                }
                *acc = K::add(*acc, K::mul(ways, K::hash_lanes(terminal)));
            }
            current = if current == LAG { 0 } else { current + 1 };
            merge::<K>(level, next, &mut pending[current], zero);
        }
        // This bucket's captures must be merged before the next bucket (their own) is walked.
        for _ in 0..LAG {
            current = if current == LAG { 0 } else { current + 1 };
            merge::<K>(level, next, &mut pending[current], zero);
        }
    }
    stats.levels += 1;
    stats.boards += level.boards;
    stats.edges += edges;
    stats.rows += rows;
    stats.widest = stats.widest.max(level.boards);
}

/// Finds every child of `state` (each canonicalised, its slot in `level` (a capture) or `next`
/// (a placement) prefetched) into `found`. Its terminal child (one empty cell filled without
/// capture), or 0.
#[inline(always)]
fn find_children<K: LaneOps>(level: &Level, next: &Level, state: u32, found: &mut Pending) -> u32 {
    // A child's lane 0 above this has more empty cells than the board: a capture.
    let captures_from = state | ((1 << EMPTY_SHIFT) - 1);
    let images = K::images(state);
    let mut empty = K::empty_slots(state);
    let mut terminal = 0;
    let mut len = 0;
    while empty != 0 {
        let slot = empty.trailing_zeros();
        empty &= empty - 1;
        let moves = move_images::<K>(state, slot);
        // One entry's moves are all captures, or one placement without capture.
        let first = K::add(images, K::load(&moves[0]));
        let lane0 = K::first(first);
        if lane0 > captures_from {
            for delta in moves {
                let (key, symmetry) = K::smallest(K::add(images, K::load(delta)));
                level.prefetch(key);
                // SAFETY: at most MAX_MOVES moves per board (`MAX_MOVES`).
                unsafe {
                    *found.children.get_unchecked_mut(len) =
                        u64::from(key) | u64::from(symmetry) << 32
                };
                len += 1;
            }
        } else if lane0 < 1 << EMPTY_SHIFT {
            // The last empty cell filled without capture: the game ends there.
            terminal = lane0;
        } else {
            let (key, symmetry) = K::smallest(first);
            next.prefetch(key);
            // SAFETY: as above.
            unsafe {
                *found.children.get_unchecked_mut(len) =
                    u64::from(key) | u64::from(symmetry) << 32 | PLACEMENT
            };
            len += 1;
        }
    }
    found.len = len;
    terminal
}

/// Merges the children `found` (then empties it): each found or added in `level` (a capture)
/// or `next` (a placement), the board's counts added to its rows.
#[inline(always)]
fn merge<K: LaneOps>(level: &mut Level, next: &mut Level, found: &mut Pending, zero: K::V) {
    if found.len == 0 {
        return;
    }
    if level.room < MAX_MOVES {
        level.make_room();
    }
    if next.room < 9 {
        next.make_room();
    }
    // Each span its own loop, its rows unrolled (the spans of gen09_play are 1..=9).
    match found.span {
        1 => merge_span::<K, 1>(level, next, found, zero),
        2 => merge_span::<K, 2>(level, next, found, zero),
        3 => merge_span::<K, 3>(level, next, found, zero),
        4 => merge_span::<K, 4>(level, next, found, zero),
        5 => merge_span::<K, 5>(level, next, found, zero),
        6 => merge_span::<K, 6>(level, next, found, zero),
        7 => merge_span::<K, 7>(level, next, found, zero),
        8 => merge_span::<K, 8>(level, next, found, zero),
        _ => merge_span::<K, 0>(level, next, found, zero),
    }
    found.len = 0;
}

/// `merge` for a board of `SPAN` rows where it is 1..=8, else 0.
#[inline(always)]
fn merge_span<K: LaneOps, const SPAN: usize>(
    level: &mut Level,
    next: &mut Level,
    found: &Pending,
    zero: K::V,
) {
    let span = if SPAN == 0 { found.span } else { SPAN };
    // SAFETY: `walk` asserted that the board's rows lie in its level's counts, and nothing
    // moves them while its children are merged (`make_room` was called above).
    let parent = unsafe { level.counts.as_ptr().add(found.from) };
    // In locals: read through `found` they were reloaded per child (the row stores are not
    // known apart from it).
    let (at, child_range) = (found.at, found.child_range);
    for &child in &found.children[..found.len] {
        let (key, symmetry) = (child as u32, (child >> 32) as u32 & 7);
        let into = if child & PLACEMENT == 0 {
            &mut *level
        } else {
            &mut *next
        };
        let base = into.reach::<K>(key, child_range, zero);
        // SAFETY: the child's window holds its range, which now takes in `at..at + span`; a
        // capture's child is another board than the parent.
        unsafe {
            let rows = into.counts.as_mut_ptr().add(base.wrapping_add(at) as usize);
            add_rows::<K, SPAN>(parent, rows, span, symmetry)
        };
    }
}

/// Adds the parent's `span` rows (`SPAN` of them, unrolled, where it is not 0), permuted into
/// the child's frame by `symmetry`, to the child's `span` rows.
///
/// # Safety
/// Both pointers hold `span` rows, and the two runs do not overlap.
#[inline(always)]
unsafe fn add_rows<K: LaneOps, const SPAN: usize>(
    parent: *const Lanes,
    child: *mut Lanes,
    span: usize,
    symmetry: u32,
) {
    let span = if SPAN == 0 { span } else { SPAN };
    for d in 0..span {
        // SAFETY: the caller's contract.
        unsafe {
            let ways = K::permute(K::load(&*parent.add(d)), symmetry);
            let slot = &mut *child.add(d);
            K::store(slot, K::add(K::load(slot), ways));
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
