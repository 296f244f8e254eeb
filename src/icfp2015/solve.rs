//! The ICFP 2015 solver, one (problem, seed) game end to end: a plan of lock positions (`place`),
//! then each unit routed to its lock spelling phrases (`spell`); again while time is left.
//
// While time is left, whole games are replayed with other weights (a stack-height term, then a
// line bonus, then random perturbations) and the best kept. Where the routes of one game take
// much of the time and a greedy band plan (`place::bands`: fullest rows first) promises more
// than a greedy plan of these weights (problem 24), the games are planned as bands instead.
// Every solution is re-scored by the evaluator (`rules::game::evaluate`). What a game's routes
// cost in time (`route_cost`) is measured here, where plans and routes meet: it sizes the beam.

use crate::core::rng::Rng;
use crate::core::timer::Deadline;
use crate::icfp2015::memory::SearchMemory;
use crate::icfp2015::place::bands;
use crate::icfp2015::place::beam::{plan, plan_game};
use crate::icfp2015::place::weights::Weights;
use crate::icfp2015::rules::board::Board;
use crate::icfp2015::rules::commands::Command;
use crate::icfp2015::rules::game::{evaluate, Game, Outcome, Setup};
use crate::icfp2015::rules::phrases::PhraseSet;
use crate::icfp2015::rules::unit::Pos;
use crate::icfp2015::spell::bound::bound;
use crate::icfp2015::spell::exhaustive;
use crate::icfp2015::spell::lookahead;
use crate::icfp2015::spell::power::power_per_row;
use crate::icfp2015::spell::route::Scribe;
use crate::icfp2015::trace::tracing;
use std::time::{Duration, Instant};

/// Share of a game's time given to each attempt's beam search.
const BEAM_SHARE: f64 = 0.45;

/// A solved game: the command string and what the evaluator gives it.
#[derive(Clone, Debug)]
pub struct Played {
    pub commands: String,
    pub score: u64,
    pub locked: u32,
}

/// Plans the game with a beam search and routes each unit to its lock spelling phrases; then
/// again with perturbed weights while the time left allows a whole attempt. Returns the best
/// game, re-scored by the evaluator.
pub fn solve(setup: &Setup, seed: u32, phrases: &PhraseSet, deadline: &Deadline) -> Played {
    solve_variant(setup, seed, phrases, deadline, 0)
}

/// [`solve`] starting from the `variant`-th set of weights with its own random perturbations:
/// the searches that run side by side on spare cores try different games.
pub fn solve_variant(
    setup: &Setup,
    seed: u32,
    phrases: &PhraseSet,
    deadline: &Deadline,
    variant: u32,
) -> Played {
    let memory = SearchMemory::AMPLE;
    solve_offering(setup, seed, phrases, deadline, variant, &memory, &|_| {})
}

/// [`solve_variant`] with a short game's search tables within `memory`, handing each game to
/// `offer` as soon as it is routed and scored, before
/// the search goes on: `play` answers the best game offered where the search has not ended by
/// its watchdog. Without it, a later attempt that overran (a beam's width-1 plan under load)
/// lost the game already routed: problem 18 at `-t 3 -c 1`, three test binaries at once, a
/// plan of 373 units routed and the drop answer's 7 locks printed (`docs/icfp2015.md`, Part 20).
pub fn solve_offering(
    setup: &Setup,
    seed: u32,
    phrases: &PhraseSet,
    deadline: &Deadline,
    variant: u32,
    memory: &SearchMemory,
    offer: &(dyn Fn(&Played) + Sync),
) -> Played {
    let job = Job {
        setup,
        seed,
        phrases,
        deadline,
        variant,
        offer,
    };
    if setup.problem.source_length <= BOUND_TRACE_UNITS {
        job.trace(|| {
            let b = bound(setup, seed, phrases);
            format!(
                "bound {} (moves {}, repeats {}, distinct {})",
                b.total(),
                b.moves,
                b.repeats,
                b.distinct
            )
        });
    }
    if !is_short(&job) {
        let played = solve_planned(&job, true);
        job.trace(|| {
            let late = deadline.elapsed().as_secs_f64() - deadline.limit().as_secs_f64();
            format!(
                "answer: score {} locked {}, {late:+.2} s past the deadline of {:.1} s",
                played.score,
                played.locked,
                deadline.limit().as_secs_f64()
            )
        });
        return played;
    }
    let planned_time = Deadline::after(deadline.remaining().mul_f64(PLANNED_SHARE));
    // With the look-ahead, whose routes spell across locks within a second. Problem 21 at
    // `play -t 30 -c 1 --known-phrases`: planned 1,562 -> 1,610 (the best team's 1,606)
    // against a search of 1,584 (of one letter per single command, then); 17 tiny games at
    // `-t 10` 25,545 -> 25,567, none down (`docs/icfp2015.md`, Part 54).
    let planned = solve_planned(&job.within(&planned_time), true);
    offer(&planned);
    let searched_from = deadline.elapsed().as_secs_f64();
    let found = exhaustive::search(setup, seed, phrases, deadline, variant, memory);
    let checked = evaluate(setup, seed as u64, &found.commands, phrases)
        .ok()
        .filter(|e| e.error.is_none() && e.score == found.score);
    job.trace(|| {
        format!(
            "short: planned {}, searched {} (widest beam {}, branch and bound {} nodes{}); beams {:.2} s, bound tables {:.2} s, branch and bound {:.2} s",
            planned.score,
            found.score,
            found.width,
            found.deep_nodes,
            if found.proved { ", complete" } else { "" },
            found.beam_secs,
            found.deep_setup_secs,
            (deadline.elapsed().as_secs_f64() - searched_from - found.beam_secs - found.deep_setup_secs).max(0.0),
        )
    });
    match checked {
        Some(e) if e.score > planned.score => {
            let searched = Played {
                commands: found.commands,
                score: e.score,
                locked: e.locked,
            };
            // Offered at once: `play` answers a job whose other search runs late with the games
            // offered so far (generated game 3610, known 18, `-t 10 -c 2` at load 15: one core's
            // search ended at 9.28 s, the other's bound tables took it to 9.65 s; Part 39).
            offer(&searched);
            searched
        }
        _ => planned,
    }
}

/// One search of a (problem, seed) job: the game, the phrases it is scored with, the search's
/// deadline and which of the searches side by side it is; what its plans and routes all read.
#[derive(Clone, Copy)]
struct Job<'j> {
    setup: &'j Setup,
    seed: u32,
    phrases: &'j PhraseSet,
    deadline: &'j Deadline,
    variant: u32,
    /// Where each game routed is handed as soon as it is scored ([`solve_offering`]).
    offer: &'j (dyn Fn(&Played) + Sync),
}

impl<'j> Job<'j> {
    /// The same search within `deadline` (a share of its time).
    fn within<'d>(&self, deadline: &'d Deadline) -> Job<'d>
    where
        'j: 'd,
    {
        Job { deadline, ..*self }
    }

    /// [`trace`] for this search.
    fn trace(&self, line: impl FnOnce() -> String) {
        trace(self.variant, line);
    }

    /// The look-ahead's game, where it scores above `best`, becomes the best and is offered.
    fn keep_if_better(&self, best: &mut Played, found: lookahead::Found) {
        if found.score > best.score {
            *best = Played {
                commands: found.commands,
                score: found.score,
                locked: found.locked,
            };
            (self.offer)(best);
        }
    }
}

/// Games of at most this many units trace their score's bound (`spell::bound`).
const BOUND_TRACE_UNITS: usize = 50;

/// Share of a short game's time the planned solver (plans, then routes) takes before the
/// whole-game search (`spell::exhaustive`) takes the rest; the better game is the answer.
const PLANNED_SHARE: f64 = 0.25;

/// Beam width per placement and unit a short game's search must afford: the game is short when
/// a beam `SHORT_DEPTH x units` wide over every unit's placements (cells x orientations) fits the
/// search's time. The width grows with the units because the search wins only on few units:
/// generated games of 10 and 15 units scored 5,389 and 6,041 searched against 2,721 and 4,735
/// planned (`-t 5 -c 2`, known 18), but games of 20-40 units 1 % less searched at `-t 20`. At
/// 16 none of those counted as short; at 2, the 10-unit game does at `-t 5`, the 15-unit one
/// from about `-t 8`, and the 100-unit qualifiers (0, 1, 13, 17) still not at `-t 60`.
const SHORT_DEPTH: f64 = 2.0;

/// Actions (phrase or command tries) beyond which a game is never short, whatever the time:
/// the pace is not even measured there.
const SHORT_WORK: f64 = 2e8;

/// Whether the whole game is small for the time left: units^2 x placements x actions x
/// [`SHORT_DEPTH`], at the pace measured on this game, fits in the search's share. The units are
/// those the game will be played for ([`played_units`]), not the source's: qualifier problem 13
/// (100 units of up to 17 cells on 15 x 20) ends after 11-12 of them.
fn is_short(job: &Job) -> bool {
    let p = &job.setup.problem;
    if job.phrases.len() > 128 {
        return false;
    }
    let placements = (p.width * p.height * 6) as f64;
    let per_unit_squared = placements * (job.phrases.len() + 6) as f64 * SHORT_DEPTH;
    let most = (SHORT_WORK / per_unit_squared).sqrt() as usize;
    let Some(units) = played_units(job, most) else {
        return false;
    };
    let work = (units * units) as f64 * per_unit_squared;
    let pace = exhaustive::pace(job.setup, job.seed, job.phrases);
    let short = work / pace < job.deadline.remaining().as_secs_f64() * (1.0 - PLANNED_SHARE);
    job.trace(|| {
        format!(
            "short? {units} units played of {} (at most {most}): {work:.2e} actions at {pace:.2e} a second: {short}",
            p.source_length
        )
    });
    short
}

/// How much longer than its quick plan a game is counted: a deeper plan or search may keep the
/// game alive longer.
const PLAYED_MARGIN: f64 = 1.25;

/// Share of the time left a quick plan of a game that may end early takes, to see where it ends.
/// A width-1 plan alone misjudged: generated game 2107 (13 x 16, units of up to 14 cells, 97
/// units) ended after 15 units planned at width 1, after 38-43 at the planned path's widths, and
/// searched as a short game it scored 2,520-2,557 against 4,741-4,924 planned (`-t 10 -c 2`).
const PLAYED_PLAN_SHARE: f64 = 0.05;

/// The quick plan takes at most this many times the width-1 plan's time: on generated game 2101
/// (10 x 16, 122 units) the width-1 plan ended at 33 units and the one with 5 % of `-t 10` lasted
/// all 53 planned, the game scoring ~530 less (16,206 / 16,236 against 16,772 / 16,742).
const PLAYED_PLAN_WIDTHS: u32 = 64;

/// The units a game will be played for, where at most `most`: [`PLAYED_MARGIN`] (or the second
/// plan's units over the first's, if more) x the units a quick plan locks before the game ends,
/// where it ends early, else the source's length; `None`
/// for a longer game. The plans cover at most `most` / [`PLAYED_MARGIN`] + 1 units: first at
/// width 1 (no more than that many width-1 steps, however long the game), and only where that
/// one ends early, a beam given [`PLAYED_PLAN_SHARE`] of the time (at most
/// [`PLAYED_PLAN_WIDTHS`] x the first one's).
fn played_units(job: &Job, most: usize) -> Option<usize> {
    let setup = job.setup;
    let length = setup.problem.source_length;
    let game = Game::new(setup, job.seed);
    let first = &game.order()[..length.min((most as f64 / PLAYED_MARGIN) as usize + 1)];
    let spells = power_per_row(job.phrases, setup) > 0.0;
    let weights = Weights::for_game(setup, spells);
    let now = Deadline::after(Duration::ZERO);
    let started = Instant::now();
    let mut locks = plan(setup, &setup.start, first, &weights, &now, first.len(), &[]);
    let quick = locks.len();
    if locks.len() < first.len() {
        let share = job.deadline.remaining().mul_f64(PLAYED_PLAN_SHARE);
        let time = Deadline::after(share.min(started.elapsed() * PLAYED_PLAN_WIDTHS));
        locks = plan(
            setup,
            &setup.start,
            first,
            &weights,
            &time,
            first.len(),
            &[],
        );
    }
    job.trace(|| {
        format!(
            "plans of the first {} units: {quick} locks at width 1, {} with time",
            first.len(),
            locks.len()
        )
    });
    if locks.len() < first.len() {
        // A game whose end moves with the plan's depth is counted as lasting longer again by
        // as much: 2107 ended at 14-15 units at width 1, 22-24 with time, 38-43 planned.
        let deeper = locks.len() as f64 / quick.max(1) as f64;
        let margin = PLAYED_MARGIN.max(deeper);
        Some(((margin * locks.len().max(1) as f64).ceil() as usize).min(length))
    } else {
        (length <= most).then_some(length)
    }
}

/// [`solve_variant`] for a game that is not short: plans of lock positions, then routes; with
/// `look_ahead`, where its routes are cheap, the units searched with their routes too.
fn solve_planned(job: &Job, look_ahead: bool) -> Played {
    let (setup, seed, phrases, deadline, variant) =
        (job.setup, job.seed, job.phrases, job.deadline, job.variant);
    let mut rng = Rng::new(
        ((setup.problem.id as u64) << 32 | seed as u64)
            ^ u64::from(variant).wrapping_mul(0x9E37_79B9_7F4A_7C15),
    );
    // Where the routes of one game would leave no time for a second attempt, the one attempt's
    // beam gets the time they leave instead of its share.
    let remaining = deadline.remaining();
    let estimating = Instant::now();
    let cost_of_routes = route_cost(job);
    job.trace(|| {
        format!(
            "route estimate: game {:.2} s, plain unit {:.2} ms, in {:.2} s",
            cost_of_routes.game.as_secs_f64(),
            cost_of_routes.plain_unit.as_secs_f64() * 1e3,
            estimating.elapsed().as_secs_f64()
        )
    });
    let (routes, plain_unit) = (cost_of_routes.game, cost_of_routes.plain_unit);
    let few_games = routes > remaining.mul_f64(0.2);
    let power = power_per_row(phrases, setup);
    let beam_time = if few_games {
        remaining
            .saturating_sub(routes.mul_f64(ROUTE_MARGIN))
            .max(remaining.mul_f64(BEAM_SHARE))
    } else {
        remaining.mul_f64(BEAM_SHARE)
    };
    // The plan leaves the plain routes of every unit their time, down to the time of its
    // width-1 plan (after its estimate, below): on a 40 x 3,000 board pre-filled below (`gen
    // --seed 4952`, 300 units routed plain at ~45 ms), at `-t 20 -c 2` the plan took its share,
    // 8.3 s, and the routes had 6.8 s for the 13.5 s they needed: 180-232 units locked.
    let plain_game = plain_unit.mul_f64(PLAIN_GAME_MARGIN * setup.problem.source_length as f64);
    // Where only a few games fit, and band plans promise more, they are all band plans.
    // Where the beam is slow (a width-1 plan of the game would take a tenth of the time), a
    // band plan that lasts the game is routed instead: a beam that cannot finish leaves only
    // the drop answer (problem 24 without -p: 29 at -t 10). Taking any band plan where the beam
    // would take 40 % of the time cost a generated 9 x 33 game of 3,667 units most of its score.
    let band_power = power.round() as u64;
    // Comparing with a width-1 beam plan takes that plan's time: only where it is short.
    let estimating = Instant::now();
    let cost = beam_cost(
        setup,
        seed,
        deadline.remaining().mul_f64(ROUTE_SAMPLE_SHARE),
    );
    job.trace(|| {
        format!(
            "beam estimate: {:.2} s, in {:.2} s",
            cost.as_secs_f64(),
            estimating.elapsed().as_secs_f64()
        )
    });
    let plain_cap = remaining
        .saturating_sub(plain_game)
        .max(cost.mul_f64(BEAM_COST_MARGIN));
    if plain_cap < beam_time {
        job.trace(|| {
            format!(
                "plan's time cut to {:.2} s for the plain routes ({:.2} s)",
                plain_cap.as_secs_f64(),
                plain_game.as_secs_f64()
            )
        });
    }
    let beam_time = beam_time.min(plain_cap);
    // The time of a band plan of the game.
    let mut band_time = Duration::ZERO;
    let mut band = if power >= BAND_POWER && few_games && cost < remaining.mul_f64(0.2) {
        let afford = remaining.saturating_sub(beam_time).as_secs_f64() / routes.as_secs_f64();
        let (band, time) = bands_promise_more_timed(
            setup,
            seed,
            band_power,
            afford.min(1.0),
            remaining.mul_f64(BAND_PROMISE_SHARE),
            &mut rng,
        );
        band_time = time;
        band
    } else {
        None
    };
    // A band plan made and then left to the beam (it dies before the game's end), routed: the
    // answer is the better of it and the beam's games. On long games of 20-cell blobs the greedy
    // band plan scored as well as the beam or 5-10 % better (`docs/icfp2015.md`, Part 13).
    let mut band_game: Option<Played> = None;
    // A band plan's locks routed from the game's start, without chains.
    let route_band = |locks: &[Pos], deadline: &Deadline, fall: bool| {
        let job = job.within(deadline);
        route_game(&job, Opening::new(&job, 0), locks, &cost_of_routes, fall)
    };
    let keep_band = |locks: &[Pos], band_game: &mut Option<Played>| {
        let time = deadline.remaining().mul_f64(KEPT_BAND_SHARE);
        let routed = route_band(locks, &Deadline::after(time), false);
        job.trace(|| {
            format!(
                "band plan kept: score {} locked {} in {:.2} s",
                routed.played.score,
                routed.played.locked,
                routed.time.as_secs_f64()
            )
        });
        *band_game = Some(routed.played);
    };
    if band.is_none() && cost > remaining.mul_f64(0.1) {
        let order = Game::new(setup, seed).order().to_vec();
        let weights = bands::band_weights(setup, 4.0);
        // Where a greedy plan of the whole game would not leave its routes their time, only
        // the units that fit in a share of it are planned, routed, and the game ends there (a
        // prefix of a legal answer is legal): the 5000-unit x 3-seed game at `-t 2 -c 2` gave
        // a seed whose job had 0.5 s the one-lock answer, its whole plan taking all of it.
        // Its first units are planned first, to see whether a band plan lasts at all.
        let sample = &order[..order.len().min(BAND_SAMPLE)];
        let started = Instant::now();
        let (sampled, sample_end) = if setup.height() > TALL_ROWS {
            // On a tall board a unit at a time, while a share of the time is left (the same
            // plan where the clock does not stop it).
            let budget = deadline.remaining().mul_f64(ROUTE_SAMPLE_SHARE);
            band_chunks(
                setup,
                &setup.start,
                sample,
                &weights,
                band_power,
                &mut rng,
                1,
                |_, _| started.elapsed() < budget,
            )
        } else {
            let sampled =
                bands::greedy(setup, &setup.start, sample, &weights, band_power, &mut rng);
            let end = if sampled.locks.len() == sample.len() {
                BandEnd::Whole
            } else {
                BandEnd::Died
            };
            (sampled, end)
        };
        let sample_time = started.elapsed();
        job.trace(|| {
            format!(
                "band sample: {} of {} units ({sample_end:?}) in {:.2} s",
                sampled.locks.len(),
                sample.len(),
                sample_time.as_secs_f64()
            )
        });
        // A sample that ends before its last unit (the game ends there): no band plan lasts
        // the game, and the beam (below) plans it. Scaled to the game's units instead, its pace
        // cut 30 x 60 games of 5000 units of up to 9-20 cells without phrases (dying after
        // 100-600 units) to their band plan's prefix at `-t 5` (1,797 against 6,614-9,699
        // planned by the beam, `docs/icfp2015.md`, Part 13); and where the routes' estimate
        // left no time for planning (a slow build at `-t 2 -c 1`), to a one-unit prefix.
        // A tall board's sample cut by the clock (`BandEnd::Cut`) gives the pace as well.
        if sample_end != BandEnd::Died {
            let sampled_units = sampled.locks.len().max(1);
            let band_cost = sample_time.mul_f64(order.len() as f64 / sampled_units as f64);
            let chunk = band_chunk(setup, sample_time / sampled_units as u32, deadline);
            // Planned by chunks with a look at the clock, the whole game where the time allows:
            // made in one call where its sampled estimate fitted 65 % of the time left, the
            // whole plan (0.61-0.87 s where 0.47-0.58 s was estimated) overran its job's share
            // under load and the job answered the drop answer (the 5000-unit x 3-seed game at
            // `-t 2 -c 2`, three test binaries at once: `docs/icfp2015.md`, Parts 17 and 20).
            let started = Instant::now();
            let (plan, end) = band_prefix(
                setup, &order, &weights, band_power, &mut rng, deadline, plain_unit, chunk,
            );
            band_time = started.elapsed();
            job.trace(|| {
                format!(
                    "band plan of {} units: {} locks ({end:?}) in {:.2} s (estimated {:.2} s for all)",
                    order.len(),
                    plan.locks.len(),
                    band_time.as_secs_f64(),
                    band_cost.as_secs_f64()
                )
            });
            match end {
                BandEnd::Died => keep_band(&plan.locks, &mut band_game),
                BandEnd::Cut => {
                    // The units past the prefix fall straight down, as in the drop answer:
                    // a 60 x 2,000 board's prefix of 614-1,176 units scored 3,687-7,695 alone,
                    // the whole drop game 3,786-3,820.
                    let routed = route_band(&plan.locks, deadline, true);
                    job.trace(|| {
                        format!(
                            "band prefix routed: locked {} in {:.2} s, {:+.2} s past the deadline",
                            routed.played.locked,
                            routed.time.as_secs_f64(),
                            deadline.elapsed().as_secs_f64() - deadline.limit().as_secs_f64()
                        )
                    });
                    return routed.played;
                }
                BandEnd::Whole => band = Some(plan),
            }
        } else {
            keep_band(&sampled.locks, &mut band_game);
            job.trace(|| {
                format!(
                    "band plan sample of {} units: the game ends after {} locks",
                    sample.len(),
                    sampled.locks.len()
                )
            });
        }
    }
    if let Some(band) = band {
        let first = (band, cost_of_routes, band_power, band_time);
        return solve_bands(job, first, &mut rng);
    }
    let mut attempts = variant;
    let mut weights = attempt_weights(setup, attempts, power > 0.0, &mut rng);
    let chains = chains_of(attempts, &mut rng);
    let opening = Opening::new(job, chains);
    // A second search whose plan is the first's (the first's weights, as where the game has no
    // single-row clears to hold, and no chain opened: single-cell games) looks ahead with the
    // other drop share, or its core repeats the first's work.
    let twin = variant % 2 == 1
        && weights == attempt_weights(setup, 0, power > 0.0, &mut rng.clone())
        && opening.game.locked() == 0;
    let drop_share = if twin {
        lookahead::TWIN_DROP_SHARE
    } else {
        lookahead::DROP_SHARE
    };
    job.trace(|| format!("look-ahead drop share {drop_share}"));
    let order = opening.order();
    // While the plans die before the last unit, plan again with nudged weights instead of
    // routing: a beam that dies early costs a fraction of its routes, and how long a plan lasts
    // decides the score (problem 18: 1000 units scored 81,684, 300 units ~33,000). Every other
    // plan keeps the longest plan but its last 50 to 250 units (`BACKOFF`), so the longest one
    // grows in steps, and spreads its beam over the units to its end and 200 more, where it
    // died. The longest plan is routed. Nudged rather than perturbed weights: on 18 the
    // perturbed ones (and restarts with them) never outlasted the first plan in 15 tries. With a
    // fixed back-off of 100 and the beam spread over the whole game, the resumed plans of 18
    // ended where the one they resumed had (230 -> 316, 330, 316, ... in one run).
    let long = order.len() >= LONG_GAME;
    let start = opening.game.board();
    // A long game starts with a quicker plan, and takes the full beam only if that one lasts.
    // Its time is spread evenly over the layers (the beam's `danger_spend` borrows where the
    // board fills). With 8x the time where the board first fills (`beam::Spread::ForSurvival`,
    // Part 44, measured at load 9-11 on problem 18 only), a quiet machine scored less: problem
    // 18 at `-t 30 -c 2 --known-phrases`, 4 pairs, mean 74.2 k against 95.4 k evenly; 10 fresh
    // games of big units among small ones at `-t 10` 1.87 M against 2.05 M (lower in 13 of 20
    // pairs); the generated long-46-shapes 231 / 201 k against 253 / 242 k (Part 48).
    let mut locks = Vec::new();
    if long {
        let quick = Deadline::after(beam_time.mul_f64(QUICK_SHARE));
        locks = plan(setup, start, &order, &weights, &quick, order.len(), &[]);
    }
    job.trace(|| format!("quick plan {} of {} units", locks.len(), order.len()));
    // The spelled estimate from the game's first units errs 4-7x high on long games (problem
    // 18, known 18: 33-50 s for the game, routed at 4.2-8.6 ms a unit). A pace sampled along
    // the quick plan (every len/40-th unit spelled, x2.5) scouted longer, and problem 18 scored
    // no more: `play -t 30 -c 2 --known-phrases`, 15 runs alternating, medians 71.8 k against
    // 75.0 k (`docs/icfp2015.md`, Part 11); it was removed in Part 17.
    let scouting = Instant::now() + deadline.remaining().mul_f64(SCOUT_SHARE);
    // A long game scouts until the time left holds the routes of the longest plan so far and
    // 200 units more (the most a resumed plan is spread over): the routes of a plan cost in
    // proportion to its units. Reserving the whole game's routes left problem 18 (plans dying at
    // 190-314 of 1000 units) routing in 1.6-1.8 s after reserving 9-17 s (`play -t 30 -c 1`).
    let scouting_left = |planned: usize| {
        if long {
            let share = ((planned + 2 * BACKOFF) as f64 / order.len() as f64).min(1.0);
            // And one grace more: a last scouting plan that overran left problem 18 (`-t 3 -c
            // 1`, no phrases) 0.0 s for routes estimated 0.1 s, and 786 of 1000 locks routed.
            // (x1.4 on the estimate instead takes 3 s of 27 from 18's scouting with phrases,
            // whose estimate is already ~4x high.)
            let grace = deadline.limit().mul_f64(ROUTE_GRACE);
            deadline
                .remaining()
                .saturating_sub(routes.mul_f64(share) + grace)
        } else {
            scouting.saturating_duration_since(Instant::now())
        }
    };
    if !long || locks.len() == order.len() {
        // A long game whose quick plan lasts plans once with the time its routes leave on the
        // first core: another attempt (other weights) scored less on every lasting game icfp7
        // traced (genA 57.8 -> 59.8 k). The second core keeps the beam's share and the attempts
        // after it: on problem 14 (500 units, `bench --time 30 -c 2 --only 14`) the longer plan
        // scored 100.7 k on both cores against the shorter's 104.5-106.2 k (the beam's score is
        // not monotone in its width), and the job answers the better core's game.
        let time = if long && variant == 0 {
            deadline
                .remaining()
                .mul_f64(LONG_PLAN_SHARE)
                .saturating_sub(routes.mul_f64(ROUTE_MARGIN))
                .max(beam_time)
        } else {
            beam_time
        };
        let full = plan_game(setup, start, &order, &weights, time, &[]);
        job.trace(|| format!("full plan {} units", full.len()));
        // Survival first: a full plan that dies before the quick one's end is not taken
        // (problem 18, `play -t 30 -c 2`: a quick plan of all 1000 units was replaced by a full
        // plan dying at 374; docs/icfp2015.md, Part 23).
        if full.len() >= locks.len() {
            locks = full;
        }
    }
    // The least time a scouting plan takes: its units to the longest plan's end and 200 more
    // at width 1 (`cost` is the whole game's), whatever time it is given. Started with less
    // than that under load, a scout overran its job's share: problem 18 at `-t 3 -c 1`, three
    // test binaries at once, a scout given ~0.2 s still ran 0.44 s later, at the watchdog, and
    // the job answered the drop answer (`docs/icfp2015.md`, Part 20).
    let least_scout = |longest: usize| {
        let share = ((longest + 2 * BACKOFF) as f64 / order.len().max(1) as f64).min(1.0);
        beam_time.mul_f64(0.1).max(cost.mul_f64(share))
    };
    let mut scout = Scout {
        first: weights,
        tries: 0,
        variant,
    };
    while locks.len() < order.len() {
        let left = scouting_left(locks.len());
        // `<=`: with no time at all (`-t 0`) both sides are zero, and no plan is tried.
        if left <= least_scout(locks.len()) {
            break;
        }
        let time = beam_time.min(left);
        scout.longer(setup, start, &order, &mut locks, time, &mut rng, "scout");
    }
    job.trace(|| {
        format!(
            "routing {} locks, {:.1} s left, routes estimated {:.1} s",
            locks.len(),
            deadline.remaining().as_secs_f64(),
            routes.as_secs_f64()
        )
    });
    let start = start.clone();
    let first_routes = route_game(job, opening, &locks, &cost_of_routes, false);
    let (mut best, mut route_time) = (first_routes.played.clone(), first_routes.time);
    job.trace(|| {
        format!(
            "routed: score {} locked {} in {:.1} s ({} spelled, {:.2} ms each)",
            best.score,
            best.locked,
            route_time.as_secs_f64(),
            first_routes.spelled,
            first_routes.spelled_time.as_secs_f64() * 1e3 / f64::from(first_routes.spelled.max(1))
        )
    });
    // A medium game that spells: the look-ahead, guided by the first routed game, widens while
    // the time left holds its next beam; the attempts get what it leaves (on every such game
    // since Part 53, where its routes began to take a narrow board's whole width). With half
    // the time left, problem 8's seeds stopped at width 2 (0.6 s of 3 s) and its attempts,
    // 2.4 s, never beat the first game: `bench --time 30 -c 2` 8 20,790 -> 21,232, 10 11,162 ->
    // 11,488; `-t 10 -c 1` 30 fresh games 589,382 -> 591,440 (15 up, 4 down), Part 29's medium
    // games with plain-move phrases 270,007 -> 270,266 (Part 55).
    if look_ahead && !long && power > 0.0 {
        let guide = lookahead::locks_of(setup, seed, &best.commands);
        if let Some(found) =
            lookahead::search(setup, seed, phrases, &weights, &guide, drop_share, deadline)
        {
            job.trace(|| {
                format!(
                    "early look-ahead: score {} (first game {}), width {}, {} bytes a node",
                    found.score, best.score, found.width, found.node_bytes
                )
            });
            job.keep_if_better(&mut best, found);
        }
    }
    // A long game whose plan still dies goes on scouting from it while the time left holds the
    // routes of a longer one (now measured, not estimated), and routes the longest again: the
    // units it shares with the routed plan are replayed from that game's text, the rest routed;
    // again while it still dies and time is left. Where the new units' spelled routes cannot
    // fit (a game that spells ~13 ms a unit, for 5000 units), half the time left goes to
    // scouting all the same: unused, it is lost. Half of the time left at each plan, not half
    // of it when the scouting began: fixed, it was held for a longer plan that never came, and
    // problem 18's jobs answered 5.0 and 8.3 s before their 28.2 s (`play -t 30 -c 2
    // --known-phrases`, plans dying at 314-499 units; `docs/icfp2015.md`, Part 17). Once a
    // longer plan is found, its own new units' routes are reserved whole: with only the
    // shrinking half, a plan of 1000 found with 2.7 s left routed its 646 new units mostly
    // plain (73,708 against 81,242 for the same plan length routed with the fixed half).
    let mut routed = first_routes;
    let mut routed_locks = locks.clone();
    let mut per_unit = route_time.mul_f64(LATE_ROUTE_MARGIN / locks.len().max(1) as f64);
    while long && locks.len() < order.len() {
        // A resumed plan keeps all of the routed one but its last 250 units at most.
        let kept = routed_locks.len().saturating_sub(BACKOFF * 5 / 2);
        loop {
            let new_units = (locks.len() + 2 * BACKOFF).min(order.len()) - kept;
            let spelled = if locks.len() > routed_locks.len() {
                per_unit.mul_f64((locks.len() - shared_prefix(&locks, &routed_locks)) as f64)
            } else {
                per_unit
                    .mul_f64(new_units as f64)
                    .min(deadline.remaining() / 2)
            };
            let reserve = spelled + plain_unit.mul_f64(PLAIN_ROUTE_MARGIN * new_units as f64);
            let left = deadline.remaining().saturating_sub(reserve);
            if locks.len() == order.len() || left <= least_scout(locks.len()) {
                break;
            }
            let time = beam_time.min(left);
            scout.longer(
                setup,
                &start,
                &order,
                &mut locks,
                time,
                &mut rng,
                "late scout",
            );
        }
        if locks.len() <= routed_locks.len() {
            break;
        }
        let shared = shared_prefix(&locks, &routed_locks);
        let opening = Opening::replay(job, chains, &routed, shared);
        let replayed = opening.starts.len();
        routed = route_game(job, opening, &locks, &cost_of_routes, false);
        routed_locks = locks.clone();
        let new_units = (locks.len() - replayed).max(1);
        per_unit = routed.time.mul_f64(LATE_ROUTE_MARGIN / new_units as f64);
        // Another whole attempt would route every unit at this pace.
        route_time = routed.time.mul_f64(locks.len() as f64 / new_units as f64);
        let played = &routed.played;
        job.trace(|| {
            format!(
                "rerouted: score {} locked {} ({replayed} replayed, {:.1} s left)",
                played.score,
                played.locked,
                deadline.remaining().as_secs_f64()
            )
        });
        if played.score > best.score {
            best = played.clone();
        }
    }
    loop {
        // Another attempt needs its routes' time and some beam time on top.
        let spare = deadline.remaining().saturating_sub(route_time.mul_f64(1.3));
        if spare <= beam_time.mul_f64(0.2) {
            break;
        }
        attempts += 1;
        weights = attempt_weights(setup, attempts, power > 0.0, &mut rng);
        let opening = Opening::new(job, chains_of(attempts, &mut rng));
        let order = opening.order();
        let start = opening.game.board();
        let locks = plan_game(setup, start, &order, &weights, beam_time.min(spare), &[]);
        let routes = route_game(job, opening, &locks, &cost_of_routes, false);
        let played = routes.played;
        route_time = routes.time;
        job.trace(|| {
            format!(
                "attempt {attempts}: score {} locked {}",
                played.score, played.locked
            )
        });
        if played.score > best.score {
            best = played;
        }
    }
    // A game that is neither short nor long, whose routes are cheap against the time the
    // look-ahead and the attempts left: the look-ahead again (`spell::lookahead`), guided by the
    // best game now; the better game is kept.
    let look = look_ahead && !long && power > 0.0;
    if look && lookahead::affords(route_time, deadline.remaining()) {
        let guide = lookahead::locks_of(setup, seed, &best.commands);
        let found = lookahead::search(setup, seed, phrases, &weights, &guide, drop_share, deadline);
        if let Some(found) = found {
            job.trace(|| {
                format!(
                    "look-ahead: score {} (best game {}), width {}, {} bytes a node, {} routes at {:.2} ms",
                    found.score,
                    best.score,
                    found.width,
                    found.node_bytes,
                    found.routes,
                    found.route_time.as_secs_f64() * 1e3
                )
            });
            job.keep_if_better(&mut best, found);
        }
    }
    match band_game {
        Some(band) if band.score > best.score => band,
        _ => best,
    }
}

/// How many first locks two plans share.
fn shared_prefix(a: &[Pos], b: &[Pos]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

/// The scouting plans of a game: the weights they nudge, how many were tried, and the
/// search's variant for their trace lines.
struct Scout {
    first: Weights,
    tries: u32,
    variant: u32,
}

impl Scout {
    /// One more scouting plan of `order` from `start` within `time`, with the first weights
    /// nudged, kept in `longest` if it lasts longer: on every other try, the plan `longest` but
    /// its last 50 to 250 units taken up again with the beam spread over the units to its end
    /// and 200 more; otherwise a whole new plan. `label` names the phase in the trace.
    #[allow(clippy::too_many_arguments)]
    fn longer(
        &mut self,
        setup: &Setup,
        start: &Board,
        order: &[u32],
        longest: &mut Vec<Pos>,
        time: Duration,
        rng: &mut Rng,
        label: &str,
    ) {
        self.tries += 1;
        let weights = self.first.nudged(rng);
        let prefix = if self.tries.is_multiple_of(2) {
            let back = BACKOFF / 2 + rng.range(0..2 * BACKOFF);
            &longest[..longest.len().saturating_sub(back)]
        } else {
            &[]
        };
        let horizon = if prefix.is_empty() {
            order.len()
        } else {
            (longest.len() + 2 * BACKOFF).min(order.len())
        };
        let deadline = Deadline::after(time);
        let other = plan(setup, start, order, &weights, &deadline, horizon, prefix);
        trace(self.variant, || {
            format!(
                "{label} {}: {} units (longest {})",
                self.tries,
                other.len(),
                longest.len()
            )
        });
        if other.len() > longest.len() {
            *longest = other;
        }
    }
}

/// Writes `line` on stderr, prefixed by the search's variant and the seconds since the
/// process's first trace line, where `PODIUM_ICFP2015_TRACE` is set: how each plan of a game
/// ended and when, to see why a long game dies early and where its time went.
fn trace(variant: u32, line: impl FnOnce() -> String) {
    static FIRST: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    if tracing() {
        let at = FIRST.get_or_init(Instant::now).elapsed().as_secs_f64();
        eprintln!("icfp2015 trace {variant} [{at:.2} s]: {}", line());
    }
}

/// A greedy band plan (`place::bands`) of the whole game, if it promises a tenth more than a
/// greedy plan of the setup's weights: the move score plus the rows fallen at `POWER_PER_ROW`.
/// Asked only where one game's routes take a fifth of the time or more, so that only a few games can be played:
/// on the small boards, where many are, the beam's games score more than the greedy merit says
/// (bands promise more on 15, 17, 20, 22 and 23 too). With it, the time the band plan took.
/// Against a band plan that lasts the game, the greedy plan's rows count only by `afford`, the
/// share of its routes the time left pays for: generated random-9 (55 x 58, 2,511 units, known
/// phrases, `-t 5 -c 2`), routes estimated at 65 s for 2.5 s, scored 70-90 k routed as a beam
/// plan against 224-257 k as a band plan. A band plan that dies is not favoured so: problem 18
/// at `-t 3 -c 1` took one that died at 237 units (25-32 k against 32-65 k).
///
/// On a board of more than [`TALL_ROWS`] rows the band plan goes a unit at a time and is given
/// up (no promise) where it would take more than `budget`: on a 128 x 10,000 board pre-filled
/// below (`gen --seed 4953 --fill 0.2`, 50 units) its 50 units took more than 20 s of `-t 60`,
/// unwatched, and the job answered by the watchdog with 247 points.
fn bands_promise_more_timed(
    setup: &Setup,
    seed: u32,
    power: u64,
    afford: f64,
    budget: Duration,
    rng: &mut Rng,
) -> (Option<bands::Sweep>, Duration) {
    let game = Game::new(setup, seed);
    let order = game.order();
    let started = Instant::now();
    let chunk = if setup.height() > TALL_ROWS {
        1
    } else {
        order.len()
    };
    let (band, end) = band_chunks(
        setup,
        &setup.start,
        order,
        &bands::band_weights(setup, 4.0),
        power,
        rng,
        chunk,
        |_, last| started.elapsed() + last < budget,
    );
    let band_time = started.elapsed();
    if end == BandEnd::Cut {
        return (None, band_time);
    }
    let locks = greedy_plan(setup, seed);
    let afford = if band.locks.len() == order.len() {
        afford
    } else {
        1.0
    };
    let moves = bands::merit(setup, &setup.start, order, &locks, 0) as f64;
    let usual =
        moves + (bands::merit(setup, &setup.start, order, &locks, power) as f64 - moves) * afford;
    let promise = band.merit as f64 > 1.1 * usual;
    (promise.then_some(band), band_time)
}

/// A width-1 beam plan of the whole game with the setup's weights.
fn greedy_plan(setup: &Setup, seed: u32) -> Vec<Pos> {
    let game = Game::new(setup, seed);
    let order = game.order();
    let now = Deadline::after(Duration::ZERO);
    let weights = Weights::for_setup(setup);
    plan(setup, &setup.start, order, &weights, &now, order.len(), &[])
}

/// Units planned to estimate the cost of a width-1 beam plan of a game.
const BEAM_SAMPLE: usize = 32;

/// An estimate of a width-1 beam plan's time over the whole game: its first units timed and
/// scaled to the game's length (on a tall board, the units [`sample_plan`] planned within
/// `budget`).
fn beam_cost(setup: &Setup, seed: u32, budget: Duration) -> Duration {
    let game = Game::new(setup, seed);
    let order = game.order();
    let sample = &order[..order.len().min(BEAM_SAMPLE)];
    let weights = Weights::for_setup(setup);
    let started = Instant::now();
    let (_, units) = sample_plan(setup, sample, &weights, budget);
    started
        .elapsed()
        .mul_f64(order.len() as f64 / units.max(1) as f64)
}

/// Boards taller than this plan their estimates' samples ([`sample_plan`]) a unit at a time
/// with a look at the clock, and their band plans by chunks sized from the sample's pace. On a
/// 128 x 10,000 board pre-filled below (rows 4,000-9,999 at 20 %) a unit's width-1 layer took
/// ~0.3 s (its flood percolates into the fill, Part 35): the 16-unit route sample took 4-6 s,
/// the 32-unit beam sample twice that and the band sample's 200 units more, none of them
/// looking at the clock, and no search answered (Part 40). Every qualifier has at most 50
/// rows, the generated sets at most 100: they sample as before.
const TALL_ROWS: usize = 100;

/// A width-1 beam plan of `sample` from the start (the estimates' sample), and the units it
/// stands for: on a board of at most [`TALL_ROWS`] rows one plan of every unit, for `sample`'s
/// units; on a taller one, by plans of 1, 2, 4, ... units (the units planned before forced,
/// `plan`'s prefix) while the plans so far took less than `budget` (at least one unit), for the
/// units planned where the clock stopped it. The two differ slightly (a one-unit plan holds no
/// single-row clear, a 16-unit plan's first units do), which is why ordinary boards keep the
/// one plan. A unit at a time, the forced units replayed by every plan inflated the beam's
/// estimate ~2x on a 40 x 500 board (32 units in 0.05 s).
fn sample_plan(
    setup: &Setup,
    sample: &[u32],
    weights: &Weights,
    budget: Duration,
) -> (Vec<Pos>, usize) {
    let now = Deadline::after(Duration::ZERO);
    if setup.height() <= TALL_ROWS {
        let locks = plan(
            setup,
            &setup.start,
            sample,
            weights,
            &now,
            sample.len(),
            &[],
        );
        return (locks, sample.len());
    }
    let started = Instant::now();
    let mut locks = Vec::new();
    while locks.len() < sample.len() {
        if !locks.is_empty() && started.elapsed() >= budget {
            let planned = locks.len();
            return (locks, planned);
        }
        let to = (2 * locks.len()).clamp(1, sample.len());
        let more = plan(
            setup,
            &setup.start,
            &sample[..to],
            weights,
            &now,
            to,
            &locks,
        );
        // The game ends inside the sample: as the one plan, for the sample's units.
        let ended = more.len() < to;
        locks = more;
        if ended {
            break;
        }
    }
    (locks, sample.len())
}

/// [`solve_variant`] with band plans: each game the best of the greedy band plans made while
/// the time left holds its routes, then routed; again while a whole game fits in the time left.
/// `first`: the band plan that promised more, one of the first game's plans when that game opens
/// without chains, the estimated route time of a game (measured after the first), the power
/// per row, and the time one band plan took.
fn solve_bands(
    job: &Job,
    first: (bands::Sweep, RouteCost, u64, Duration),
    rng: &mut Rng,
) -> Played {
    let (setup, deadline, variant) = (job.setup, job.deadline, job.variant);
    let (band, cost_of_routes, power, band_time) = first;
    let routes = cost_of_routes.game;
    let mut band = Some(band);
    let mut best: Option<Played> = None;
    let mut attempts = variant;
    let mut route_time = routes.mul_f64(BAND_ROUTE_MARGIN);
    loop {
        let opening = Opening::new(job, chains_of(attempts, rng));
        let order = opening.order();
        let planning = deadline
            .remaining()
            .saturating_sub(route_time)
            .max(deadline.remaining().mul_f64(0.1));
        let first = match band.take() {
            Some(plan) if opening.game.locked() == 0 => plan,
            _ => bands::Sweep::default(),
        };
        // More plans only while the time left holds one more (as long as the last), each
        // planned by chunks and dropped where the clock says it would not end in time: the one
        // more whole plan made whenever any time was left (the former `bands::best_band_after`)
        // overran its job's share under load (30 x 60, 5000 small units, 3 seeds, `-t 2 -c 2`, three test
        // binaries at once: a drop answer in 6 of 6 runs, `docs/icfp2015.md`, Part 20).
        let (plan, end) = best_band_within(
            first,
            band_time,
            setup,
            opening.game.board(),
            &order,
            &Deadline::after(planning),
            power,
            rng,
        );
        // A plan cut by the clock is routed only where no game was played yet (a prefix).
        if end == BandEnd::Cut {
            if let Some(best) = best.take() {
                return best;
            }
        }
        let routes = route_game(job, opening, &plan.locks, &cost_of_routes, false);
        let played = routes.played;
        route_time = routes.time;
        if best.as_ref().is_none_or(|b| played.score > b.score) {
            best = Some(played);
        }
        attempts += 1;
        // Another game needs its routes and a plan's time: with plain routes of ~0.1 s for
        // 5000 units, a last plan started with too little time overran the watchdog (30 x 60,
        // 5000 small units, 3 seeds, `-t 10 -c 2`: two drop answers).
        if deadline.remaining() < route_time.mul_f64(1.5) + band_time {
            return best.expect("one game was played");
        }
    }
}

/// Share of the time a tall board's band plan may take to be weighed against the beam's
/// ([`bands_promise_more_timed`]).
const BAND_PROMISE_SHARE: f64 = 0.1;

/// Units of a band plan planned at a time, between looks at the clock (~0.05 s on a 30 x 60
/// board).
const BAND_CHUNK: usize = 250;

/// Headroom on the plain routes a band prefix of a tall board leaves time for. Planned in
/// chunks of ~10-40 units under [`PLAIN_ROUTE_MARGIN`], the prefixes of a 40 x 500 board
/// pre-filled below (`gen --seed 3902 --fill 0.2`, `-t 10 -c 2`) stopped at 26-38 units with
/// 2.6-6.3 s of their jobs' time unused, where their routes took 37-40 ms a unit as estimated
/// (the base's first chunk of 250 units, always planned, had 148 routed).
const TALL_ROUTE_MARGIN: f64 = 1.2;

/// Share of the time left one chunk of a band plan may take on a tall board ([`band_chunk`]).
const TALL_CHUNK_SHARE: f64 = 0.05;

/// Units of a band plan planned at a time on `setup`'s board, where a unit took `unit_time`:
/// [`BAND_CHUNK`], and on a board taller than [`TALL_ROWS`] no more than fit in
/// [`TALL_CHUNK_SHARE`] of the time left by `deadline` (at least one). A chunk of 250 units
/// took ~50 s on a 128 x 10,000 board pre-filled below.
fn band_chunk(setup: &Setup, unit_time: Duration, deadline: &Deadline) -> usize {
    if setup.height() <= TALL_ROWS {
        return BAND_CHUNK;
    }
    let fit = deadline.remaining().mul_f64(TALL_CHUNK_SHARE).as_secs_f64()
        / unit_time.as_secs_f64().max(1e-9);
    (fit as usize).clamp(1, BAND_CHUNK)
}

/// Headroom on the time of the last chunk of a band plan, for the next one.
const BAND_CHUNK_MARGIN: f64 = 2.0;

/// How a band plan planned by chunks ([`band_chunks`]) ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BandEnd {
    /// Every unit of the order is planned.
    Whole,
    /// The game ends inside the plan (a unit cannot spawn or lock).
    Died,
    /// The clock stopped it before its last unit: a prefix.
    Cut,
}

/// A greedy band plan of `order` from `start` (`bands::greedy`), `chunk` units at a time
/// ([`BAND_CHUNK`], fewer on a tall board: [`band_chunk`]), while `go_on(units planned, the
/// last chunk's time)` says another chunk fits; the chunks make the plan one call would (the
/// same random draws), and a plan that ends whole or dies has its merit (`bands::merit`), a
/// cut one 0.
#[allow(clippy::too_many_arguments)]
fn band_chunks(
    setup: &Setup,
    start: &Board,
    order: &[u32],
    weights: &Weights,
    power: u64,
    rng: &mut Rng,
    chunk: usize,
    go_on: impl Fn(usize, Duration) -> bool,
) -> (bands::Sweep, BandEnd) {
    let size = chunk.max(1);
    let mut board = start.clone();
    let mut plan = bands::Sweep::default();
    let end = loop {
        if plan.locks.len() == order.len() {
            break BandEnd::Whole;
        }
        let chunk = &order[plan.locks.len()..(plan.locks.len() + size).min(order.len())];
        let started = Instant::now();
        let sweep = bands::greedy(setup, &board, chunk, weights, power, rng);
        let chunk_time = started.elapsed();
        for (&index, &pos) in chunk.iter().zip(&sweep.locks) {
            let unit = &setup.units[index as usize];
            board.lock(unit.shape(pos.orientation, pos.y), pos.x, pos.y);
        }
        let ended = sweep.locks.len() < chunk.len();
        plan.locks.extend(sweep.locks);
        if ended {
            break BandEnd::Died;
        }
        if plan.locks.len() < order.len() && !go_on(plan.locks.len(), chunk_time) {
            break BandEnd::Cut;
        }
    };
    if end != BandEnd::Cut {
        plan.merit = bands::merit(setup, start, order, &plan.locks, power);
    }
    (plan, end)
}

/// A greedy band plan of the game from its start ([`band_chunks`]) while the time left by
/// `deadline` holds another chunk and the plain routes of every unit planned (a prefix of a
/// legal answer is legal). Sized from the pace of a sample instead, the 5000-unit x 3-seed game
/// at `-t 2 -c 2` (its limits test, run beside the other tests) once had a job whose plan
/// overran its share and answered one lock.
#[allow(clippy::too_many_arguments)]
fn band_prefix(
    setup: &Setup,
    order: &[u32],
    weights: &Weights,
    power: u64,
    rng: &mut Rng,
    deadline: &Deadline,
    plain_unit: Duration,
    chunk: usize,
) -> (bands::Sweep, BandEnd) {
    band_chunks(
        setup,
        &setup.start,
        order,
        weights,
        power,
        rng,
        chunk,
        |planned, chunk_time| {
            let margin = if setup.height() > TALL_ROWS {
                TALL_ROUTE_MARGIN
            } else {
                PLAIN_ROUTE_MARGIN
            };
            let routes = (planned + chunk) as f64 * margin;
            let next = chunk_time.mul_f64(BAND_CHUNK_MARGIN) + plain_unit.mul_f64(routes);
            deadline.remaining() >= next
        },
    )
}

/// The band plan of the highest merit among `first` (which took `first_time`; empty for none)
/// and plans with drop weights drawn from [3, 5] (above ~5.5 they sink into the caves again:
/// problem 24 at drop 6 fell 40,300-44,500 rows, at 7 and more ~38,000 with 1,000-1,600 cells
/// left), made
/// while the time left by `deadline` holds one more as long as the last; each by chunks
/// ([`band_chunks`]), dropped where the time left stops holding its next chunk, unless there is
/// no other: then the prefix it planned, [`BandEnd::Cut`].
#[allow(clippy::too_many_arguments)]
fn best_band_within(
    first: bands::Sweep,
    first_time: Duration,
    setup: &Setup,
    start: &Board,
    order: &[u32],
    deadline: &Deadline,
    power: u64,
    rng: &mut Rng,
) -> (bands::Sweep, BandEnd) {
    let mut best = (!first.locks.is_empty()).then_some(first);
    let mut last = first_time;
    while best.is_none() || deadline.remaining() > last {
        let started = Instant::now();
        let weights = bands::band_weights(setup, 3.0 + 2.0 * rng.f64());
        let unit_time = last / order.len().max(1) as u32;
        let chunk = band_chunk(setup, unit_time, deadline);
        let (plan, end) = band_chunks(
            setup,
            start,
            order,
            &weights,
            power,
            rng,
            chunk,
            |_, chunk| deadline.remaining() >= chunk.mul_f64(BAND_CHUNK_MARGIN),
        );
        last = started.elapsed();
        if end == BandEnd::Cut {
            return match best {
                Some(best) => (best, BandEnd::Whole),
                None => (plan, end),
            };
        }
        if best.as_ref().is_none_or(|b| plan.merit > b.merit) {
            best = Some(plan);
        }
    }
    (
        best.expect("the loop plans until there is one"),
        BandEnd::Whole,
    )
}

/// Share of the time left that routing a band plan left to the beam may take (it spells while
/// that holds, then routes plain): such a plan died within its first units.
const KEPT_BAND_SHARE: f64 = 0.05;

/// Units of a greedy band plan timed to estimate the whole plan's time.
const BAND_SAMPLE: usize = 200;

/// Headroom on the estimated route time of a band game. The estimate erred high by ~1.25 on
/// problem 24 (20.2 s estimated, 16.4 s routed, `play -t 30 -c 2`). Planning longer gains
/// little: the best of 17 plans had the merit of the best of 3 (302,804 against 302,762), and an
/// estimate from the band plan's own first units (8.3 s) left the routes without the DP (276,344).
const BAND_ROUTE_MARGIN: f64 = 1.1;

/// Band plans value a row fallen at `bands::POWER_PER_ROW` (6); a phrase set that earns less
/// than this per row does not plan in bands.
const BAND_POWER: f64 = 4.0;

/// Share of a game's time in which plans that die early are compared before any is routed.
const SCOUT_SHARE: f64 = 0.55;

/// Units from which a game is long: there plans that die early are compared until only the
/// routes' time of the longest plan so far is left (estimated; it errs high by 2-4 on problem
/// 18), and again after its routes while the measured route time of a longer plan is left. Problem 18 (1000 units):
/// the attempts after the scouting share died at 220-330 units (29,000-36,000) in every run
/// looked at, while about one scouting plan in ten lasted to the end (~80,000). `play -t 30 -c
/// 2`, before: 71,657 / 38,441 / 41,726 / 78,576 / 41,651; after (with the back-off above):
/// 56,752 / 76,181 / 46,636 / 45,148 / 40,619 / 34,401 / 86,934 / 83,600.
const LONG_GAME: usize = 500;

/// Share of the beam time of a long game's first plan. Problem 18 (`play -t 30 -c 2`): with
/// the whole beam time the first plan took ~6.5 s and died at 266-330 units like the later
/// ones, and 4 of 8 runs lasted (mean 58,800); with a quarter, 8 of 10 (75,394 / 91,708 /
/// 44,671 / 85,782 / 90,070 / 81,751 / 79,928 / 79,515 / 85,232 / 36,000: mean 75,006). A
/// tenth did no better (8 of 10, mean 74,778).
const QUICK_SHARE: f64 = 0.25;

/// Share of the time left that a long game's plan may take when its quick plan lasts (the
/// routes' estimate comes off it).
const LONG_PLAN_SHARE: f64 = 0.9;

/// The mean number of units before its end where a plan that died is taken up again.
const BACKOFF: usize = 100;

/// Headroom on the estimated route time when the beam takes the rest of the time.
const ROUTE_MARGIN: f64 = 1.4;

/// Headroom on the measured route time per unit of a long game's plan routed again after more
/// scouting: the DP spells only while the time left holds 1.5 x the mean route so far, and with
/// 1.4 the longer plans of problem 18 (all 1000 units) were routed mostly without it (67,684
/// and 68,326 against ~85,000, `play -t 30 -c 1`, load ~7).
const LATE_ROUTE_MARGIN: f64 = 2.0;

/// Share of the time left that sampling the routes of a game may take (`route_cost`).
const ROUTE_SAMPLE_SHARE: f64 = 0.05;

/// Units routed to estimate the route cost of a game: spelling, and without.
const ROUTE_SAMPLE: usize = 8;
const PLAIN_ROUTE_SAMPLE: usize = 16;

/// What routing a game costs: the whole game's routes as the scribe would route them
/// (spelling where it can), and one unit's route with nothing spelled (`spell::reach::
/// direct_path`), the least a planned lock can cost.
#[derive(Clone, Copy, Debug)]
struct RouteCost {
    game: Duration,
    plain_unit: Duration,
    /// What the sample's routes took and made a unit: time and power spelled, move score
    /// routed plain. `route_game` weighs spelling against plain routes by these until its own
    /// routes show them.
    spelled_unit: Duration,
    spelled_power: f64,
    plain_moves: f64,
}

/// An estimate of the time the routes of a whole game take: the first units of a greedy plan
/// routed on a copy of the game, scaled to the game's length. Spelling, the mean unit of the
/// first 8, which errs high (the first units fall the furthest; the band plans' margins are
/// set against it). Without spelling every route costs about the same (the unit's position
/// grid and a search to the lock), and the median of the first 16 is the estimate: the mean of
/// 8 erred high by 2-3x there (long-46-shapes without phrases: 8-27 s estimated, 4-8 s routed,
/// `play -t 5`), the first unit paying for cold caches. The routes sampled stop (after one)
/// once they took [`ROUTE_SAMPLE_SHARE`] of the time left by `deadline`: problem 18 with the
/// known phrases at `-t 3 -c 1` spelled its 8 units in 1.7-2.2 s of its 2.7 s under load (test
/// profile, three test binaries at once), and the job answered the drop answer. The plan they
/// route to is [`sample_plan`]'s, within the same share on a tall board.
fn route_cost(job: &Job) -> RouteCost {
    let (setup, seed, phrases, deadline) = (job.setup, job.seed, job.phrases, job.deadline);
    let budget = deadline.remaining().mul_f64(ROUTE_SAMPLE_SHARE);
    let mut scribe = Scribe::for_setup(phrases, setup);
    scribe.use_dp = true;
    let spell = scribe.can_spell();
    let order = Game::new(setup, seed).order().to_vec();
    let sample = &order[..order.len().min(PLAIN_ROUTE_SAMPLE)];
    let (locks, _) = sample_plan(setup, sample, &Weights::default(), budget);
    let (plain, plain_score) = route_times(
        setup,
        seed,
        &mut Scribe::for_setup(phrases, setup),
        &locks,
        false,
        budget,
    );
    let plain_moves = plain_score as f64 / plain.len().max(1) as f64;
    let plain_unit = median(plain);
    let (spelled_unit, spelled_power) = if spell {
        let sampled = &locks[..locks.len().min(ROUTE_SAMPLE)];
        let (times, _) = route_times(setup, seed, &mut scribe, sampled, true, budget);
        let units = times.len().max(1);
        (
            times.iter().sum::<Duration>() / units as u32,
            scribe.power_score() as f64 / units as f64,
        )
    } else {
        (plain_unit, 0.0)
    };
    RouteCost {
        game: spelled_unit.mul_f64(order.len() as f64),
        plain_unit,
        spelled_unit,
        spelled_power,
        plain_moves,
    }
}

/// The time of each route of `locks` from the start of the game, spelling or not, until they
/// took `budget` in all (at least one), and the move score of the units routed.
fn route_times(
    setup: &Setup,
    seed: u32,
    scribe: &mut Scribe,
    locks: &[Pos],
    spell: bool,
    budget: Duration,
) -> (Vec<Duration>, u64) {
    let mut game = Game::new(setup, seed);
    let mut times = Vec::with_capacity(locks.len());
    for (k, &lock) in locks.iter().enumerate() {
        if game.is_over() || times.iter().sum::<Duration>() > budget {
            break;
        }
        let started = Instant::now();
        scribe.route(&mut game, lock, locks.get(k + 1).copied(), spell);
        times.push(started.elapsed());
    }
    (times, game.move_score())
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort_unstable();
    times.get(times.len() / 2).copied().unwrap_or_default()
}

/// Which chains of long phrases (`spell::chain`) open attempt `k`, as a mask over them (longest
/// first). They force a few locks, which may cost the rest of the game more than the phrases
/// bring: the second game (the first's weights) opens with all it can, even games with none,
/// the other odd ones with a random choice. Measured: problem 13 (games of ~11 units) 1,622
/// with all against 3,924 with none (`play -t 10 -c 1`); problem 9 (400 units, two games a
/// seed) 31,743 with chains in the first game, 35,902 with none (`play -t 30 -c 2`).
fn chains_of(k: u32, rng: &mut Rng) -> u64 {
    match k {
        1 => u64::MAX,
        k if k.is_multiple_of(2) => 0,
        _ => rng.next_u64(),
    }
}

/// A game after its opening chains, and the command text so far; `starts`: where the text of
/// each lock of the plan already routed in it starts (`None` inside a phrase spelled across
/// a lock).
struct Opening<'a, 'p> {
    game: Game<'a>,
    scribe: Scribe<'p>,
    starts: Vec<Option<usize>>,
}

impl<'j> Opening<'j, 'j> {
    fn new(job: &Job<'j>, chains: u64) -> Self {
        let mut game = Game::new(job.setup, job.seed);
        let mut scribe = Scribe::for_setup(job.phrases, job.setup);
        if chains != 0 {
            scribe.open_chains(&mut game, chains);
        }
        Opening {
            game,
            scribe,
            starts: Vec::new(),
        }
    }

    /// The game `routed` (opened with `chains`) replayed up to the start of its lock `shared`
    /// (or the last before it where the text can be cut): a plan that shares its first
    /// `shared` locks is routed on from there. Replaying costs a step per command, where
    /// routing the same units again spelling cost ~13 ms each (a 30 x 60 board, known 18).
    fn replay(job: &Job<'j>, chains: u64, routed: &Routed, shared: usize) -> Self {
        let cut = (0..=shared.min(routed.starts.len().saturating_sub(1)))
            .rev()
            .find_map(|k| routed.starts.get(k).copied().flatten().map(|at| (k, at)));
        let Some((k, at)) = cut else {
            return Opening::new(job, chains);
        };
        let mut game = Game::new(job.setup, job.seed);
        let mut scribe = Scribe::for_setup(job.phrases, job.setup);
        scribe.replay(&mut game, &routed.played.commands[..at]);
        Opening {
            game,
            scribe,
            starts: routed.starts[..k].to_vec(),
        }
    }

    /// The units still to place.
    fn order(&self) -> Vec<u32> {
        self.game.order()[self.game.locked() as usize..].to_vec()
    }
}

/// The weights of attempt `k` (`Weights::for_game`: `spells` where the routes spell phrases):
/// the defaults (twice: without and with chains), then a stack-height term, then a line bonus,
/// then random perturbations of the defaults; odd attempts, and every attempt of a game of
/// single cells (`Weights::for_setup`), do not hold single-row clears. The
/// drop weight stays whatever the phrases: without any, problem 18 scored 1,666 and 2,366
/// with it at 0 against 6,636 at 4 (`play -t 10 -c 1`).
//
// hold_single on every attempt lowered problems 17 and 19 (one-cell units on half-filled
// boards) from ~7,300 to ~6,300 and ~7,100 to ~6,350 (bench --per-problem 30 -c 2); off,
// 17 scores 7,174 / 7,324 again (play -t 15 -c 1).
fn attempt_weights(setup: &Setup, k: u32, spells: bool, rng: &mut Rng) -> Weights {
    let game = Weights::for_game(setup, spells);
    let base = Weights {
        hold_single: game.hold_single && k.is_multiple_of(2),
        ..game
    };
    if let Ok(Some(w)) = base.with_env() {
        return if k == 0 { w } else { w.perturbed(rng) };
    }
    match k {
        0 | 1 => base,
        2 => Weights {
            stack: 40.0,
            ..base
        },
        3 => Weights {
            stack: 8.0,
            lines: 100.0,
            ..base
        },
        _ => base.perturbed(rng),
    }
}

/// One game of `job`: from its opening, each unit routed to its lock of `locks`; the game
/// re-scored by the evaluator, and how long the routes took. Spelling gives way to plain routes
/// where the time left holds only the plain routes of the units left (`cost.plain_unit` each,
/// with a margin) and those pay more a second than spelling does; routes that still run past
/// `deadline` go on plain for [`ROUTE_GRACE`] of its time more. A plan of problem 18 (1000
/// units, no phrases, `-t 8 -c 2`) was routed to 577 locks when routes stopped at the deadline.
/// With `fall`, where the game outlasts `locks` (a prefix of a plan), its units left fall
/// straight down ([`fall_rest`]) until the grace ends.
fn route_game(job: &Job, opening: Opening, locks: &[Pos], cost: &RouteCost, fall: bool) -> Routed {
    let deadline = job.deadline;
    let Opening {
        mut game,
        mut scribe,
        mut starts,
    } = opening;
    let first = starts.len();
    let route_started = Instant::now();
    let grace_end = deadline.start() + deadline.limit().mul_f64(1.0 + ROUTE_GRACE);
    // The last spelled route: the time left must hold one more on top of the plain routes of
    // the rest. With the slowest instead (the first unit's, its DP over the whole fall), a
    // generated 39 x 100 game of 250 units (random-8, known 18, `-t 5`) stopped spelling after
    // a few units: 14,676-17,973 against 21,421-21,819 routing 61 units spelled and no more.
    let mut last_spelled = Duration::ZERO;
    let (mut spelled, mut spelled_time) = (0u32, Duration::ZERO);
    let (mut plain, mut plain_time) = (0u32, Duration::ZERO);
    let mut offered = false;
    for (k, &lock) in locks.iter().enumerate().skip(first) {
        if game.is_over() {
            break;
        }
        let left = locks.len() - k;
        // The plain routes' own pace once a few were routed: the estimate, the median of the
        // game's first units, erred 1.5x high on a 128 x 10,000 board pre-filled below (0.47 s
        // against 0.32 s routed; `gen --seed 4953 --fill 0.2`, `-t 60`), where the reserve of
        // its 3x margin left the first 29 of 50 units plain and 14.6 s unused.
        let plain_unit = if plain >= PLAIN_PACE_UNITS {
            plain_time / plain
        } else {
            cost.plain_unit
        };
        // Plain routes of the rest are reserved only where they pay more per second than
        // spelling: their units' move score against the points of a spelled route, as the
        // estimate's sample made them until this game's own routes show them. Without that
        // prior, a game that had spelled nothing reserved plain routes for all its units: on a
        // 60 x 2,000 board pre-filled below (500 units, known 18, `-t 30`) whose plain routes
        // alone outlasted the time, no unit spelled and the game scored its moves, ~3,000.
        let (move_per_unit, power_per_unit, spelled_mean) = if spelled == 0 {
            let spelled_unit = cost.spelled_unit.as_secs_f64();
            (cost.plain_moves, cost.spelled_power, spelled_unit)
        } else {
            (
                game.move_score() as f64 / game.locked().max(1) as f64,
                scribe.power_score() as f64 / f64::from(spelled),
                spelled_time.as_secs_f64() / f64::from(spelled),
            )
        };
        let plain_pays = move_per_unit * spelled_mean
            >= power_per_unit * PLAIN_ROUTE_MARGIN * plain_unit.as_secs_f64();
        let reserve = if plain_pays {
            plain_unit.mul_f64(PLAIN_ROUTE_MARGIN * left as f64) + last_spelled
        } else {
            Duration::ZERO
        };
        let remaining = deadline.remaining();
        // Past the grace the game so far is the answer (a prefix of a legal answer is legal):
        // routes that ran over left only the drop answer (a generated 55 x 58 game of 2,511
        // units without phrases: its routes, estimated 5.4 s, had 3.6 s).
        if k > first && remaining.is_zero() && Instant::now() >= grace_end {
            break;
        }
        // At the deadline the game so far is offered once: a route of the grace that runs past
        // the watchdog then leaves `play` this prefix, not the drop answer (100 x 10,000
        // pre-filled, 20 units, a generated set of six phrases of moves, `-t 10`: 4.0 s left
        // for routes, a job still routing at the watchdog, 77 points).
        if k > first && remaining.is_zero() && !offered {
            offered = true;
            offer_prefix(job, scribe.text());
        }
        // The first unit spells whatever the time, to collect each phrase's +300, unless the
        // plain routes of the rest (at their estimate, without the margin) would then not fit
        // the grace while some would (past the grace, only the first unit is routed): a
        // 600-unit game of a 10-seed problem (`-t 5 -c 2`, known 18) whose plan ended past its
        // 0.9 s share spelled its first unit in 50-80 ms and answered that one lock (2,226
        // against 15,720 routed). With the margin, a 128 x 10,000 board pre-filled below (`gen
        // --seed 4953 --fill 0.2`, `-t 60`) routed its first 19 of 50 units plain (722,457).
        let grace_left = grace_end.saturating_duration_since(Instant::now());
        let first_spells = k == 0
            && (grace_left > plain_unit.mul_f64(left as f64) + last_spelled
                || grace_left.is_zero());
        let spell = scribe.can_spell() && (first_spells || remaining > reserve);
        // The DP costs several times the greedy route (about 3 ms a unit on the 100-column
        // problem 24): it runs while the time left holds the units left at the mean cost so
        // far with a margin, so a loaded machine spells with the greedy instead of not at all.
        let mean = route_started.elapsed().as_secs_f64() / (k - first).max(1) as f64;
        scribe.use_dp = remaining.as_secs_f64() > 1.5 * left as f64 * mean;
        scribe.pace(remaining.as_secs_f64(), left, mean);
        starts.push(scribe.between_units().then(|| scribe.text().len()));
        let started = Instant::now();
        scribe.route(&mut game, lock, locks.get(k + 1).copied(), spell);
        if spell {
            last_spelled = started.elapsed();
            spelled += 1;
            spelled_time += last_spelled;
        } else {
            plain += 1;
            plain_time += started.elapsed();
        }
    }
    let time = route_started.elapsed();
    let mut text = scribe.into_text();
    if fall {
        fall_rest(&mut game, &mut text, usize::MAX, || {
            Instant::now() >= grace_end
        });
    }
    let played = scored_game(job, text);
    (job.offer)(&played);
    Routed {
        played,
        time,
        starts,
        spelled,
        spelled_time,
    }
}

/// Offers the game whose commands so far are `text` (a prefix of a legal answer is legal),
/// scored by the evaluator.
fn offer_prefix(job: &Job, text: &str) {
    (job.offer)(&scored_game(job, text.to_owned()));
}

/// The job's game of `commands`, scored by the evaluator (the solver's own check of every
/// game it offers).
fn scored_game(job: &Job, commands: String) -> Played {
    let scored = evaluate(job.setup, u64::from(job.seed), &commands, job.phrases)
        .expect("the seed comes from the problem");
    assert!(
        scored.error.is_none(),
        "the solver produced an invalid solution: {:?}",
        scored.error
    );
    Played {
        commands,
        score: scored.score,
        locked: scored.locked,
    }
}

/// The units left of `game`, whose commands so far are `text`, each falling straight down (SW
/// and SE in turn, never back to a position it had) until it locks, as `play`'s drop answer:
/// until the game ends, `text` holds `bytes` commands or `expired()` (asked every 4,096
/// commands; a prefix of a legal answer is legal).
pub(crate) fn fall_rest(
    game: &mut Game,
    text: &mut String,
    bytes: usize,
    expired: impl Fn() -> bool,
) {
    let mut command = Command::SW;
    while !game.is_over() && text.len() < bytes {
        if text.len().is_multiple_of(4096) && expired() {
            break;
        }
        if game.step(command) == Outcome::Repeated {
            // Cannot happen for downward moves; stop before the error would be written.
            break;
        }
        text.push(command.char());
        command = if command == Command::SW {
            Command::SE
        } else {
            Command::SW
        };
    }
}

/// A routed game, how long its routes took, and where the text of each lock starts (as in
/// [`Opening`]).
struct Routed {
    played: Played,
    time: Duration,
    starts: Vec<Option<usize>>,
    /// Units routed spelling, and their routes' time.
    spelled: u32,
    spelled_time: Duration,
}

/// Headroom on the plain routes of a whole game that its plan leaves time for (the estimate,
/// the median of the first units, erred 10-20 % high on a tall pre-filled board).
const PLAIN_GAME_MARGIN: f64 = 1.2;

/// Headroom on the estimated time of a width-1 plan of the game: the plan's time is never cut
/// below it for the routes.
const BEAM_COST_MARGIN: f64 = 1.5;

/// Plain routes routed before their mean replaces the estimate in a game's reserve.
const PLAIN_PACE_UNITS: u32 = 4;

/// Headroom on the estimated plain route of a unit where spelling gives way to plain routes.
const PLAIN_ROUTE_MARGIN: f64 = 3.0;

/// Share of a game's time its routes may run past it, plain, to route every lock of a plan:
/// `play` ends the searches early enough that this grace ends by its watchdog.
pub const ROUTE_GRACE: f64 = 0.05;

/// [`solve`] with a time limit instead of a deadline.
pub fn solve_within(setup: &Setup, seed: u32, phrases: &PhraseSet, time: Duration) -> Played {
    solve(setup, seed, phrases, &Deadline::after(time))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::icfp2015::gen::problem::{generate, Spec};

    /// A 128 x 4,000 board whose lower 60 % is a fifth filled (`gen --seed 3906 --fill 0.2`, 300
    /// units): a width-1 layer there took ~0.5 s (its flood percolates into the fill).
    fn tall_setup() -> Setup {
        let spec = Spec {
            id: 3906,
            width: Some(128),
            height: Some(4000),
            length: Some(300),
            seeds: Some(1),
            fill: Some(0.2),
            ..Spec::default()
        };
        Setup::new(generate(&spec, 3906))
    }

    #[test]
    fn a_tall_board_samples_within_the_clock_and_an_ordinary_one_plans_whole() {
        let setup = tall_setup();
        let seed = setup.problem.source_seeds[0];
        let order = Game::new(&setup, seed).order().to_vec();
        let weights = Weights::for_setup(&setup);
        // No time: one unit planned, standing for itself.
        let (locks, units) = sample_plan(&setup, &order[..BEAM_SAMPLE], &weights, Duration::ZERO);
        assert_eq!((locks.len(), units), (1, 1));
        // Its band chunks shrink to what fits a share of the time left (at least one unit).
        let soon = Deadline::after(Duration::from_secs(1));
        assert_eq!(band_chunk(&setup, Duration::from_secs(1), &soon), 1);
        // 5 % of the second left, at 2 ms a unit: 25 units, or one fewer as the clock runs.
        let chunk = band_chunk(&setup, Duration::from_millis(2), &soon);
        assert!((20..=25).contains(&chunk), "{chunk}");
        // Problem 1 (12 x 15) samples with one plan of every unit, as before, and chunks whole.
        let setup = Setup::bundled(1);
        let seed = setup.problem.source_seeds[0];
        let order = Game::new(&setup, seed).order().to_vec();
        let sample = &order[..PLAIN_ROUTE_SAMPLE];
        let now = Deadline::after(Duration::ZERO);
        let one = plan(
            &setup,
            &setup.start,
            sample,
            &weights,
            &now,
            sample.len(),
            &[],
        );
        assert_eq!(
            sample_plan(&setup, sample, &weights, Duration::ZERO),
            (one, sample.len())
        );
        assert_eq!(
            band_chunk(&setup, Duration::from_secs(1), &soon),
            BAND_CHUNK
        );
    }

    #[test]
    fn the_units_left_fall_as_in_the_drop_answer() {
        for id in [1, 9] {
            let setup = Setup::bundled(id);
            let seed = setup.problem.source_seeds[0];
            let mut game = Game::new(&setup, seed);
            let mut text = String::new();
            let until = Instant::now() + Duration::from_secs(60);
            fall_rest(&mut game, &mut text, usize::MAX, || Instant::now() >= until);
            assert!(game.is_over());
            let dropped = crate::icfp2015::play::drop_answer(
                &setup,
                seed,
                &Deadline::after(Duration::from_secs(60)),
            );
            assert_eq!(text, dropped, "problem {id}");
        }
    }

    #[test]
    fn a_tall_boards_search_answers_a_routed_game() {
        // Before the estimates looked at the clock, this search planned 16, 32 and 200 units
        // with no look at it before its first route (a layer took ~0.5 s on such a board; the
        // 3,000-unit game of this board answered no search in 10 s, docs Part 43). The bound
        // below is generous.
        let setup = tall_setup();
        let seed = setup.problem.source_seeds[0];
        let started = Instant::now();
        let played = solve_within(&setup, seed, &PhraseSet::none(), Duration::from_secs(2));
        let again = evaluate(&setup, seed as u64, &played.commands, &PhraseSet::none()).unwrap();
        assert_eq!((again.error, again.score), (None, played.score));
        assert!(played.locked > 0, "{played:?}");
        assert!(started.elapsed() < Duration::from_secs(30));
    }

    #[test]
    fn bands_promise_more_on_the_wide_board_only() {
        // 24: 100 x 40 with islands; 14 (50 x 50) and 18 (30 x 30) also take most of the time
        // to route, but there the band plans score less (`bench --per-problem 20 -c 1 --only
        // 14,18`: 94,726 and 14,125 against ~105,000 and ~78,000).
        for (id, expected) in [(24, true), (14, false), (18, false)] {
            let setup = Setup::bundled(id);
            let mut rng = Rng::new(1);
            let seed = setup.problem.source_seeds[0];
            assert_eq!(
                bands_promise_more_timed(
                    &setup,
                    seed,
                    bands::POWER_PER_ROW,
                    1.0,
                    Duration::MAX,
                    &mut rng
                )
                .0
                .is_some(),
                expected,
                "problem {id}"
            );
        }
    }

    #[test]
    fn a_tall_boards_band_plan_is_given_up_past_its_budget() {
        let spec = Spec {
            width: Some(20),
            height: Some(400),
            length: Some(200),
            seeds: Some(1),
            ..Spec::default()
        };
        let setup = Setup::new(generate(&spec, 7));
        let seed = setup.problem.source_seeds[0];
        let mut rng = Rng::new(1);
        // Cut after its first unit: no promise, whatever the plan would have scored.
        let (band, _) = bands_promise_more_timed(
            &setup,
            seed,
            bands::POWER_PER_ROW,
            1.0,
            Duration::ZERO,
            &mut rng,
        );
        assert!(band.is_none());
    }

    /// `played_units` of the bundled problem `id`'s first seed, at most `most`.
    fn played_units_of(id: usize, most: usize) -> Option<usize> {
        let setup = Setup::bundled(id);
        let deadline = Deadline::after(Duration::from_secs(10));
        let phrases = PhraseSet::known();
        let job = Job {
            setup: &setup,
            seed: setup.problem.source_seeds[0],
            phrases: &phrases,
            deadline: &deadline,
            variant: 0,
            offer: &|_| {},
        };
        played_units(&job, most)
    }

    #[test]
    fn a_game_is_as_long_as_it_is_played() {
        // 13: 100 units of up to 17 cells on 15 x 20; its plans lock 11 of them.
        let units = played_units_of(13, 48).expect("a game that ends early");
        assert!((8..=20).contains(&units), "{units}");
        // 0 (100 units on 10 x 10) and 6 (150) last (their plans of 33 units lock every unit):
        // long games, and short where they fit whole.
        assert_eq!(played_units_of(0, 40), None);
        assert_eq!(played_units_of(6, 40), None);
        assert_eq!(played_units_of(0, 100), Some(100));
    }

    #[test]
    fn solutions_are_valid_and_score() {
        for id in [0, 1, 2, 6] {
            let setup = Setup::bundled(id);
            let seed = setup.problem.source_seeds[0];
            let played = solve_within(
                &setup,
                seed,
                &PhraseSet::known(),
                Duration::from_millis(300),
            );
            let again =
                evaluate(&setup, seed as u64, &played.commands, &PhraseSet::known()).unwrap();
            assert_eq!(again.error, None);
            assert_eq!(again.score, played.score);
            assert!(
                played.score > 0 && played.locked > 0,
                "problem {id}: {played:?}"
            );
        }
    }
}
