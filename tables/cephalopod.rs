//! Pure generators of the cephalopod tables: move deltas, symmetry XOR slices, lane permutations
//! and state hashes. build.rs renders them as Rust source in OUT_DIR; the runtime include!s that.
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

/// Where slot k's field goes under symmetry t.
fn slot_image(t: usize, slot: usize) -> usize {
    slot_images()[t][slot]
}

/// Applies symmetry t to the low 24 bits of a state (the centre and the empty count stay).
pub fn transform_low_bits(t: usize, bits: u32) -> u32 {
    let mut out = 0;
    let mut rest = bits & 0xff_ffff;
    while rest != 0 {
        let bit = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        out |= 1 << (3 * slot_image(t, bit / 3) + bit % 3);
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

/// Base-10 weight, in lane t, of slot k.
fn hash_weight(t: usize, slot: usize) -> u32 {
    hash_weights()[t][slot]
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

/// One move: what it adds to the parent state (wrapping), and which slots it changes by how
/// much (the placed die first, then up to 4 captured ones).
pub struct Move {
    pub delta: u32,
    changes: [(usize, i32); 5],
    changed: usize,
}

impl Move {
    fn new(delta: u32, placed: (usize, i32)) -> Move {
        let mut changes = [(0, 0); 5];
        changes[0] = placed;
        Move {
            delta,
            changes,
            changed: 1,
        }
    }

    pub fn changes(&self) -> &[(usize, i32)] {
        &self.changes[..self.changed]
    }
}

/// The moves of placing a die on empty `slot` whose neighbours (in `neighbour_slots` order)
/// show `values`: every capture of 2+ dice summing to at most 6, else a single 1.
pub fn moves(slot: usize, values: &[u32]) -> Vec<Move> {
    let mut out = Vec::new();
    moves_into(slot, values, &mut out);
    out
}

/// `moves`, written into a buffer that is cleared first.
pub fn moves_into(slot: usize, values: &[u32], out: &mut Vec<Move>) {
    out.clear();
    let nbs = neighbour_slots(slot);
    // The neighbours holding a die: only subsets of these can be captured.
    let dice = (0..nbs.len()).fold(0u32, |m, j| m | u32::from(values[j] != 0) << j);
    for subset in 0u32..(1 << nbs.len()) {
        let count = subset.count_ones();
        if count < 2 || subset & !dice != 0 {
            continue;
        }
        let mut sum = 0;
        let mut rest = subset;
        while rest != 0 {
            sum += values[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        if sum > 6 {
            continue;
        }
        let delta = (sum << (3 * slot)).wrapping_add((count - 1) << EMPTY_SHIFT);
        let mut m = Move::new(delta, (slot, sum as i32));
        let mut rest = subset;
        while rest != 0 {
            let j = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            m.delta = m.delta.wrapping_sub(values[j] << (3 * nbs[j]));
            m.changes[m.changed] = (nbs[j], -(values[j] as i32));
            m.changed += 1;
        }
        out.push(m);
    }
    if out.is_empty() {
        let delta = (1u32 << (3 * slot)).wrapping_sub(1 << EMPTY_SHIFT);
        out.push(Move::new(delta, (slot, 1)));
    }
}

/// Neighbour values encoded in a neighbour index (3 bits each, in `neighbour_slots` order), or
/// None if one is not a die value.
pub fn decode_neighbour_index(slot: usize, index: usize) -> Option<[u32; 4]> {
    let mut values = [0; 4];
    for (j, value) in values
        .iter_mut()
        .enumerate()
        .take(neighbour_slots(slot).len())
    {
        *value = ((index >> (3 * j)) & 7) as u32;
    }
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
    move_image_by(m, &slot_images()[t])
}

/// `move_image` with symmetry t's slot map `image` (`slot_images()[t]`).
fn move_image_by(m: &Move, image: &[usize; 9]) -> u32 {
    let (mut plain, mut mapped) = (0u32, 0u32);
    for &(k, change) in m.changes() {
        plain = plain.wrapping_add((change as u32).wrapping_shl(3 * k as u32));
        mapped = mapped.wrapping_add((change as u32).wrapping_shl(3 * image[k] as u32));
    }
    mapped.wrapping_add(m.delta.wrapping_sub(plain))
}

pub fn move_table() -> MoveTable {
    let mut table = MoveTable {
        base: [0; 9],
        span: Vec::new(),
        images: Vec::new(),
        hash_sum: Vec::new(),
    };
    let mut list = Vec::new();
    let (images, weights) = (slot_images(), hash_weights());
    for (slot, &size) in NEIGHBOUR_INDEX_SIZE.iter().enumerate() {
        table.base[slot] = table.span.len() as u32;
        for index in 0..size {
            list.clear();
            if let Some(values) = decode_neighbour_index(slot, index) {
                moves_into(slot, &values, &mut list);
            }
            assert!(list.len() < 16 && table.images.len() < (1 << 28));
            table
                .span
                .push(((table.images.len() as u32) << 4) | list.len() as u32);
            let mut sums = [0u32; 8];
            for m in &list {
                table
                    .images
                    .push(std::array::from_fn(|t| move_image_by(m, &images[t])));
                for (sum, weight) in sums.iter_mut().zip(weights) {
                    for &(k, change) in m.changes() {
                        *sum = sum.wrapping_add((change as u32).wrapping_mul(weight[k]));
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

    /// The values in memory order (every lane a u32), in runs; none for `Text`.
    pub fn runs(&self) -> Box<dyn Iterator<Item = &[u32]> + '_> {
        match self {
            Literal::Text { .. } => Box::new(std::iter::empty()),
            Literal::Hex(v) => Box::new(std::iter::once(&v[..])),
            Literal::Lanes(v) => Box::new(v.iter().map(|l| &l[..])),
            Literal::LaneSlices(v) => Box::new(v.iter().flatten().map(|l| &l[..])),
        }
    }
}

/// One generated item: `pub {keyword} {name}: {literal.ty()} = {literal.render()};`.
pub struct Item {
    pub keyword: &'static str,
    pub name: &'static str,
    pub literal: Literal,
}

fn lane_slices<const N: usize>(slices: Vec<[[u32; 8]; N]>) -> Literal {
    Literal::LaneSlices(slices.iter().map(|s| s.to_vec()).collect())
}

/// Every generated item, in order: the one list that build.rs renders and the bundler reads.
pub fn items() -> Vec<Item> {
    let item = |keyword, name, literal| Item {
        keyword,
        name,
        literal,
    };
    let text = |ty, value| Literal::Text { ty, value };
    let mt = move_table();
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
        item("static", "MOVE_BASE", Literal::Hex(mt.base.to_vec())),
        item("static", "MOVE_SPAN", Literal::Hex(mt.span)),
        item("static", "MOVE_IMAGE", Literal::Lanes(mt.images)),
        item("static", "MOVE_HASH_SUM", Literal::Lanes(mt.hash_sum)),
        item("static", "SYMMETRY_XOR", lane_slices(symmetry_xor_slices())),
        item(
            "static",
            "LANE_PERMUTATION",
            Literal::Lanes(lane_permutations().to_vec()),
        ),
        item("static", "HASH_SLICE", lane_slices(hash_slices())),
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
