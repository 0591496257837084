//! `cargo xtask bench NAME`: benchmarks against peer tools, measured in the same run. CI does not
//! run them.
//!
//! * `simplify`: our simplifier against ISL, TVM's arithmetic analyzer and `mlir-opt
//!   -canonicalize` on a seeded corpus (see `bench/simplify/README.md`). Installs the peers in a
//!   venv under `target/bench-venv`, builds release, writes the corpus to
//!   `target/bench/simplify-corpus.jsonl`, prints the table and writes
//!   `target/bench/simplify.json` and `target/bench/simplify-misses.md`.
//! * `mlir`: `xla-indexing-simplify` against upstream MLIR's routes on generated GPU kernels,
//!   every output checked by evaluation: builds the plugin, testkit's `kernel_soundness` and
//!   `xla-check` (release: the routes are timed) and runs `xla-check mlir-bench`
//!   (`crates/xla-check/src/mlir_bench/`), which writes its files into `target/bench/`.
//! * `analysis`: HLO indexing analysis of every fusion of a real transformer-block dump and of
//!   generated 1k/10k/100k-instruction modules, with peak memory (the `bench_analysis` example of
//!   `xla-indexing-hlo`); it has absolute targets, no peer.
//! * `gpu`: the kernels of `bench/gpu/*.hlo` to PTX through our index lowering and through
//!   upstream MLIR's alone, counting divisions, remainders and instructions (the `bench_gpu`
//!   example of `xla-indexing-passes`).
//! * `gpu --run`: the programs of `bench/gpu/run/` (elementwise, row and column sums, a
//!   softmax, transposes; a small variant of each checked against numpy, a large one of 256 MB
//!   or more timed) run on the GPU through the CUDA driver API by `bench/gpu/runner.py`, which
//!   prints each one's time, GB/s and share of the card's peak bandwidth, beside jax's when jax
//!   is installed (see [`crate::bench_gpu_run`] and `bench/gpu/README.md`). On a machine
//!   without a GPU it says so in one line and runs the static `gpu` benchmark instead.
//! * `xla`: XLA's own CPU kernels of real JAX programs, through XLA's pipeline (from its dump)
//!   and through ours (`xla-indexing-lower-xla`), counting divisions, remainders and index ops,
//!   and checking that both compute the same indices (see [`crate::bench_xla`]).

use std::{
    ffi::OsStr,
    fs,
    path::{Path, PathBuf},
    process::Command,
};

use anyhow::{Context, Result, bail};

use crate::run;
use crate::venv::install_pinned;

/// The peers, pinned so that figures from different runs compare.
const PEERS: &[&str] = &[
    "islpy==2026.2.2",
    "apache-tvm==0.27.0.post1",
    "z3-solver==5.4.0.0",
    "numpy==2.4.6",
];

/// The corpus seed.
const SEED: u64 = 1;

const MLIR_OPT: &str = "/usr/lib/llvm-22/bin/mlir-opt";

/// Runs the benchmark `name`; `run` asks `gpu` to run the programs on the GPU.
pub fn bench(root: &Path, name: &str, run: bool) -> Result<()> {
    if run && name != "gpu" {
        bail!("--run is for `bench gpu` only");
    }
    match name {
        "simplify" => simplify(root),
        "mlir" => mlir(root),
        "analysis" => example(root, "xla-indexing-hlo", "bench_analysis", &[]),
        "xla" => crate::bench_xla::bench(root, &crate::target_dir(root)),
        "gpu" => {
            let tools = crate::setup::setup(root)?;
            let static_part = || {
                example(
                    root,
                    "xla-indexing-passes",
                    "bench_gpu",
                    &[("XLA_INDEXING_LIBDEVICE", &tools.libdevice)],
                )
            };
            if run {
                crate::bench_gpu_run::run(root, &tools, static_part)
            } else {
                static_part()
            }
        }
        _ => bail!(
            "unknown benchmark `{name}`; the benchmarks are: simplify, mlir, analysis, gpu, xla"
        ),
    }
}

/// Runs the release build of `package`'s example `name` with the environment variables `env`.
fn example(root: &Path, package: &str, name: &str, env: &[(&str, &Path)]) -> Result<()> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(&cargo);
    command
        .current_dir(root)
        .args(["run", "--release", "-p", package, "--example", name]);
    command.envs(env.iter().copied());
    run::checked(&mut command)
}

/// Fails unless `mlir-opt` is installed.
fn require_mlir_opt() -> Result<()> {
    if !Path::new(MLIR_OPT).exists() {
        bail!("{MLIR_OPT} is missing: run `cargo xtask setup` (it installs mlir-22-tools)");
    }
    Ok(())
}

/// `bench mlir`: the release builds it needs, then `xla-check mlir-bench`.
fn mlir(root: &Path) -> Result<()> {
    require_mlir_opt()?;
    run::build_release(root, "xla-indexing-plugin", &[])?;
    run::build_release(
        root,
        "xla-indexing-testkit",
        &["--features", "mlir", "--example", "kernel_soundness"],
    )?;
    run::build_release(root, "xla-indexing-xla-check", &[])?;
    let release = crate::target_dir(root).join("release");
    run::checked(
        Command::new(release.join("xla-check"))
            .arg("mlir-bench")
            .arg("--plugin")
            .arg(release.join("libxla_indexing_plugin.so"))
            .arg("--kernel-soundness")
            .arg(release.join("examples/kernel_soundness"))
            .arg("--out")
            .arg(crate::target_dir(root).join("bench")),
    )
}

fn simplify(root: &Path) -> Result<()> {
    require_mlir_opt()?;
    let target = crate::target_dir(root);
    let python = install_peers(&target.join("bench-venv"))?;

    run::build_release(root, "xla-indexing-cli", &[])?;
    run::build_release(root, "xla-indexing-core", &["--example", "simplify_corpus"])?;

    let out = target.join("bench");
    fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;
    let corpus_path = out.join("simplify-corpus.jsonl");
    let corpus_bin = target.join("release/examples/simplify_corpus");
    eprintln!(
        "xtask: $ {} --seed {SEED} > {}",
        corpus_bin.display(),
        corpus_path.display()
    );
    let corpus = Command::new(&corpus_bin)
        .args(["--seed", &SEED.to_string()])
        .output()
        .with_context(|| format!("cannot run {}", corpus_bin.display()))?;
    if !corpus.status.success() {
        bail!(
            "{} failed ({}): {}",
            corpus_bin.display(),
            corpus.status,
            String::from_utf8_lossy(&corpus.stderr)
        );
    }
    fs::write(&corpus_path, &corpus.stdout)
        .with_context(|| format!("writing {}", corpus_path.display()))?;

    run::checked(
        Command::new(&python)
            .arg(root.join("bench/simplify/run.py"))
            .arg("--corpus")
            .arg(&corpus_path)
            .arg("--ours")
            .arg(target.join("release/xla-indexing"))
            .args(["--mlir-opt", MLIR_OPT])
            .arg("--json")
            .arg(out.join("simplify.json"))
            .arg("--misses-md")
            .arg(out.join("simplify-misses.md")),
    )
}

/// Creates the venv unless it exists and installs the pinned peers unless the venv's marker file
/// says they are there. Returns the venv's python.
fn install_peers(venv: &Path) -> Result<PathBuf> {
    install_pinned(OsStr::new("python3"), venv, PEERS, "simplify-peers.txt")
}
