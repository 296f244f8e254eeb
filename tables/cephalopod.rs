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

/// Applies symmetry t to the low 24 bits of a state (the centre and the empty count stay).
pub fn transform_low_bits(t: usize, bits: u32) -> u32 {
    let image = &slot_images()[t];
    let mut out = 0;
    let mut rest = bits & 0xff_ffff;
    while rest != 0 {
        let bit = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        out |= 1 << (3 * image[bit / 3] + bit % 3);
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

/// `[slice j][9-bit value][t]`: hash contribution of slots 3j..3j+2 in lane t.
pub fn hash_slices() -> Vec<[[u32; 8]; 512]> {
    let weights = hash_weights();
    (0..3)
        .map(|j| {
            let mut table = [[0u32; 8]; 512];
            for (b, lanes) in table.iter_mut().enumerate() {
                for (lane, weight) in lanes.iter_mut().zip(weights) {
                    *lane = (0..3)
                        .map(|i| ((b >> (3 * i)) & 7) as u32 * weight[3 * j + i])
                        .fold(0u32, u32::wrapping_add);
                }
            }
            table
        })
        .collect()
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

pub fn move_table() -> MoveTable {
    // Per slot k, value v and symmetry t: what v in k's field adds to the image under t, and to
    // its hash in lane t; a move's image and hash change are sums of these, lane by lane.
    let (images, weights) = (slot_images(), hash_weights());
    let field: [[[u32; 8]; 7]; 9] = std::array::from_fn(|k| {
        std::array::from_fn(|v| std::array::from_fn(|t| (v as u32) << (3 * images[t][k])))
    });
    let hash: [[[u32; 8]; 7]; 9] = std::array::from_fn(|k| {
        std::array::from_fn(|v| std::array::from_fn(|t| (v as u32).wrapping_mul(weights[t][k])))
    });
    let entries: usize = NEIGHBOUR_INDEX_SIZE.iter().sum();
    let mut table = MoveTable {
        base: [0; 9],
        span: Vec::with_capacity(entries),
        images: Vec::with_capacity(2 * entries),
        hash_sum: Vec::with_capacity(entries),
    };
    for (slot, &size) in NEIGHBOUR_INDEX_SIZE.iter().enumerate() {
        table.base[slot] = table.span.len() as u32;
        let nbs = neighbour_slots(slot);
        for index in 0..size {
            let first = table.images.len();
            let mut sums = [0u32; 8];
            if let Some(values) = decode_neighbour_index(slot, index) {
                let placed = Placed { slot, nbs, values };
                placed.push_moves(&field, &hash, &mut table.images, &mut sums);
            }
            let count = table.images.len() - first;
            assert!(count < 16 && first < (1 << 28));
            table.span.push((first as u32) << 4 | count as u32);
            table.hash_sum.push(sums);
        }
    }
    table
}

/// A die placed on empty `slot`, whose neighbours `nbs` show `values` (0 = empty).
struct Placed<'a> {
    slot: usize,
    nbs: &'a [usize],
    values: [u32; 4],
}

impl Placed<'_> {
    /// Appends the images of its moves (every capture of 2+ dice summing to at most 6, by
    /// subset ascending; else a single 1) to `images` and adds their hash changes to `sums`;
    /// `field` and `hash` are per slot, value and symmetry (see `move_table`).
    fn push_moves(
        &self,
        field: &[[[u32; 8]; 7]; 9],
        hash: &[[[u32; 8]; 7]; 9],
        images: &mut Vec<[u32; 8]>,
        sums: &mut [u32; 8],
    ) {
        let Placed { slot, nbs, values } = *self;
        let dice = (0..nbs.len()).fold(0u32, |m, j| m | u32::from(values[j] != 0) << j);
        let before = images.len();
        // The subsets of the neighbours with a die, ascending.
        let mut subset = 0u32;
        loop {
            subset = subset.wrapping_sub(dice) & dice;
            if subset == 0 {
                break;
            }
            let count = subset.count_ones();
            let sum: u32 = (0..4)
                .filter(|j| subset >> j & 1 != 0)
                .map(|j| values[j])
                .sum();
            if count < 2 || sum > 6 {
                continue;
            }
            let mut image = field[slot][sum as usize];
            let mut change = hash[slot][sum as usize];
            image
                .iter_mut()
                .for_each(|x| *x = x.wrapping_add((count - 1) << EMPTY_SHIFT));
            let mut rest = subset;
            while rest != 0 {
                let j = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let (k, v) = (nbs[j], values[j] as usize);
                for t in 0..8 {
                    image[t] = image[t].wrapping_sub(field[k][v][t]);
                    change[t] = change[t].wrapping_sub(hash[k][v][t]);
                }
            }
            for t in 0..8 {
                sums[t] = sums[t].wrapping_add(change[t]);
            }
            images.push(image);
        }
        if images.len() == before {
            let mut image = field[slot][1];
            image
                .iter_mut()
                .for_each(|x| *x = x.wrapping_sub(1 << EMPTY_SHIFT));
            images.push(image);
            for t in 0..8 {
                sums[t] = sums[t].wrapping_add(hash[slot][1][t]);
            }
        }
    }
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
