//! `cargo xtask bench gpu --run`: the programs of `bench/gpu/run/` run on a GPU by
//! `bench/gpu/runner.py` (see `bench/gpu/README.md`).
//!
//! Here it compiles every program to PTX (`xla-indexing compile --emit ptx`, release build) and
//! writes its manifest ([`manifest`]) into `target/bench/gpu-run/`, and runs the runner with
//! the venv `target/bench-gpu-venv` (cuda-python, numpy; `cargo xtask setup` installs it) on
//! that folder: it checks the small variants against numpy and times the large ones. When the
//! runner finds no GPU (no libcuda, `cuInit` fails, no device) it says so in one line and exits
//! with [`NO_GPU`]; then the static part (`cargo xtask bench gpu`) runs instead.
//!
//! The runner has not yet run on a GPU in this project (none was available): its tests here
//! cover the manifests against the PTX, the parameter packing, the references and the driver
//! calls through a fake driver, not a real device.

pub mod manifest;

use std::{
    fs,
    path::{Path, PathBuf},
    process::Command,
};

use anyhow::{Context, Result, bail};

use crate::{run, setup::Tools};

/// The chip the PTX is compiled for (H100 and H200).
pub const CHIP: &str = "sm_90";

/// The runner's exit status when there is no GPU.
pub const NO_GPU: i32 = 3;

/// Builds the PTX and manifests, then runs the runner with `tools`; with no GPU, runs
/// `static_part`.
pub fn run(root: &Path, tools: &Tools, static_part: impl FnOnce() -> Result<()>) -> Result<()> {
    let target = crate::target_dir(root);
    let out = build(root, &target, &tools.libdevice)?;
    let status = run::status(
        Command::new(&tools.runner_python)
            .arg(root.join("bench/gpu/runner.py"))
            .arg(&out),
    )?;
    match status.code() {
        Some(0) => Ok(()),
        Some(NO_GPU) => {
            eprintln!("xtask: no GPU here (the line above says why): running the static part");
            static_part()
        }
        _ => bail!("bench/gpu/runner.py failed ({status})"),
    }
}

/// Compiles every `bench/gpu/run/*.hlo` to PTX for [`CHIP`] with the release CLI and writes
/// the PTX and the manifest of each into `target/bench/gpu-run/`; returns that folder.
fn build(root: &Path, target: &Path, libdevice: &Path) -> Result<PathBuf> {
    run::build_release(root, "xla-indexing-cli", &[])?;
    let cli = target.join("release/xla-indexing");
    let out = target.join("bench/gpu-run");
    fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;
    for hlo in programs(root)? {
        let json = compile_program(root, &cli, &hlo, &out, Some(libdevice))?;
        let path = out.join(format!("{}.json", stem(&hlo)?));
        fs::write(&path, serde_json::to_string_pretty(&json)? + "\n")
            .with_context(|| format!("writing {}", path.display()))?;
    }
    eprintln!("xtask: PTX and manifests in {}", out.display());
    Ok(out)
}

/// The file stem of `hlo` (`softmax.small` for `softmax.small.hlo`).
fn stem(hlo: &Path) -> Result<&str> {
    hlo.file_stem()
        .and_then(|s| s.to_str())
        .context("a program's file name is not UTF-8")
}

/// Compiles the program `hlo` (under `root`) to `out/STEM.ptx` with the CLI `cli` (and
/// `libdevice`, else the one the CLI finds) and returns its manifest.
pub fn compile_program(
    root: &Path,
    cli: &Path,
    hlo: &Path,
    out: &Path,
    libdevice: Option<&Path>,
) -> Result<serde_json::Value> {
    let stem = stem(hlo)?;
    let (name, variant) = match stem.strip_suffix(".small") {
        Some(name) => (name, "small"),
        None => (stem, "large"),
    };
    let ptx = format!("{stem}.ptx");
    let mut compile = Command::new(cli);
    compile
        .arg("compile")
        .arg(hlo)
        .args(["--emit", "ptx", "--chip", CHIP]);
    if let Some(libdevice) = libdevice {
        compile.arg("--libdevice").arg(libdevice);
    }
    run::checked(compile.arg("-o").arg(out.join(&ptx)))?;
    let text = fs::read_to_string(hlo).with_context(|| format!("reading {}", hlo.display()))?;
    let module = xla_indexing_hlo::parse_module(&text)
        .with_context(|| format!("parsing {}", hlo.display()))?;
    let relative = hlo.strip_prefix(root).unwrap_or(hlo).display().to_string();
    let program = manifest::Program {
        name,
        variant,
        hlo: &relative,
        ptx: &ptx,
        chip: CHIP,
    };
    manifest::manifest(&module, &program)
        .with_context(|| format!("the manifest of {}", hlo.display()))
}

/// The programs `bench/gpu/run/*.hlo`, sorted.
pub fn programs(root: &Path) -> Result<Vec<PathBuf>> {
    let dir = root.join("bench/gpu/run");
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    files.retain(|p| p.extension().is_some_and(|e| e == "hlo"));
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests;
