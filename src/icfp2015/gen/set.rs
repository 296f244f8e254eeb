//! The fixed generated set `bench --generated` plays: ten problems drawn from `problem::Spec`'s
//! distributions, and the shapes the finals found hard (tiny, long, big units among small).

use super::problem::{generate, Spec};
use crate::icfp2015::rules::problem::Problem;

/// (name, spec, seed) of every problem of the set; ids are 1000 + index.
pub fn specs() -> Vec<(String, Spec, u64)> {
    let mut set: Vec<(String, Spec, u64)> = (1..=10)
        .map(|seed| (format!("random-{seed}"), Spec::default(), seed))
        .collect();
    let tiny = |length: usize| Spec {
        width: Some(10),
        height: Some(9),
        shapes: Some(7),
        max_size: Some(6),
        length: Some(length),
        seeds: Some(1),
        fill: Some(0.0),
        ..Spec::default()
    };
    set.push(("tiny-2".into(), tiny(2), 101));
    set.push(("tiny-3".into(), tiny(3), 102));
    set.push((
        "tiny-3-filled".into(),
        Spec {
            fill: Some(0.2),
            ..tiny(3)
        },
        103,
    ));
    set.push((
        "long-46-shapes".into(),
        Spec {
            width: Some(30),
            height: Some(60),
            shapes: Some(46),
            max_size: Some(9),
            length: Some(5000),
            seeds: Some(1),
            fill: Some(0.0),
            ..Spec::default()
        },
        104,
    ));
    // Big units among small ones (as in problems 12, 18 and 24): the game ends when a big unit
    // cannot spawn.
    set.push((
        "big-among-small".into(),
        Spec {
            width: Some(25),
            height: Some(30),
            shapes: Some(20),
            max_size: Some(14),
            big_units: Some(0.3),
            length: Some(1500),
            seeds: Some(1),
            fill: Some(0.3),
            ..Spec::default()
        },
        105,
    ));
    set.push((
        "big-among-small-long".into(),
        Spec {
            width: Some(40),
            height: Some(40),
            shapes: Some(30),
            max_size: Some(12),
            big_units: Some(0.25),
            length: Some(3000),
            seeds: Some(2),
            fill: Some(0.2),
            ..Spec::default()
        },
        106,
    ));
    for (i, entry) in set.iter_mut().enumerate() {
        entry.1.id = 1000 + i as i64;
    }
    set
}

/// The problems of the set, in order, with their names.
pub fn problems() -> Vec<(String, Problem)> {
    specs()
        .into_iter()
        .map(|(name, spec, seed)| (name, generate(&spec, seed)))
        .collect()
}
