//! Pure generators of the cephalopod tables: move deltas, symmetry XOR slices, lane permutations
//! and state hashes. build.rs renders them as Rust source in OUT_DIR; the runtime include!s that.
//
// Layout of a state (one u32), shared with the runtime through the generated constants:
//   slot k = 0..8 holds a die (0 = empty, 1..6) in bits 3k..3k+2; slots 0..7 are the eight
//   non-centre cells, slot 8 the centre, so a symmetry only permutes the low 24 bits;
//   bits 27..31 hold the number of empty cells (0 = full board = terminal).
// Cells are numbered row-major 0..8; the hash reads cell 0 as the most significant digit.

/// Cell held by each slot.
pub const SLOT_CELL: [usize; 9] = [0, 1, 2, 3, 5, 6, 7, 8, 4];
/// Bit position of the empty-cell count.
pub const EMPTY_SHIFT: u32 = 27;
/// Neighbour-index stride per slot: corners have 2 neighbours, edges 3, the centre 4.
pub const NEIGHBOUR_INDEX_SIZE: [usize; 9] = [64, 512, 64, 512, 512, 64, 512, 64, 4096];

pub fn slot_of_cell(cell: usize) -> usize {
    SLOT_CELL.iter().position(|&c| c == cell).unwrap()
}

/// The 8 symmetries of the square as cell maps: `symmetries()[t][x]` is where cell x goes.
pub fn symmetries() -> [[usize; 9]; 8] {
    type CellMap = fn(usize, usize) -> (usize, usize);
    let maps: [CellMap; 8] = [
        |r, c| (r, c),
        |r, c| (c, 2 - r),
        |r, c| (2 - r, 2 - c),
        |r, c| (2 - c, r),
        |r, c| (r, 2 - c),
        |r, c| (2 - r, c),
        |r, c| (c, r),
        |r, c| (2 - c, 2 - r),
    ];
    let mut out = [[0; 9]; 8];
    for (images, map) in out.iter_mut().zip(maps) {
        for (x, image) in images.iter_mut().enumerate() {
            let (r, c) = map(x / 3, x % 3);
            *image = r * 3 + c;
        }
    }
    out
}

fn inverse(map: &[usize; 9]) -> [usize; 9] {
    let mut inv = [0; 9];
    for x in 0..9 {
        inv[map[x]] = x;
    }
    inv
}

/// Orthogonal neighbours of the cell in `slot`, as slots in ascending order, so that a bit
/// gather (BMI2 pext) of their fields yields the neighbour index directly.
pub fn neighbour_slots(slot: usize) -> Vec<usize> {
    let cell = SLOT_CELL[slot];
    let (r, c) = ((cell / 3) as isize, (cell % 3) as isize);
    let mut slots: Vec<usize> = [(-1, 0), (0, -1), (0, 1), (1, 0)]
        .iter()
        .map(|(dr, dc)| (r + dr, c + dc))
        .filter(|&(r, c)| (0..3).contains(&r) && (0..3).contains(&c))
        .map(|(r, c)| slot_of_cell((r * 3 + c) as usize))
        .collect();
    slots.sort_unstable();
    slots
}

/// The bits of slot k's neighbours' fields.
pub fn neighbour_masks() -> [u32; 9] {
    let mut out = [0; 9];
    for (slot, mask) in out.iter_mut().enumerate() {
        *mask = neighbour_slots(slot).iter().map(|&nb| 7 << (3 * nb)).sum();
    }
    out
}

/// Where slot k's field goes under symmetry t.
fn slot_image(t: usize, slot: usize) -> usize {
    slot_of_cell(symmetries()[t][SLOT_CELL[slot]])
}

/// Applies symmetry t to the low 24 bits of a state (the centre and the empty count stay).
pub fn transform_low_bits(t: usize, bits: u32) -> u32 {
    let mut out = 0;
    for bit in 0..24 {
        if bits >> bit & 1 == 1 {
            let (slot, offset) = (bit / 3, bit % 3);
            out |= 1 << (3 * slot_image(t, slot) + offset);
        }
    }
    out
}

/// `[byte slice j][byte value][t]`: XOR mask that turns a state into its image under t, for the
/// bits of byte j; the image is the state XOR the three slices' masks.
pub fn symmetry_xor_slices() -> Vec<[[u32; 8]; 256]> {
    (0..3)
        .map(|j| {
            let mut table = [[0u32; 8]; 256];
            for (b, lanes) in table.iter_mut().enumerate() {
                let part = (b as u32) << (8 * j);
                for (t, lane) in lanes.iter_mut().enumerate() {
                    *lane = transform_low_bits(t, part) ^ part;
                }
            }
            table
        })
        .collect()
}

/// `[u][v]`: the lane t whose count moves to lane v when a child is canonicalised by symmetry u
/// (t is the symmetry with f_u o f_t = f_v), so that `new[v] = old[perm[u][v]]`.
pub fn lane_permutations() -> [[u32; 8]; 8] {
    let sym = symmetries();
    let mut out = [[0u32; 8]; 8];
    for u in 0..8 {
        for v in 0..8 {
            let t = (0..8)
                .find(|&t| (0..9).all(|x| sym[u][sym[t][x]] == sym[v][x]))
                .expect("the symmetries form a group");
            out[u][v] = t as u32;
        }
    }
    out
}

/// Base-10 weight, in lane t, of slot k: lane t's board is the canonical one mapped back by t.
fn hash_weight(t: usize, slot: usize) -> u32 {
    let cell = inverse(&symmetries()[t])[SLOT_CELL[slot]];
    10u32.pow(8 - cell as u32)
}

/// `[slice j][9-bit value][t]`: hash contribution of slots 3j..3j+2 in lane t.
pub fn hash_slices() -> Vec<[[u32; 8]; 512]> {
    (0..3)
        .map(|j| {
            let mut table = [[0u32; 8]; 512];
            for (b, lanes) in table.iter_mut().enumerate() {
                for (t, lane) in lanes.iter_mut().enumerate() {
                    *lane = (0..3)
                        .map(|i| ((b >> (3 * i)) & 7) as u32 * hash_weight(t, 3 * j + i))
                        .fold(0u32, u32::wrapping_add);
                }
            }
            table
        })
        .collect()
}

/// One move: what it adds to the parent state (wrapping), and which slots it changes by how much.
pub struct Move {
    pub delta: u32,
    pub changes: Vec<(usize, i32)>,
}

/// The moves of placing a die on empty `slot` whose neighbours (in `neighbour_slots` order)
/// show `values`: every capture of 2+ dice summing to at most 6, else a single 1.
pub fn moves(slot: usize, values: &[u32]) -> Vec<Move> {
    let nbs = neighbour_slots(slot);
    let mut out = Vec::new();
    for subset in 0u32..(1 << nbs.len()) {
        let members: Vec<usize> = (0..nbs.len()).filter(|&j| subset >> j & 1 == 1).collect();
        let sum: u32 = members.iter().map(|&j| values[j]).sum();
        if members.len() < 2 || members.iter().any(|&j| values[j] == 0) || sum > 6 {
            continue;
        }
        let mut delta = (sum << (3 * slot)).wrapping_add((members.len() as u32 - 1) << EMPTY_SHIFT);
        let mut changes = vec![(slot, sum as i32)];
        for &j in &members {
            delta = delta.wrapping_sub(values[j] << (3 * nbs[j]));
            changes.push((nbs[j], -(values[j] as i32)));
        }
        out.push(Move { delta, changes });
    }
    if out.is_empty() {
        out.push(Move {
            delta: (1u32 << (3 * slot)).wrapping_sub(1 << EMPTY_SHIFT),
            changes: vec![(slot, 1)],
        });
    }
    out
}

/// Neighbour values encoded in a neighbour index (3 bits each), or None if one is not a die value.
pub fn decode_neighbour_index(slot: usize, index: usize) -> Option<Vec<u32>> {
    let values: Vec<u32> = (0..neighbour_slots(slot).len())
        .map(|j| ((index >> (3 * j)) & 7) as u32)
        .collect();
    values.iter().all(|&v| v <= 6).then_some(values)
}

/// The move table, flattened: `span[base[k] + index]` = (offset << 4) | count into `images`,
/// `images[j][t]` = what move j adds to the image of its parent under symmetry t (a move
/// changes whole fields without carries and a symmetry permutes fields, so the images of a
/// child are the parent's images plus these; lane 0 is the plain delta), and
/// `hash_sum[base[k] + index][t]` = sum over those moves of the hash change in lane t.
pub struct MoveTable {
    pub base: [u32; 9],
    pub span: Vec<u32>,
    pub images: Vec<[u32; 8]>,
    pub hash_sum: Vec<[u32; 8]>,
}

/// What move `m` adds to a state's image under symmetry t.
pub fn move_image(m: &Move, t: usize) -> u32 {
    let fields = |map: &dyn Fn(usize) -> usize| {
        m.changes.iter().fold(0u32, |acc, &(k, change)| {
            acc.wrapping_add((change as u32).wrapping_shl(3 * map(k) as u32))
        })
    };
    let empty_count_change = m.delta.wrapping_sub(fields(&|k| k));
    fields(&|k| slot_image(t, k)).wrapping_add(empty_count_change)
}

pub fn move_table() -> MoveTable {
    let mut table = MoveTable {
        base: [0; 9],
        span: Vec::new(),
        images: Vec::new(),
        hash_sum: Vec::new(),
    };
    for (slot, &size) in NEIGHBOUR_INDEX_SIZE.iter().enumerate() {
        table.base[slot] = table.span.len() as u32;
        for index in 0..size {
            let list = decode_neighbour_index(slot, index)
                .map(|values| moves(slot, &values))
                .unwrap_or_default();
            assert!(list.len() < 16 && table.images.len() < (1 << 28));
            table
                .span
                .push(((table.images.len() as u32) << 4) | list.len() as u32);
            let mut sums = [0u32; 8];
            for m in &list {
                table.images.push(std::array::from_fn(|t| move_image(m, t)));
                for (t, sum) in sums.iter_mut().enumerate() {
                    for &(k, change) in &m.changes {
                        *sum = sum.wrapping_add((change as u32).wrapping_mul(hash_weight(t, k)));
                    }
                }
            }
            table.hash_sum.push(sums);
        }
    }
    table
}

/// Shifts that gather slot k's neighbour values into its neighbour index; 40 (past the state,
/// read from a u64) for missing neighbours, so the gather is branch-free.
pub fn neighbour_shifts() -> [[u32; 4]; 9] {
    let mut out = [[40; 4]; 9];
    for (slot, shifts) in out.iter_mut().enumerate() {
        for (j, nb) in neighbour_slots(slot).into_iter().enumerate() {
            shifts[j] = 3 * nb as u32;
        }
    }
    out
}

/// Distinct non-full boards up to symmetry (Burnside): no BFS layer can hold more states.
pub fn max_layer_states() -> u64 {
    let orbits = |values: u64| {
        // identity: 9 cycles; rotations by 90 and 270: 3; by 180: 5; the four reflections: 6.
        (values.pow(9) + 2 * values.pow(3) + values.pow(5) + 4 * values.pow(6)) / 8
    };
    orbits(7) - orbits(6)
}

/// Renders every table as Rust source for the runtime to include!.
pub fn render() -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let lanes = |s: &mut String, l: &[u32; 8]| {
        let parts: Vec<String> = l.iter().map(|v| format!("{v:#x}")).collect();
        write!(s, "Lanes([{}]),", parts.join(",")).unwrap();
    };
    let list = |v: &[u32]| {
        v.iter()
            .map(|x| format!("{x:#x}"))
            .collect::<Vec<_>>()
            .join(",")
    };
    writeln!(
        s,
        "// Generated by tables/cephalopod.rs through build.rs. Do not edit."
    )
    .unwrap();
    writeln!(s, "pub const SLOT_CELL: [usize; 9] = {SLOT_CELL:?};").unwrap();
    writeln!(s, "pub const EMPTY_SHIFT: u32 = {EMPTY_SHIFT};").unwrap();
    writeln!(
        s,
        "pub const MAX_LAYER_STATES: usize = {};",
        max_layer_states()
    )
    .unwrap();
    let shifts = neighbour_shifts();
    writeln!(
        s,
        "pub static NEIGHBOUR_SHIFTS: [[u32; 4]; 9] = {shifts:?};"
    )
    .unwrap();
    let masks = neighbour_masks();
    writeln!(
        s,
        "pub static NEIGHBOUR_MASK: [u32; 9] = [{}];",
        list(&masks)
    )
    .unwrap();
    let mt = move_table();
    writeln!(s, "pub static MOVE_BASE: [u32; 9] = [{}];", list(&mt.base)).unwrap();
    writeln!(
        s,
        "pub static MOVE_SPAN: [u32; {}] = [{}];",
        mt.span.len(),
        list(&mt.span)
    )
    .unwrap();
    write!(s, "pub static MOVE_IMAGE: [Lanes; {}] = [", mt.images.len()).unwrap();
    mt.images.iter().for_each(|l| lanes(&mut s, l));
    writeln!(s, "];").unwrap();
    write!(
        s,
        "pub static MOVE_HASH_SUM: [Lanes; {}] = [",
        mt.hash_sum.len()
    )
    .unwrap();
    mt.hash_sum.iter().for_each(|l| lanes(&mut s, l));
    writeln!(s, "];").unwrap();
    write!(s, "pub static SYMMETRY_XOR: [[Lanes; 256]; 3] = [").unwrap();
    for slice in symmetry_xor_slices() {
        s.push('[');
        slice.iter().for_each(|l| lanes(&mut s, l));
        s.push_str("],");
    }
    writeln!(s, "];").unwrap();
    write!(s, "pub static LANE_PERMUTATION: [Lanes; 8] = [").unwrap();
    lane_permutations().iter().for_each(|l| lanes(&mut s, l));
    writeln!(s, "];").unwrap();
    write!(s, "pub static HASH_SLICE: [[Lanes; 512]; 3] = [").unwrap();
    for slice in hash_slices() {
        s.push('[');
        slice.iter().for_each(|l| lanes(&mut s, l));
        s.push_str("],");
    }
    writeln!(s, "];").unwrap();
    s
}
