//! Shared by the bundle tests: a solver's bundle written and compiled with plain `rustc -O`,
//! run on stdin, and held to the judge's size limit and to Rust 1.70.

use podium::bundle::{self, BundleReport, SIZE_LIMIT};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub struct Built {
    pub dir: PathBuf,
    pub source: PathBuf,
    pub binary: PathBuf,
    pub report: BundleReport,
    /// What rustc said.
    pub diagnostics: String,
}

/// Writes `problem`'s bundle under the test target directory and compiles it.
pub fn build(problem: &str) -> Built {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("bundle-{problem}"));
    std::fs::create_dir_all(&dir).expect("create the bundle's directory");
    let source = dir.join(format!("{problem}.rs"));
    let binary = dir.join(problem);
    let report = bundle::write(problem, Some(&source)).expect("write the bundle");
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = Command::new(rustc)
        .args(["-O", "--edition", "2021", "-o"])
        .args([&binary, &source])
        .output()
        .expect("run rustc");
    assert!(out.status.success(), "rustc: {}", stderr(&out));
    Built {
        dir,
        source,
        binary,
        report,
        diagnostics: stderr(&out),
    }
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Runs a compiled bundle on `stdin`, with `env` added to its environment.
pub fn run(binary: &Path, stdin: &str, env: &[(&str, &str)]) -> Output {
    let mut child = Command::new(binary)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the bundle");
    let mut input = child.stdin.take().expect("piped stdin");
    input.write_all(stdin.as_bytes()).expect("write stdin");
    drop(input);
    child.wait_with_output().expect("wait for the bundle")
}

/// The report matches the file, and the file is under the judge's limit.
pub fn check_size(built: &Built) {
    let text = std::fs::read_to_string(&built.source).expect("read the bundle");
    assert_eq!(built.report.chars, text.chars().count());
    assert_eq!(built.report.destination, built.source.display().to_string());
    assert!(
        built.report.chars < SIZE_LIMIT,
        "{} characters",
        built.report.chars
    );
}

/// Things newer than Rust 1.70 that clippy's `incompatible_msrv` does not see (it checks std's
/// stability attributes, not language features), or that are easy to slip in.
const NEWER_THAN_1_70: &[&str] = &[
    "LazyLock",
    "LazyCell",
    "is_none_or",
    "is_multiple_of",
    "div_ceil",
    "next_multiple_of",
    "as_flattened",
    "offset_of!",
    "#[expect(",
    "#[diagnostic",
    "#[unsafe(",
    "unsafe extern",
    "const {",
    "&raw ",
    "use<",
];

/// The bundle uses nothing newer than Rust 1.70: a deny-list scan, clippy's `incompatible_msrv`
/// on a throw-away crate with `rust-version = "1.70"`, and a real 1.70 compiler if installed.
pub fn check_rust_1_70(built: &Built) {
    let text = std::fs::read_to_string(&built.source).expect("read the bundle");
    let found: Vec<&&str> = NEWER_THAN_1_70
        .iter()
        .filter(|s| text.contains(**s))
        .collect();
    assert!(found.is_empty(), "the bundle uses {found:?}");

    let krate = built.dir.join("msrv");
    std::fs::create_dir_all(krate.join("src")).expect("create the MSRV crate");
    let manifest = "[package]\nname = \"bundle-msrv\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
                    rust-version = \"1.70\"\n\n[workspace]\n";
    std::fs::write(krate.join("Cargo.toml"), manifest).expect("write Cargo.toml");
    std::fs::copy(&built.source, krate.join("src/main.rs")).expect("copy the bundle");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .current_dir(&krate)
        .args(["clippy", "--offline", "--quiet", "--target-dir", "target"])
        .args(["--", "-A", "clippy::all", "-D", "clippy::incompatible_msrv"])
        .output()
        .expect("run cargo clippy");
    assert!(out.status.success(), "cargo clippy: {}", stderr(&out));

    let toolchains = Command::new("rustup").args(["toolchain", "list"]).output();
    let listed = toolchains.map(|o| String::from_utf8_lossy(&o.stdout).into_owned());
    let listed = listed.unwrap_or_default();
    if let Some(toolchain) = listed.lines().find(|l| l.starts_with("1.70")) {
        let toolchain = toolchain.split_whitespace().next().unwrap_or(toolchain);
        let out = Command::new("rustup")
            .args(["run", toolchain, "rustc", "--edition", "2021", "-O", "-o"])
            .args([&built.dir.join("built-with-1.70"), &built.source])
            .output()
            .expect("run rustc 1.70");
        assert!(out.status.success(), "rustc 1.70: {}", stderr(&out));
    }
}
