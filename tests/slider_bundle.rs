//! The Slider bundle end to end: generated, compiled with plain `rustc -O`, run on reference
//! instances with a short time limit, its outputs verified by the crate's scorer; size and Rust 1.70.

use podium::bundle::{self, BundleReport, SIZE_LIMIT};
use podium::slider::board::Problem;
use podium::slider::cases::INSTANCES;
use podium::slider::score::score;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::Instant;

struct Built {
    dir: PathBuf,
    source: PathBuf,
    binary: PathBuf,
    report: BundleReport,
    diagnostics: String,
}

fn built() -> &'static Built {
    static BUILT: OnceLock<Built> = OnceLock::new();
    BUILT.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bundle-slider");
        std::fs::create_dir_all(&dir).expect("create the bundle's directory");
        let source = dir.join("slider.rs");
        let binary = dir.join("slider");
        let report = bundle::write("slider", Some(&source)).expect("bundle slider");
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

#[test]
fn compiles_without_warnings() {
    assert_eq!(built().diagnostics, "");
}

#[test]
fn outputs_verify_within_the_time_limit() {
    for (seed, text) in [INSTANCES[0], INSTANCES[1], INSTANCES[9]] {
        let problem = Problem::parse(text).unwrap();
        let clock = Instant::now();
        let out = run(text, &[("SLIDER_TIME", "0.5")]);
        let wall = clock.elapsed().as_secs_f64();
        assert!(out.status.success(), "seed {seed}: {}", stderr(&out));
        assert!(wall < 1.5, "seed {seed}: {wall} s");
        let output = String::from_utf8(out.stdout).unwrap();
        let scored = score(&problem, &output).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(
            scored.score > 0 && scored.drops > 0,
            "seed {seed}: {scored:?}"
        );
    }
}

#[test]
fn bad_input_exits_2_with_a_message() {
    let out = run("2\n3\n1\n0\n0\n0\n10\n", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert_eq!(
        stderr(&out).trim(),
        "slider input: line 7: cell (row 1, column 1) value 10 is outside -1..3"
    );
}

#[test]
fn fits_the_size_limit() {
    let built = built();
    let text = std::fs::read_to_string(&built.source).expect("read the bundle");
    assert_eq!(built.report.chars, text.chars().count());
    assert!(
        built.report.chars < SIZE_LIMIT,
        "{} characters",
        built.report.chars
    );
    assert!(!text.contains("clap") && !text.contains("include_str"));
}

/// Things newer than Rust 1.70 that clippy's `incompatible_msrv` does not see, as tests/bundle.rs.
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
    let manifest = "[package]\nname = \"bundle-msrv-slider\"\nversion = \"0.0.0\"\n\
                    edition = \"2021\"\nrust-version = \"1.70\"\n\n[workspace]\n";
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
    let old = listed.unwrap_or_default();
    if let Some(toolchain) = old.lines().find(|l| l.starts_with("1.70")) {
        let toolchain = toolchain.split_whitespace().next().unwrap_or(toolchain);
        let out = Command::new("rustup")
            .args(["run", toolchain, "rustc", "--edition", "2021", "-O", "-o"])
            .args([&built.dir.join("slider-1.70"), &built.source])
            .output()
            .expect("run rustc 1.70");
        assert!(out.status.success(), "rustc 1.70: {}", stderr(&out));
    }
}
