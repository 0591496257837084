//! `cargo xtask setup|test|demo|bench`: the project's automation, in Rust so that it needs
//! nothing a fresh machine lacks beyond cargo.
//!
//! * `setup` installs what is missing: the Debian packages of the build recipe and, in a venv
//!   under `target/venv`, the PyPI tools (ptxas); in `target/bench-gpu-venv`, the GPU runner's
//!   packages (cuda-python, numpy).
//! * `test` runs setup, rustfmt, clippy and `cargo test --workspace` (which runs the lit suite)
//!   and ends with one line `N passed, N failed`.
//! * `demo` runs setup, builds release and runs the demo steps on `examples/`.
//! * `bench NAME` runs a benchmark; `bench gpu --run` runs the GPU programs on a GPU (the
//!   static `bench gpu` where there is none).

mod bench;
mod bench_gpu_run;
mod bench_xla;
mod demo;
mod run;
mod setup;
mod test;
mod venv;

use std::{
    path::{Path, PathBuf},
    process::ExitCode,
};

const USAGE: &str = "usage: cargo xtask <command>

commands:
  setup        install missing Debian packages and PyPI tools (ptxas, the GPU runner's)
  test         setup, rustfmt, clippy, cargo test (with lit); ends with `N passed, N failed`
  demo         setup, release build, and the demo steps on examples/
  bench NAME   run the benchmark NAME (simplify, mlir, analysis, gpu, xla)
  bench gpu --run
               run bench/gpu/run/ on the GPU (bench/gpu/runner.py); without a GPU, say so
               and run `bench gpu`";

/// The workspace root.
fn root() -> PathBuf {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest_dir
        .ancestors()
        .nth(2)
        .unwrap_or(manifest_dir)
        .to_path_buf()
}

/// Cargo's target directory: `$CARGO_TARGET_DIR` (relative to `root`) or `root/target`.
fn target_dir(root: &Path) -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if !dir.is_empty() => root.join(dir),
        _ => root.join("target"),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let outcome = match args.as_slice() {
        ["setup"] => setup::setup(&root()).map(|_| true),
        ["test"] => test::test(&root()),
        ["demo"] => demo::demo(&root()).map(|()| true),
        ["bench", name] => bench::bench(&root(), name, false).map(|()| true),
        ["bench", name, "--run"] => bench::bench(&root(), name, true).map(|()| true),
        ["help" | "--help" | "-h"] => {
            println!("{USAGE}");
            Ok(true)
        }
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match outcome {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("xtask: error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
