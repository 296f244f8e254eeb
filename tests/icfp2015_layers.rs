//! The icfp2015 layers import one way: no module of `src/icfp2015/` names a layer above its own
//! (rules, then place, show, manual and gen, spell, solve, play, cli), its `#[cfg(test)]` items aside.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

#[path = "common/source_files.rs"]
mod source_files;
use source_files::{code_of, sources};

/// Each layer (a folder or a file of `src/icfp2015/`) and its rank: a module may name the
/// layers of a lower rank and its own.
const LAYERS: &[(&str, u32)] = &[
    ("rules", 0),
    ("memory", 0),
    ("trace", 0),
    ("place", 1),
    ("show", 1),
    ("manual", 1),
    ("gen", 1),
    ("spell", 2),
    ("solve", 3),
    ("play", 4),
    ("cli", 5),
];

fn rank(layer: &str) -> Option<u32> {
    LAYERS.iter().find(|(l, _)| *l == layer).map(|&(_, r)| r)
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The identifier at `i` (empty if none), and the index after it.
fn ident(code: &[u8], i: usize) -> (String, usize) {
    let end = (i..code.len())
        .find(|&j| !is_ident(code[j]))
        .unwrap_or(code.len());
    (String::from_utf8_lossy(&code[i..end]).into_owned(), end)
}

/// The first names after a path prefix ending at `i`: one name, or each group member's first.
fn first_names(code: &[u8], i: usize) -> Vec<String> {
    if code.get(i) != Some(&b'{') {
        return vec![ident(code, i).0];
    }
    let mut names = Vec::new();
    let (mut j, mut depth, mut expect) = (i + 1, 1, true);
    while j < code.len() && depth > 0 {
        match code[j] {
            b'{' => depth += 1,
            b'}' => depth -= 1,
            b',' if depth == 1 => expect = true,
            c if expect && depth == 1 && is_ident(c) => {
                let (name, end) = ident(code, j);
                names.push(name);
                expect = false;
                j = end;
                continue;
            }
            _ => {}
        }
        j += 1;
    }
    names
}

/// The icfp2015 layers that `code` names, in a file `nested` one folder deep or not: through
/// `crate::icfp2015::` or through as many `super::` as lead to `icfp2015`.
fn layers_named(code: &str, nested: bool) -> BTreeSet<String> {
    let supers = if nested { "super::super::" } else { "super::" };
    let mut found = BTreeSet::new();
    for prefix in ["crate::icfp2015::", supers] {
        let mut from = 0;
        while let Some(at) = code[from..].find(prefix) {
            let start = from + at;
            from = start + prefix.len();
            let begins = start == 0 || !is_ident(code.as_bytes()[start - 1]);
            // `super::super::` inside a nested file's deeper path is not this prefix.
            let deeper = code[..start].ends_with("super::");
            if begins && !deeper {
                found.extend(first_names(code.as_bytes(), from));
            }
        }
    }
    // A nested file's single `super::` names its own layer.
    found.retain(|n| !n.is_empty() && n != "super");
    found
}

/// Every (file, its layer, a layer it names) outside tests.
fn imports(root: &Path) -> Vec<(String, String, String)> {
    let mut files = Vec::new();
    sources(root, &mut files);
    let mut out = Vec::new();
    for file in files {
        let relative = file.strip_prefix(root).expect("under src/icfp2015");
        let parts: Vec<String> = relative
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        if parts == ["mod.rs"] {
            continue;
        }
        let layer = parts[0].trim_end_matches(".rs").to_string();
        let text = fs::read_to_string(&file).expect("read a source file");
        for named in layers_named(&code_of(&text), parts.len() > 1) {
            out.push((relative.display().to_string(), layer.clone(), named));
        }
    }
    out.sort();
    out
}

#[test]
fn icfp2015_layers_import_downwards_only() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/icfp2015");
    let found = imports(&root);
    let edges: BTreeSet<(&str, &str)> = found
        .iter()
        .map(|(_, from, to)| (from.as_str(), to.as_str()))
        .collect();
    for edge in [("spell", "place"), ("place", "rules"), ("solve", "spell")] {
        assert!(
            edges.contains(&edge),
            "the scanner must see {edge:?}: {edges:?}"
        );
    }
    let mut wrong = Vec::new();
    for (file, from, to) in &found {
        let Some(own) = rank(from) else {
            wrong.push(format!("{file}: layer {from} has no rank in LAYERS"));
            continue;
        };
        match rank(to) {
            None => wrong.push(format!("{file} names icfp2015::{to}, which is not a layer")),
            Some(r) if r >= own && to != from => {
                wrong.push(format!("{file} ({from}) names {to}, a layer not below it"))
            }
            Some(_) => {}
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_scanner_reads_paths_and_groups() {
    let code =
        "use super::{rules::game, place::value::{Features}};\nfn f() { super::show::x(); }\n";
    let names: Vec<String> = layers_named(code, false).into_iter().collect();
    assert_eq!(names, ["place", "rules", "show"]);
    let nested =
        "use super::words::Word;\nuse super::super::solve;\nuse crate::icfp2015::{cli, play::x};\n";
    let names: Vec<String> = layers_named(nested, true).into_iter().collect();
    assert_eq!(names, ["cli", "play", "solve"]);
    let tests = "use crate::icfp2015::rules::Game;\n#[cfg(test)]\nmod tests {\n    use crate::icfp2015::cli;\n}\n";
    let names: Vec<String> = layers_named(&code_of(tests), true).into_iter().collect();
    assert_eq!(names, ["rules"]);
}
