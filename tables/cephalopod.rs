//! Generators of the cephalopod tables (move deltas, symmetry XOR slices, lane permutations, state
//! hashes): build.rs renders them into OUT_DIR for include!; the bundle fills them at start-up.
//
// Layout of a state (one u32), shared with the runtime through the generated constants:
//   slot k = 0..8 holds a die (0 = empty, 1..6) in bits 3k..3k+2; slots 0..7 are the eight
//   non-centre cells, slot 8 the centre, so a symmetry only permutes the low 24 bits;
//   bits 27..31 hold the number of empty cells (0 = full board = terminal).
// Cells are numbered row-major 0..8; the hash reads cell 0 as the most significant digit.

use std::sync::OnceLock;

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
pub fn neighbour_slots(slot: usize) -> &'static [usize] {
    static NEIGHBOURS: OnceLock<[Vec<usize>; 9]> = OnceLock::new();
    &NEIGHBOURS.get_or_init(|| {
        std::array::from_fn(|slot| {
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
        })
    })[slot]
}

/// The bits of slot k's neighbours' fields.
pub fn neighbour_masks() -> [u32; 9] {
    let mut out = [0; 9];
    for (slot, mask) in out.iter_mut().enumerate() {
        *mask = neighbour_slots(slot).iter().map(|&nb| 7 << (3 * nb)).sum();
    }
    out
}

/// `[t][k]`: where slot k's field goes under symmetry t.
fn slot_images() -> &'static [[usize; 9]; 8] {
    static IMAGES: OnceLock<[[usize; 9]; 8]> = OnceLock::new();
    IMAGES.get_or_init(|| {
        let sym = symmetries();
        std::array::from_fn(|t| std::array::from_fn(|k| slot_of_cell(sym[t][SLOT_CELL[k]])))
    })
}

/// One lane per symmetry, laid out as the runtime's `Lanes`.
pub type LaneWords = [u32; 8];

fn add_lanes(to: &mut LaneWords, x: &LaneWords) {
    to.iter_mut()
        .zip(x)
        .for_each(|(a, b)| *a = a.wrapping_add(*b));
}

/// Writes `[byte slice j][byte value][t]` (3 slices of 256 rows): the XOR mask that turns a
/// state into its image under t, for the bits of byte j; the image is the state XOR the three
/// slices' masks.
pub fn fill_symmetry_xor(out: &mut [LaneWords]) {
    assert_eq!(out.len(), 3 * 256, "symmetry XOR size");
    let images = slot_images();
    for (j, slice) in out.chunks_exact_mut(256).enumerate() {
        // A symmetry permutes bits, so a byte's mask is the XOR of its bits' masks: each row is
        // the row without its lowest bit, XOR that bit's mask.
        let bit_mask: [LaneWords; 8] = std::array::from_fn(|i| {
            let bit = 8 * j + i;
            std::array::from_fn(|t| 1 << (3 * images[t][bit / 3] + bit % 3) ^ 1 << bit)
        });
        slice[0] = [0; 8];
        for b in 1..256 {
            let mut row = slice[b & (b - 1)];
            let mask = &bit_mask[b.trailing_zeros() as usize];
            row.iter_mut().zip(mask).for_each(|(x, m)| *x ^= m);
            slice[b] = row;
        }
    }
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

/// `[t][k]`: base-10 weight, in lane t, of slot k (lane t's board is the canonical one mapped
/// back by t).
fn hash_weights() -> &'static [[u32; 9]; 8] {
    static WEIGHTS: OnceLock<[[u32; 9]; 8]> = OnceLock::new();
    WEIGHTS.get_or_init(|| {
        let sym = symmetries();
        std::array::from_fn(|t| {
            let cell = inverse(&sym[t]);
            std::array::from_fn(|k| 10u32.pow(8 - cell[SLOT_CELL[k]] as u32))
        })
    })
}

/// Writes `[slice j][9-bit value][t]` (3 slices of 512 rows): the hash contribution of slots
/// 3j..3j+2 in lane t.
pub fn fill_hash_slices(out: &mut [LaneWords]) {
    assert_eq!(out.len(), 3 * 512, "hash slice size");
    let weights = hash_weights();
    for (j, slice) in out.chunks_exact_mut(512).enumerate() {
        // `[i][v][t]`: value v in slot 3j+i, in lane t; a row is the sum of its three fields'.
        let field: [[LaneWords; 8]; 3] = std::array::from_fn(|i| {
            std::array::from_fn(|v| std::array::from_fn(|t| v as u32 * weights[t][3 * j + i]))
        });
        for (high, rows) in slice.chunks_exact_mut(64).enumerate() {
            for (middle, rows) in rows.chunks_exact_mut(8).enumerate() {
                let mut upper = field[2][high];
                add_lanes(&mut upper, &field[1][middle]);
                for (row, low) in rows.iter_mut().zip(&field[0]) {
                    *row = upper;
                    add_lanes(row, low);
                }
            }
        }
    }
}

/// Entries of the move table: one per (empty slot, neighbour index).
pub const MOVE_ENTRIES: usize = 64 * 4 + 512 * 4 + 4096;

/// A move's image deltas (lanes 0..8) and hash changes (lanes 8..16), summed in one pass.
type Change = [u32; 16];

fn add_change(to: &mut Change, x: &Change) {
    for t in 0..16 {
        to[t] = to[t].wrapping_add(x[t]);
    }
}

fn sub_change(from: &mut Change, x: &Change) {
    for t in 0..16 {
        from[t] = from[t].wrapping_sub(x[t]);
    }
}

/// The low bit of each of the 4 (3-bit) fields of a neighbour index.
const FIELD_ONES: u32 = 0o1111;

/// Whether a neighbour index (or its part) holds a 7, which is no die value.
fn has_seven(index: u32) -> bool {
    index & index >> 1 & index >> 2 & FIELD_ONES != 0
}

/// A capture of a subset (2+) of a slot's neighbours, as the neighbours after the first see it.
#[derive(Clone, Copy)]
struct Capture {
    takes_first: bool,
    /// What the capture adds to the empty-cell count, in each image lane.
    freed: u32,
    /// The fields of the other members in `rest` (the index without the first neighbour's
    /// field), and their low bits.
    rest_fields: u32,
    rest_ones: u32,
    /// The other members: (field in `rest`, slot).
    others: [(u32, usize); 3],
    other_count: usize,
}

impl Capture {
    fn of(subset: u32, nbs: &[usize]) -> Capture {
        let mut capture = Capture {
            takes_first: subset & 1 != 0,
            freed: (subset.count_ones() - 1) << EMPTY_SHIFT,
            rest_fields: 0,
            rest_ones: 0,
            others: [(0, 0); 3],
            other_count: 0,
        };
        for j in (1..nbs.len()).filter(|j| subset >> j & 1 != 0) {
            let field = j as u32 - 1;
            capture.rest_fields |= 7 << (3 * field);
            capture.rest_ones |= 1 << (3 * field);
            capture.others[capture.other_count] = (field, nbs[j]);
            capture.other_count += 1;
        }
        capture
    }
}

/// A capture as far as the neighbours after the first decide it, for one set of their values:
/// it is a move for the first neighbour's values `low..=high`, capturing `sum` plus that value
/// if `takes_first`, and `change` is its change but for the placed die and the first neighbour.
#[derive(Clone, Copy, Default)]
struct PartialCapture {
    low: u32,
    high: u32,
    sum: u32,
    takes_first: bool,
    change: Change,
}

/// Writes the move table, flattened, and returns `(base, moves)`: `span[base[k] + index]` =
/// (offset << 4) | count into `images` (`moves` of them written), `images[j][t]` = what move j
/// adds to the image of its parent under symmetry t (a move changes whole fields without carries
/// and a symmetry permutes fields, so the images of a child are the parent's images plus these;
/// lane 0 is the plain delta), and `hash_sum[base[k] + index][t]` = sum over those moves of the
/// hash change in lane t. A neighbourhood's moves are every capture of 2+ dice summing to at most
/// 6, by subset ascending, else the placement of a 1.
pub fn fill_move_table(
    span: &mut [u32],
    images: &mut [LaneWords],
    hash_sum: &mut [LaneWords],
) -> ([u32; 9], usize) {
    assert!(
        span.len() == MOVE_ENTRIES && hash_sum.len() == MOVE_ENTRIES,
        "move table size"
    );
    // Per slot k and value v: what v in k's field adds to each image and each lane's hash; a
    // move's change is a sum of these, lane by lane.
    let (slot_images, weights) = (slot_images(), hash_weights());
    let value_change: [[Change; 8]; 9] = std::array::from_fn(|k| {
        std::array::from_fn(|v| {
            let v = v as u32;
            std::array::from_fn(|t| match t {
                0..=7 => v << (3 * slot_images[t][k]),
                _ => v.wrapping_mul(weights[t - 8][k]),
            })
        })
    });
    // The sum of the (3-bit) fields of every 9-bit value.
    let mut field_sum = [0u8; 1 << 9];
    for value in 1..1 << 9 {
        field_sum[value] = field_sum[value >> 3] + (value & 7) as u8;
    }
    let (mut base, mut entry, mut moves) = ([0; 9], 0, 0);
    for (slot, &size) in NEIGHBOUR_INDEX_SIZE.iter().enumerate() {
        base[slot] = entry as u32;
        let nbs = neighbour_slots(slot);
        let place = &value_change[slot];
        let take_first = &value_change[nbs[0]];
        // The subsets of 2+ neighbours, ascending, as bits j of neighbour j; an index is the
        // first neighbour's value in its low 3 bits and the others' (`rest`) above.
        let captures: Vec<Capture> = (3u32..1 << nbs.len())
            .filter(|subset| subset & (subset - 1) != 0)
            .map(|subset| Capture::of(subset, nbs))
            .collect();
        // For each `rest`, the captures it allows, in subset order, decided once for the 8
        // values of the first neighbour.
        let mut partials = [PartialCapture::default(); 11];
        for rest in 0..size as u32 >> 3 {
            let mut count = 0;
            let dice = (rest | rest >> 1 | rest >> 2) & FIELD_ONES;
            let allowed = captures
                .iter()
                .filter(|c| !has_seven(rest) && dice & c.rest_ones == c.rest_ones);
            for capture in allowed {
                let sum = u32::from(field_sum[(rest & capture.rest_fields) as usize]);
                let low = u32::from(capture.takes_first);
                if sum + low > 6 {
                    continue;
                }
                let mut change = [0; 16];
                change[..8].iter_mut().for_each(|x| *x = capture.freed);
                for &(j, k) in &capture.others[..capture.other_count] {
                    sub_change(
                        &mut change,
                        &value_change[k][(rest >> (3 * j) & 7) as usize],
                    );
                }
                partials[count] = PartialCapture {
                    low,
                    high: if capture.takes_first { 6 - sum } else { 6 },
                    sum,
                    takes_first: capture.takes_first,
                    change,
                };
                count += 1;
            }
            let partials = &partials[..count];
            for first_value in 0..8 {
                let (first, mut sums) = (moves, [0u32; 8]);
                if !has_seven(rest) && first_value != 7 {
                    for partial in partials {
                        if first_value < partial.low || first_value > partial.high {
                            continue;
                        }
                        let mut change = partial.change;
                        if partial.takes_first {
                            add_change(&mut change, &place[(partial.sum + first_value) as usize]);
                            sub_change(&mut change, &take_first[first_value as usize]);
                        } else {
                            add_change(&mut change, &place[partial.sum as usize]);
                        }
                        images[moves].copy_from_slice(&change[..8]);
                        for t in 0..8 {
                            sums[t] = sums[t].wrapping_add(change[8 + t]);
                        }
                        moves += 1;
                    }
                    if moves == first {
                        for t in 0..8 {
                            images[moves][t] = place[1][t].wrapping_sub(1 << EMPTY_SHIFT);
                            sums[t] = place[1][8 + t];
                        }
                        moves += 1;
                    }
                }
                span[entry] = (first as u32) << 4 | (moves - first) as u32;
                hash_sum[entry] = sums;
                entry += 1;
            }
        }
    }
    assert!(entry == MOVE_ENTRIES && moves < 1 << 28, "move table size");
    (base, moves)
}

/// Shifts that gather slot k's neighbour values into its neighbour index; 40 (past the state,
/// read from a u64) for missing neighbours, so the gather is branch-free.
pub fn neighbour_shifts() -> [[u32; 4]; 9] {
    let mut out = [[40; 4]; 9];
    for (slot, shifts) in out.iter_mut().enumerate() {
        for (j, &nb) in neighbour_slots(slot).iter().enumerate() {
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

/// A generated item's value.
pub enum Literal {
    /// Small values of type `ty`, already rendered.
    Text { ty: &'static str, value: String },
    /// `[0x1,0x2]`.
    Hex(Vec<u32>),
    /// `[Lanes([..]),Lanes([..]),]`.
    Lanes(Vec<[u32; 8]>),
    /// `[[Lanes([..]),..,],[..],]`: one inner array per slice.
    LaneSlices(Vec<Vec<[u32; 8]>>),
}

impl Literal {
    pub fn ty(&self) -> String {
        match self {
            Literal::Text { ty, .. } => ty.to_string(),
            Literal::Hex(v) => format!("[u32; {}]", v.len()),
            Literal::Lanes(v) => format!("[Lanes; {}]", v.len()),
            Literal::LaneSlices(v) => format!("[[Lanes; {}]; {}]", v[0].len(), v.len()),
        }
    }

    pub fn render(&self) -> String {
        let hex = |v: &[u32]| {
            v.iter()
                .map(|x| format!("{x:#x}"))
                .collect::<Vec<_>>()
                .join(",")
        };
        let lanes = |v: &[[u32; 8]]| -> String {
            v.iter().map(|l| format!("Lanes([{}]),", hex(l))).collect()
        };
        match self {
            Literal::Text { value, .. } => value.clone(),
            Literal::Hex(v) => format!("[{}]", hex(v)),
            Literal::Lanes(v) => format!("[{}]", lanes(v)),
            Literal::LaneSlices(v) => {
                let slices: String = v.iter().map(|s| format!("[{}],", lanes(s))).collect();
                format!("[{slices}]")
            }
        }
    }

    /// How many u32s it holds (every lane one); none for `Text`.
    pub fn words(&self) -> usize {
        match self {
            Literal::Text { .. } => 0,
            Literal::Hex(v) => v.len(),
            Literal::Lanes(v) => 8 * v.len(),
            Literal::LaneSlices(v) => v.iter().map(|s| 8 * s.len()).sum(),
        }
    }
}

/// One generated item: `pub {keyword} {name}: {literal.ty()} = {literal.render()};`.
pub struct Item {
    pub keyword: &'static str,
    pub name: &'static str,
    pub literal: Literal,
}

/// The tables that `fill_tables` writes, by name.
pub const FILLED: [&str; 5] = [
    "MOVE_SPAN",
    "MOVE_IMAGE",
    "MOVE_HASH_SUM",
    "SYMMETRY_XOR",
    "HASH_SLICE",
];

/// Fills the big tables where they will be read (a bundle's start-up: no `Vec` per table and no
/// copy); `table(name)` hands out each of `FILLED` once, as its u32s in memory order.
pub fn fill_tables<'t>(mut table: impl FnMut(&str) -> &'t mut [u32]) {
    fn lanes(words: &mut [u32]) -> &mut [LaneWords] {
        assert_eq!(words.len() % 8, 0, "a table of lanes");
        // SAFETY: `[u32; 8]` is 8 u32s with a u32's alignment, and the rows cover `words`
        // exactly, whose exclusive borrow they take over.
        unsafe { std::slice::from_raw_parts_mut(words.as_mut_ptr().cast(), words.len() / 8) }
    }
    let [span, image, hash_sum, symmetry_xor, hash_slice] = FILLED;
    let images = lanes(table(image));
    let (_, moves) = fill_move_table(table(span), images, lanes(table(hash_sum)));
    assert_eq!(moves, images.len(), "MOVE_IMAGE size");
    fill_symmetry_xor(lanes(table(symmetry_xor)));
    fill_hash_slices(lanes(table(hash_slice)));
}

/// Rows of 8 lanes, filled by `fill`, as `rows / slices` per slice.
fn lane_slices(rows: usize, slices: usize, fill: fn(&mut [LaneWords])) -> Literal {
    let mut out = vec![[0; 8]; rows * slices];
    fill(&mut out);
    Literal::LaneSlices(out.chunks(rows).map(<[LaneWords]>::to_vec).collect())
}

/// Every generated item, in order: the one list that build.rs renders and the bundler reads.
pub fn items() -> Vec<Item> {
    let item = |keyword, name, literal| Item {
        keyword,
        name,
        literal,
    };
    let text = |ty, value| Literal::Text { ty, value };
    // At most two moves per entry (the most any neighbourhood has is 11, the mean 1.2).
    let (mut span, mut images) = (vec![0; MOVE_ENTRIES], vec![[0; 8]; 2 * MOVE_ENTRIES]);
    let mut hash_sum = vec![[0; 8]; MOVE_ENTRIES];
    let (base, moves) = fill_move_table(&mut span, &mut images, &mut hash_sum);
    images.truncate(moves);
    let shifts = format!("{:?}", neighbour_shifts());
    vec![
        item(
            "const",
            "SLOT_CELL",
            text("[usize; 9]", format!("{SLOT_CELL:?}")),
        ),
        item("const", "EMPTY_SHIFT", text("u32", EMPTY_SHIFT.to_string())),
        item(
            "const",
            "MAX_LAYER_STATES",
            text("usize", max_layer_states().to_string()),
        ),
        item("static", "NEIGHBOUR_SHIFTS", text("[[u32; 4]; 9]", shifts)),
        item(
            "static",
            "NEIGHBOUR_MASK",
            Literal::Hex(neighbour_masks().to_vec()),
        ),
        item("static", "MOVE_BASE", Literal::Hex(base.to_vec())),
        item("static", "MOVE_SPAN", Literal::Hex(span)),
        item("static", "MOVE_IMAGE", Literal::Lanes(images)),
        item("static", "MOVE_HASH_SUM", Literal::Lanes(hash_sum)),
        item(
            "static",
            "SYMMETRY_XOR",
            lane_slices(256, 3, fill_symmetry_xor),
        ),
        item(
            "static",
            "LANE_PERMUTATION",
            Literal::Lanes(lane_permutations().to_vec()),
        ),
        item(
            "static",
            "HASH_SLICE",
            lane_slices(512, 3, fill_hash_slices),
        ),
    ]
}

/// Renders every table as Rust source for the runtime to include!.
pub fn render() -> String {
    let mut s =
        String::from("// Generated by tables/cephalopod.rs through build.rs. Do not edit.\n");
    for item in items() {
        let (ty, value) = (item.literal.ty(), item.literal.render());
        // Machine-written hex is read by programs, not people: style lints do not apply.
        s += "#[allow(clippy::unreadable_literal)]\n";
        s += &format!("pub {} {}: {ty} = {value};\n", item.keyword, item.name);
    }
    s
}
