//! Games searched unit by unit with their routes: a beam whose children are (lock, the route the
//! scribe spells to it from the phrase state so far), valued by the points routed and the board.
//
// A plan's locks are chosen by a board value whose drop and fall terms stand in for the phrase
// power, and the routes then spell what those locks allow (`docs/icfp2015.md`, Part 19: on the
// medium games the routes took 0.3 s of 30 s). Here each node of a layer is a game after k
// locks with its scribe (text, automaton, phrases used); it takes its `locks` best locks by the
// placement value of the plan's weights, routes each with the scribe (spelling from its phrase
// state: the DP's route shared by the parent's locks, and for the children kept, the greedy
// route weighed against it, Part 57), and a child is worth the points its game has made (move score and
// power, +300s included) plus the structure terms of the placement value (drop and fall scaled
// by `DROP_SHARE`, the rows they stand for being paid in power) and the board term. The beam
// runs whole games at growing (width, locks) while the time left holds the next one at the
// measured cost of a route, and the thread's beam share of `-m` its nodes; the best finished
// game is the answer, re-scored by the evaluator.
// Each node also tries the phrases its game has not spelled that its falling unit can spell in
// one life (most points first, up to `FRESH_WORDS`): the unit spells one whole from a start
// the chain search finds, letting a blocked unit lock mid-phrase and the next go on (up to
// `FRESH_UNITS`), as a child of its own:
// a first use is worth 300 + 2 x its length, and the plan's locks rarely leave room for the
// longer ones (problem 10, Part 34).

use crate::core::hash::{fast_hash, FastMap};
use crate::core::timer::Deadline;
use crate::icfp2015::memory::SearchMemory;
use crate::icfp2015::place::placement::lock_positions_where;
use crate::icfp2015::place::value::{board_term_after_lock, placement_value, RowTerms};
use crate::icfp2015::place::weights::Weights;
use crate::icfp2015::rules::board::Board;
use crate::icfp2015::rules::commands::{decode_char, Command, Symbol};
use crate::icfp2015::rules::game::{evaluate, Game, Outcome, Setup};
use crate::icfp2015::rules::phrases::PhraseSet;
use crate::icfp2015::rules::unit::Pos;
use crate::icfp2015::spell::dp::{Route, RouteTable};
use crate::icfp2015::spell::route::{Lock, Scribe};
use std::time::{Duration, Instant};

/// The (width, locks per node) of the beams tried in turn, while the time left holds the next.
/// Past 40 (Part 55): at `-t 60 -c 2` problem 1 reached 40 in 7 s and its attempts took the
/// rest for nothing; with 64-160, 1 6,254 -> 6,288, 17 7,846 -> 7,892, 19 7,598 -> 7,630.
/// Past 160 (Part 58, once the nodes counted against `-m`): at `-t 60 -c 2` 1 6,302 (width
/// 640), 17 7,930 and 19 7,648 (400); medium games stop before these steps at 30 and 60 s.
const SCHEDULE: [(usize, usize); 15] = [
    (1, 3),
    (2, 4),
    (4, 4),
    (6, 5),
    (10, 6),
    (16, 6),
    (24, 8),
    (40, 8),
    (64, 8),
    (100, 10),
    (160, 10),
    (256, 10),
    (400, 12),
    (640, 12),
    (1000, 12),
];

/// Share of the drop and fall weights a child keeps in its value: the rows they stand for are
/// counted in the power its route made.
pub const DROP_SHARE: f64 = 0.5;

/// The share a job's second search takes where its plan is the first's (`solve_planned`): the
/// two cores then search different games, the better answered. At `-t 30 -c 2`, problems 1,
/// 17, 19 and six fresh single-cell games, the second scored more on 6 of 9 and less on none
/// (+228 over the first's 65 k; with 0.25, +24); on five fresh medium games of several shapes
/// whose searches were twins, +160 (3 up, none down).
pub const TWIN_DROP_SHARE: f64 = 1.0;

/// How many times a game's measured route time the time left must hold: the first beam routes
/// up to 4 locks a unit (3 and the guide's), and its game is routed again with spans.
const ROUTES_HELD: f64 = 4.0;

/// Whether a game whose routes took `routes` is worth searching with `remaining` left.
pub fn affords(routes: Duration, remaining: Duration) -> bool {
    routes.mul_f64(ROUTES_HELD) < remaining
}

/// Headroom on the estimated time of the next beam (routes at the pace of the last beam).
const PASS_MARGIN: f64 = 1.3;

/// A phrase the game has not spelled, tried as a child of its own (the unit spelling it whole
/// from a start the chain search finds, then locking): at most this many words a node.
const FRESH_WORDS: usize = 3;

/// The most units such a phrase may take (blocked mid-phrase, a unit locks and the next goes
/// on, as `chain.rs` plays the long phrases at a game's start).
const FRESH_UNITS: u32 = 2;

/// A parent's DP routes, each with the lock it goes to (`None` where the DP found none).
type RoutesTo = Vec<(Pos, Option<Route>)>;

/// The best game found: its commands and the evaluator's score, and the widest beam that ran.
#[derive(Clone, Debug)]
pub struct Found {
    pub commands: String,
    pub score: u64,
    pub locked: u32,
    pub width: usize,
    /// Routes spelled over all beams, and the beams' time per route.
    pub routes: u64,
    pub route_time: Duration,
    /// The bytes of a finished game's node (what the memory check counts a node at).
    pub node_bytes: usize,
}

/// A game after some locks: its scribe, its value, and the board term and `Features::rows` of
/// its board (as the plan's beam keeps them).
#[derive(Clone)]
struct Node<'a, 'p> {
    game: Game<'a>,
    scribe: Scribe<'p>,
    value: f64,
    board_term: f64,
    rows: f64,
    /// The lock of each unit so far.
    locks: Vec<Pos>,
    /// Where the last unit took its DP route as it was (`Scribe::take_route`): what routes it in
    /// full, once the child is kept.
    quick: Option<Quick>,
}

/// A child whose unit took its parent's DP route without the greedy route weighed against it:
/// its parent in the layer before, its lock and the lock's value before the route, the route.
#[derive(Clone)]
struct Quick {
    parent: usize,
    lock: Pos,
    value: f64,
    route: Route,
}

impl Node<'_, '_> {
    /// Bytes this node holds, its heap included (a child's copy of it, with its key in the
    /// layer's map).
    fn bytes(&self) -> usize {
        let route = self.quick.as_ref().map_or(0, |q| {
            q.route.commands.capacity() * std::mem::size_of::<Command>() + q.route.bytes.capacity()
        });
        std::mem::size_of::<Self>()
            + 2 * std::mem::size_of::<(u64, usize)>()
            + self.game.heap_bytes()
            + self.scribe.heap_bytes()
            + self.locks.capacity() * std::mem::size_of::<Pos>()
            + route
    }

    /// The points the game has made: move score and power.
    fn score(&self) -> u64 {
        self.game.move_score() + self.scribe.power_score()
    }

    /// A copy of this game to go on from (no value yet), with the board term and rows of the
    /// board it will leave.
    fn successor(&self, board_term: f64, rows: f64) -> Self {
        Node {
            game: self.game.clone(),
            scribe: self.scribe.clone(),
            value: 0.0,
            board_term,
            rows,
            locks: self.locks.clone(),
            quick: None,
        }
    }

    /// This game's child that locks its unit at `lock` (not yet routed), with the board term
    /// and rows of the board it leaves.
    fn child(&self, lock: Pos, board_term: f64, rows: f64) -> Self {
        let mut child = self.successor(board_term, rows);
        child.locks.push(lock);
        child
    }

    /// The child of `quick` routed in full: the greedy route and the DP's, the better taken.
    fn routed_in_full(&self, quick: Quick, board_term: f64, rows: f64) -> Self {
        let mut child = self.child(quick.lock, board_term, rows);
        child
            .scribe
            .route_with(&mut child.game, quick.lock, Some(quick.route));
        child.value = self.value - self.board_term
            + quick.value
            + board_term
            + (child.score() - self.score()) as f64;
        child
    }
}

/// Nodes a beam holds a parent at most, at `locks` locks a node: the parent, and its children
/// (its locks, the guide's, and the phrases tried whole).
fn nodes_held(locks: usize) -> usize {
    1 + locks + 1 + FRESH_WORDS
}

/// The most rows of descent a phrase tried whole may need: the board's rows a unit.
fn fresh_descents(setup: &Setup) -> u32 {
    u32::try_from(setup.problem.height).map_or(u32::MAX, |h| h.saturating_mul(FRESH_UNITS))
}

/// Beams of the game of `seed` over its units, each lock routed spelling `phrases`, at the
/// widths of [`SCHEDULE`] while `deadline` holds the next and the thread's beam share of `-m`
/// holds its nodes (it runs after the plans, whose beams have let theirs go); locks chosen by
/// `weights`. `None` where no beam finished in time.
pub fn search(
    setup: &Setup,
    seed: u32,
    phrases: &PhraseSet,
    weights: &Weights,
    guide: &[Pos],
    drop_share: f64,
    deadline: &Deadline,
) -> Option<Found> {
    let mut best: Option<Found> = None;
    let (mut routes, mut route_time) = (0u64, Duration::ZERO);
    let units = setup.problem.source_length.max(1);
    let memory = SearchMemory::installed().beam;
    // The bytes of a finished game's node: no node of a later beam holds more.
    let mut node_bytes = 0;
    for (width, locks) in SCHEDULE {
        if width * nodes_held(locks) * node_bytes > memory {
            break;
        }
        if routes > 0 {
            let pace = route_time.as_secs_f64() / routes as f64;
            let estimate = pace * ((width * (locks + 1) + 1) * units) as f64 * PASS_MARGIN;
            if estimate > deadline.remaining().as_secs_f64() {
                break;
            }
        }
        let started = Instant::now();
        let Some((node, routed)) = beam(
            setup, seed, phrases, weights, guide, drop_share, width, locks, deadline,
        ) else {
            break;
        };
        routes += routed;
        route_time += started.elapsed();
        node_bytes = node_bytes.max(node.bytes());
        let spanned = reroute(setup, seed, phrases, &node.locks);
        let node = if spanned.score() > node.score() {
            spanned
        } else {
            node
        };
        let text = node.scribe.text();
        let scored = evaluate(setup, seed as u64, text, phrases).expect("the seed is the game's");
        debug_assert_eq!(
            scored.score,
            node.score(),
            "the scribe counts as the evaluator"
        );
        if scored.error.is_some() {
            continue;
        }
        if best.as_ref().is_none_or(|b| scored.score > b.score) {
            best = Some(Found {
                commands: text.to_string(),
                score: scored.score,
                locked: scored.locked,
                width,
                routes: 0,
                route_time: Duration::ZERO,
                node_bytes: 0,
            });
        }
        if let Some(b) = best.as_mut() {
            b.width = width;
        }
    }
    best.map(|b| Found {
        routes,
        route_time: route_time / routes.max(1) as u32,
        node_bytes,
        ..b
    })
}

/// One beam of `width` nodes, each expanding its `locks` best locks by `weights`, over the whole
/// game: the finished game that made the most points, and the routes spelled; `None` where the
/// deadline stopped it.
#[allow(clippy::too_many_arguments)]
fn beam<'a, 'p>(
    setup: &'a Setup,
    seed: u32,
    phrases: &'p PhraseSet,
    weights: &Weights,
    guide: &[Pos],
    drop_share: f64,
    width: usize,
    locks: usize,
    deadline: &Deadline,
) -> Option<(Node<'a, 'p>, u64)> {
    let structure = Weights {
        points: 0.0,
        drop: weights.drop * drop_share,
        fall: weights.fall * drop_share,
        ..*weights
    };
    let mut scribe = Scribe::for_setup(phrases, setup);
    scribe.use_dp = true;
    let spells = scribe.can_spell();
    let fresh_descents = fresh_descents(setup);
    let mut layer = vec![Node {
        game: Game::new(setup, seed),
        scribe,
        value: 0.0,
        board_term: 0.0,
        rows: 0.0,
        locks: Vec::new(),
        quick: None,
    }];
    let mut finished: Option<Node> = None;
    let mut routed = 0u64;
    let mut scratch = setup.start.clone();
    // One DP table for every child's route (each child's scribe is a copy).
    let mut table = RouteTable::default();
    let on_guide = |n: &Node| {
        guide.len() >= n.locks.len()
            && n.locks.iter().zip(guide).enumerate().all(|(k, (a, b))| {
                let unit = &setup.units[n.game.order()[k] as usize];
                unit.canonical_pos(*a) == unit.canonical_pos(*b)
            })
    };
    while !layer.is_empty() {
        // Per parent, its best locks by the plan's value: (value before the route, parent,
        // lock, board term, rows).
        let mut candidates: Vec<(f64, usize, Pos, f64, f64)> = Vec::new();
        for (i, node) in layer.iter().enumerate() {
            let mut own = lock_choices(node, weights, &structure, &mut scratch);
            own.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
            // The guide's lock for this unit, where this board has it, is routed too.
            let unit = node.game.unit();
            let planned = guide.get(node.locks.len()).map(|&p| unit.canonical_pos(p));
            match own
                .iter()
                .position(|c| Some(unit.canonical_pos(c.1)) == planned)
            {
                Some(g) if g >= locks => {
                    own.swap(locks, g);
                    own.truncate(locks + 1);
                }
                _ => own.truncate(locks),
            }
            candidates.extend(
                own.into_iter()
                    .map(|(_, pos, value, term, rows)| (value, i, pos, term, rows)),
            );
        }
        let mut children: Vec<Node> = Vec::with_capacity(candidates.len());
        let mut seen: FastMap<u64, usize> = FastMap::default();
        // Equal boards with equal points are kept once, the guide's game or the better valued;
        // a finished game is kept if it made the most points.
        let keep = |child: Node<'a, 'p>,
                    children: &mut Vec<Node<'a, 'p>>,
                    seen: &mut FastMap<u64, usize>,
                    finished: &mut Option<Node<'a, 'p>>| {
            if child.game.is_over() {
                if finished.as_ref().is_none_or(|f| child.score() > f.score()) {
                    *finished = Some(child);
                }
                return;
            }
            let key = fast_hash(&(child.game.board(), child.score(), child.game.locked()));
            match seen.get(&key) {
                Some(&j) if on_guide(&children[j]) => {}
                Some(&j) if children[j].value >= child.value && !on_guide(&child) => {}
                Some(&j) => children[j] = child,
                None => {
                    seen.insert(key, children.len());
                    children.push(child);
                }
            }
        };
        // Phrases the game has not spelled yet, each a child of its own where the unit can
        // spell it whole from some start, tried again at every unit: a word the falling unit
        // cannot spell in one life (a turn where it has one orientation) is left to the next.
        // (Retried every 8 units and skipped by a node's children once missed, the turn words
        // of problem 8 waited for its one turning unit, 1 in 8, to fall at such a unit: seeds
        // 2629, 14104 and 19012 at `-t 12 -c 1` spelled 10-13 of 18 phrases, 15-16 now.)
        for parent in &layer {
            let unit = parent.game.unit();
            let words: Vec<usize> = parent
                .scribe
                .unused_words(fresh_descents)
                .into_iter()
                .filter(|&w| parent.scribe.unit_spells_word(w, unit))
                .take(FRESH_WORDS)
                .collect();
            for w in words {
                if deadline.expired() {
                    return None;
                }
                let mut child = parent.successor(0.0, 0.0);
                routed += 1;
                let game = &mut child.game;
                let locked = child
                    .scribe
                    .with_dp_table(&mut table, |scribe| scribe.route_word(game, w, FRESH_UNITS));
                let Some(locked) = locked else {
                    continue;
                };
                // Each lock valued as the routed children's, on the board it locked on.
                let (mut value, mut rows) = (parent.value - parent.board_term, parent.rows);
                let mut term = 0.0;
                for Lock { pos, board, unit } in &locked {
                    let (_, lines) = placement_value(board, unit, *pos, weights);
                    value += placement_value(board, unit, *pos, &structure).0;
                    (term, rows) = board_term_after_lock(
                        board,
                        unit,
                        *pos,
                        lines,
                        weights,
                        false,
                        rows,
                        &mut RowTerms::default(),
                        &mut scratch,
                    );
                    child.locks.push(*pos);
                }
                child.board_term = term;
                child.rows = rows;
                child.value = value + term + (child.score() - parent.score()) as f64;
                keep(child, &mut children, &mut seen, &mut finished);
            }
        }
        // Each parent's DP routes to all its locks in one pass, where the board allows it.
        let mut dp_routes: Vec<Option<RoutesTo>> = vec![None; layer.len()];
        for (i, node) in layer.iter_mut().enumerate() {
            if deadline.expired() {
                return None;
            }
            let goals: Vec<Pos> = candidates
                .iter()
                .filter(|c| c.1 == i)
                .map(|c| c.2)
                .collect();
            if goals.len() < 2 || !spells {
                continue;
            }
            let Node { game, scribe, .. } = node;
            let routes = scribe.with_dp_table(&mut table, |s| s.dp_routes(game, &goals));
            dp_routes[i] = routes.map(|r| goals.into_iter().zip(r).collect());
        }
        for (value, i, pos, term, rows) in candidates {
            if deadline.expired() {
                return None;
            }
            let given = dp_routes[i]
                .as_mut()
                .and_then(|r| r.iter_mut().find(|(g, _)| *g == pos))
                .map(|(_, route)| route.take());
            let parent = &layer[i];
            let mut child = parent.child(pos, term, rows);
            let game = &mut child.game;
            match given {
                Some(Some(route)) => {
                    child.scribe.take_route(game, &route);
                    child.quick = Some(Quick {
                        parent: i,
                        lock: pos,
                        value,
                        route,
                    });
                }
                Some(None) => child.scribe.route_with(game, pos, None),
                None => child
                    .scribe
                    .with_dp_table(&mut table, |scribe| scribe.route(game, pos, None, spells)),
            }
            routed += 1;
            child.value = parent.value - parent.board_term
                + value
                + term
                + (child.score() - parent.score()) as f64;
            // A finished game is kept as it is: routed in full.
            if child.game.is_over() {
                if let Some(quick) = child.quick.take() {
                    child = parent.routed_in_full(quick, term, rows);
                    routed += 1;
                }
            }
            keep(child, &mut children, &mut seen, &mut finished);
        }
        children.sort_by(|a, b| b.value.total_cmp(&a.value));
        // The guide's own game stays in the beam: the search never ends below it.
        if let Some(g) = children.iter().position(on_guide) {
            if g >= width && width > 0 {
                children.swap(width - 1, g);
            }
        }
        children.truncate(width);
        // The children kept are routed in full (the greedy route weighed against the DP's):
        // the greedy route won on 0.3-5 % of the DP's routes, and taking the DP's alone for
        // every child cost the medium games more than its wider beams gained.
        for child in &mut children {
            if let Some(quick) = child.quick.take() {
                let parent = &layer[quick.parent];
                *child = parent.routed_in_full(quick, child.board_term, child.rows);
                routed += 1;
            }
        }
        layer = children;
    }
    finished.map(|f| (f, routed))
}

/// Where each unit of the game `commands` plays locks (as the planners name locks: pivot and
/// canonical orientation).
pub fn locks_of(setup: &Setup, seed: u32, commands: &str) -> Vec<Pos> {
    let mut game = Game::new(setup, seed);
    let mut locks = Vec::new();
    for b in commands.bytes() {
        let Symbol::Command(c) = decode_char(b as char) else {
            continue;
        };
        if game.is_over() {
            break;
        }
        let pos = game.unit().canonical_pos(game.pos());
        if let Outcome::Locked { .. } = game.step(c) {
            locks.push(pos);
        }
    }
    locks
}

/// The game of `locks` routed from its start, each unit knowing the next one's lock: a phrase
/// too long for one unit may be spelled across a lock (`span.rs`), which the beam's routes, not
/// knowing the next lock, never do.
fn reroute<'a, 'p>(
    setup: &'a Setup,
    seed: u32,
    phrases: &'p PhraseSet,
    locks: &[Pos],
) -> Node<'a, 'p> {
    let mut node = Node {
        game: Game::new(setup, seed),
        scribe: Scribe::for_setup(phrases, setup),
        value: 0.0,
        board_term: 0.0,
        rows: 0.0,
        locks: locks.to_vec(),
        quick: None,
    };
    let spells = node.scribe.can_spell();
    for (k, &lock) in locks.iter().enumerate() {
        node.scribe
            .route(&mut node.game, lock, locks.get(k + 1).copied(), spells);
    }
    node
}

/// Every lock of `node`'s falling unit with its placement value by `weights` (what picks the
/// locks a node routes), by `structure` with the board term, the board term and the rows.
/// Single-row clears are held as the plan's beam holds them, unless every lock is one.
fn lock_choices(
    node: &Node,
    weights: &Weights,
    structure: &Weights,
    scratch: &mut Board,
) -> Vec<(f64, Pos, f64, f64, f64)> {
    let (board, unit) = (node.game.board(), node.game.unit());
    let left = node.game.order().len() - node.game.locked() as usize;
    let hold = weights.hold_single && left > 10 && board.count() < 3 * board.width();
    let positions = lock_positions_where(board, unit, node.game.pos(), weights.resting);
    let mut choices = Vec::with_capacity(positions.len());
    let mut held = Vec::new();
    for pos in positions {
        let (pick, lines) = placement_value(board, unit, pos, weights);
        let (value, _) = placement_value(board, unit, pos, structure);
        let (term, rows) = board_term_after_lock(
            board,
            unit,
            pos,
            lines,
            weights,
            false,
            node.rows,
            &mut RowTerms::default(),
            scratch,
        );
        let choice = (pick + term, pos, value, term, rows);
        if lines == 1 && hold {
            held.push(choice);
        } else {
            choices.push(choice);
        }
    }
    if choices.is_empty() {
        held
    } else {
        choices
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::icfp2015::place::beam::{plan_fixed, Spread};

    /// A plan of `setup`'s game of `seed` by a beam of width 2.
    fn plan_of(setup: &Setup, seed: u32, weights: &Weights) -> Vec<Pos> {
        let order = Game::new(setup, seed).order().to_vec();
        plan_fixed(setup, &setup.start, &order, weights, 2, Spread::Even)
    }

    /// The game of `locks` routed as the beam routes, not knowing the next lock.
    fn routed_alone<'a, 'p>(
        setup: &'a Setup,
        seed: u32,
        phrases: &'p PhraseSet,
        locks: &[Pos],
    ) -> Node<'a, 'p> {
        let mut node = reroute(setup, seed, phrases, &[]);
        let spells = node.scribe.can_spell();
        for &lock in locks {
            node.scribe.route(&mut node.game, lock, None, spells);
        }
        node
    }

    /// The beams widen only while the thread's beam share of `-m` holds the next one's nodes at
    /// the bytes of the last finished game's: at 256 kB none past the first (a node of problem
    /// 10 holds its text of ~2,000 commands), and the answer is still legal and re-scored.
    #[test]
    fn beams_widen_only_while_their_nodes_fit_the_memory() {
        let setup = Setup::bundled(10);
        let seed = setup.problem.source_seeds[0];
        let phrases = PhraseSet::known();
        let weights = Weights::for_game(&setup, true);
        let never = Deadline::after(Duration::from_secs(3600));
        let memory = SearchMemory::within(256 << 10);
        memory.install();
        let found = search(&setup, seed, &phrases, &weights, &[], DROP_SHARE, &never);
        SearchMemory::AMPLE.install();
        let found = found.expect("the first beam has no deadline");
        assert_eq!(found.width, SCHEDULE[0].0);
        let (width, locks) = SCHEDULE[1];
        assert!(width * nodes_held(locks) * found.node_bytes > memory.beam);
        assert!(
            found.node_bytes > found.commands.len(),
            "{}",
            found.node_bytes
        );
        let scored = evaluate(&setup, seed as u64, &found.commands, &phrases).unwrap();
        assert_eq!(scored.error, None);
        assert_eq!(scored.score, found.score);
    }

    /// A phrase the game has not spelled is spelled whole from a start where one plays it
    /// (problem 10: 7 rows, so the longer phrases take two units): nothing is written where
    /// none does; otherwise the game is legal, the evaluator's score is the scribe's with the
    /// phrase's first use in it, and the locks returned are those the text plays.
    #[test]
    fn an_unused_phrase_is_spelled_whole_from_a_start() {
        let setup = Setup::bundled(10);
        let seed = setup.problem.source_seeds[0];
        let phrases = PhraseSet::known();
        let scribe = Scribe::for_setup(&phrases, &setup);
        let game = Game::new(&setup, seed);
        let words = scribe.unused_words(2 * setup.problem.height as u32);
        assert!(!words.is_empty());
        let mut spelled = 0;
        for w in words {
            let (mut g, mut s) = (game.clone(), scribe.clone());
            let Some(locked) = s.route_word(&mut g, w, 2) else {
                assert_eq!(s.text(), "");
                assert_eq!(g.locked(), 0);
                continue;
            };
            spelled += 1;
            let scored = evaluate(&setup, seed as u64, s.text(), &phrases).unwrap();
            assert_eq!(scored.error, None, "{}", s.text());
            assert_eq!(scored.score, g.move_score() + s.power_score());
            assert!(s.power_score() >= 300 + 2 * 3, "{}", s.text());
            let locks: Vec<Pos> = locked.iter().map(|l| l.pos).collect();
            assert!((1..=2).contains(&locks.len()));
            assert_eq!(locks_of(&setup, seed, s.text()), locks);
        }
        assert!(spelled > 0);
    }

    /// Every game is legal and its score the evaluator's, with each kind of phrase set (the
    /// known 18, plain moves, phrases no unit can spell, none), with and without a guide; a
    /// guided beam ends no lower than its guide's game, and the locks read back from a game's
    /// text are the locks it was routed to.
    #[test]
    fn games_are_legal_rescore_equal_and_never_below_the_guide() {
        let sets = [
            PhraseSet::known(),
            PhraseSet::new(vec!["aaaa".into(), "lll".into(), "ali".into()]).unwrap(),
            PhraseSet::new(vec!["pb".into(), "dk".into()]).unwrap(),
            PhraseSet::none(),
        ];
        let never = Deadline::after(Duration::from_secs(3600));
        for id in [20, 8] {
            let setup = Setup::bundled(id);
            let seed = setup.problem.source_seeds[0];
            let weights = Weights::for_game(&setup, true);
            let plan = plan_of(&setup, seed, &weights);
            for (s, phrases) in sets.iter().enumerate() {
                let guided = routed_alone(&setup, seed, phrases, &plan);
                assert_eq!(locks_of(&setup, seed, guided.scribe.text()), plan);
                for guide in [&plan[..], &[]] {
                    let (node, routed) = beam(
                        &setup, seed, phrases, &weights, guide, DROP_SHARE, 2, 2, &never,
                    )
                    .expect("no deadline");
                    assert!(routed > 0);
                    let scored =
                        evaluate(&setup, seed as u64, node.scribe.text(), phrases).unwrap();
                    let case = format!("problem {id}, set {s}, guided {}", !guide.is_empty());
                    assert_eq!(scored.error, None, "{case}");
                    assert_eq!(scored.score, node.score(), "{case}");
                    assert_eq!(scored.locked, plan.len() as u32, "{case}");
                    if !guide.is_empty() {
                        assert!(node.score() >= guided.score(), "{case}");
                    }
                }
            }
        }
    }
}
