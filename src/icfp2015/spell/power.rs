//! Which phrases of a set a problem's units can spell at all (a move and its reverse, or turns
//! back to an orientation held, repeat a position), and the most power a row of descent earns.

use crate::icfp2015::rules::commands::{decode, Command};
use crate::icfp2015::rules::game::{target, Setup};
use crate::icfp2015::rules::phrases::PhraseSet;
use crate::icfp2015::rules::unit::{Pos, Unit};

/// Whether a unit whose positions compare by `canonical` can play `commands` from one
/// position without a repeated position, on a board without walls. A descent (SW, SE) leaves
/// its row for good, so only the positions since the last one can repeat.
pub fn spells<'a>(
    commands: impl IntoIterator<Item = &'a Command>,
    canonical: &dyn Fn(Pos) -> Pos,
) -> bool {
    let mut pos = Pos {
        x: 0,
        y: 0,
        orientation: 0,
    };
    let mut row = vec![pos];
    commands.into_iter().all(|&c| {
        pos = canonical(target(pos, c));
        if c.descends() {
            row.clear();
        } else if row.contains(&pos) {
            return false;
        }
        row.push(pos);
        true
    })
}

/// Whether `unit` can spell `phrase` within one life (phrases of other characters never can).
pub fn unit_spells(unit: &Unit, phrase: &str) -> bool {
    let lower = phrase.to_lowercase();
    match decode(&lower) {
        Ok(commands) => !commands.is_empty() && spells(&commands, &|p| unit.canonical_pos(p)),
        Err(_) => false,
    }
}

/// Per phrase of `phrases`: whether some unit of `setup` can spell it.
pub fn spellable(phrases: &PhraseSet, setup: &Setup) -> Vec<bool> {
    phrases
        .phrases()
        .iter()
        .map(|p| setup.units.iter().any(|u| unit_spells(u, p)))
        .collect()
}

/// The most points per row of descent a spellable phrase of the set gives when spelled over and
/// over (`2 len / descents`; a phrase without descents counts one row), capped at
/// [`MAX_POWER_PER_ROW`]; 0 when no phrase can be spelled (the move score alone counts).
pub fn power_per_row(phrases: &PhraseSet, setup: &Setup) -> f64 {
    let spellable = spellable(phrases, setup);
    phrases
        .phrases()
        .iter()
        .zip(spellable)
        .filter(|(_, ok)| *ok)
        .map(|(p, _)| {
            let commands = decode(&p.to_lowercase()).unwrap_or_default();
            let descents = commands.iter().filter(|c| c.descends()).count().max(1);
            2.0 * p.chars().count() as f64 / descents as f64
        })
        .fold(0.0, f64::max)
        .min(MAX_POWER_PER_ROW)
}

/// Beyond this a route cannot keep up a phrase's rate row after row (a phrase of sideways moves
/// needs the width to come back); the 18 known phrases give at most 6 (`ei!`).
pub const MAX_POWER_PER_ROW: f64 = 12.0;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::icfp2015::rules::problem::Problem;

    fn setup_with(units: &str) -> Setup {
        let json = format!(
            r#"{{"id":1,"width":10,"height":9,"filled":[],"sourceLength":3,"sourceSeeds":[0],"units":{units}}}"#
        );
        Setup::new(Problem::parse(json.as_bytes(), "test").unwrap())
    }

    #[test]
    fn reverses_and_full_turns_are_never_spelled() {
        // A line of three about its middle cell: two-fold symmetry, so three turns one way
        // bring it back.
        let line = setup_with(
            r#"[{"members":[{"x":0,"y":0},{"x":1,"y":0},{"x":2,"y":0}],"pivot":{"x":1,"y":0}}]"#,
        );
        let unit = &line.units[0];
        for phrase in [
            "ei!", "Ei!", "r'lyeh", "ia! ia!", "aaaa", "bbbbbb", "dd", "kk",
        ] {
            assert!(unit_spells(unit, phrase), "{phrase}");
        }
        for phrase in ["ep", "bp", "dk", "ddd", "pbp", "kkk", "#x", ""] {
            assert!(!unit_spells(unit, phrase), "{phrase}");
        }
        // A single cell with its pivot on it: any turn is a repeated position.
        let cell = setup_with(r#"[{"members":[{"x":0,"y":0}],"pivot":{"x":0,"y":0}}]"#);
        assert!(!unit_spells(&cell.units[0], "d"));
        assert!(unit_spells(&cell.units[0], "ei!"));
        // A three-cell bent unit has no symmetry: five turns are fine, six are not.
        let bent = setup_with(
            r#"[{"members":[{"x":0,"y":0},{"x":1,"y":0},{"x":1,"y":1}],"pivot":{"x":0,"y":0}}]"#,
        );
        assert!(unit_spells(&bent.units[0], "ddddd"));
        assert!(!unit_spells(&bent.units[0], "dddddd"));
        assert!(!unit_spells(&line.units[0], "ddddd"));
        let phrases = PhraseSet::new(vec!["ddddd".into(), "ep".into()]).unwrap();
        assert_eq!(spellable(&phrases, &bent), [true, false]);
        assert_eq!(spellable(&phrases, &line), [false, false]);
    }

    #[test]
    fn power_per_row_counts_spellable_phrases_only() {
        let setup =
            setup_with(r#"[{"members":[{"x":0,"y":0},{"x":1,"y":0}],"pivot":{"x":0,"y":0}}]"#);
        assert_eq!(power_per_row(&PhraseSet::known(), &setup), 6.0);
        let none = PhraseSet::new(Vec::new()).unwrap();
        assert_eq!(power_per_row(&none, &setup), 0.0);
        let unspellable = PhraseSet::new(vec!["ep".into(), "bp".into()]).unwrap();
        assert_eq!(power_per_row(&unspellable, &setup), 0.0);
        let moves = PhraseSet::new(vec!["aaaa".into()]).unwrap();
        assert_eq!(power_per_row(&moves, &setup), 2.0);
    }
}
