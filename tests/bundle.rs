//! The cephalopod bundle end to end: generated, compiled with plain `rustc -O`, run on every
//! bundled case, and held to the judge's size limit and to Rust 1.70.

use podium::bundle::{self, BundleReport, SIZE_LIMIT};
use podium::cephalopod::cases::{self, Case};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

struct Built {
    dir: PathBuf,
    source: PathBuf,
    binary: PathBuf,
    report: BundleReport,
    /// What rustc said.
    diagnostics: String,
}

/// The bundle, written and compiled once for every test here.
fn built() -> &'static Built {
    static BUILT: OnceLock<Built> = OnceLock::new();
    BUILT.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bundle-cephalopod");
        std::fs::create_dir_all(&dir).expect("create the bundle's directory");
        let source = dir.join("cephalopod.rs");
        let binary = dir.join("cephalopod");
        let report = bundle::write("cephalopod", Some(&source)).expect("bundle cephalopod");
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
    })
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Runs the bundle on `stdin`, with `env` added to its environment.
fn run(stdin: &str, env: &[(&str, &str)]) -> Output {
    let mut child = Command::new(&built().binary)
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

/// The case as CodinGame gives it: the depth, then the board as three rows of three.
fn codingame_input(case: &Case) -> String {
    let rows: Vec<String> = case
        .board()
        .cells
        .chunks(3)
        .map(|row| format!("{} {} {}\n", row[0], row[1], row[2]))
        .collect();
    format!("{}\n{}", case.problem.depth, rows.concat())
}

fn check_answers<'a>(cases: impl IntoIterator<Item = &'a Case>, env: &[(&str, &str)]) {
    let mut wrong = Vec::new();
    for case in cases {
        let out = run(&codingame_input(case), env);
        let answer = String::from_utf8_lossy(&out.stdout).trim().to_string();
        if !out.status.success() || answer != case.expected.to_string() {
            wrong.push(format!(
                "{}: {answer:?} (expected {}), {}, {}",
                case.id,
                case.expected,
                out.status,
                stderr(&out)
            ));
        }
    }
    assert!(wrong.is_empty(), "wrong answers:\n{}", wrong.join("\n"));
}

#[test]
fn compiles_without_warnings() {
    assert_eq!(built().diagnostics, "");
}

#[test]
fn answers_every_bundled_case() {
    let all = cases::all();
    assert!(all.len() > 80, "only {} cases", all.len());
    check_answers(&all, &[]);
}

#[test]
fn portable_kernel_answers_the_codingame_cases() {
    let all = cases::all();
    let codingame = all.iter().filter(|c| c.id.starts_with("cg"));
    check_answers(codingame, &[("PODIUM_NO_AVX2", "1")]);
}

#[test]
fn bad_input_exits_2_with_a_message() {
    let out = run("3\n1 2 3\n4 7 0\n0 0 0\n", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert_eq!(
        stderr(&out).trim(),
        "cephalopod input: line 3: cell (row 2, column 2) value 7 is outside 0..6"
    );
}

#[test]
fn fits_the_size_limit() {
    let built = built();
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

#[test]
fn uses_only_rust_1_70() {
    let built = built();
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

    // A real 1.70 compiler settles language features too, where one is installed.
    let toolchains = Command::new("rustup").args(["toolchain", "list"]).output();
    let listed = toolchains.map(|o| String::from_utf8_lossy(&o.stdout).into_owned());
    let old = listed.unwrap_or_default();
    if let Some(toolchain) = old.lines().find(|l| l.starts_with("1.70")) {
        let toolchain = toolchain.split_whitespace().next().unwrap_or(toolchain);
        let out = Command::new("rustup")
            .args(["run", toolchain, "rustc", "--edition", "2021", "-O", "-o"])
            .args([&built.dir.join("cephalopod-1.70"), &built.source])
            .output()
            .expect("run rustc 1.70");
        assert!(out.status.success(), "rustc 1.70: {}", stderr(&out));
    }
}
