//! Every build-time cephalopod table checked against brute force over boards: symmetry images,
//! lane hashes, lane permutations, move deltas and images, hash sums, and the layer bound.

use crate::cephalopod::arch::all::Portable;
use crate::cephalopod::arch::LaneOps;
use crate::cephalopod::tables::*;
use crate::cephalopod::Board;
use crate::core::rng::Rng;
use std::collections::HashMap;

/// The 8 symmetries of the 3x3 square, written independently of tables/: rotate, then mirror.
fn all_symmetries(b: &Board) -> Vec<Board> {
    let rotate = |b: &Board| Board {
        cells: std::array::from_fn(|i| b.cells[(2 - i % 3) * 3 + i / 3]),
    };
    let mirror = |b: &Board| Board {
        cells: std::array::from_fn(|i| b.cells[i / 3 * 3 + 2 - i % 3]),
    };
    let mut out = Vec::new();
    let mut cur = *b;
    for _ in 0..4 {
        out.push(cur);
        out.push(mirror(&cur));
        cur = rotate(&cur);
    }
    out
}

fn random_board(rng: &mut Rng, empty_chance: f64) -> Board {
    Board {
        cells: std::array::from_fn(|_| {
            if rng.chance(empty_chance) {
                0
            } else {
                1 + rng.below(6) as u8
            }
        }),
    }
}

/// Children of placing on `cell`, from the rules as the puzzle states them.
fn children_at(b: &Board, cell: usize) -> Vec<Board> {
    let (r, c) = (cell / 3, cell % 3);
    let mut dice = Vec::new();
    if r > 0 {
        dice.push(cell - 3)
    }
    if r < 2 {
        dice.push(cell + 3)
    }
    if c > 0 {
        dice.push(cell - 1)
    }
    if c < 2 {
        dice.push(cell + 1)
    }
    dice.retain(|&n| b.cells[n] != 0);
    let mut out = Vec::new();
    for mask in 0u32..1 << dice.len() {
        let chosen: Vec<usize> = (0..dice.len())
            .filter(|i| mask >> i & 1 == 1)
            .map(|i| dice[i])
            .collect();
        let sum: u8 = chosen.iter().map(|&n| b.cells[n]).sum();
        if chosen.len() >= 2 && sum <= 6 {
            let mut child = *b;
            chosen.iter().for_each(|&n| child.cells[n] = 0);
            child.cells[cell] = sum;
            out.push(child);
        }
    }
    if out.is_empty() {
        let mut child = *b;
        child.cells[cell] = 1;
        out.push(child);
    }
    out
}

fn slot_of_cell(cell: usize) -> usize {
    SLOT_CELL.iter().position(|&c| c == cell).unwrap()
}

fn move_entry(state: u32, slot: usize) -> usize {
    MOVE_BASE[slot] as usize + Portable::neighbour_index(state, slot)
}

fn span(entry: usize) -> std::ops::Range<usize> {
    let s = MOVE_SPAN[entry] as usize;
    (s >> 4)..(s >> 4) + (s & 15)
}

#[test]
fn images_are_the_eight_symmetries_and_lane_zero_is_the_state() {
    let mut rng = Rng::new(1);
    for _ in 0..20_000 {
        let b = random_board(&mut rng, 0.4);
        let s = b.pack();
        let images = Portable::images(s);
        assert_eq!(images[0], s);
        let mut got = images.to_vec();
        let mut want: Vec<u32> = all_symmetries(&b).iter().map(Board::pack).collect();
        got.sort_unstable();
        want.sort_unstable();
        assert_eq!(got, want, "board {:?}", b.cells);
        let (min, t) = Portable::canonical(s);
        assert_eq!(min, *want.iter().min().unwrap());
        assert_eq!(images[t as usize], min);
        assert!(
            images[..t as usize].iter().all(|&i| i > min),
            "lowest lane on ties"
        );
    }
}

#[test]
fn lane_t_hashes_the_board_that_symmetry_t_maps_onto_the_state() {
    let mut rng = Rng::new(2);
    for _ in 0..20_000 {
        let b = random_board(&mut rng, 0.3);
        for (t, &image) in Portable::images(b.pack()).iter().enumerate() {
            assert_eq!(
                Portable::hash_lanes(image)[t],
                b.hash(),
                "board {:?} lane {t}",
                b.cells
            );
        }
    }
}

#[test]
fn lane_permutation_follows_composition() {
    // A board with no symmetry, so each image identifies its symmetry.
    let b = Board {
        cells: [1, 2, 3, 4, 5, 6, 0, 1, 2],
    };
    let images = Portable::images(b.pack());
    let mut distinct = images.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), 8);
    for (u, permutation) in LANE_PERMUTATION.iter().enumerate() {
        for t in 0..8 {
            // d = T_t(b); c = T_u(d) = T_v(b): the count of lane t of d moves to lane v of c.
            let c = Portable::images(images[t])[u];
            let v = images.iter().position(|&i| i == c).unwrap();
            assert_eq!(permutation.0[v] as usize, t, "u={u} t={t}");
        }
        let mut lanes = permutation.0;
        lanes.sort_unstable();
        assert_eq!(lanes, [0, 1, 2, 3, 4, 5, 6, 7]);
    }
}

#[test]
fn move_table_gives_exactly_the_rule_children_for_every_neighbourhood() {
    let mut rng = Rng::new(3);
    // Every neighbour-value combination of every cell, with the other cells random.
    for cell in 0..9 {
        let slot = slot_of_cell(cell);
        let neighbours: Vec<usize> = (0..9usize)
            .filter(|&n| (n / 3).abs_diff(cell / 3) + (n % 3).abs_diff(cell % 3) == 1)
            .collect();
        for combo in 0..7usize.pow(neighbours.len() as u32) {
            let mut b = random_board(&mut rng, 0.5);
            b.cells[cell] = 0;
            let mut rest = combo;
            for &n in &neighbours {
                b.cells[n] = (rest % 7) as u8;
                rest /= 7;
            }
            let s = b.pack();
            let mut got: Vec<Board> = MOVE_IMAGE[span(move_entry(s, slot))]
                .iter()
                .map(|m| Board::unpack(s.wrapping_add(m.0[0])))
                .collect();
            let mut want = children_at(&b, cell);
            got.sort_by_key(|c| c.cells);
            want.sort_by_key(|c| c.cells);
            assert_eq!(got, want, "board {:?} cell {cell}", b.cells);
            for m in &MOVE_IMAGE[span(move_entry(s, slot))] {
                let child = s.wrapping_add(m.0[0]);
                assert_eq!(
                    child >> EMPTY_SHIFT,
                    Board::unpack(child).empty_cells(),
                    "empty count kept"
                );
            }
        }
    }
}

#[test]
fn move_images_add_to_the_parent_images() {
    let mut rng = Rng::new(4);
    for _ in 0..5_000 {
        let b = random_board(&mut rng, 0.5);
        let s = b.pack();
        let parent = Portable::images(s);
        for cell in (0..9).filter(|&c| b.cells[c] == 0) {
            for m in &MOVE_IMAGE[span(move_entry(s, slot_of_cell(cell)))] {
                let child = Portable::images(s.wrapping_add(m.0[0]));
                let summed: [u32; 8] = std::array::from_fn(|t| parent[t].wrapping_add(m.0[t]));
                assert_eq!(summed, child);
            }
        }
    }
}

#[test]
fn hash_sums_are_the_sums_over_moves() {
    let mut rng = Rng::new(5);
    for _ in 0..5_000 {
        let b = random_board(&mut rng, 0.5);
        let s = b.pack();
        for cell in (0..9).filter(|&c| b.cells[c] == 0) {
            let entry = move_entry(s, slot_of_cell(cell));
            let mut want = [0u32; 8];
            let mut moves = 0u32;
            for m in &MOVE_IMAGE[span(entry)] {
                let h = Portable::hash_lanes(s.wrapping_add(m.0[0]));
                want = std::array::from_fn(|t| want[t].wrapping_add(h[t]));
                moves += 1;
            }
            let base = Portable::hash_lanes(s);
            let got: [u32; 8] = std::array::from_fn(|t| {
                MOVE_HASH_SUM[entry].0[t].wrapping_add(moves.wrapping_mul(base[t]))
            });
            assert_eq!(got, want, "board {:?} cell {cell}", b.cells);
        }
    }
}

/// The engine reads the move table without bounds checks; these are its invariants.
#[test]
fn move_table_indices_stay_in_bounds() {
    let strides = [64, 512, 64, 512, 512, 64, 512, 64, 4096];
    for slot in 0..9 {
        assert!(MOVE_BASE[slot] as usize + strides[slot] <= MOVE_SPAN.len());
        let neighbours = NEIGHBOUR_MASK[slot].count_ones() / 3;
        assert_eq!(1 << (3 * neighbours), strides[slot]);
    }
    assert_eq!(MOVE_SPAN.len(), MOVE_HASH_SUM.len());
    for entry in 0..MOVE_SPAN.len() {
        assert!(span(entry).end <= MOVE_IMAGE.len());
    }
    // BMI2 pext and the portable gather agree on every state's neighbour index.
    let mut rng = Rng::new(6);
    for _ in 0..10_000 {
        let s = random_board(&mut rng, 0.3).pack();
        for (slot, mask) in NEIGHBOUR_MASK.iter().enumerate() {
            let mut pext = 0;
            let mut bit = 0;
            for i in 0..32 {
                if mask >> i & 1 == 1 {
                    pext |= (s >> i & 1) << bit;
                    bit += 1;
                }
            }
            assert_eq!(Portable::neighbour_index(s, slot), pext as usize);
        }
    }
}

#[test]
fn empty_slots_mark_exactly_the_empty_cells() {
    let mut rng = Rng::new(7);
    for _ in 0..10_000 {
        let b = random_board(&mut rng, 0.5);
        let mask = Portable::empty_slots(b.pack());
        for cell in 0..9 {
            assert_eq!(mask >> slot_of_cell(cell) & 1 == 1, b.cells[cell] == 0);
        }
    }
}

/// No layer can hold more canonical states than there are non-full boards up to symmetry.
#[test]
#[cfg_attr(debug_assertions, ignore = "40 M boards: run with --release")]
fn layer_bound_counts_every_non_full_board_up_to_symmetry() {
    let mut seen = vec![0u64; 1 << 21];
    let mut distinct = 0usize;
    let mut cells = [0u8; 9];
    loop {
        let b = Board { cells };
        if !b.is_full() {
            let (key, _) = Portable::canonical(b.pack());
            let bits = (key & ((1 << 27) - 1)) as usize;
            if seen[bits / 64] >> (bits % 64) & 1 == 0 {
                seen[bits / 64] |= 1 << (bits % 64);
                distinct += 1;
            }
        }
        let mut i = 0;
        while i < 9 && cells[i] == 6 {
            cells[i] = 0;
            i += 1;
        }
        if i == 9 {
            break;
        }
        cells[i] += 1;
    }
    assert_eq!(distinct, MAX_LAYER_STATES);
}

#[test]
fn neighbour_shifts_gather_the_same_fields_as_the_mask() {
    let mut by_slot: HashMap<usize, Vec<u32>> = HashMap::new();
    for slot in 0..9 {
        let shifts: Vec<u32> = NEIGHBOUR_SHIFTS[slot]
            .iter()
            .copied()
            .filter(|&s| s < 32)
            .collect();
        let mask: u32 = shifts.iter().map(|&s| 7 << s).sum();
        assert_eq!(mask, NEIGHBOUR_MASK[slot]);
        assert!(
            shifts.windows(2).all(|w| w[0] < w[1]),
            "ascending, as pext reads them"
        );
        by_slot.insert(slot, shifts);
    }
    assert_eq!(by_slot[&8].len(), 4);
}
