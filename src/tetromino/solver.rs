//! The exact solver: depth-first search that always fills the first empty cell in diagonal order,
//! with a balanced figure order, pocket pruning, a memo of failed states and restarts.
//!
//! Layout: the board is the core's bordered `BitGrid` (4 cells of filled border around it), so a
//! figure fits when each of its row masks ANDs to zero against at most two words, with no bounds
//! checks, and a pocket fill steps to neighbours at +-1 and +-stride freely. The 19 row-mask
//! sets are shifted to the column at run time: one shift per row costs what a load from a
//! per-(orientation, column offset) table would, without the table.
//!
//! Search: the first empty cell in the order (row + column, row) is covered by each figure whose
//! first cell in that order lands there; figure types go in descending remaining count (ties
//! broken randomly per attempt). After a placement, the empty regions of at most
//! `POCKET_LIMIT` cells it encloses must have a size divisible by 4, and a 4-cell one must be
//! the shape of a figure still available: this is the general form of the winners' connectivity
//! check and of their hand-listed pathology rules (the pockets those placements leave). A state
//! (filled cells + remaining counts, as a 128-bit Zobrist key, so a false "seen" needs a 128-bit
//! collision) whose subtree was searched completely without a tiling is remembered, across
//! restarts too. Attempts have node limits 1.5 x pieces x the Luby sequence (1 1 2 1 1 2 4 ...),
//! so a bad early choice costs little; an attempt that finishes its tree proves there is no tiling.

use super::figures::{Figure, ORIENTATIONS};
use super::invariants;
use super::rules;
use super::signature::Signature;
use super::solution::Placement;
use super::trace::{Event, Observer, Pruned, Silent, Verdict};
use crate::core::bitboard::BitGrid;
use crate::core::budget::{Budget, Exhausted};
use crate::core::hash::RandomKeySet;
use crate::core::rng::{splitmix64, Rng};
use crate::core::timer::Deadline;
use std::time::{Duration, Instant};

const PAD: usize = 4;
/// The widest figure, in columns: a figure's row mask crosses at most one word edge.
const FIGURE_SPAN: usize = 4;
/// Regions up to this many cells count as pockets; a fill that reaches more stops there.
const POCKET_LIMIT: usize = 8;
/// What a remembered state costs: a 16-byte key in a hash table that may be half empty after
/// growing, plus its control bytes.
const BYTES_PER_MEMO_STATE: usize = 40;
/// The default memory budget grows with the board: this much per cell, within the bounds below
/// (a 48 x 48 board gets 36 MiB, 128 x 128 and larger the maximum).
const DEFAULT_MEMORY_PER_CELL: usize = 16 << 10;
pub const DEFAULT_MEMORY_MIN: usize = 16 << 20;
pub const DEFAULT_MEMORY_MAX: usize = 256 << 20;
/// The time budget when the caller gives none: every run ends.
pub const DEFAULT_TIME_BUDGET: Duration = Duration::from_secs(30);
/// The verdict when the observer stops the search (`q` or Ctrl-C at the watch view).
pub const STOPPED: &str = "gave up: stopped at the watch view";
/// The largest board side the solver accepts.
pub const MAX_SIZE: usize = 2000;

/// How to order the figures tried at a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Most remaining first, ties broken per attempt: the exact solver.
    Balanced,
    /// A fresh random order at every cell: the random tiling generator.
    Random,
}

#[derive(Clone, Debug)]
pub struct Options {
    pub seed: u64,
    /// Give up after this many placements in all (`None`: no limit).
    pub node_budget: Option<u64>,
    /// Give up after this much time (`None`: [`DEFAULT_TIME_BUDGET`]).
    pub time_budget: Option<Duration>,
    /// Bytes the memo of failed states may hold (`None`: [`default_memory`] for the board).
    pub memory_budget: Option<usize>,
    pub order: Order,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            seed: 1,
            node_budget: None,
            time_budget: None,
            memory_budget: None,
            order: Order::Balanced,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Solved(Vec<Placement>),
    /// Proven: the reason is one line.
    Unsolvable(String),
    /// The budget ran out first: the message says which and how far the search got.
    GaveUp(String),
}

impl Outcome {
    /// The outcome as the search's observers see it.
    pub fn verdict(&self) -> Verdict<'_> {
        match self {
            Outcome::Solved(tiling) => Verdict::Solved(tiling),
            Outcome::Unsolvable(reason) => Verdict::Unsolvable(reason),
            Outcome::GaveUp(message) => Verdict::GaveUp(message),
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub nodes: u64,
    pub attempts: u32,
    pub memo_hits: u64,
    pub memo_size: usize,
    pub elapsed: Duration,
}

/// The memory budget of a `size` x `size` board when the caller gives none.
pub fn default_memory(size: usize) -> usize {
    (size * size)
        .saturating_mul(DEFAULT_MEMORY_PER_CELL)
        .clamp(DEFAULT_MEMORY_MIN, DEFAULT_MEMORY_MAX)
}

/// Decides by the rules, then the search alone (no block assembly): what [`super::blocks`]
/// uses for the corner a deal leaves, and the layer below [`super::decide::solve`].
pub fn solve_by_search(size: usize, signature: &Signature, options: &Options) -> (Outcome, Stats) {
    if let Some(reason) = rules::impossibility(size, signature) {
        return (Outcome::Unsolvable(reason), Stats::default());
    }
    search_from(Instant::now(), size, signature, options)
}

/// The search alone, with no proof but area: the independent truth the invariants are checked
/// against.
pub fn search(size: usize, signature: &Signature, options: &Options) -> (Outcome, Stats) {
    let area = (size * size) as u64;
    if size % 2 == 1 || signature.total() * 4 != area {
        return (
            Outcome::Unsolvable(format!(
                "area: {} pieces on {area} cells",
                signature.total()
            )),
            Stats::default(),
        );
    }
    search_from(Instant::now(), size, signature, options)
}

pub(super) fn search_from(
    start: Instant,
    size: usize,
    signature: &Signature,
    options: &Options,
) -> (Outcome, Stats) {
    search_observed(start, size, signature, options, &mut Silent)
}

/// [`search_from`] reporting each step to `observer`.
pub(super) fn search_observed<O: Observer>(
    start: Instant,
    size: usize,
    signature: &Signature,
    options: &Options,
    observer: &mut O,
) -> (Outcome, Stats) {
    assert!(
        (1..=MAX_SIZE).contains(&size),
        "solver: size {size} outside 1..={MAX_SIZE}"
    );
    let mut engine = Engine::new(size, signature.counts, options);
    let outcome = engine.run(start, observer);
    engine.stats.elapsed = start.elapsed();
    engine.stats.memo_size = engine.memo.len();
    (outcome, engine.stats)
}

/// The search alone on a `height` x `width` rectangle (both at most [`MAX_SIZE`]): the blocks
/// that [`super::blocks`] assembles squares from.
pub fn search_rectangle(
    height: usize,
    width: usize,
    signature: &Signature,
    options: &Options,
) -> Outcome {
    if signature.total() * 4 != (height * width) as u64 {
        return Outcome::Unsolvable(format!(
            "area: {} pieces on a {height} x {width} rectangle",
            signature.total()
        ));
    }
    Engine::rectangle(height, width, signature.counts, options).run(Instant::now(), &mut Silent)
}

/// A uniformly random choice at every cell of a `size` x `size` tiling with no count limits
/// (even `size` from 2 to [`MAX_SIZE`]); `None` only if `size` is odd or out of range.
pub fn random_tiling(size: usize, seed: u64) -> Option<Vec<Placement>> {
    if size % 2 == 1 || !(2..=MAX_SIZE).contains(&size) {
        return None;
    }
    let pieces = (size * size / 4) as u32;
    let options = Options {
        seed,
        order: Order::Random,
        // Random restarts tile 500 x 500 within 0.6 s (20 seeds), but at 1000 some seeds
        // restart for minutes: past this many placements the blocks below take over (worst of
        // 5 seeds, release: 500 in 0.21 s, 1000 in 0.89 s, 2000 in 3.7 s).
        node_budget: Some(RANDOM_SEARCH_PLACEMENTS_PER_PIECE * u64::from(pieces)),
        ..Options::default()
    };
    let mut engine = Engine::new(size, [pieces; 7], &options);
    engine.pieces = pieces as usize;
    match engine.run(Instant::now(), &mut Silent) {
        Outcome::Solved(placements) => Some(placements),
        _ => Some(block_tiling(size, seed)),
    }
}

/// Placements a random tiling's search may spend per piece before [`block_tiling`] answers.
const RANDOM_SEARCH_PLACEMENTS_PER_PIECE: u64 = 10;

/// A tiling that always exists: 4 x 4 blocks, each a random tiling of its own, and where
/// `size` is 2 mod 4 a two-cell border of O's along the right and bottom edges.
fn block_tiling(size: usize, seed: u64) -> Vec<Placement> {
    let mut rng = Rng::new(seed);
    let blocks = size / 4;
    let mut placements = Vec::with_capacity(size * size / 4);
    for by in 0..blocks {
        for bx in 0..blocks {
            let options = Options {
                seed: rng.next_u64(),
                order: Order::Random,
                ..Options::default()
            };
            let mut engine = Engine::new(4, [4; 7], &options);
            engine.pieces = 4;
            // Random mode restarts until it tiles (it never proves), and a 4 x 4 square with
            // four of each figure is tiled at once; four O's would do as well.
            let block = match engine.run(Instant::now(), &mut Silent) {
                Outcome::Solved(block) => block,
                _ => vec![o_at(0, 0), o_at(2, 0), o_at(0, 2), o_at(2, 2)],
            };
            placements.extend(block.into_iter().map(|p| Placement {
                x: p.x + 4 * bx,
                y: p.y + 4 * by,
                ..p
            }));
        }
    }
    if size % 4 == 2 {
        let edge = size - 2;
        for along in (0..size).step_by(2) {
            placements.push(o_at(edge, along));
            if along < edge {
                placements.push(o_at(along, edge));
            }
        }
    }
    placements
}

fn o_at(x: usize, y: usize) -> Placement {
    Placement {
        figure: Figure::O,
        angle: 0,
        x,
        y,
    }
}

/// The Luby sequence 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ... (term `i`, from 1): restart limits
/// within a constant factor of the best fixed limit, and unbounded, so the last attempt is complete.
fn luby(i: u32) -> u64 {
    let i = u64::from(i);
    let mut k = 1;
    while (1u64 << k) - 1 < i {
        k += 1;
    }
    if (1u64 << k) - 1 == i {
        1 << (k - 1)
    } else {
        luby((i - (1 << (k - 1)) + 1) as u32)
    }
}

// The memo stays a hashbrown set, not a table in a `core::arena` mapping: an open-addressing set
// of u128 keys in its own mapping (linear probing, load 1/2 to 3/4, doubling) was tried on
// `tetromino solve -n 12 -s T10,Z26 --memory 256` (the same proof of impossibility, 1,158,007
// placements, 678,555 states): 3,232.5 M instructions against 3,198.4 M (callgrind), peak RSS
// 54.5 MB against 32.1 MB. hashbrown's SIMD groups run at 7/8 load; a linear probe cannot.
type Memo = RandomKeySet<u128>;

/// One orientation prepared for a board: row masks and offsets in flat cell numbers.
#[derive(Clone, Copy, Debug)]
struct Shape {
    figure: usize,
    /// Flat offset from the bounding box's top-left to the first cell in diagonal order.
    anchor: usize,
    rows: [u64; 4],
    height: usize,
    cells: [usize; 4],
}

struct Frame {
    /// Index in `order` of this state's first empty cell.
    cursor: usize,
    /// The shape and top-left that produced this state (`u8::MAX` at the root).
    via_shape: u8,
    via_corner: usize,
    key: u128,
    candidates: [u8; 19],
    len: u8,
    next: u8,
}

enum Attempt {
    Solved(Vec<Placement>),
    Exhausted,
    Cut,
    OutOfBudget(Exhausted),
    /// The observer asked to stop.
    Stopped,
}

struct Engine {
    stride: usize,
    board: BitGrid,
    order: Vec<usize>,
    shapes: [Shape; 19],
    shapes_of: [Vec<u8>; 7],
    counts: [u32; 7],
    initial: [u32; 7],
    pieces: usize,
    key: u128,
    tiebreak: [u64; 7],
    memo: Memo,
    rng: Rng,
    order_mode: Order,
    budget: Budget,
    stats: Stats,
}

fn mix(value: u64) -> u64 {
    let mut state = value;
    splitmix64(&mut state)
}

fn cell_key(position: usize) -> u128 {
    let p = position as u64;
    (u128::from(mix(p ^ 0x5eed_0000_0000_0001)) << 64) | u128::from(mix(p ^ 0x0c0f_fee0_0000_0002))
}

fn count_key(figure: usize, count: u32) -> u128 {
    let v = ((figure as u64) << 32 | u64::from(count)) ^ 0xa5a5_0000_0000_0000;
    (u128::from(mix(v ^ 0x1234_5678)) << 64) | u128::from(mix(v ^ 0x8765_4321_0000))
}

impl Engine {
    fn new(size: usize, counts: [u32; 7], options: &Options) -> Engine {
        Engine::rectangle(size, size, counts, options)
    }

    fn rectangle(height: usize, width: usize, counts: [u32; 7], options: &Options) -> Engine {
        let size = height.max(width);
        let board = BitGrid::new(height, width, PAD);
        let stride = board.stride();
        let mut order: Vec<usize> = (0..height * width)
            .map(|i| board.cell(i / width, i % width))
            .collect();
        order.sort_by_key(|&p| {
            let (row, column) = (p / stride, p % stride);
            (row + column, row)
        });
        let shapes = std::array::from_fn(|i| {
            let o = &ORIENTATIONS[i];
            let first = o
                .cells
                .iter()
                .min_by_key(|&&(r, c)| (r + c, r))
                .expect("four cells");
            let mut rows = [0u64; 4];
            for &(r, c) in &o.cells {
                rows[r as usize] |= 1 << c;
            }
            Shape {
                figure: o.figure.index(),
                anchor: first.0 as usize * stride + first.1 as usize,
                rows,
                height: o.height as usize,
                cells: o.cells.map(|(r, c)| r as usize * stride + c as usize),
            }
        });
        let shapes_of = std::array::from_fn(|f| {
            (0..19u8)
                .filter(|&s| ORIENTATIONS[s as usize].figure.index() == f)
                .collect()
        });
        Engine {
            stride,
            board,
            order,
            shapes,
            shapes_of,
            counts,
            initial: counts,
            pieces: counts.iter().map(|&c| c as usize).sum(),
            key: 0,
            tiebreak: [0; 7],
            memo: Memo::default(),
            rng: Rng::new(options.seed),
            order_mode: options.order,
            budget: {
                let memory = options.memory_budget.unwrap_or(default_memory(size));
                Budget::nodes(options.node_budget.unwrap_or(u64::MAX))
                    .with_deadline(Deadline::after(
                        options.time_budget.unwrap_or(DEFAULT_TIME_BUDGET),
                    ))
                    .with_memory(memory)
            },
            stats: Stats::default(),
        }
    }

    fn run<O: Observer>(&mut self, start: Instant, observer: &mut O) -> Outcome {
        let base = (self.pieces as u64 * 3 / 2).max(1000);
        loop {
            self.stats.attempts += 1;
            let limit = base.saturating_mul(luby(self.stats.attempts));
            if O::ACTIVE
                && !observer.see(Event::Attempt {
                    number: self.stats.attempts,
                    limit,
                })
            {
                return Outcome::GaveUp(STOPPED.to_string());
            }
            match self.attempt(limit, observer) {
                Attempt::Solved(placements) => return Outcome::Solved(placements),
                Attempt::Exhausted => {
                    return Outcome::Unsolvable(format!(
                        "exhaustive search: no tiling exists ({} placements tried, {} states remembered)",
                        self.stats.nodes,
                        self.memo.len()
                    ))
                }
                Attempt::Cut => {}
                Attempt::Stopped => return Outcome::GaveUp(STOPPED.to_string()),
                Attempt::OutOfBudget(which) => {
                    if O::ACTIVE {
                        observer.see(Event::Budget(which));
                    }
                    let spent = match (which, self.budget.deadline()) {
                        (Exhausted::Time, Some(deadline)) => format!(
                            "the time budget of {:.3} s",
                            deadline.limit().as_secs_f64()
                        ),
                        _ => format!(
                            "the node budget of {} placements",
                            self.budget.node_limit().unwrap_or(u64::MAX)
                        ),
                    };
                    let memory = self.budget.memory_limit().unwrap_or(usize::MAX);
                    return Outcome::GaveUp(format!(
                        "gave up: {spent} ran out after {:.3} s; tried: {} colouring invariants (no proof), a search of {} placements in {} restarts remembering {} failed states (memory budget {} MiB for {} states), neither a tiling nor a proof found",
                        start.elapsed().as_secs_f64(),
                        invariants::COLOURINGS.len(),
                        self.stats.nodes,
                        self.stats.attempts,
                        self.memo.len(),
                        memory >> 20,
                        memory / BYTES_PER_MEMO_STATE
                    ));
                }
            }
        }
    }

    #[inline]
    fn filled(&self, p: usize) -> bool {
        self.board.filled(p)
    }

    #[inline]
    fn fits(&self, shape: &Shape, corner: usize) -> bool {
        self.board
            .fits::<FIGURE_SPAN>(&shape.rows[..shape.height], corner)
    }

    #[inline]
    fn toggle(&mut self, shape: usize, corner: usize) {
        let shape = self.shapes[shape];
        self.board
            .toggle::<FIGURE_SPAN>(&shape.rows[..shape.height], corner);
        for c in shape.cells {
            self.key ^= cell_key(corner + c);
        }
    }

    fn place(&mut self, shape: usize, corner: usize) {
        self.toggle(shape, corner);
        let f = self.shapes[shape].figure;
        self.key ^= count_key(f, self.counts[f]);
        self.counts[f] -= 1;
    }

    fn unplace(&mut self, shape: usize, corner: usize) {
        self.toggle(shape, corner);
        let f = self.shapes[shape].figure;
        self.counts[f] += 1;
        self.key ^= count_key(f, self.counts[f]);
    }

    fn advance(&self, mut cursor: usize) -> usize {
        while cursor < self.order.len() && self.filled(self.order[cursor]) {
            cursor += 1;
        }
        cursor
    }

    fn frame(&mut self, cursor: usize, via_shape: u8, via_corner: usize) -> Frame {
        let mut frame = Frame {
            cursor,
            via_shape,
            via_corner,
            key: self.key,
            candidates: [0; 19],
            len: 0,
            next: 0,
        };
        let cell = self.order[cursor];
        let mut figures: [usize; 7] = [0, 1, 2, 3, 4, 5, 6];
        if self.order_mode == Order::Balanced {
            figures
                .sort_unstable_by_key(|&f| (std::cmp::Reverse(self.counts[f]), self.tiebreak[f]));
        }
        for f in figures {
            if self.counts[f] == 0 {
                continue;
            }
            for &s in &self.shapes_of[f] {
                let shape = &self.shapes[s as usize];
                if self.fits(shape, cell - shape.anchor) {
                    frame.candidates[frame.len as usize] = s;
                    frame.len += 1;
                }
            }
        }
        if self.order_mode == Order::Random {
            self.rng
                .shuffle(&mut frame.candidates[..frame.len as usize]);
        }
        frame
    }

    /// True if the shape just placed at `corner` encloses an empty region that cannot be tiled:
    /// a size not divisible by 4, or 4 cells in a shape no remaining figure has.
    fn encloses_bad_pocket(&self, shape: usize, corner: usize) -> bool {
        let mut seen = [0usize; 4 * 4 * (POCKET_LIMIT + 4)];
        let mut seen_len = 0;
        let stride = self.stride;
        for c in self.shapes[shape].cells {
            let cell = corner + c;
            for start in [cell - 1, cell + 1, cell - stride, cell + stride] {
                if self.filled(start) || seen[..seen_len].contains(&start) {
                    continue;
                }
                let first = seen_len;
                seen[seen_len] = start;
                seen_len += 1;
                let mut head = first;
                let mut escaped = false;
                'fill: while head < seen_len {
                    let p = seen[head];
                    head += 1;
                    for q in [p - 1, p + 1, p - stride, p + stride] {
                        if self.filled(q) || seen[first..seen_len].contains(&q) {
                            continue;
                        }
                        if seen_len - first >= POCKET_LIMIT {
                            escaped = true;
                            break 'fill;
                        }
                        seen[seen_len] = q;
                        seen_len += 1;
                    }
                }
                if escaped {
                    continue;
                }
                let size = seen_len - first;
                if size % 4 != 0 {
                    return true;
                }
                if size == 4 && !self.pocket_available(&seen[first..seen_len]) {
                    return true;
                }
            }
        }
        false
    }

    fn pocket_available(&self, cells: &[usize]) -> bool {
        let cells: [(usize, usize); 4] =
            std::array::from_fn(|i| (cells[i] / self.stride, cells[i] % self.stride));
        super::figures::identify(&cells).is_some_and(|o| self.counts[o.figure.index()] > 0)
    }

    /// The cell `order[cursor]` as (row, column) on the board.
    fn cell_at(&self, cursor: usize) -> (usize, usize) {
        let p = self.order[cursor];
        self.board.row_column(p)
    }

    fn attempt<O: Observer>(&mut self, limit: u64, observer: &mut O) -> Attempt {
        self.board.clear();
        self.counts = self.initial;
        self.key = 0;
        for f in 0..7 {
            self.tiebreak[f] = self.rng.next_u64();
            let mut own = std::mem::take(&mut self.shapes_of[f]);
            self.rng.shuffle(&mut own);
            self.shapes_of[f] = own;
        }
        if self.memo.contains(&self.key) {
            return Attempt::Exhausted;
        }
        let mut nodes = 0u64;
        let root = self.frame(0, u8::MAX, 0);
        let mut stack: Vec<Frame> = Vec::with_capacity(self.pieces + 1);
        stack.push(root);
        // Random mode only (it proves nothing): after STUCK placements without a new deepest
        // state, abandon the last `jump` placements unexplored, doubling `jump` while stuck.
        const STUCK: u64 = 256;
        let (mut deepest, mut since_deepest, mut jump) = (0, 0u64, 8usize);
        loop {
            let depth = stack.len() - 1;
            if self.order_mode == Order::Random {
                if depth > deepest {
                    (deepest, since_deepest, jump) = (depth, 0, 8);
                } else if since_deepest > STUCK && depth > 0 {
                    for _ in 0..jump.min(depth) {
                        let abandoned = stack.pop().expect("above the root");
                        self.unplace(abandoned.via_shape as usize, abandoned.via_corner);
                    }
                    (since_deepest, jump) = (0, jump * 2);
                    continue;
                }
            }
            let top = stack.last_mut().expect("the stack holds the root");
            if top.next < top.len {
                let shape = top.candidates[top.next as usize] as usize;
                top.next += 1;
                let cursor = top.cursor;
                let corner = self.order[cursor] - self.shapes[shape].anchor;
                self.place(shape, corner);
                self.stats.nodes += 1;
                nodes += 1;
                since_deepest += 1;
                if let Err(which) = self.budget.spend() {
                    return Attempt::OutOfBudget(which);
                }
                if nodes > limit {
                    return Attempt::Cut;
                }
                if O::ACTIVE
                    && !observer.see(Event::Try {
                        cell: self.cell_at(cursor),
                        placement: self.placement(shape, corner),
                        depth: depth + 1,
                    })
                {
                    return Attempt::Stopped;
                }
                if depth + 1 == self.pieces {
                    let mut placements: Vec<Placement> = stack[1..]
                        .iter()
                        .map(|f| self.placement(f.via_shape as usize, f.via_corner))
                        .collect();
                    placements.push(self.placement(shape, corner));
                    return Attempt::Solved(placements);
                }
                if self.encloses_bad_pocket(shape, corner) {
                    self.unplace(shape, corner);
                    if O::ACTIVE && !self.report_prune(observer, shape, corner, Pruned::Pocket) {
                        return Attempt::Stopped;
                    }
                    continue;
                }
                if self.memo.contains(&self.key) {
                    self.stats.memo_hits += 1;
                    self.unplace(shape, corner);
                    if O::ACTIVE && !self.report_prune(observer, shape, corner, Pruned::Memo) {
                        return Attempt::Stopped;
                    }
                    continue;
                }
                let next = self.advance(cursor + 1);
                let child = self.frame(next, shape as u8, corner);
                stack.push(child);
            } else {
                let done = stack.pop().expect("non-empty");
                // A backjump may have cut a subtree below `done`, so random mode remembers nothing.
                if self.order_mode == Order::Balanced
                    && self
                        .budget
                        .may_hold((self.memo.len() + 1) * BYTES_PER_MEMO_STATE)
                        .is_ok()
                {
                    self.memo.insert(done.key);
                }
                if stack.is_empty() {
                    // Random mode may have abandoned subtrees on the way (the backjumps), so an
                    // empty stack proves nothing there: it is a restart, never a verdict.
                    return match self.order_mode {
                        Order::Balanced => Attempt::Exhausted,
                        Order::Random => Attempt::Cut,
                    };
                }
                self.unplace(done.via_shape as usize, done.via_corner);
                if O::ACTIVE
                    && !observer.see(Event::Backtrack {
                        placement: self.placement(done.via_shape as usize, done.via_corner),
                        depth: stack.len(),
                    })
                {
                    return Attempt::Stopped;
                }
            }
        }
    }

    fn report_prune<O: Observer>(
        &self,
        observer: &mut O,
        shape: usize,
        corner: usize,
        why: Pruned,
    ) -> bool {
        observer.see(Event::Prune {
            placement: self.placement(shape, corner),
            why,
        })
    }

    fn placement(&self, shape: usize, corner: usize) -> Placement {
        let o = &ORIENTATIONS[shape];
        let (row, column) = (corner / self.stride, corner % self.stride);
        debug_assert!(row >= PAD && column >= PAD - 3);
        Placement {
            figure: o.figure,
            angle: o.angle,
            x: column - PAD,
            y: row - PAD,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tetromino::solution::verify;

    fn decide(size: usize, sig: &str) -> Outcome {
        solve_by_search(size, &Signature::parse(sig).unwrap(), &Options::default()).0
    }

    #[test]
    fn block_tilings_cover_every_even_size() {
        for size in [2, 4, 6, 8, 10, 14, 30] {
            let tiling = block_tiling(size, size as u64);
            let mut counts = [0u32; 7];
            for p in &tiling {
                counts[p.figure.index()] += 1;
            }
            assert_eq!(
                verify(size, &Signature::new(counts), &tiling),
                Ok(()),
                "size {size}"
            );
        }
    }

    #[test]
    fn spec_example_is_solved_and_verified() {
        let sig = Signature::parse("I1,J1,L1,Z1").unwrap();
        let Outcome::Solved(p) = solve_by_search(4, &sig, &Options::default()).0 else {
            panic!("not solved")
        };
        assert_eq!(verify(4, &sig, &p), Ok(()));
    }

    #[test]
    fn proves_small_impossibilities_by_search() {
        for sig in ["T4,Z12", "O2,T14"] {
            match decide(8, sig) {
                Outcome::Unsolvable(reason) => {
                    assert!(reason.starts_with("exhaustive"), "{reason}")
                }
                other => panic!("{sig}: {other:?}"),
            }
        }
    }

    #[test]
    fn luby_sequence() {
        let terms: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(terms, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

    #[test]
    fn node_budget_gives_up_with_a_message() {
        let sig = Signature::parse("T4,Z12").unwrap();
        let options = Options {
            node_budget: Some(50),
            ..Options::default()
        };
        let Outcome::GaveUp(message) = solve_by_search(8, &sig, &options).0 else {
            panic!("expected to give up")
        };
        assert!(message.contains("node budget of 50"), "{message}");
    }
}
