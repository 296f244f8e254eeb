//! What the planners weigh: the weights of a lock's and a board's features, their defaults for
//! the problem's unit mix (big units among small ones), the tuning variable and perturbations.

use crate::core::rng::Rng;
use crate::icfp2015::rules::game::Setup;

/// Weights of the placement features; see `placement_value`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    pub points: f64,
    pub depth: f64,
    pub row_fill: f64,
    pub neighbours: f64,
    pub covered: f64,
    /// Per row the unit drops before it locks (its top cell's row): the rows where the route
    /// can spell phrases, and a low stack.
    pub drop: f64,
    /// Per row the pivot sits below the unit's top cell at the lock: with `drop` at the same
    /// weight, the value counts the rows the pivot falls (the route's SW and SE commands, where
    /// it spells) instead of those the top cell falls. They differ by orientation, most where
    /// the pivot lies outside the unit (problem 20's sit 5-6 rows below their cells).
    pub fall: f64,
    /// Per row between the board's top and its highest filled cell after the lock.
    pub stack: f64,
    /// Per row the lock clears, on top of its points.
    pub lines: f64,
    /// Per hole of the board after the lock (see `Features`); a board term.
    pub holes: f64,
    /// Per empty row above the stack of the board after the lock; a board term.
    pub height: f64,
    /// Per empty cell under a filled cell of its column; a board term.
    pub cover: f64,
    /// Per row of height difference between neighbouring columns; a board term.
    pub bumps: f64,
    /// Per unit of `Features::rows`; a board term.
    pub rows: f64,
    /// Per unit of the best placement value the next big unit of the sequence would have on
    /// the board, with the burst after it (see `burst_value`); a board term, computed for the
    /// best children only.
    pub ahead: f64,
    /// Per unit of the best value the next unit of the sequence would have on the board (its
    /// placement value and the change of the board term it makes, see `next_unit_value`); a
    /// board term, computed for the best children only. Off (0) on every unit mix: at a fixed
    /// width it kept long games alive longer (g1601-g1612, `examples/icfp2015_survive.rs
    /// --width 8`, units locked / score 16,772 / 331,429 -> 17,261 / 357,068 at `spread` 4),
    /// but a layer costs ~5x, and at equal time a wider plain beam did as well and under the
    /// clock better (docs/icfp2015.md, Part 18).
    pub next: f64,
    /// How many candidates per node kept a look-ahead (`ahead` or `next`) values and re-ranks.
    pub spread: usize,
    /// Per cell of the unit on a cell where some unit of the problem spawns.
    pub spawn: f64,
    /// How many big units the look-ahead places in turn (see `burst_value`): the next one and
    /// those that follow it within `BURST_SPAN` units.
    pub burst: usize,
    /// Lock only where the unit cannot fall further (SW or SE blocked).
    pub resting: bool,
    /// Skip locks that clear a single row while the board holds fewer than three rows' worth
    /// of cells and more than ten units remain, waiting for multi-row clears.
    pub hold_single: bool,
}

impl Default for Weights {
    fn default() -> Weights {
        // depth 8 (was 4): problem 24 235,536 / 238,674 / 232,226 against 220,992 to 228,146
        // with 4 (bench --per-problem 30 -c 1, load ~2-3, wider beam of row-mask values).
        // hold_single on (`play -t 15 -c 1`, one run each, off -> on): problem 0 11,581 ->
        // 12,413; 8 19,240 -> 20,208; 10 8,398 -> 8,938; 20 8,688 -> 8,900; 12 13,535 -> 13,323;
        // 14 104,358 -> 105,676 (the board-count condition keeps it off on 18 and 24).
        Weights {
            points: 1.0,
            depth: 8.0,
            row_fill: 1.0,
            neighbours: 2.0,
            covered: -6.0,
            drop: 4.0,
            fall: 0.0,
            stack: 0.0,
            lines: 0.0,
            holes: HOLES,
            height: HEIGHT,
            cover: COVER,
            bumps: BUMPS,
            rows: 0.0,
            ahead: 0.0,
            next: 0.0,
            spread: 2,
            spawn: 0.0,
            burst: 1,
            resting: false,
            hold_single: true,
        }
    }
}

// Board weights: all zero by default. Measured (`bench --per-problem 30 -c 1 --only 18,24`, load
// 2-4; untuned: 18 ~27,500, 24 ~221,000): holes -20 and height 4 gave 16,049 and 150,446; holes
// -50: 15,312 / 127,096; cover -15: 26,754 / 145,169; holes -2, height 2: 27,020 / 146,414; cover
// -1: 31,631 / 225,684 (within the noise); height alone 10 or 30 on 18: 25,022 / 21,578. Both
// problems have caves under pre-filled islands; in the games looked at, a penalty on sealing them
// made the beam stack on the islands instead and end early (24: 896 of 1620 units, holes -20).
const HOLES: f64 = 0.0;
const HEIGHT: f64 = 0.0;
const COVER: f64 = 0.0;
const BUMPS: f64 = 0.0;

/// The weight of `Features::rows` (the first-place team's row evaluation: full rows with open
/// empty cells, empty rows high up) with big units among small ones: a board term, so the beam
/// ranks the boards it would leave, not only the locks that made them. Measured with
/// `PODIUM_ICFP2015_WEIGHTS` (`play -t 30 -c 1`, load ~5-6, how many units each plan placed
/// before no node could spawn the next): problem 18 at 0 died at 190-314 of 1000 in all 37
/// plans of three runs; at 50-150, 4 plans in 3 of 5 runs reached 906-989 units; at 300 all
/// died by 156 (docs/icfp2015.md, Part 6). Fresh generated 25 x 35 games of 1500 units (`gen
/// --seed 611/612/615 --width 25 --height 35 --shapes 15 --max-size 14 --fill 0.1`, no
/// phrases): longest plan 116/159/180 at 0 (`-t 20`), 120/172/308 at 100 (`-t 10`). Holes -10
/// did the opposite (89/82).
const BIG_UNIT_ROWS: f64 = 100.0;

/// How many times over a game's units fill its board (`board_fills`) from which the row
/// evaluation is weighted (`rows` = `BIG_UNIT_ROWS`) without big units too: such a game lasts
/// only while it clears rows. Measured without the clock (`examples/icfp2015_survive.rs
/// --width 8`, units locked, docs/icfp2015.md Part 15): 30 x 60 and other long games of
/// 5000 units of 46 shapes (8-32 fills), rows 0 -> 100: tune games 2,361 -> 2,786 locked
/// (31,867 -> 42,934 points), check games 1,942 -> 2,193 (19,844 -> 27,328), no check game
/// lower; games of 1-6-cell units that last all 5000 units 93,366 -> 103,666 points. Of the
/// qualifiers only problem 9 (16 fills) is over it and has no big units.
const LONG_GAME_FILLS: f64 = 7.0;

/// How many times over the cells of the game's units (the mean unit size times the source
/// length) fill its board.
fn board_fills(setup: &Setup) -> f64 {
    let mean =
        setup.units.iter().map(|u| u.size as f64).sum::<f64>() / setup.units.len().max(1) as f64;
    let cells = (setup.width() * setup.height()).max(1) as f64;
    mean * setup.problem.source_length as f64 / cells
}

/// The share of the cells in big units (`big_cell_share`) from which the look-ahead weighs
/// (`ahead` 1, else 0): where big units carry most of the cells, the game ends when one cannot
/// spawn; where they are a few units barely twice the mean, the pockets the look-ahead keeps
/// for them cost the small units' rows. Measured (`play -t 10 -c 1`, three pairs alternating,
/// load 3.6-4.6, units locked; docs/icfp2015.md, Part 10): generated 25 x 35 games with
/// 13-14-cell units at 14-29 % of the cells, look-ahead on / off: 615 339, 320, 286 / 389,
/// 372, 349; 637 252, 188, 177 / 241, 226, 245; 632 136, 147, 139 / 152, 156, 168.
const AHEAD_FROM_SHARE: f64 = 0.5;

/// How many big units of a burst the look-ahead places, with big units among small ones.
/// Problem 18 (`play -t 30 -c 1 --known-phrases`, five runs each, load 3-5): at 1, 3 of 5
/// games lasted the 1000 units (min 38,264, median 80,649); at 3, 4 of 5 and the fifth 891
/// units (min 67,817, median 88,292) (docs/icfp2015.md, Part 8).
const BIG_UNIT_BURST: usize = 3;

/// The environment variable that changes the default weights (those of the problem's unit
/// mix, `Weights::for_setup`), for tuning: `name=value` pairs separated by commas
/// (`holes=-5,resting=1`), the names being those of `Weights`' fields.
pub const WEIGHTS_VAR: &str = "PODIUM_ICFP2015_WEIGHTS";

impl Weights {
    /// The defaults with the `name=value` pairs of `spec` (see [`WEIGHTS_VAR`]) applied.
    pub fn parse(spec: &str) -> Result<Weights, String> {
        Weights::default().with(spec)
    }

    /// These weights with the `name=value` pairs of `spec` applied.
    pub fn with(self, spec: &str) -> Result<Weights, String> {
        let mut w = self;
        for pair in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let bad = || format!("icfp2015 {WEIGHTS_VAR}: `{pair}` is not name=number");
            let (name, value) = pair.split_once('=').ok_or_else(bad)?;
            let v: f64 = value.trim().parse().map_err(|_| bad())?;
            if !v.is_finite() {
                return Err(bad());
            }
            let field = match name.trim() {
                "points" => &mut w.points,
                "depth" => &mut w.depth,
                "row_fill" => &mut w.row_fill,
                "neighbours" => &mut w.neighbours,
                "covered" => &mut w.covered,
                "drop" => &mut w.drop,
                "fall" => &mut w.fall,
                "stack" => &mut w.stack,
                "lines" => &mut w.lines,
                "holes" => &mut w.holes,
                "height" => &mut w.height,
                "cover" => &mut w.cover,
                "bumps" => &mut w.bumps,
                "rows" => &mut w.rows,
                "ahead" => &mut w.ahead,
                "next" => &mut w.next,
                "spawn" => &mut w.spawn,
                "spread" => {
                    w.spread = (v.max(1.0) as usize).min(MAX_SPREAD);
                    continue;
                }
                "burst" => {
                    w.burst = (v.max(1.0) as usize).min(MAX_BURST);
                    continue;
                }
                "resting" => {
                    w.resting = v != 0.0;
                    continue;
                }
                "hold_single" => {
                    w.hold_single = v != 0.0;
                    continue;
                }
                other => return Err(format!("icfp2015 {WEIGHTS_VAR}: no weight named `{other}`")),
            };
            *field = v;
        }
        Ok(w)
    }

    /// The weights [`WEIGHTS_VAR`] names, if it is set.
    pub fn from_env() -> Result<Option<Weights>, String> {
        Weights::default().with_env()
    }

    /// These weights with the pairs of [`WEIGHTS_VAR`] applied, if it is set.
    pub fn with_env(self) -> Result<Option<Weights>, String> {
        match std::env::var(WEIGHTS_VAR) {
            Ok(spec) => self.with(&spec).map(Some),
            Err(std::env::VarError::NotPresent) => Ok(None),
            Err(_) => Err(format!("icfp2015 {WEIGHTS_VAR}: not UTF-8")),
        }
    }

    /// The defaults for the unit mix of `setup`. With big units among small ones (see
    /// `next_big_units`; problem 18: 75% of the cells come in 6 of its 26 units), the game
    /// ends when a big unit cannot spawn: look ahead to the next big unit's best place (where
    /// big units carry most of the cells, `AHEAD_FROM_SHARE`), keep the spawn cells free, avoid
    /// covering empty cells and lock only where units rest.
    //
    // Measured on problem 18 (`play -t 15 -c 1`, three runs each): defaults 30,870 / 31,508 /
    // 31,544 (240-266 of 1000 units); ahead 1 alone 34,494 / 29,986 / 30,952; ahead 1, spawn
    // -3000, cover -2: 32,240 / 56,596 / 45,213 (266, 714, 567 units), later 34,813 / 31,892 /
    // 34,935 / 35,077; with resting too: 81,684 (all 1000 units) / 39,170 / 34,321 / 50,851 /
    // 36,524 / 37,011 (problem 24: 215,414, 12: 136,137, both as without).
    pub fn for_setup(setup: &Setup) -> Weights {
        let w = Weights {
            hold_single: multi_row_clears(setup),
            ..Weights::default()
        };
        if has_big_units(setup) {
            Weights {
                ahead: if big_cell_share(setup) >= AHEAD_FROM_SHARE {
                    1.0
                } else {
                    0.0
                },
                burst: BIG_UNIT_BURST,
                spawn: -3000.0,
                cover: -2.0,
                rows: BIG_UNIT_ROWS,
                resting: true,
                ..w
            }
        } else if board_fills(setup) >= LONG_GAME_FILLS {
            Weights {
                rows: BIG_UNIT_ROWS,
                ..w
            }
        } else {
            w
        }
    }

    /// [`Weights::for_setup`] for a game whose routes spell phrases (`spells`): where no big
    /// units make survival the game, the lock is valued by the rows its pivot falls (`fall` =
    /// `drop`). Problem 20 (2-3-cell units whose pivots sit 5-6 rows below them), `play -t 10
    /// -c 2 --known-phrases`: 4.1 -> 7.0 rows fallen a unit, 9,536 -> 10,810.
    //
    // Not the phrases' power a row on top of `drop` (= `fall`) in big-unit games that last
    // (docs/icfp2015.md, Part 52): +3.5 % on problem 12's kind while the lock lists kept the
    // highest of a cell set's pivots, -0.9 % once they kept the lowest (`play -t 12 -c 1`, 11
    // games, drop = fall 10.4 / 4 / drop 4 alone: 242,782 / 244,905 / 244,868).
    pub fn for_game(setup: &Setup, spells: bool) -> Weights {
        let w = Weights::for_setup(setup);
        if spells && !has_big_units(setup) {
            Weights { fall: w.drop, ..w }
        } else {
            w
        }
    }

    /// Whether any board term is weighted (else `Features` need not be computed).
    pub(crate) fn sees_boards(&self) -> bool {
        self.holes != 0.0
            || self.height != 0.0
            || self.cover != 0.0
            || self.bumps != 0.0
            || self.rows != 0.0
    }

    /// These weights, each scaled by a random factor in [0.5, 2], and a drop weight in [0, 8].
    pub fn perturbed(&self, rng: &mut Rng) -> Weights {
        let drop = 8.0 * rng.f64();
        Weights {
            drop,
            ..self.scaled(|w| w * 2f64.powf(2.0 * rng.f64() - 1.0))
        }
    }

    /// These weights, each scaled by a random factor in [0.8, 1.25].
    pub fn nudged(&self, rng: &mut Rng) -> Weights {
        self.scaled(|w| w * 2f64.powf(0.3 * (2.0 * rng.f64() - 1.0)))
    }

    /// These weights with every number passed through `scale` (the switches kept).
    fn scaled(&self, mut scale: impl FnMut(f64) -> f64) -> Weights {
        Weights {
            points: scale(self.points),
            depth: scale(self.depth),
            row_fill: scale(self.row_fill),
            neighbours: scale(self.neighbours),
            covered: scale(self.covered),
            drop: scale(self.drop),
            fall: scale(self.fall),
            stack: scale(self.stack),
            lines: scale(self.lines),
            holes: scale(self.holes),
            height: scale(self.height),
            cover: scale(self.cover),
            bumps: scale(self.bumps),
            rows: scale(self.rows),
            ahead: scale(self.ahead),
            next: scale(self.next),
            spawn: self.spawn,
            burst: self.burst,
            spread: self.spread,
            resting: self.resting,
            hold_single: self.hold_single,
        }
    }
}

/// The most candidates per kept node [`Weights::spread`] may name.
pub const MAX_SPREAD: usize = 16;

/// The most big units [`Weights::burst`] may name.
pub const MAX_BURST: usize = 4;

/// How far after the next big unit the look-ahead takes the big units that follow it: a burst.
pub const BURST_SPAN: usize = 12;

/// Per layer k of `order`: the layer of the next big unit after k, if any. A unit is big when
/// it has more than twice the mean unit size of the problem (problem 18: the 9- and 17-cell units
/// among 20 single cells), so on problems of similar units there is none.
pub(crate) fn next_big_units(setup: &Setup, order: &[u32]) -> Vec<Option<usize>> {
    let big = big_units(setup);
    let mut next = vec![None; order.len()];
    let mut upcoming = None;
    for k in (0..order.len()).rev() {
        next[k] = upcoming;
        if big[order[k] as usize] {
            upcoming = Some(k);
        }
    }
    next
}

/// Per unit of the problem, whether it is big (see `next_big_units`).
fn big_units(setup: &Setup) -> Vec<bool> {
    let mean =
        setup.units.iter().map(|u| u.size as f64).sum::<f64>() / setup.units.len().max(1) as f64;
    setup
        .units
        .iter()
        .map(|u| u.size as f64 > 2.0 * mean)
        .collect()
}

/// The share of the problem's cells that come in its big units (each unit counted once, as the
/// source draws them evenly): problem 18 0.76, 24 0.53, 12 0.75, 8 0.36.
fn big_cell_share(setup: &Setup) -> f64 {
    let (mut big_cells, mut cells) = (0.0, 0.0);
    for (unit, big) in setup.units.iter().zip(big_units(setup)) {
        cells += unit.size as f64;
        if big {
            big_cells += unit.size as f64;
        }
    }
    big_cells / f64::max(cells, 1.0)
}

/// Whether some unit of the problem is big.
fn has_big_units(setup: &Setup) -> bool {
    big_units(setup).contains(&true)
}

/// Whether one lock can clear two rows at once: some unit has two cells (a turn puts a pair on
/// two rows). With single cells only, holding back a single-row clear waits for a bonus that
/// never comes while the board fills. Off there in every attempt (was: every other), 12 fresh
/// single-cell games at `play -t 12 -c 1`: 138,884 -> 139,974 (`docs/icfp2015.md`, Part 51).
fn multi_row_clears(setup: &Setup) -> bool {
    setup.units.iter().any(|u| u.size > 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_parse_names_and_reject_the_rest() {
        let w = Weights::parse(" holes=-5, resting=1,spawn=-3000 ").unwrap();
        assert_eq!((w.holes, w.spawn, w.resting), (-5.0, -3000.0, true));
        assert_eq!(w.depth, Weights::default().depth);
        for bad in ["holes", "holes=x", "hole=1", "depth=inf", "=3"] {
            let e = Weights::parse(bad).unwrap_err();
            assert!(
                e.starts_with("icfp2015 PODIUM_ICFP2015_WEIGHTS:"),
                "{bad}: {e}"
            );
        }
    }

    #[test]
    fn big_units_follow_the_unit_mix() {
        // Problem 18: 20 single cells, five 9-cell and one 17-cell unit; problem 0: 1-3 cells.
        let setup = Setup::bundled(18);
        let big: Vec<u32> = (0..setup.units.len() as u32)
            .filter(|&i| big_units(&setup)[i as usize])
            .map(|i| setup.units[i as usize].size)
            .collect();
        assert_eq!(big, [17, 9, 9, 9, 9, 9]);
        assert_eq!(Weights::for_setup(&setup).ahead, 1.0);
        assert!(Weights::for_setup(&setup).resting);
        assert_eq!(Weights::for_setup(&setup).rows, BIG_UNIT_ROWS);
        let order = [0, 20, 1, 2, 21, 3];
        assert_eq!(
            next_big_units(&setup, &order),
            [Some(1), Some(4), Some(4), Some(4), None, None]
        );
        // Problem 8: one 4-cell unit among 1-2-cell ones, 36 % of the cells: no look-ahead.
        let eight = Setup::bundled(8);
        assert!(has_big_units(&eight) && big_cell_share(&eight) < AHEAD_FROM_SHARE);
        assert_eq!(Weights::for_setup(&eight).ahead, 0.0);
        assert!(Weights::for_setup(&eight).resting);
        // Problem 9: 400 units of 1-4 cells on a 10 x 8 board, 16 boards' worth: rows weighted.
        let nine = Setup::bundled(9);
        assert!(!has_big_units(&nine) && board_fills(&nine) > LONG_GAME_FILLS);
        assert_eq!(Weights::for_setup(&nine).rows, BIG_UNIT_ROWS);
        assert!(!Weights::for_setup(&nine).resting);
        let small = Setup::bundled(0);
        assert!(board_fills(&small) < LONG_GAME_FILLS);
        assert!(!has_big_units(&small));
        assert_eq!(Weights::for_setup(&small).ahead, 0.0);
        assert_eq!(Weights::for_setup(&small).rows, 0.0);
    }

    #[test]
    fn single_cells_hold_back_no_single_row_clear() {
        // Problem 1: 100 single cells, one row a lock at most; problem 0: units of 1-3 cells.
        assert!(!Weights::for_setup(&Setup::bundled(1)).hold_single);
        assert!(!Weights::for_game(&Setup::bundled(1), true).hold_single);
        assert!(Weights::for_setup(&Setup::bundled(0)).hold_single);
    }

    #[test]
    fn spelling_games_value_the_pivots_fall_unless_big_units_decide() {
        let twenty = Setup::bundled(20);
        assert_eq!(
            Weights::for_game(&twenty, true).fall,
            Weights::default().drop
        );
        assert_eq!(Weights::for_game(&twenty, false).fall, 0.0);
        assert_eq!(Weights::for_game(&Setup::bundled(18), true).fall, 0.0);
    }
}
