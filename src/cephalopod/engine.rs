//! The BFS by depth: each canonical state stored once with eight lane counts (one per
//! symmetry), children merged through an open-addressing table, the last layer summed by table.
//
// Data layout (all buffers allocated once at their worst-case size by the caller):
//   layer   = parallel arrays `states[i]` (u32 canonical state) and `counts[i]` (Lanes);
//   table   = power-of-two slots of u64: key (32) | layer index (24) | generation (8); a slot
//             whose generation is not the current one is empty, so tables are never cleared
//             between layers (only on the 256th generation);
//   moves   = a chunk of (child key, parent index, symmetry) generated from the layer, then
//             merged in a second pass that prefetches the slot of the move PREFETCH_DISTANCE
//             ahead. Terminal children and the whole last layer are hashed, never inserted.

use super::arch::LaneOps;
use super::board::Board;
use super::tables::{
    Lanes, EMPTY_SHIFT, MAX_LAYER_STATES, MOVE_BASE, MOVE_DELTA, MOVE_HASH_SUM, MOVE_SPAN,
    NEIGHBOUR_SHIFTS,
};
use std::time::Instant;

/// The answer is the sum of hashes modulo 2^30; lanes wrap modulo 2^32, a multiple of it.
pub const ANSWER_MASK: u32 = (1 << 30) - 1;
/// Children of one state at most: 4 corners x 1 + 4 edges x 4 + the centre's 11.
pub const MAX_CHILDREN: usize = 31;
/// Moves generated before they are merged: 128 KiB, well inside L2.
pub const MOVE_CHUNK: usize = 1 << 14;
/// Slots: a power of two at least twice the largest possible layer.
pub const TABLE_SLOTS: usize = (2 * MAX_LAYER_STATES).next_power_of_two();
const PREFETCH_DISTANCE: usize = 16;
const FIELD_LOW_BITS: u32 = 0o111_111_111;
const INDEX_MASK: u64 = 0xff_ffff;
const KEY_AND_GENERATION: u64 = 0xff00_0000_ffff_ffff;
const PARENT_MASK: u64 = (1 << 29) - 1;

/// The memory the engine works in; every slice at its full size (see the consts above).
pub struct Buffers<'a> {
    pub states: [&'a mut [u32]; 2],
    pub counts: [&'a mut [Lanes]; 2],
    pub slots: &'a mut [u64],
    pub moves: &'a mut [u64],
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
    generation: u64,
    /// Slots ever written since the last full clear.
    extent: usize,
}

#[inline(always)]
fn slot_hash(key: u32) -> usize {
    let h = key.wrapping_mul(0x587a_1437);
    (h ^ (h >> 16)) as usize
}

impl StateTable<'_> {
    fn capacity(&self) -> usize {
        self.mask + 1
    }

    /// Empties the table (by starting a new generation) with room for `expected` states.
    fn begin(&mut self, expected: usize) {
        let capacity = (2 * expected)
            .next_power_of_two()
            .clamp(1024, self.slots.len());
        self.generation += 1;
        if self.generation == 256 {
            self.slots[..self.extent].fill(0);
            self.generation = 1;
            self.extent = 0;
        }
        self.mask = capacity - 1;
        self.extent = self.extent.max(capacity);
    }

    #[inline(always)]
    fn slot_address(&self, key: u32) -> *const u64 {
        self.slots[slot_hash(key) & self.mask..].as_ptr()
    }

    /// The layer index of `key`, inserting it as `fresh` if absent; true when inserted.
    #[inline(always)]
    fn find_or_insert(&mut self, key: u32, fresh: usize) -> (usize, bool) {
        let tag = self.generation << 56;
        let mut h = slot_hash(key) & self.mask;
        loop {
            let slot = self.slots[h];
            if slot & KEY_AND_GENERATION == key as u64 | tag {
                return ((slot >> 32 & INDEX_MASK) as usize, false);
            }
            if slot & (0xff << 56) != tag {
                self.slots[h] = key as u64 | (fresh as u64) << 32 | tag;
                return (fresh, true);
            }
            h = (h + 1) & self.mask;
        }
    }

    /// Doubles the capacity and re-inserts the layer built so far.
    fn grow(&mut self, states: &[u32]) {
        let doubled = 2 * self.capacity();
        self.begin(doubled / 2);
        for (i, &key) in states.iter().enumerate() {
            self.find_or_insert(key, i);
        }
    }
}

/// Bits 3k set for every empty slot k.
#[inline(always)]
fn empty_fields(state: u32) -> u32 {
    !(state | state >> 1 | state >> 2) & FIELD_LOW_BITS
}

/// Index into the move table for placing on `slot`: its neighbours' values, 3 bits each.
#[inline(always)]
fn move_entry(state: u32, slot: usize) -> usize {
    let s = state as u64;
    let sh = &NEIGHBOUR_SHIFTS[slot];
    let index =
        (s >> sh[0] & 7) | (s >> sh[1] & 7) << 3 | (s >> sh[2] & 7) << 6 | (s >> sh[3] & 7) << 9;
    MOVE_BASE[slot] as usize + index as usize
}

pub struct Engine<'a> {
    states: [&'a mut [u32]; 2],
    counts: [&'a mut [Lanes]; 2],
    table: StateTable<'a>,
    moves: &'a mut [u64],
}

impl<'a> Engine<'a> {
    pub fn new(buffers: Buffers<'a>) -> Engine<'a> {
        assert!(buffers.states.iter().all(|s| s.len() >= MAX_LAYER_STATES));
        assert!(buffers.counts.iter().all(|c| c.len() >= MAX_LAYER_STATES));
        assert!(buffers.slots.len() >= TABLE_SLOTS && buffers.slots.len().is_power_of_two());
        assert!(buffers.moves.len() >= MAX_CHILDREN);
        Engine {
            states: buffers.states,
            counts: buffers.counts,
            table: StateTable {
                slots: buffers.slots,
                mask: 0,
                generation: 0,
                extent: 0,
            },
            moves: buffers.moves,
        }
    }

    /// The puzzle's answer for `board` after `depth` turns, with lane operations `K`.
    /// Inlined into each kernel's entry point (see `arch`).
    #[inline(always)]
    pub fn run<K: LaneOps>(
        &mut self,
        board: &Board,
        depth: u32,
        mut stats: Option<&mut Vec<LayerStats>>,
    ) -> u32 {
        if depth == 0 || board.is_full() {
            return board.hash() & ANSWER_MASK;
        }
        let (key, symmetry) = K::canonical(board.pack());
        self.states[0][0] = key;
        self.counts[0][0] = Lanes::default();
        self.counts[0][0].0[symmetry as usize] = 1;
        let mut len = 1;
        let mut acc = K::zero();
        for d in 0..depth {
            if len == 0 {
                break;
            }
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
                len = expand::<K>(
                    (&cur[..len], &cur_counts[..len]),
                    (next, next_counts),
                    &mut self.table,
                    self.moves,
                    &mut acc,
                    &mut layer,
                );
            }
            if let (Some(out), Some(clock)) = (stats.as_mut(), clock) {
                layer.nanos = clock.elapsed().as_nanos() as u64;
                out.push(layer);
            }
        }
        K::sum(acc) & ANSWER_MASK
    }
}

/// Expands one layer into the next; returns the next layer's length.
#[inline(always)]
fn expand<K: LaneOps>(
    (cur, cur_counts): (&[u32], &[Lanes]),
    (next, next_counts): (&mut [u32], &mut [Lanes]),
    table: &mut StateTable,
    moves: &mut [u64],
    acc: &mut K::V,
    layer: &mut LayerStats,
) -> usize {
    table.begin(cur.len());
    let mut len = 0;
    let mut p = 0;
    while p < cur.len() {
        let mut m = 0;
        while p < cur.len() && m + MAX_CHILDREN <= moves.len() {
            let s = cur[p];
            let mut empty = empty_fields(s);
            while empty != 0 {
                let slot = (empty.trailing_zeros() / 3) as usize;
                empty &= empty - 1;
                let span = MOVE_SPAN[move_entry(s, slot)];
                let first = (span >> 4) as usize;
                for &delta in &MOVE_DELTA[first..first + (span & 15) as usize] {
                    let child = s.wrapping_add(delta);
                    if child >> EMPTY_SHIFT == 0 {
                        let ways = K::load(&cur_counts[p]);
                        *acc = K::add(*acc, K::mul(ways, K::hash_lanes(child)));
                        layer.terminal += 1;
                        continue;
                    }
                    let (key, symmetry) = K::canonical(child);
                    moves[m] = key as u64 | (p as u64) << 32 | (symmetry as u64) << 61;
                    m += 1;
                }
            }
            p += 1;
        }
        layer.children += m as u64;
        for i in 0..m {
            if i + PREFETCH_DISTANCE < m {
                let ahead = moves[i + PREFETCH_DISTANCE] as u32;
                crate::core::prefetch::prefetch_read(table.slot_address(ahead));
            }
            let mv = moves[i];
            let key = mv as u32;
            let ways = K::permute(
                K::load(&cur_counts[(mv >> 32 & PARENT_MASK) as usize]),
                (mv >> 61) as u32,
            );
            let (index, inserted) = table.find_or_insert(key, len);
            if inserted {
                next[index] = key;
                K::store(&mut next_counts[index], ways);
                len += 1;
                if 2 * len > table.capacity() {
                    table.grow(&next[..len]);
                }
            } else {
                let merged = K::add(K::load(&next_counts[index]), ways);
                K::store(&mut next_counts[index], merged);
            }
        }
    }
    layer.children += layer.terminal;
    len
}

/// Sums the hashes of every child of the last layer without generating them: per empty slot
/// the table holds the move count and the lane sums of the moves' hash changes.
#[inline(always)]
fn last_layer<K: LaneOps>(states: &[u32], counts: &[Lanes], acc: &mut K::V) -> u64 {
    let mut children = 0u64;
    for (&s, ways) in states.iter().zip(counts) {
        let mut empty = empty_fields(s);
        let mut moves = 0;
        let mut change = K::zero();
        while empty != 0 {
            let entry = move_entry(s, (empty.trailing_zeros() / 3) as usize);
            empty &= empty - 1;
            moves += MOVE_SPAN[entry] & 15;
            change = K::add(change, K::load(&MOVE_HASH_SUM[entry]));
        }
        children += moves as u64;
        let total = K::add(change, K::mul(K::splat(moves), K::hash_lanes(s)));
        *acc = K::add(*acc, K::mul(total, K::load(ways)));
    }
    children
}
