//! The cephalopod bundle's manifest: the crate's solver sources it is made of, the std-only
//! stand-ins for the crate-only ones, and its tables, from the build script's own generator.

use super::{tables, Generated, Manifest, Module};

#[path = "../../tables/cephalopod.rs"]
#[allow(dead_code)]
mod generator;

pub const MANIFEST: Manifest = Manifest {
    name: "cephalopod",
    entry: include_str!("parts/cephalopod_main.rs"),
    modules: &[
        Module {
            path: "cephalopod",
            source: include_str!("../cephalopod/mod.rs"),
        },
        Module {
            path: "cephalopod::arch",
            source: include_str!("../cephalopod/arch/mod.rs"),
        },
        Module {
            path: "cephalopod::arch::all",
            source: include_str!("../cephalopod/arch/all.rs"),
        },
        Module {
            path: "cephalopod::arch::x86_64",
            source: include_str!("../cephalopod/arch/x86_64/mod.rs"),
        },
        Module {
            path: "cephalopod::arch::x86_64::avx2",
            source: include_str!("../cephalopod/arch/x86_64/avx2.rs"),
        },
        // Stand-in: the crate's AVX-512 kernel needs Rust 1.89.
        Module {
            path: "cephalopod::arch::x86_64::avx512",
            source: include_str!("parts/cephalopod_avx512.rs"),
        },
        Module {
            path: "cephalopod::board",
            source: include_str!("../cephalopod/board.rs"),
        },
        Module {
            path: "cephalopod::engine",
            source: include_str!("../cephalopod/engine.rs"),
        },
        Module {
            path: "cephalopod::hybrid",
            source: include_str!("../cephalopod/hybrid.rs"),
        },
        Module {
            path: "cephalopod::input",
            source: include_str!("../cephalopod/input.rs"),
        },
        Module {
            path: "cephalopod::pips",
            source: include_str!("../cephalopod/pips.rs"),
        },
        Module {
            path: "cephalopod::tables",
            source: include_str!("../cephalopod/tables.rs"),
        },
        Module {
            path: "cephalopod::tables::generator",
            source: include_str!("../../tables/cephalopod.rs"),
        },
        Module {
            path: "core::prefetch",
            source: include_str!("../core/prefetch.rs"),
        },
        // Stand-ins: the crate's memory.rs maps with memmap2 and bytemuck, its cpu.rs caches more.
        Module {
            path: "cephalopod::memory",
            source: include_str!("parts/cephalopod_memory.rs"),
        },
        Module {
            path: "core::cpu",
            source: include_str!("parts/cpu.rs"),
        },
        tables::SUPPORT,
    ],
    omit: &[
        "cephalopod::cases",
        "cephalopod::cli",
        "cephalopod::judge",
        "cephalopod::reference",
        "cephalopod::svg",
    ],
    generated: &[Generated {
        file: "cephalopod_tables.rs",
        text: tables_text,
    }],
};

/// The generator's items: the big ones filled in place by it at start-up, the rest as literals.
fn tables_text() -> Result<String, String> {
    let items = generator::items();
    let mut declared = Vec::new();
    for item in &items {
        let filled = generator::FILLED.contains(&item.name);
        if !filled && item.literal.words() > tables::INLINE_WORDS {
            return Err(format!("{} is too big to inline and not filled", item.name));
        }
        declared.push(tables::Item {
            keyword: item.keyword,
            name: item.name,
            ty: item.literal.ty(),
            literal: (!filled).then(|| item.literal.render()),
        });
    }
    tables::module_text(declared, "generator::fill_tables")
}
