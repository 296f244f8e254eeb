//! `podium bundle`: writes one std-only Rust file that a contest judge compiles on its own,
//! assembled from the crate's own solver sources (embedded at compile time) as a manifest lists.
//
// How a bundle is made: each listed source loses its comments and `#[cfg(test)]` items; each
// `mod name;` becomes the module's body inline (or goes, if the manifest omits the module);
// listed modules that no source declares are appended to their parent; an `include!` of the
// build script's output becomes the text the manifest generates for it. The module tree mirrors
// the crate's, so `crate::` paths stay valid; modules that need crates (memmap2, libc,
// bytemuck) are listed with stand-ins from parts/ that need none.

mod cephalopod;
mod slider;
mod source;
pub mod tables;

// The stand-ins in parts/ are bundle sources; these copies compile them with the crate's tests.
#[cfg(test)]
#[path = "parts/cephalopod_memory.rs"]
mod cephalopod_memory_part;
#[cfg(test)]
#[path = "parts/cpu.rs"]
mod cpu_part;
#[cfg(test)]
#[path = "parts/runtime_table.rs"]
mod runtime_table_part;

use std::io::Write;
use std::path::Path;

/// The most characters a judge accepts in one source file (CodinGame).
pub const SIZE_LIMIT: usize = 100_000;

/// One module of a bundle.
#[derive(Clone, Copy)]
pub struct Module {
    /// Its path from the bundle's root, e.g. `cephalopod::arch::x86_64`.
    pub path: &'static str,
    pub source: &'static str,
}

/// The text that stands in a bundle for one file the build script writes to OUT_DIR.
pub struct Generated {
    pub file: &'static str,
    pub text: fn() -> Result<String, String>,
}

/// What a solver's bundle is made of.
pub struct Manifest {
    /// As `podium bundle NAME` takes it.
    pub name: &'static str,
    /// The bundle's root: a bundle-only source holding `fn main`.
    pub entry: &'static str,
    /// Every module: the crate's sources the solver needs, and stand-ins for crate-only ones.
    pub modules: &'static [Module],
    /// Modules that the listed sources declare but the bundle leaves out.
    pub omit: &'static [&'static str],
    pub generated: &'static [Generated],
}

/// Every solver that can be bundled.
pub const MANIFESTS: &[&Manifest] = &[&cephalopod::MANIFEST, &slider::MANIFEST];

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BundleReport {
    /// The file written, or `stdout`.
    pub destination: String,
    pub chars: usize,
}

/// The bundle of `problem` as text.
pub fn bundle(problem: &str) -> Result<String, String> {
    let manifest = MANIFESTS
        .iter()
        .find(|m| m.name == problem)
        .ok_or_else(|| {
            let names: Vec<&str> = MANIFESTS.iter().map(|m| m.name).collect();
            format!("no bundle for {problem:?} (there is: {})", names.join(", "))
        })?;
    assemble(manifest).map_err(|e| format!("bundle {problem}: {e}"))
}

/// Writes the bundle of `problem` to `out` (stdout when `None`), after printing its size on
/// stderr; fails without writing when it is over [`SIZE_LIMIT`].
pub fn write(problem: &str, out: Option<&Path>) -> Result<BundleReport, String> {
    let text = bundle(problem)?;
    let chars = text.chars().count();
    eprintln!(
        "bundle: {problem}, {} characters (limit {})",
        thousands(chars),
        thousands(SIZE_LIMIT)
    );
    if chars > SIZE_LIMIT {
        return Err(format!("bundle {problem} is over the size limit"));
    }
    let destination = match out {
        Some(path) => {
            std::fs::write(path, &text)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            path.display().to_string()
        }
        None => {
            std::io::stdout()
                .write_all(text.as_bytes())
                .map_err(|e| format!("cannot write stdout: {e}"))?;
            "stdout".to_string()
        }
    };
    Ok(BundleReport { destination, chars })
}

fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// The whole bundle of `manifest`.
pub fn assemble(manifest: &Manifest) -> Result<String, String> {
    for (i, module) in manifest.modules.iter().enumerate() {
        if manifest.modules[..i].iter().any(|m| m.path == module.path) {
            return Err(format!("module {} is listed twice", module.path));
        }
    }
    let mut omitted = Vec::new();
    let root = module_body(manifest, "", Some(manifest.entry), &mut omitted)?;
    if let Some(stale) = manifest.omit.iter().find(|o| !omitted.contains(o)) {
        return Err(format!("{stale} is omitted but nothing declares it"));
    }
    let reads = source::file_reads(&root)?;
    if !reads.is_empty() {
        return Err(format!("the bundle would read files: {}", reads.join(", ")));
    }
    let header = format!(
        "// Generated by `podium bundle {}` from podium's own sources: edit those, not this.\n",
        manifest.name
    );
    source::tidy(&(header + &root))
}

fn child_path(parent: &str, name: &str) -> String {
    if parent.is_empty() {
        name.to_string()
    } else {
        format!("{parent}::{name}")
    }
}

/// The body of the module at `path` (`""`: the root) with its submodules inlined; `omitted`
/// collects the omitted modules met on the way.
fn module_body(
    manifest: &Manifest,
    path: &str,
    source: Option<&str>,
    omitted: &mut Vec<&'static str>,
) -> Result<String, String> {
    let prefix = if path.is_empty() {
        String::new()
    } else {
        format!("{path}::")
    };
    let mut children: Vec<&str> = Vec::new();
    for module in manifest.modules {
        if let Some(rest) = module.path.strip_prefix(&prefix) {
            let name = rest.split("::").next().unwrap_or(rest);
            if !children.contains(&name) {
                children.push(name);
            }
        }
    }
    let child_body = |name: &str, omitted: &mut Vec<&'static str>| {
        let child = child_path(path, name);
        let source = manifest.modules.iter().find(|m| m.path == child);
        module_body(manifest, &child, source.map(|m| m.source), omitted)
    };
    let mut declared = Vec::new();
    let mut body = match source {
        None => String::new(),
        Some(src) => {
            let generated = |file: &str| {
                let g = manifest.generated.iter().find(|g| g.file == file);
                g.ok_or_else(|| format!("nothing generates {file}"))
                    .and_then(|g| (g.text)())
            };
            let module = |name: &str| {
                let child = child_path(path, name);
                if children.contains(&name) {
                    declared.push(name.to_string());
                    return child_body(name, omitted).map(source::ModuleDecl::Inline);
                }
                match manifest.omit.iter().find(|&&o| o == child) {
                    Some(&o) => {
                        omitted.push(o);
                        Ok(source::ModuleDecl::Drop)
                    }
                    None => Err(format!(
                        "{child} is declared but neither listed nor omitted"
                    )),
                }
            };
            let text =
                source::strip_comments(src).and_then(|s| source::edit(&s, generated, module));
            text.map_err(|e| {
                format!(
                    "module {}: {e}",
                    if path.is_empty() { "root" } else { path }
                )
            })?
        }
    };
    for name in children {
        if !declared.iter().any(|d| d == name) {
            body += &format!("\npub mod {name} {{\n{}\n}}\n", child_body(name, omitted)?);
        }
    }
    Ok(body.trim_start_matches('\n').trim_end().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_with_thousands_separators() {
        assert_eq!(thousands(7), "7");
        assert_eq!(thousands(100_000), "100,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    const A: &str = "//! Module a.\npub mod b;\nmod gone;\n\n#[cfg(test)]\nmod tests {}\n\n\
                     include!(concat!(env!(\"OUT_DIR\"), \"/x.rs\"));\n";

    fn manifest(omit: &'static [&'static str]) -> Manifest {
        Manifest {
            name: "t",
            entry: "fn main() {}\n",
            modules: &[
                Module {
                    path: "a",
                    source: A,
                },
                Module {
                    path: "a::b",
                    source: "pub fn b() {}\n",
                },
                Module {
                    path: "c::d",
                    source: "pub fn d() {}\n",
                },
            ],
            omit,
            generated: &[Generated {
                file: "x.rs",
                text: || Ok("pub const X: u32 = 1;".into()),
            }],
        }
    }

    #[test]
    fn modules_nest_as_listed_and_declarations_are_checked() {
        let bundle = assemble(&manifest(&["a::gone"])).unwrap();
        let expected = "fn main() {}\n\npub mod a {\npub mod b {\npub fn b() {}\n}\n\n\
                        pub const X: u32 = 1;\n}\n\npub mod c {\npub mod d {\n\
                        pub fn d() {}\n}\n}\n";
        assert_eq!(bundle.split_once('\n').unwrap().1, expected);
        let undeclared = assemble(&manifest(&[])).unwrap_err();
        assert!(undeclared.contains("a::gone is declared"), "{undeclared}");
        let stale = assemble(&manifest(&["a::gone", "a::old"])).unwrap_err();
        assert!(stale.contains("a::old is omitted"), "{stale}");
    }

    #[test]
    fn unknown_problems_are_refused() {
        assert!(bundle("nonesuch").unwrap_err().contains("cephalopod"));
    }
}
