//! The tools a kernel goes through: `xla-indexing opt` for our pipeline, and LLVM's
//! `mlir-translate` and `opt` for the figures after `opt -O3`.

use std::{
    fs,
    path::{Path, PathBuf},
    process::Command,
};

use anyhow::{Context, Result, bail};

use crate::shell::describe;

/// Ours the rest of the way to the LLVM dialect: a tiled kernel's tiles as vectors first
/// (`xla-indexing-lower-xtile`; nothing else has `xtile` ops), then upstream's passes (the
/// tiles' transfers as loads and stores under their bounds, `convert-to-llvm` converting every
/// dialect at one `index` width, the module's).
pub const TO_LLVM: &str = "builtin.module(xla-indexing-lower-xtile, one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}, convert-vector-to-scf{full-unroll=true}, lower-affine, convert-scf-to-cf, expand-strided-metadata, convert-math-to-llvm, convert-math-to-libm, convert-vector-to-llvm, convert-to-llvm, reconcile-unrealized-casts)";

/// The most characters of a tool's message the report repeats.
const MESSAGE: usize = 240;

/// Where the tools are.
pub struct Tools {
    pub xla_indexing: PathBuf,
    pub mlir_translate: PathBuf,
    pub opt: PathBuf,
}

impl Tools {
    /// `xla-indexing` at `xla_indexing`, the LLVM tools in `llvm_bin`; fails when one is
    /// missing.
    pub fn new(xla_indexing: PathBuf, llvm_bin: &Path) -> Result<Tools> {
        let tools = Tools {
            xla_indexing,
            mlir_translate: llvm_bin.join("mlir-translate"),
            opt: llvm_bin.join("opt"),
        };
        for tool in [&tools.xla_indexing, &tools.mlir_translate, &tools.opt] {
            if !tool.exists() {
                bail!("{} is missing", tool.display());
            }
        }
        Ok(tools)
    }

    /// `xla-indexing opt` with `pipeline` on the file `input`: its output, or its diagnostics.
    /// Ops of dialects it does not know (StableHLO's, in generic form) are let through.
    pub fn xla_indexing_opt(&self, input: &Path, pipeline: &str) -> Result<String> {
        output(
            Command::new(&self.xla_indexing)
                .args(["opt", "--allow-unregistered-dialect"])
                .arg(format!("--pass-pipeline={pipeline}"))
                .arg(input),
        )
    }

    /// XLA's or our LLVM IR file `ll` through `opt -O3`: its divisions and remainders.
    pub fn llvm_divisions(&self, ll: &Path) -> Result<usize> {
        let optimized = output(Command::new(&self.opt).args(["-O3", "-S"]).arg(ll))?;
        Ok(xla_indexing_xla_check::count::count_llvm(&optimized))
    }

    /// Our output `mlir` (a file) to LLVM IR, written to `ll`.
    pub fn to_llvm_ir(&self, mlir: &Path, ll: &Path) -> Result<()> {
        let lowered = self.xla_indexing_opt(mlir, TO_LLVM)?;
        let lowered_path = ll.with_extension("llvm.mlir");
        fs::write(&lowered_path, lowered)
            .with_context(|| format!("writing {}", lowered_path.display()))?;
        let ir = output(
            Command::new(&self.mlir_translate)
                // Only XLA's discardable attributes (`xla.backend_kind` and the like) are left
                // of its dialect; the translation drops them.
                .arg("--allow-unregistered-dialect")
                .arg("--mlir-to-llvmir")
                .arg(&lowered_path),
        )?;
        fs::write(ll, ir).with_context(|| format!("writing {}", ll.display()))
    }
}

/// Runs `command`: its stdout if it succeeds, else an error with its stderr's first line.
fn output(command: &mut Command) -> Result<String> {
    let out = command
        .output()
        .with_context(|| format!("cannot run `{}`", describe(command)))?;
    if out.status.success() {
        return Ok(String::from_utf8_lossy(&out.stdout).into_owned());
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    let first = stderr.lines().next().unwrap_or("").trim();
    let first: String = first.chars().take(MESSAGE).collect();
    bail!("{first} ({})", out.status)
}
