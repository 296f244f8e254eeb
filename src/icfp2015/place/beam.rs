//! The beam search over the lock positions of the known unit sequence, from a board: the plan
//! of one game, its width sized by the time left.
//
// A beam node is a board after k locks; its value is the sum of the placement values along its
// path (the Frictionless Bananas features, covered cells, the move score, and the rows the unit
// drops, where its route can spell), plus the weighted board terms of its board (`Features`:
// holes, height, covered cells, bumps), i.e. the board terms telescoped along the path. Kept as a
// path sum plus the current board rather than (realized score + board evaluation) so that zero
// board weights give the old beam exactly: measured on problems 18 and 24, no board weight tried
// raises the score there beyond noise (see `weights::HOLES`). The width follows the time: before
// each layer it is what the remaining beam time allows at the measured cost of one node, more
// while the stack is high (`danger_spend`).

use super::children::Parent;
use super::placement::lock_positions_where;
use super::value::{
    board_term_after_lock, burst_value, next_unit_value, overlap, spawn_cells, Features, RowTerms,
};
use super::weights::{next_big_units, Weights, BURST_SPAN};
use crate::core::arena::Arena;
use crate::core::hash::{fast_hash, FastSet};
use crate::core::timer::Deadline;
use crate::icfp2015::memory::SearchMemory;
use crate::icfp2015::rules::board::Board;
use crate::icfp2015::rules::game::{move_score, Setup};
use crate::icfp2015::rules::unit::Pos;
use crate::icfp2015::trace::tracing;
use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;
use std::time::{Duration, Instant};

/// The layers a beam past its horizon spreads its remaining time over.
const PAST_HORIZON: usize = 50;

/// The filled share of the rows empty at the start from which the beam widens (see
/// `danger_spend`).
const DANGER_FROM: f64 = 0.5;

/// Where a long game's fate is set (`fate_weights`): from the layer where the cells locked
/// reach `FATE_FROM` times the start board's empty cells to the one where they reach `FATE_TO`,
/// a layer weighs `FATE_BOOST` layers in the plan's time. On problem 18 (722 empty cells, ~3.2
/// cells a unit) that is units ~140-370: its plans die at walls of units 204-526 (Part 31) and
/// their fate is set from ~100-200 on (Part 38). At a fixed mean width it moved no odds
/// (`icfp2015_lottery --width 8 --draws 48` on 18: even 2, this 3 of 48 lasting). Under the
/// clock it lengthened 18's plans at load 9-11 (Part 44), but on a quiet machine it scored less
/// than the even spread on 18 and on fresh games (Part 48), so the solver spreads evenly; the
/// examples' `--fate` keeps it for study.
const FATE_FROM: f64 = 0.6;
const FATE_TO: f64 = 1.6;
const FATE_BOOST: f64 = 8.0;

/// The fills of the empty cells by the game's units from which a plan for survival is spread
/// by `fate_weights` (problem 18: 4.4).
const FATE_GAME: f64 = 3.0;

/// Widest beam (bounds the memory of the layers kept for the way back).
const MAX_WIDTH: usize = 4000;

/// The most one layer's boards may take: on tall boards (up to 10,000 rows, 160 KB a board) it
/// narrows the beam instead of reserving, and at full width touching, gigabytes.
const LAYER_BYTES: usize = 128 << 20;

/// A board of the beam after some locks; its rows are slot `slot` of its layer's boards.
struct Node {
    slot: u32,
    /// The placement values along the path plus `board_term`.
    value: f64,
    /// `Features::value` of `board`.
    board_term: f64,
    /// `Features::rows` of `board`, where the row evaluation is the only board term.
    rows: f64,
    move_score: u64,
    prev_lines: u32,
}

/// The lock positions, one per unit of `order` while the game lasts, found by a beam search
/// that ends by `deadline` (narrowing to one node when time is short), from the board
/// `start`. Its width spreads the time over `horizon` layers, the number the game is expected
/// to last; past it, over `PAST_HORIZON` more. The first units lock at `prefix` (a beam of one
/// node).
pub fn plan(
    setup: &Setup,
    start: &Board,
    order: &[u32],
    weights: &Weights,
    deadline: &Deadline,
    horizon: usize,
    prefix: &[Pos],
) -> Vec<Pos> {
    plan_sized(
        setup,
        start,
        order,
        weights,
        Width::Timed { deadline, horizon },
        prefix,
        Spread::Even,
    )
}

/// The plan of [`plan`] with `width` nodes a layer whatever the time, spread over the layers by
/// `spread` (on average `width`): deterministic, for comparing values without the clock
/// (`examples/icfp2015_survive.rs`).
pub fn plan_fixed(
    setup: &Setup,
    start: &Board,
    order: &[u32],
    weights: &Weights,
    width: usize,
    spread: Spread,
) -> Vec<Pos> {
    plan_sized(
        setup,
        start,
        order,
        weights,
        Width::Fixed(width),
        &[],
        spread,
    )
}

/// How a beam sizes its layers: by the time left, or fixed.
enum Width<'d> {
    Timed {
        deadline: &'d Deadline,
        horizon: usize,
    },
    Fixed(usize),
}

/// How a beam spreads its time (or its fixed width) over the layers.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Spread {
    /// The same a layer.
    Even,
    /// More where the game's fate is set (`fate_weights`: the layers where the board first
    /// fills), less after, the same on average (`docs/icfp2015.md`, Parts 38, 44 and 48;
    /// measured, not used by the solver).
    ForSurvival,
}

/// The plan of [`plan`] (or of [`plan_fixed`]) sized by `sizing` and spread by `spread`.
fn plan_sized(
    setup: &Setup,
    start: &Board,
    order: &[u32],
    weights: &Weights,
    sizing: Width,
    prefix: &[Pos],
    spread: Spread,
) -> Vec<Pos> {
    // A fixed width never reads the clock (no prefix is forced on it): a placeholder deadline.
    let never_read;
    let (deadline, horizon, fixed) = match sizing {
        Width::Timed { deadline, horizon } => (deadline, horizon, None),
        Width::Fixed(width) => {
            never_read = Deadline::after(Duration::ZERO);
            (&never_read, order.len(), Some(width))
        }
    };
    let phrase_guess = 3 * setup.height() as u64;
    let with_rows = weights.rows != 0.0;
    let sees_boards = weights.sees_boards();
    let start_features = Features::of_with(start, with_rows);
    let start_term = start_features.value(weights);
    // Only the rows' terms: a child's from its parent's (`rows_after_lock`).
    let only_rows = with_rows
        && !Weights {
            rows: 0.0,
            ..*weights
        }
        .sees_boards();
    let spawn_rows = spawn_cells(setup);
    let next_big = next_big_units(setup, order);
    let height = start.height();
    let start_empty = empty_rows(start.rows()).max(1);
    // Each layer's share of the time (or of a fixed width): more where the game's fate is set.
    let fate = (spread == Spread::ForSurvival)
        .then(|| fate_weights(setup, start, order))
        .flatten();
    let fate_sum = |from: usize, to: usize| {
        fate.as_ref()
            .map_or((to - from) as f64, |f| f[to] - f[from])
    };
    let fate_at = |k: usize| fate_sum(k, k + 1);
    let fate_mean = fate_sum(0, order.len()) / order.len().max(1) as f64;
    // Two layers' boards, each up to twice the widest beam (the lookahead's candidates), in one
    // arena: a node's board is a copy into a slot, where a `Board` each was an allocation each.
    // Measured at full width (benches/icfp2015_beam.rs, callgrind): malloc and free 0.64 % ->
    // 0.15 % of the instructions, 1.2 % fewer in all; the features of the children dominate.
    // Small pages: most plans are narrow and touch a few pages of the reservation.
    // Within the thread's share of `-m` (`SearchMemory::beam`): at most half of it for the two
    // layers' boards, a quarter for one layer's children, and every layer's links take the rest
    // (the boards of the widest beam on a 60-row board take 15 MB of their half, so a long
    // game's links, which cap its width, were held to a quarter for nothing: 1,470 wide at 5,000
    // units at `-m 1024 -c 2`).
    let beam_bytes = SearchMemory::installed().beam;
    let layer_bytes = LAYER_BYTES.min(beam_bytes / 4);
    let most_children = (beam_bytes / 4 / CHILD_BYTES).max(1);
    let slots = (layer_bytes / LayerBoards::bytes(1, height)).clamp(2, 2 * MAX_WIDTH);
    let boards_bytes = 2 * LayerBoards::bytes(slots, height);
    let mut links_left = beam_bytes
        .saturating_sub(boards_bytes + beam_bytes / 4)
        .max(beam_bytes / 4)
        / std::mem::size_of::<(u32, Pos)>();
    let max_width = slots / 2;
    let arena = Arena::new(boards_bytes);
    arena.prefer_small_pages();
    let mut boards = LayerBoards::new(&arena, slots, height);
    let mut next_boards = LayerBoards::new(&arena, slots, height);
    boards.push(start.rows());
    // The board being expanded, and a child being made, loaded from their slots.
    let mut parent = start.clone();
    let mut child = start.clone();
    // The parent's rows, top and own row terms, shared by the values of all its locks.
    let mut evaluator = Parent::for_width(setup.width());
    let mut layer = vec![Node {
        slot: 0,
        value: start_term,
        board_term: start_term,
        rows: start_features.rows,
        move_score: 0,
        prev_lines: 0,
    }];
    // Per layer k: each node's parent in layer k - 1 and the lock that made it.
    let mut history: Vec<Vec<(u32, Pos)>> = Vec::new();
    // The big units the look-ahead places on each candidate of a layer.
    let mut burst = Vec::with_capacity(weights.burst);
    // One layer's children, reused by every layer.
    let mut children: Vec<Child> = Vec::new();
    // The best totals among a parent's children that clear no row, the lowest on top.
    let mut kept: BinaryHeap<Reverse<Total>> = BinaryHeap::new();
    // The best game found: (merit, layer count, node index).
    let mut best: (u64, usize, usize) = (0, 0, 0);
    let mut started = Instant::now();
    let mut expanded = 0u64;
    for (k, &unit_index) in order.iter().enumerate() {
        let forced = prefix.get(k).copied();
        if k == prefix.len() {
            started = Instant::now();
        }
        let unit = &setup.units[unit_index as usize];
        let left = horizon
            .saturating_sub(k)
            .max(PAST_HORIZON)
            .min(order.len() - k);
        // A node kept with the one-unit look-ahead costs `lookahead_cost` expansions' work (its
        // `spread` candidates each place the next unit): taken only where the layer's time
        // affords that for one node at least, else the layer is a plain beam. Without that the
        // quick plan of a 5000-unit game (width 1) ran ~5x over its time and no plan was
        // answered (`play_icfp2015 -t 10 -c 2`, g1601, docs/icfp2015.md Part 18).
        let lookahead_cost = if weights.next != 0.0 {
            1 + weights.spread.max(1)
        } else {
            1
        };
        let (width, look) = if let (Some(width), None) = (fixed, forced) {
            let scheduled = (width as f64 * fate_at(k) / fate_mean).round() as usize;
            (scheduled.clamp(1, max_width), true)
        } else if expanded == 0 || forced.is_some() {
            (1, forced.is_none())
        } else {
            let per_node = started.elapsed().as_secs_f64() / expanded as f64;
            let remaining = deadline.remaining().as_secs_f64();
            let per_layer = remaining * fate_at(k) / fate_sum(k, k + left);
            let safest = layer
                .iter()
                .map(|node| empty_rows(boards.get(node.slot)))
                .max()
                .unwrap_or(0);
            // Borrowing never takes the time the units after this one need at two nodes a
            // layer: a plan that runs past its deadline at width 1 takes it from the routes.
            let reserve = 2.0 * per_node * (order.len() - k) as f64;
            let borrowed = danger_spend(safest, start_empty) * per_layer;
            let layer_time = borrowed.min(remaining - reserve).max(per_layer);
            let affordable = (layer_time / per_node) as usize;
            if affordable >= lookahead_cost {
                ((affordable / lookahead_cost).clamp(1, max_width), true)
            } else {
                (affordable.clamp(1, max_width), false)
            }
        };
        // Every layer after this one keeps at least as many links as this one may.
        let width = width.min(links_left / (order.len() - k)).max(1);
        children.clear();
        // With a look-ahead, `spread` times the width of candidates, re-ranked with it.
        burst.clear();
        if weights.ahead != 0.0 {
            let mut next = next_big[k];
            while let Some(j) = next {
                let within = burst.is_empty() || j <= next_big[k].unwrap_or(0) + BURST_SPAN;
                if burst.len() == weights.burst || !within {
                    break;
                }
                burst.push(&setup.units[order[j] as usize]);
                next = next_big[j];
            }
        }
        let next_unit = order
            .get(k + 1)
            .filter(|_| weights.next != 0.0 && look)
            .map(|&u| &setup.units[u as usize]);
        let reranked = !burst.is_empty() || next_unit.is_some();
        // Never more candidates than a layer has slots (`spread` 4 at width 4000 would be
        // twice that).
        let candidates = if reranked {
            (width * weights.spread.max(1)).min(slots)
        } else {
            width
        };
        // A parent's children that clear no row are boards distinct from each other: a child
        // below `candidates` of them is never kept, and where rows are the only board term its
        // rows are left uncomputed when a bound of its value says so (`value_unless_below`).
        let prune = only_rows && weights.rows >= 0.0 && weights.spawn == 0.0 && forced.is_none();
        // Other board terms: a child's board term is left uncomputed where a bound of its
        // total says so (`board_term_unless_below`).
        let prune_boards = sees_boards && !only_rows && forced.is_none();
        // Children made so far, counting those left out by the bound (the memory cut below
        // counts them as before).
        let mut made = 0usize;

        let mut scratch = start.clone();
        for (i, node) in layer.iter().enumerate() {
            expanded += u64::from(forced.is_none());
            let spawn = unit.spawn;
            parent.load_rows(boards.get(node.slot));
            if !parent.fits(unit.shape(spawn.orientation, spawn.y), spawn.x, spawn.y) {
                let merit = node.move_score + k as u64 * phrase_guess;
                if merit > best.0 {
                    best = (merit, k, i);
                }
                continue;
            }
            let hold = weights.hold_single && left > 10 && parent.count() < 3 * setup.width();
            let positions = match forced {
                Some(pos) => vec![pos],
                None => lock_positions_where(&parent, unit, spawn, weights.resting),
            };
            if made != 0 && made + positions.len() > most_children {
                // The layer's weakest nodes go unexpanded: a narrower beam.
                break;
            }
            evaluator.load(parent.rows(), setup.width());
            let rows_before = only_rows.then_some(node.rows);
            let offset = node.value - node.board_term;
            let cutting = (prune || prune_boards) && candidates < positions.len();
            kept.clear();
            made += positions.len();
            for pos in positions {
                let cut = match kept.peek() {
                    Some(&Reverse(Total(cut))) if cutting && kept.len() == candidates => cut,
                    _ => f64::NEG_INFINITY,
                };
                let (mut value, lines, rows_after) = if cutting && prune {
                    match evaluator.value_unless_below(unit, pos, weights, node.rows, offset, cut) {
                        Some(valued) => valued,
                        None => continue,
                    }
                } else {
                    evaluator.value(unit, pos, weights, rows_before)
                };
                if lines == 1 && hold {
                    made -= 1;
                    continue;
                }
                if weights.spawn != 0.0 {
                    value += weights.spawn * overlap(unit, pos, &spawn_rows) as f64;
                }
                // A board term beyond rows: the child's `Features` from the parent's; a lock
                // that clears rows: the whole board's pass.
                let (term, rows) = match rows_after {
                    Some(rows) => (weights.rows * rows, rows),
                    None if lines == 0 && sees_boards => {
                        let lead = offset + value;
                        match evaluator.board_term_unless_below(weights, with_rows, lead, cut) {
                            Some(valued) => valued,
                            None => continue,
                        }
                    }
                    None => board_term_after_lock(
                        &parent,
                        unit,
                        pos,
                        lines,
                        weights,
                        false,
                        node.rows,
                        &mut RowTerms::default(),
                        &mut scratch,
                    ),
                };
                let value = offset + value + term;
                if cutting && lines == 0 {
                    kept.push(Reverse(Total(value)));
                    if kept.len() > candidates {
                        kept.pop();
                    }
                }
                children.push((value, i as u32, pos, lines, term, rows));
            }
        }
        if children.is_empty() {
            break;
        }
        // The best children first: only as many as the layer may keep, ordered; where boards
        // seen twice use them up, the next best of the rest, as many again as still wanted.
        // Ties by parent and lock, so the order does not depend on how it is found.
        let by_value =
            |a: &Child, b: &Child| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2));
        let mut ordered = best_first(&mut children, 2 * width + 16, by_value);
        let mut next: Vec<Node> = Vec::with_capacity(candidates);
        let mut links = Vec::with_capacity(candidates);
        let mut seen: FastSet<u64> =
            FastSet::with_capacity_and_hasher(candidates, Default::default());
        next_boards.clear();
        for i in 0..children.len() {
            if next.len() == candidates {
                break;
            }
            if i == ordered {
                let wanted = 2 * (candidates - next.len()) + 16;
                ordered += best_first(&mut children[ordered..], wanted, by_value);
            }
            let (value, parent, pos, lines, board_term, rows) = children[i];
            let from = &layer[parent as usize];
            child.load_rows(boards.get(from.slot));
            child.lock(unit.shape(pos.orientation, pos.y), pos.x, pos.y);
            if !seen.insert(fast_hash(child.rows())) {
                continue;
            }
            next.push(Node {
                slot: next_boards.push(child.rows()),
                value,
                board_term,
                rows,
                move_score: from.move_score + move_score(unit.size, lines, from.prev_lines),
                prev_lines: lines,
            });
            links.push((parent, pos));
        }
        if let Some(next_unit) = next_unit {
            // Each look-ahead enumerates a unit's locks on a board, as an expansion does.
            expanded += next.len() as u64;
            for node in &mut next {
                child.load_rows(next_boards.get(node.slot));
                let ahead = next_unit_value(
                    &child,
                    next_unit,
                    weights,
                    &spawn_rows,
                    only_rows,
                    node.board_term,
                    node.rows,
                    &mut scratch,
                );
                let term = weights.next * ahead;
                node.value += term;
                node.board_term += term;
            }
        }
        if !burst.is_empty() {
            for node in &mut next {
                child.load_rows(next_boards.get(node.slot));
                let ahead = burst_value(
                    &child,
                    &burst,
                    weights,
                    &spawn_rows,
                    &mut scratch,
                    &mut evaluator,
                );
                let term = weights.ahead * ahead;
                node.value += term;
                node.board_term += term;
            }
        }
        if reranked {
            let mut ranked: Vec<(Node, (u32, Pos))> = next.into_iter().zip(links).collect();
            ranked.sort_by(|a, b| b.0.value.total_cmp(&a.0.value));
            ranked.truncate(width);
            (next, links) = ranked.into_iter().unzip();
        }
        layer = next;
        std::mem::swap(&mut boards, &mut next_boards);
        links_left = links_left.saturating_sub(links.len());
        history.push(links);
    }
    let done = history.len();
    if tracing() {
        let nodes: usize = history.iter().map(Vec::len).sum();
        let widest = history.iter().map(Vec::len).max().unwrap_or(0);
        eprintln!(
            "icfp2015 trace beam: {done} layers in {:.2} s, mean width {:.1}, widest {widest}",
            started.elapsed().as_secs_f64(),
            nodes as f64 / done.max(1) as f64,
        );
    }
    for (i, node) in layer.iter().enumerate() {
        let merit = node.move_score + done as u64 * phrase_guess;
        if merit > best.0 {
            best = (merit, done, i);
        }
    }
    let (_, layers, mut index) = best;
    let mut locks = Vec::with_capacity(layers);
    for links in history[..layers].iter().rev() {
        let (parent, pos) = links[index];
        locks.push(pos);
        index = parent as usize;
    }
    locks.reverse();
    locks
}

/// Per layer k of a plan, the prefix sums of the layers' weights in its time (or width):
/// `FATE_BOOST` for the layers where the cells locked so far are `FATE_FROM` to `FATE_TO` times
/// the start board's empty cells (where the board first fills and the first walls stand), 1 for
/// the others; `None` (an even spread) where the game's units fill its empty cells fewer than
/// `FATE_GAME` times (the game lasts without clearing much).
fn fate_weights(setup: &Setup, start: &Board, order: &[u32]) -> Option<Vec<f64>> {
    let empty = (start.width() * start.height())
        .saturating_sub(start.count())
        .max(1) as f64;
    let size = |u: u32| setup.units[u as usize].size as f64;
    let cells: f64 = order.iter().map(|&u| size(u)).sum();
    if cells < FATE_GAME * empty {
        return None;
    }
    let mut sums = Vec::with_capacity(order.len() + 1);
    let (mut locked, mut sum) = (0.0, 0.0);
    sums.push(0.0);
    for &u in order {
        sum += if (FATE_FROM..FATE_TO).contains(&(locked / empty)) {
            FATE_BOOST
        } else {
            1.0
        };
        sums.push(sum);
        locked += size(u);
    }
    Some(sums)
}

/// The empty rows above a board's highest filled cell.
fn empty_rows(rows: &[u128]) -> usize {
    rows.iter().position(|&r| r != 0).unwrap_or(rows.len())
}

/// The share of a layer's time the beam spends, against an even split over the layers left,
/// when the safest board of the layer has `empty` empty rows on top of `start_empty` at the
/// start: 1 while at least half are left, doubling for every tenth of them filled beyond that,
/// up to 8. A beam that dies leaves its time unspent, so a layer in danger borrows from the
/// layers after it.
fn danger_spend(empty: usize, start_empty: usize) -> f64 {
    let filled = 1.0 - empty as f64 / start_empty as f64;
    2f64.powf(((filled - DANGER_FROM) * 10.0).clamp(0.0, 3.0))
}

/// A child's total value, ordered by `f64::total_cmp`.
#[derive(Clone, Copy, PartialEq)]
struct Total(f64);

impl Eq for Total {}

impl PartialOrd for Total {
    fn partial_cmp(&self, other: &Total) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Total {
    fn cmp(&self, other: &Total) -> Ordering {
        self.0.total_cmp(&other.0)
    }
}

/// A child of a layer: its value, its parent's index, the lock, the rows it clears, its board
/// term and its `Features::rows`.
type Child = (f64, u32, Pos, u32, f64, f64);

/// What a child takes at most: itself twice (a vector's spare room when it grows) and its value
/// in `best_first`.
const CHILD_BYTES: usize = 2 * std::mem::size_of::<Child>() + 8;

/// Puts at least the `count` first of `children` in the order `cmp` (by value, highest first,
/// ties by parent and lock) first, in that order (the rest after them, unordered), and returns
/// how many are ordered. Measured (callgrind, a plan of long-46-shapes): sorting every child
/// took 9.5 % of the beam's instructions; then (g1606, width 8, ~6,300 children a layer for 32)
/// selecting on the 48-byte children took ~10 %: the cut is now found among the values alone,
/// and the children at or above it are moved to the front and sorted. The same order: `cmp` is
/// a total order on distinct children, and every child left behind is below the cut.
fn best_first(
    children: &mut [Child],
    count: usize,
    cmp: impl Fn(&Child, &Child) -> Ordering,
) -> usize {
    if count == 0 || count >= children.len() {
        children.sort_unstable_by(&cmp);
        return children.len();
    }
    let mut values: Vec<f64> = children.iter().map(|child| child.0).collect();
    let (_, &mut cut, _) = values.select_nth_unstable_by(count - 1, |a, b| b.total_cmp(a));
    let mut front = 0;
    for i in 0..children.len() {
        if children[i].0.total_cmp(&cut) != Ordering::Less {
            children.swap(i, front);
            front += 1;
        }
    }
    children[..front].sort_unstable_by(&cmp);
    front
}

/// The boards of one beam layer, `height` rows each, in slots of one arena slice.
struct LayerBoards<'a> {
    rows: &'a mut [u128],
    height: usize,
    len: usize,
}

impl<'a> LayerBoards<'a> {
    fn bytes(boards: usize, height: usize) -> usize {
        boards * height * std::mem::size_of::<u128>()
    }

    fn new(arena: &'a Arena, boards: usize, height: usize) -> LayerBoards<'a> {
        LayerBoards {
            rows: arena.alloc_slice(boards * height),
            height,
            len: 0,
        }
    }

    fn get(&self, slot: u32) -> &[u128] {
        let start = slot as usize * self.height;
        &self.rows[start..start + self.height]
    }

    /// Stores a board's rows in the next slot and returns the slot.
    fn push(&mut self, rows: &[u128]) -> u32 {
        let start = self.len * self.height;
        self.rows[start..start + self.height].copy_from_slice(rows);
        self.len += 1;
        (self.len - 1) as u32
    }

    fn clear(&mut self) {
        self.len = 0;
    }
}

/// A game's lock positions from the board `start`, the first at `prefix`: a beam search of at
/// most `beam_time`.
pub fn plan_game(
    setup: &Setup,
    start: &Board,
    order: &[u32],
    weights: &Weights,
    beam_time: Duration,
    prefix: &[Pos],
) -> Vec<Pos> {
    // A beam that dies early has sized its width for layers it never reached and used part of
    // its time: while half of that time is left, plan again for twice the layers it lasted, and
    // keep the plan that lasts longest.
    let beam_deadline = Deadline::after(beam_time);
    let mut locks = plan(
        setup,
        start,
        order,
        weights,
        &beam_deadline,
        order.len(),
        prefix,
    );
    while locks.len() < order.len() && beam_deadline.fraction_used() < 0.5 {
        let horizon = (2 * locks.len()).min(order.len());
        let again = plan(
            setup,
            start,
            order,
            weights,
            &beam_deadline,
            horizon,
            prefix,
        );
        if again.len() < locks.len() {
            break;
        }
        locks = again;
    }
    locks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::icfp2015::rules::game::Game;

    /// Routes `locks` one by one in the game of `seed`: each is reached and locks.
    fn assert_every_lock_is_reached(setup: &Setup, seed: u32, locks: &[Pos]) {
        let mut game = Game::new(setup, seed);
        let phrases = crate::icfp2015::PhraseSet::none();
        let mut scribe = crate::icfp2015::spell::route::Scribe::new(&phrases);
        for &pos in locks {
            scribe.route(&mut game, pos, None, false);
        }
        assert_eq!(game.locked() as usize, locks.len());
    }

    #[test]
    fn the_best_children_first_are_those_of_a_full_sort() {
        // Values from few distinct numbers (many ties, -0.0 beside 0.0), every count: the
        // ordered prefix is at least `count` long and is the full sort's prefix, and taken
        // again on the rest, step by step, the whole is the full sort.
        let mut rng = crate::core::rng::Rng::new(22);
        let by_value =
            |a: &Child, b: &Child| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2));
        for len in [1usize, 2, 7, 40, 300] {
            let children: Vec<Child> = (0..len)
                .map(|i| {
                    let value = [0.0, -0.0, 1.5, -2.0, 7.25][rng.range(0..5)];
                    let pos = Pos {
                        x: rng.range(0..9) as i32,
                        y: i as i32,
                        orientation: 0,
                    };
                    (value, rng.range(0..4) as u32, pos, 0, 0.0, 0.0)
                })
                .collect();
            let mut sorted = children.clone();
            sorted.sort_by(by_value);
            for count in 0..=len + 1 {
                let mut items = children.clone();
                let ordered = best_first(&mut items, count, by_value);
                assert!(ordered >= count.min(len), "{len} {count} {ordered}");
                assert_eq!(items[..ordered], sorted[..ordered], "{len} {count}");
                items[ordered..].sort_by(by_value);
                assert_eq!(items, sorted, "{len} {count}");
                // In steps of `count` (as a layer takes more where boards repeat): the same.
                let mut items = children.clone();
                let mut ordered = 0;
                while ordered < len {
                    ordered += best_first(&mut items[ordered..], count.max(1), by_value);
                }
                assert_eq!(items, sorted, "{len} {count} in steps");
            }
        }
    }

    #[test]
    fn a_fixed_width_plan_is_the_same_every_time_and_plays_legally() {
        // Problem 9: 400 units on a 10 x 8 board, the long-game weights (rows weighted).
        let setup = Setup::bundled(9);
        let seed = setup.problem.source_seeds[0];
        let order = Game::new(&setup, seed).order().to_vec();
        let weights = Weights::for_setup(&setup);
        assert!(weights.rows > 0.0);
        let locks = plan_fixed(&setup, &setup.start, &order, &weights, 4, Spread::Even);
        assert_eq!(
            locks,
            plan_fixed(&setup, &setup.start, &order, &weights, 4, Spread::Even)
        );
        assert!(locks.len() > 50, "{}", locks.len());
        assert_every_lock_is_reached(&setup, seed, &locks);
    }

    #[test]
    fn a_plan_for_survival_is_wider_where_the_board_first_fills() {
        // Problem 18 (722 empty cells, 1000 units): the boosted layers are one run, from the
        // first where the cells locked reach 0.6 of the empty cells to the last below 1.6; a
        // game of its first 10 units (far less than 3 fills) is spread evenly.
        let setup = Setup::bundled(18);
        let order = Game::new(&setup, setup.problem.source_seeds[0])
            .order()
            .to_vec();
        let sums = fate_weights(&setup, &setup.start, &order).expect("18 is long");
        assert_eq!(sums.len(), order.len() + 1);
        let empty = (setup.width() * setup.height() - setup.start.count()) as f64;
        let mut locked = 0.0;
        let mut boosted = Vec::new();
        for (k, &u) in order.iter().enumerate() {
            let weight = sums[k + 1] - sums[k];
            let share = locked / empty;
            assert_eq!(weight == FATE_BOOST, (FATE_FROM..FATE_TO).contains(&share));
            assert!(weight == FATE_BOOST || weight == 1.0, "{weight}");
            if weight == FATE_BOOST {
                boosted.push(k);
            }
            locked += setup.units[u as usize].size as f64;
        }
        let (first, last) = (boosted[0], *boosted.last().unwrap());
        assert_eq!(boosted.len(), last - first + 1);
        assert!(first > 50 && last < 500, "{first} {last}");
        assert!(fate_weights(&setup, &setup.start, &order[..10]).is_none());
        // Problem 9 (400 units on a small board) is long too: its plan for survival at a fixed
        // mean width is its own, the same twice, and legal.
        let setup = Setup::bundled(9);
        let seed = setup.problem.source_seeds[0];
        let order = Game::new(&setup, seed).order().to_vec();
        assert!(fate_weights(&setup, &setup.start, &order).is_some());
        let weights = Weights::for_setup(&setup);
        let plan_for_survival = || {
            plan_fixed(
                &setup,
                &setup.start,
                &order,
                &weights,
                4,
                Spread::ForSurvival,
            )
        };
        let locks = plan_for_survival();
        assert_eq!(locks, plan_for_survival());
        assert_ne!(
            locks,
            plan_fixed(&setup, &setup.start, &order, &weights, 4, Spread::Even)
        );
        assert_every_lock_is_reached(&setup, seed, &locks);
    }

    #[test]
    fn a_plan_with_the_next_unit_look_ahead_is_deterministic_legal_and_its_own() {
        // Problem 9 with the one-unit look-ahead at 4 candidates a node: the same plan twice,
        // every lock legal, and not the plan without it (the re-ranking changes the choice).
        let setup = Setup::bundled(9);
        let seed = setup.problem.source_seeds[0];
        let order = Game::new(&setup, seed).order().to_vec();
        let plain = Weights::for_setup(&setup);
        assert_eq!(plain.next, 0.0);
        let weights = Weights {
            next: 1.0,
            spread: 4,
            ..plain
        };
        let locks = plan_fixed(&setup, &setup.start, &order, &weights, 4, Spread::Even);
        assert_eq!(
            locks,
            plan_fixed(&setup, &setup.start, &order, &weights, 4, Spread::Even)
        );
        assert_ne!(
            locks,
            plan_fixed(&setup, &setup.start, &order, &plain, 4, Spread::Even)
        );
        assert!(locks.len() > 50, "{}", locks.len());
        assert_every_lock_is_reached(&setup, seed, &locks);
    }
}
