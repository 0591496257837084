//! `cargo xtask bench xla`: XLA's own CPU kernels, through XLA's pipeline and through ours.
//!
//! 1. Makes a venv `target/jaxenv` with Python 3.12 and the pinned JAX ([`JAX`]), and runs
//!    `bench/xla/programs.py` in it with XLA dumping every kernel to `target/bench-xla/dumps`.
//! 2. Builds `xla-indexing` and the checker `xla-check` (`crates/xla-check`), and runs
//!    `xla-check bench` on the dump: it runs each kernel through XLA's last stage and through
//!    ours (`xla-indexing opt` with `xla-indexing-lower-xla`), counts divisions, remainders
//!    and index ops on both, checks by interpretation that both compute the same indices,
//!    prints the table, writes both sides' IR under `target/bench-xla/{xla,ours}/` and the
//!    figures to `target/bench-xla/xla.json`, and fails on a difference or an unmet
//!    acceptance. The counts need no optimized build, so both are debug builds.

use std::{
    ffi::OsString,
    fs,
    path::{Path, PathBuf},
    process::Command,
};

use anyhow::{Context, Result};

use crate::run;

/// JAX and its XLA, pinned: the dump's spelling is XLA's of this version.
const JAX: &[&str] = &["jax==0.12.0.1", "jaxlib==0.12.0.1"];

/// What XLA dumps: every `jit_*` module, every emitter's kernels, with the IR before each pass.
/// Its CPU backend compiles each module's LLVM IR in one piece: split for parallel
/// compilation (the default), jaxlib 0.12.0.1 aborted in about half the runs while dumping
/// ("corrupted size vs. prev_size", "pure virtual method called"), in none of six in one piece.
const XLA_FLAGS: &str = "--xla_cpu_parallel_codegen_split_count=1 --xla_dump_emitter_re=.* \
                         --xla_dump_hlo_module_re=jit_.* --xla_dump_to=";

/// Runs the benchmark.
pub fn bench(root: &Path, target: &Path) -> Result<()> {
    let python =
        crate::venv::install_pinned(&python312()?, &target.join("jaxenv"), JAX, "jax.txt")?;
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    run::checked(Command::new(&cargo).current_dir(root).args([
        "build",
        "-p",
        "xla-indexing-cli",
        "-p",
        "xla-indexing-xla-check",
    ]))?;

    let out = target.join("bench-xla");
    let dumps = out.join("dumps");
    if dumps.exists() {
        fs::remove_dir_all(&dumps).with_context(|| format!("removing {}", dumps.display()))?;
    }
    fs::create_dir_all(&dumps).with_context(|| format!("creating {}", dumps.display()))?;
    let mut flags = OsString::from(XLA_FLAGS);
    flags.push(&dumps);
    run::checked(
        Command::new(&python)
            .arg(root.join("bench/xla/programs.py"))
            .env("XLA_FLAGS", flags)
            .env("JAX_PLATFORMS", "cpu"),
    )?;
    run::checked(
        Command::new(target.join("debug/xla-check"))
            .arg("bench")
            .arg("--dumps")
            .arg(&dumps)
            .arg("--out")
            .arg(&out)
            .arg("--xla-indexing")
            .arg(target.join("debug/xla-indexing")),
    )
}

/// A Python 3.12: `python3.12` on the PATH, else pyenv's.
fn python312() -> Result<OsString> {
    if run::output("python3.12", ["--version"]).is_some() {
        return Ok("python3.12".into());
    }
    let home = std::env::var_os("HOME").context("no Python 3.12 on the PATH and no HOME")?;
    let versions = Path::new(&home).join(".pyenv/versions");
    let mut found: Vec<PathBuf> = fs::read_dir(&versions)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with("3.12"))
        .map(|e| e.path().join("bin/python3.12"))
        .filter(|p| p.is_file())
        .collect();
    found.sort();
    found
        .pop()
        .map(PathBuf::into_os_string)
        .context("JAX 0.12 needs Python 3.12: none on the PATH nor in ~/.pyenv/versions")
}
