//! Imports run one way: the modules of `src/` (one per file) and the `use`/path references
//! between them form no cycle, except the ones listed below that an open issue still has to break.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

#[path = "common/source_files.rs"]
mod source_files;
use source_files::{code_of, sources};

/// Cycles that exist today and are scheduled to go (issue #24); each entry is a cycle's modules,
/// sorted. A cycle not listed here fails the test, and so does a listed one that is gone.
const KNOWN_CYCLES: &[&[&str]] = &[];

/// `src/a/b.rs` -> `a::b`, `src/a/mod.rs` -> `a`, `src/lib.rs` -> `` (binaries are left out).
fn module_of(root: &Path, file: &Path) -> Option<String> {
    let relative = file.strip_prefix(root).ok()?;
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop()?;
    match last.as_str() {
        "lib.rs" if parts.is_empty() => Some(String::new()),
        "main.rs" if parts.is_empty() => None,
        "mod.rs" => Some(parts.join("::")),
        _ => {
            if parts.first().is_some_and(|p| p == "bin") {
                return None;
            }
            parts.push(last.trim_end_matches(".rs").to_string());
            Some(parts.join("::"))
        }
    }
}

/// The module paths a file's code names: `super::x`, `crate::a::b`, `self::x`, and the names
/// inside `{...}` groups after them, resolved against `module`.
fn references(module: &str, is_mod_rs: bool, code: &str) -> BTreeSet<Vec<String>> {
    let own: Vec<String> = module
        .split("::")
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect();
    // Where `super` and `self` point from this file.
    let parent: Vec<String> = if is_mod_rs {
        own.iter()
            .take(own.len().saturating_sub(1))
            .cloned()
            .collect()
    } else {
        own[..own.len().saturating_sub(1)].to_vec()
    };
    let this = if is_mod_rs {
        own.clone()
    } else {
        parent.clone()
    };
    let mut found = BTreeSet::new();
    let bytes: Vec<char> = code.chars().collect();
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut i = 0;
    while i < bytes.len() {
        let starts_word = i == 0 || !is_ident(bytes[i - 1]);
        let rest: String = bytes[i..bytes.len().min(i + 7)].iter().collect();
        let (base, skip) = if starts_word && rest.starts_with("super::") {
            (parent.clone(), 7)
        } else if starts_word && rest.starts_with("crate::") {
            (Vec::new(), 7)
        } else if starts_word && rest.starts_with("self::") {
            (this.clone(), 6)
        } else {
            i += 1;
            continue;
        };
        i += skip;
        let mut path = base;
        collect_path(&bytes, &mut i, &mut path, &mut found);
    }
    found
}

/// Reads `a::b::{c, d::e}` at `i` onto `path`, recording every path (and its prefixes).
fn collect_path(
    chars: &[char],
    i: &mut usize,
    path: &mut Vec<String>,
    found: &mut BTreeSet<Vec<String>>,
) {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    loop {
        while *i < chars.len() && chars[*i].is_whitespace() {
            *i += 1;
        }
        if *i < chars.len() && chars[*i] == '{' {
            *i += 1;
            loop {
                let mut branch = path.clone();
                collect_path(chars, i, &mut branch, found);
                while *i < chars.len() && chars[*i].is_whitespace() {
                    *i += 1;
                }
                match chars.get(*i) {
                    Some(',') => *i += 1,
                    Some('}') => {
                        *i += 1;
                        return;
                    }
                    _ => return,
                }
                while *i < chars.len() && chars[*i].is_whitespace() {
                    *i += 1;
                }
                if chars.get(*i) == Some(&'}') {
                    *i += 1;
                    return;
                }
            }
        }
        let start = *i;
        while *i < chars.len() && is_ident(chars[*i]) {
            *i += 1;
        }
        if start == *i {
            found.insert(path.clone());
            return;
        }
        let word: String = chars[start..*i].iter().collect();
        if word == "super" {
            path.pop();
        } else if word != "self" {
            path.push(word);
        }
        found.insert(path.clone());
        if chars.get(*i) == Some(&':') && chars.get(*i + 1) == Some(&':') {
            *i += 2;
        } else {
            return;
        }
    }
}

/// Strongly connected components of more than one module (Tarjan's algorithm).
fn cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        if let Some(targets) = s.edges.get(v) {
            for w in targets {
                let w = w.as_str();
                if !s.index.contains_key(w) {
                    visit(s, w);
                    let low = s.low[v].min(s.low[w]);
                    s.low.insert(v, low);
                } else if s.on_stack.contains(w) {
                    let low = s.low[v].min(s.index[w]);
                    s.low.insert(v, low);
                }
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                component.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.out.push(component);
            }
        }
    }
    let mut state = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !state.index.contains_key(v.as_str()) {
            visit(&mut state, v);
        }
    }
    state.out.sort();
    state.out
}

/// The import graph between file modules; an edge between a module and its own ancestor (a
/// parent re-exporting its children, a child naming its parent's items) is left out.
fn module_graph(root: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    sources(root, &mut files);
    let modules: BTreeMap<String, PathBuf> = files
        .iter()
        .filter_map(|f| module_of(root, f).map(|m| (m, f.clone())))
        .collect();
    let is_ancestor = |a: &str, b: &str| a.is_empty() || b.starts_with(&format!("{a}::"));
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, file) in &modules {
        let text = fs::read_to_string(file).expect("read a source file");
        let is_mod_rs = file
            .file_name()
            .is_some_and(|n| n == "mod.rs" || n == "lib.rs");
        let targets = edges.entry(module.clone()).or_default();
        for path in references(module, is_mod_rs, &code_of(&text)) {
            // The deepest existing module that the path names.
            let target = (1..=path.len())
                .rev()
                .map(|k| path[..k].join("::"))
                .find(|m| modules.contains_key(m));
            if let Some(target) = target {
                if target != *module
                    && !is_ancestor(&target, module)
                    && !is_ancestor(module, &target)
                {
                    targets.insert(target);
                }
            }
        }
    }
    edges
}

#[test]
fn imports_between_modules_run_one_way() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let graph = module_graph(&root);
    assert!(
        graph
            .get("icfp2015::spell::chain")
            .is_some_and(|t| t.contains("icfp2015::rules::game")),
        "the scanner must see chain -> game: {:?}",
        graph.get("icfp2015::spell::chain")
    );
    let found = cycles(&graph);
    let known: Vec<Vec<String>> = KNOWN_CYCLES
        .iter()
        .map(|c| c.iter().map(|m| m.to_string()).collect())
        .collect();
    let new: Vec<&Vec<String>> = found.iter().filter(|c| !known.contains(c)).collect();
    assert!(new.is_empty(), "module cycles: {new:?}");
    let gone: Vec<&Vec<String>> = known.iter().filter(|c| !found.contains(c)).collect();
    assert!(
        gone.is_empty(),
        "cycles broken (remove them from KNOWN_CYCLES): {gone:?}"
    );
}

#[test]
fn the_scanner_finds_a_planted_cycle() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("module_graph_cycle");
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("p")).expect("create a scratch tree");
    fs::write(dir.join("lib.rs"), "pub mod p;\n").expect("write");
    fs::write(dir.join("p/mod.rs"), "pub mod a;\npub mod b;\npub mod c;\n").expect("write");
    fs::write(dir.join("p/a.rs"), "use super::{b::B, c};\n").expect("write");
    fs::write(
        dir.join("p/b.rs"),
        "use crate::p::c::C;\n#[cfg(test)]\nmod tests {\n    use super::super::a;\n}\n",
    )
    .expect("write");
    fs::write(
        dir.join("p/c.rs"),
        "// super::a in a comment\nfn f() { super::a::g(); }\n",
    )
    .expect("write");
    let graph = module_graph(&dir);
    assert_eq!(
        cycles(&graph),
        vec![vec!["p::a".to_string(), "p::b".into(), "p::c".into()]]
    );
    fs::write(dir.join("p/c.rs"), "fn f() {}\n").expect("write");
    assert!(cycles(&module_graph(&dir)).is_empty());
}
