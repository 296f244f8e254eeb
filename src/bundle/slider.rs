//! The Slider bundle's manifest: the model, the scorer (the solver re-checks its answer with it)
//! and the solver, with the crate's std-only RNG and deadline; the CLI-only modules stay out.

use super::{Manifest, Module};

pub const MANIFEST: Manifest = Manifest {
    name: "slider",
    entry: include_str!("parts/slider_main.rs"),
    modules: &[
        Module {
            path: "slider",
            source: include_str!("../slider/mod.rs"),
        },
        Module {
            path: "slider::board",
            source: include_str!("../slider/board.rs"),
        },
        Module {
            path: "slider::score",
            source: include_str!("../slider/score.rs"),
        },
        Module {
            path: "slider::solve",
            source: include_str!("../slider/solve/mod.rs"),
        },
        Module {
            path: "slider::solve::anneal",
            source: include_str!("../slider/solve/anneal.rs"),
        },
        Module {
            path: "slider::solve::edit",
            source: include_str!("../slider/solve/edit.rs"),
        },
        Module {
            path: "slider::solve::event",
            source: include_str!("../slider/solve/event.rs"),
        },
        Module {
            path: "slider::solve::greedy",
            source: include_str!("../slider/solve/greedy.rs"),
        },
        Module {
            path: "slider::solve::order",
            source: include_str!("../slider/solve/order.rs"),
        },
        Module {
            path: "slider::solve::play",
            source: include_str!("../slider/solve/play.rs"),
        },
        Module {
            path: "slider::solve::progress",
            source: include_str!("../slider/solve/progress.rs"),
        },
        Module {
            path: "slider::solve::replay",
            source: include_str!("../slider/solve/replay.rs"),
        },
        Module {
            path: "slider::solve::search",
            source: include_str!("../slider/solve/search.rs"),
        },
        Module {
            path: "core::rng",
            source: include_str!("../core/rng.rs"),
        },
        Module {
            path: "core::stamp",
            source: include_str!("../core/stamp.rs"),
        },
        Module {
            path: "core::text",
            source: include_str!("../core/text.rs"),
        },
        Module {
            path: "core::timer",
            source: include_str!("../core/timer.rs"),
        },
    ],
    omit: &[
        "slider::bound",
        "slider::cases",
        "slider::cli",
        "slider::gen",
        "slider::show",
    ],
    generated: &[],
};
