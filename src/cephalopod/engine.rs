//! The BFS by depth: each canonical state stored once with eight lane counts (one per
//! symmetry), children merged through an open-addressing table, the last layer summed by table.
//
// Data layout (all buffers allocated once at their worst-case size by the caller):
//   layer  = parallel arrays `states[i]` (u32 canonical state) and `counts[i]` (Lanes): lane t
//            counts the paths to the board that symmetry t maps onto the state;
//   table  = power-of-two slots of u64: the state's byte offset in `counts` (layer index x 32,
//            bits 32..64) | key (0..32), 0 = empty (no state is 0: a non-full board has empty
//            cells), so a probe compares the low half as it is and a hit adds at the high half
//            as it is; the slots a layer uses are zeroed when it begins (cheaper per child than
//            a generation stamp per slot);
//   moves  = per (empty slot, neighbour values) a span of moves, each stored as the 8 deltas it
//            adds to its parent's 8 images (a move changes whole fields, a symmetry permutes
//            them), so canonicalising a child is one add and a lane min.
// Generation and merging are one loop: the parent's images and counts stay in registers.
// Terminal children and the whole last layer are hashed, never inserted.

use super::arch::{enter, Kernel, KernelRun, LaneOps};
use super::board::Board;
use super::tables::{
    Lanes, EMPTY_SHIFT, LANE_PERMUTATION, MAX_LAYER_STATES, MOVE_BASE, MOVE_HASH_SUM, MOVE_IMAGE,
    MOVE_SPAN, NEIGHBOUR_MASK,
};
use std::time::Instant;

/// The answer is the sum of hashes modulo 2^30; lanes wrap modulo 2^32, a multiple of it.
pub const ANSWER_MASK: u32 = (1 << 30) - 1;
/// States per layer to pre-fault when asked to (before the input is read, as a judge's clock
/// may start there): the empty board's widest layer, ~150 k states at depth 40, fits.
pub const PREFAULT_STATES: usize = 160_000;
/// Slots: a power of two at least twice the largest possible layer.
pub const TABLE_SLOTS: usize = (2 * MAX_LAYER_STATES).next_power_of_two();

/// The memory the engine works in; every slice at its full size (see the consts above).
pub struct Buffers<'a> {
    pub states: [&'a mut [u32]; 2],
    pub counts: [&'a mut [Lanes]; 2],
    pub slots: &'a mut [u64],
}

/// Per-depth figures for `--stats`.
#[derive(Clone, Debug, Default)]
pub struct LayerStats {
    pub depth: u32,
    /// Canonical states in the layer expanded at this depth.
    pub states: usize,
    /// Children generated from it (merged, hashed as terminal, or hashed as the last layer).
    pub children: u64,
    pub terminal: u64,
    pub nanos: u64,
}

struct StateTable<'a> {
    slots: &'a mut [u64],
    mask: usize,
    /// 32 - log2(capacity).
    shift: u32,
}

/// A table slot for `key` at layer index `index`: its byte offset in the counts, then the key.
#[inline(always)]
fn slot_value(key: u32, index: usize) -> u64 {
    ((index * std::mem::size_of::<Lanes>()) as u64) << 32 | key as u64
}

/// Multiplicative (Fibonacci) hashing: the top bits of key x 2^32/phi pick the slot.
#[inline(always)]
fn slot_of(key: u32, shift: u32) -> usize {
    if shift >= 32 {
        // SAFETY: `begin` sets `shift` to 32 - log2(capacity), capacity >= 1024, so it is below
        // 32. Saying so lets `shrx` take it as it is: without this the prefetch loop masked it
        // with `& 31` in a spare register per child (2 instructions).
        unsafe { std::hint::unreachable_unchecked() }
    }
    (key.wrapping_mul(0x9e37_79b1) >> shift) as usize
}

impl StateTable<'_> {
    fn capacity(&self) -> usize {
        self.mask + 1
    }

    /// Empties the table with room for `expected` states.
    fn begin(&mut self, expected: usize) {
        let capacity = (2 * expected)
            .next_power_of_two()
            .clamp(1024, self.slots.len());
        // A zero the compiler cannot see, so the loop stays stores (a `memset` call's
        // `rep stosb` counts per byte in callgrind) and vectorises.
        let zero = std::hint::black_box(0u64);
        for slot in &mut self.slots[..capacity] {
            *slot = zero;
        }
        self.mask = capacity - 1;
        self.shift = 32 - capacity.trailing_zeros();
    }

    /// Inserts `key` (absent) as layer index `fresh`.
    #[inline(always)]
    fn insert(&mut self, key: u32, fresh: usize) {
        let mut h = slot_of(key, self.shift);
        loop {
            // SAFETY: `h` is masked by `mask`, and `begin` keeps `mask` below `slots.len()`.
            let slot = unsafe { self.slots.get_unchecked_mut(h) };
            debug_assert_ne!(*slot as u32, key, "a layer's states are distinct");
            if *slot == 0 {
                *slot = slot_value(key, fresh);
                return;
            }
            h = (h + 1) & self.mask;
        }
    }

    /// Doubles the capacity and re-inserts the layer built so far.
    #[cold]
    fn grow(&mut self, states: &[u32]) {
        self.begin(self.capacity());
        for (i, &key) in states.iter().enumerate() {
            self.insert(key, i);
        }
    }
}

/// The move-table entry for placing a die on empty `slot` (0..9, a bit of `empty_slots`) of
/// `state`. Unchecked: the bounds check was 2 of the ~22 instructions per (parent, empty cell).
#[inline(always)]
pub(super) fn move_entry<K: LaneOps>(state: u32, slot: u32) -> usize {
    debug_assert!(slot < 9);
    // SAFETY: `slot` is a bit index of `empty_slots`, which has 9 bits: MOVE_BASE has 9 entries.
    let base = unsafe { *MOVE_BASE.get_unchecked(slot as usize) as usize };
    base + K::neighbour_index(state, slot as usize)
}

/// Where each slot's moves are: its neighbour mask and its part of MOVE_SPAN, and MOVE_IMAGE.
/// The loop keeps a copy in its stack frame (through `black_box`, or the compiler would read the
/// statics again), so a slot's entry is one load addressed from the stack pointer instead of a
/// table address rebuilt per (parent, empty cell) when registers run short.
#[derive(Clone, Copy)]
struct MoveTable {
    /// LANE_PERMUTATION, addressed from the stack pointer too, so the child loop keeps no
    /// register for its address.
    lanes: [Lanes; 8],
    masks: [u32; 9],
    spans: [*const u32; 9],
    images: *const Lanes,
}

impl MoveTable {
    #[inline(always)]
    fn new() -> MoveTable {
        std::hint::black_box(MoveTable {
            lanes: LANE_PERMUTATION,
            masks: NEIGHBOUR_MASK,
            // SAFETY: MOVE_BASE[slot] is the slot's first entry within MOVE_SPAN
            // (`tests/cephalopod_tables.rs` checks every slot's entries lie inside it).
            spans: std::array::from_fn(|slot| unsafe {
                MOVE_SPAN.as_ptr().add(MOVE_BASE[slot] as usize)
            }),
            images: MOVE_IMAGE.as_ptr(),
        })
    }

    /// The first move's image deltas for placing a die on empty `slot` (0..9) of `state`, and
    /// how many moves follow from there: at least one (a die can always be placed on an empty
    /// cell), so a loop over them tests its count at the end only (`for_each_move!`).
    #[inline(always)]
    fn run<K: LaneOps>(&self, state: u32, slot: u32) -> (*const Lanes, u32) {
        debug_assert!(slot < 9);
        let slot = slot as usize;
        // SAFETY: `slot` is a bit index of a 9-bit empty-slot mask; the neighbour index is
        // below the slot's stride, and every span points inside MOVE_IMAGE
        // (`tests/cephalopod_tables.rs` checks both for every entry).
        unsafe {
            let index = K::neighbour_index_masked(state, slot, *self.masks.get_unchecked(slot));
            let span = *self.spans.get_unchecked(slot).add(index);
            let count = span & 15;
            debug_assert!(count >= 1, "an empty cell without a move");
            (self.images.add((span >> 4) as usize), count)
        }
    }
}

/// Runs `$body` with `$delta` bound to each move's image deltas from `$run` (`MoveTable::run`).
/// A macro, not a closure: a closure is compiled without the kernel's target features, so its
/// intrinsics become calls (cg10 25.2 M -> 106.6 M instructions when tried).
macro_rules! for_each_move {
    ($run:expr, |$delta:ident| $body:block) => {{
        let (mut at, mut count) = $run;
        loop {
            // SAFETY: `at` walks the `count` deltas of the span `MoveTable::run` found.
            let $delta: &Lanes = unsafe { &*at };
            $body
            count -= 1;
            if count == 0 {
                break;
            }
            // SAFETY: as above: one more delta of the span follows.
            at = unsafe { at.add(1) };
        }
    }};
}

/// A copy of the table's hot fields, refreshed after a grow, so they stay in registers.
#[derive(Clone, Copy)]
struct Probe {
    slots: *mut u64,
    mask: usize,
    shift: u32,
    /// The layer length past which the table grows (half its capacity).
    limit: usize,
}

impl Probe {
    fn of(table: &mut StateTable) -> Probe {
        Probe {
            slots: table.slots.as_mut_ptr(),
            mask: table.mask,
            shift: table.shift,
            limit: table.capacity() / 2,
        }
    }
}

/// Children wait this many places between the prefetch of their table slot and their merge,
/// so the found-or-inserted branch resolves from L1 instead of serialising on a cache miss.
/// (Without it gen09 ran 182 ms instead of 112 ms, with 25% fewer instructions.)
const PREFETCH_DISTANCE: usize = 16;
/// Below this many states a layer's table and counts fit in L2 and the queue does not pay.
const PREFETCH_FROM_STATES: usize = 16_384;

/// The layer being built: its arrays, its table, and how many states it holds.
struct NextLayer<'s, 'a> {
    states: &'s mut [u32],
    counts: &'s mut [Lanes],
    table: &'s mut StateTable<'a>,
}

/// Adds `ways` (already in the canonical frame) to state `key` of the next layer.
#[inline(always)]
fn merge<K: LaneOps>(
    next: &mut NextLayer,
    probe: &mut Probe,
    len: &mut usize,
    key: u32,
    ways: K::V,
) {
    let Probe {
        slots, mask, shift, ..
    } = *probe;
    let mut h = slot_of(key, shift);
    loop {
        // SAFETY: `h` is below the capacity (`slot_of`, then masked), within `slots`; the
        // table is not touched through any other path while this layer is built.
        let slot = unsafe { &mut *slots.add(h) };
        if *slot as u32 == key {
            let offset = (*slot >> 32) as usize;
            // SAFETY: an offset found in the table is that of a row inserted earlier in this
            // layer, below `len`, which the store below kept within the buffer.
            let counts = unsafe {
                &mut *(next.counts.as_mut_ptr() as *mut u8)
                    .add(offset)
                    .cast::<Lanes>()
            };
            let merged = K::add(K::load(counts), ways);
            K::store(counts, merged);
            return;
        }
        if *slot == 0 {
            *slot = slot_value(key, *len);
            // SAFETY: a layer holds distinct canonical non-full states, at most
            // MAX_LAYER_STATES of them, and `Engine::new` asserts both buffers hold that many.
            unsafe {
                *next.states.get_unchecked_mut(*len) = key;
                K::store(next.counts.get_unchecked_mut(*len), ways);
            }
            *len += 1;
            if *len > probe.limit {
                next.table.grow(&next.states[..*len]);
                *probe = Probe::of(next.table);
            }
            return;
        }
        h = (h + 1) & mask;
    }
}

pub struct Engine<'a> {
    states: [&'a mut [u32]; 2],
    counts: [&'a mut [Lanes]; 2],
    table: StateTable<'a>,
}

impl<'a> Engine<'a> {
    pub fn new(buffers: Buffers<'a>) -> Engine<'a> {
        assert!(buffers.states.iter().all(|s| s.len() >= MAX_LAYER_STATES));
        assert!(buffers.counts.iter().all(|c| c.len() >= MAX_LAYER_STATES));
        assert!(buffers.slots.len() >= TABLE_SLOTS && buffers.slots.len().is_power_of_two());
        Engine {
            states: buffers.states,
            counts: buffers.counts,
            table: StateTable {
                slots: buffers.slots,
                mask: 0,
                shift: 32,
            },
        }
    }

    /// The puzzle's answer for `board` after `depth` turns, with lane operations `K`.
    /// Inlined into each kernel's entry point (see `arch`).
    #[inline(always)]
    pub(crate) fn run<K: LaneOps>(
        &mut self,
        board: &Board,
        depth: u32,
        stats: Option<&mut Vec<LayerStats>>,
    ) -> u32 {
        match self.run_until::<K>(board, depth, stats, |_| false) {
            Layered::Answer(answer) => answer,
            Layered::Stopped { .. } => unreachable!("a run without a budget never stops"),
        }
    }

    /// The layer reached at `depth`, of `len` states (after a run stopped there).
    pub(crate) fn layer(&self, depth: u32, len: usize) -> (&[u32], &[Lanes]) {
        let i = depth as usize % 2;
        (&self.states[i][..len], &self.counts[i][..len])
    }

    /// As `run`, but stops before expanding a layer when `stop` says so (asked before every
    /// layer but the last, which is only hashed).
    #[inline(always)]
    pub(crate) fn run_until<K: LaneOps>(
        &mut self,
        board: &Board,
        depth: u32,
        mut stats: Option<&mut Vec<LayerStats>>,
        mut stop: impl FnMut(Progress) -> bool,
    ) -> Layered<K::V> {
        if depth == 0 || board.is_full() {
            return Layered::Answer(board.hash() & ANSWER_MASK);
        }
        let mut expanded = 0usize;
        let (key, symmetry) = K::canonical(board.pack());
        self.states[0][0] = key;
        self.counts[0][0] = Lanes::default();
        self.counts[0][0].0[symmetry as usize] = 1;
        let mut len = 1;
        let mut previous = 0;
        let mut acc = K::zero();
        for d in 0..depth {
            if len == 0 {
                break;
            }
            let progress = Progress {
                remaining: depth - d,
                width: len,
                previous,
                expanded,
            };
            previous = len;
            if d + 1 < depth && stop(progress) {
                return Layered::Stopped { depth: d, len, acc };
            }
            expanded += len;
            let clock = stats.as_ref().map(|_| Instant::now());
            let [a, b] = &mut self.states;
            let [ca, cb] = &mut self.counts;
            let (cur, cur_counts, next, next_counts) = if d % 2 == 0 {
                (&**a, &**ca, &mut **b, &mut **cb)
            } else {
                (&**b, &**cb, &mut **a, &mut **ca)
            };
            let mut layer = LayerStats {
                depth: d,
                states: len,
                ..LayerStats::default()
            };
            if d + 1 == depth {
                layer.children = last_layer::<K>(&cur[..len], &cur_counts[..len], &mut acc);
                len = 0;
            } else {
                // Room for twice this layer: the next is up to ~1.8x as wide, and at most a
                // quarter-full table probes less (cg11: 43.2 -> 41.6 M instructions).
                self.table.begin(2 * len);
                let mut next = NextLayer {
                    states: next,
                    counts: next_counts,
                    table: &mut self.table,
                };
                let (cur, cur_counts) = (&cur[..len], &cur_counts[..len]);
                let a = &mut acc;
                len = match (len >= PREFETCH_FROM_STATES, stats.is_some()) {
                    (false, false) => {
                        expand::<K, false, false>(cur, cur_counts, &mut next, a, &mut layer)
                    }
                    (true, false) => {
                        expand::<K, true, false>(cur, cur_counts, &mut next, a, &mut layer)
                    }
                    (false, true) => {
                        expand::<K, false, true>(cur, cur_counts, &mut next, a, &mut layer)
                    }
                    (true, true) => {
                        expand::<K, true, true>(cur, cur_counts, &mut next, a, &mut layer)
                    }
                };
            }
            if let (Some(out), Some(clock)) = (stats.as_mut(), clock) {
                layer.nanos = clock.elapsed().as_nanos() as u64;
                out.push(layer);
            }
        }
        Layered::Answer(K::sum(acc) & ANSWER_MASK)
    }
}

/// Where a layered run is, before it expands a layer.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Progress {
    /// Depths still to go, this one included.
    pub remaining: u32,
    /// States in this layer.
    pub width: usize,
    /// States in the layer before it (0 at the start).
    pub previous: usize,
    /// States expanded before it.
    pub expanded: usize,
}

/// How a layered run with a budget ended: its answer, or the layer it stopped before.
pub(crate) enum Layered<V> {
    Answer(u32),
    /// Layer `depth` (`len` states, see `Engine::layer`) was not expanded; `acc` holds the
    /// hashes of the games that ended before it.
    Stopped {
        depth: u32,
        len: usize,
        acc: V,
    },
}

/// Expands one layer into the next, hashing terminal children into `acc`; returns the next
/// layer's length.
#[inline(always)]
fn expand<K: LaneOps, const PREFETCH: bool, const STATS: bool>(
    states: &[u32],
    counts: &[Lanes],
    next: &mut NextLayer,
    acc: &mut K::V,
    layer: &mut LayerStats,
) -> usize {
    let mut probe = Probe::of(next.table);
    let mut len = 0;
    let (mut children, mut terminal) = (0u64, 0u64);
    let mut queued = 0usize;
    let mut queue_keys = [0u32; PREFETCH_DISTANCE];
    let mut queue_ways = [Lanes::default(); PREFETCH_DISTANCE];
    macro_rules! merge_queued {
        ($at:expr) => {{
            let at = $at;
            merge::<K>(
                next,
                &mut probe,
                &mut len,
                queue_keys[at],
                K::load(&queue_ways[at]),
            );
        }};
    }
    // Without PREFETCH: merges at once. With it: prefetches the child's slot, merges the child
    // queued PREFETCH_DISTANCE before, and queues this one.
    macro_rules! push {
        ($key:expr, $ways:expr) => {{
            let (key, ways) = ($key, $ways);
            if !PREFETCH {
                merge::<K>(next, &mut probe, &mut len, key, ways);
            } else {
                // SAFETY: `slot_of` is below the capacity, which `begin` keeps within `slots`.
                crate::core::prefetch::prefetch_read(unsafe {
                    probe.slots.add(slot_of(key, probe.shift))
                });
                let at = queued % PREFETCH_DISTANCE;
                if queued >= PREFETCH_DISTANCE {
                    merge_queued!(at);
                }
                queue_keys[at] = key;
                K::store(&mut queue_ways[at], ways);
                queued += 1;
            }
        }};
    }
    let table = MoveTable::new();
    for (&s, ways) in states.iter().zip(counts) {
        let ways = K::load(ways);
        let images = K::images(s);
        let mut empty = K::empty_slots(s);
        debug_assert!(s >> EMPTY_SHIFT >= 1, "a layer holds no full board");
        // One compare: the empty-cell count in the top bits is 1 (a layer holds none with 0).
        if s < 2 << EMPTY_SHIFT {
            // One empty cell: the plain placement of a 1 fills the board (a terminal).
            for_each_move!(table.run::<K>(s, empty.trailing_zeros()), |delta| {
                let child = K::add(images, K::load(delta));
                if STATS {
                    children += 1;
                }
                if K::first(child) >> EMPTY_SHIFT == 0 {
                    *acc = K::add(*acc, K::mul(ways, K::hash_lanes(K::first(child))));
                    if STATS {
                        terminal += 1;
                    }
                } else {
                    let (key, permuted) = K::smallest_permute_from(child, ways, &table.lanes);
                    push!(key, permuted);
                }
            });
            continue;
        }
        // A layer's boards have an empty cell, so the loop tests for more at the end only.
        loop {
            for_each_move!(table.run::<K>(s, empty.trailing_zeros()), |delta| {
                if STATS {
                    children += 1;
                }
                let child = K::add(images, K::load(delta));
                let (key, permuted) = K::smallest_permute_from(child, ways, &table.lanes);
                push!(key, permuted);
            });
            empty &= empty - 1;
            if empty == 0 {
                break;
            }
        }
    }
    for i in queued.saturating_sub(PREFETCH_DISTANCE)..queued {
        merge_queued!(i % PREFETCH_DISTANCE);
    }
    layer.children += children;
    layer.terminal += terminal;
    len
}

/// How many children `state` has and the lane sums of their hashes, without generating them:
/// per (empty slot, neighbourhood) the table holds the move count and the lane sums of the
/// moves' hash changes. `state` has an empty cell (neither engine keeps a full board: filling
/// the last cell without capture is a terminal), so the loop tests for more at its end.
#[inline(always)]
pub(super) fn children_hash<K: LaneOps>(state: u32) -> (u32, K::V) {
    debug_assert!(state >> EMPTY_SHIFT >= 1, "a full board has no children");
    let mut empty = K::empty_slots(state);
    let mut moves = 0;
    let mut change = K::zero();
    loop {
        let entry = move_entry::<K>(state, empty.trailing_zeros());
        // SAFETY: as in `MoveTable::run`; MOVE_HASH_SUM is indexed like MOVE_SPAN.
        let (span, sum) = unsafe {
            (
                *MOVE_SPAN.get_unchecked(entry),
                MOVE_HASH_SUM.get_unchecked(entry),
            )
        };
        moves += span & 15;
        change = K::add(change, K::load(sum));
        empty &= empty - 1;
        if empty == 0 {
            break;
        }
    }
    (
        moves,
        K::add(change, K::mul(K::splat(moves), K::hash_lanes(state))),
    )
}

/// Sums the hashes of every child of the last layer without generating them.
#[inline(always)]
fn last_layer<K: LaneOps>(states: &[u32], counts: &[Lanes], acc: &mut K::V) -> u64 {
    let mut children = 0u64;
    for (&s, ways) in states.iter().zip(counts) {
        let (moves, total) = children_hash::<K>(s);
        children += moves as u64;
        *acc = K::add(*acc, K::mul(total, K::load(ways)));
    }
    children
}

/// Runs the engine with `kernel`'s lane operations.
pub fn run(
    engine: &mut Engine,
    kernel: Kernel,
    board: &Board,
    depth: u32,
    stats: Option<&mut Vec<LayerStats>>,
) -> u32 {
    let run = LayersRun {
        engine,
        board,
        depth,
        stats,
    };
    enter(kernel, run)
}

/// `Engine::run`'s arguments, for a kernel's entry point.
struct LayersRun<'e, 'a, 's> {
    engine: &'e mut Engine<'a>,
    board: &'e Board,
    depth: u32,
    stats: Option<&'s mut Vec<LayerStats>>,
}

impl KernelRun for LayersRun<'_, '_, '_> {
    #[inline(always)]
    fn run<K: LaneOps>(self) -> u32 {
        self.engine.run::<K>(self.board, self.depth, self.stats)
    }
}
