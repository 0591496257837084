//! `xla-check bench`: every kernel of an XLA dump through XLA's pipeline and through ours,
//! counted and checked (what `cargo xtask bench xla` runs once it has made the dump).
//!
//! 1. For every kernel, XLA's side is its last MLIR stage: the IR before `LowerToLLVMCPUPass`,
//!    cut from the pass log (see [`dump`] for what the dump holds). Ours is its IR before any
//!    pass (`*-pre-optimization.mlir`) through `xla-indexing opt` (which runs what `mlir-opt`
//!    with the plugin runs, and is where StableHLO's pretty form, which the tiled emitter's
//!    kernels hold, is read) and [`OURS`]: `xla-indexing-lower-xla`, then `canonicalize`,
//!    `cse` and `symbol-dce` (XLA's pipeline runs all three too; the last erases the functions
//!    no call is left to). Loops stay `scf.for` (the tiled emitter's `xtile.entry_func` holds
//!    one block, so `convert-scf-to-cf` cannot run on it); [`count`](xla_indexing_xla_check::count) counts each as the compare
//!    and the increment it becomes in `cf`, as on XLA's side.
//! 2. Counts, on both, divisions and remainders and index ops (see [`count`](xla_indexing_xla_check::count) for the exact
//!    definitions) and, after LLVM's `opt -O3`, LLVM's `udiv`, `sdiv`, `urem`, `srem`: XLA's
//!    from its `*.ir-no-opt.ll` (in LLVM 22's syntax, see [`llvm_text`]), ours lowered by
//!    [`tools::TO_LLVM`] and `mlir-translate`; and those in XLA's own optimized IR
//!    (`*.ir-with-opt.ll`), what XLA ships, which the report leads with.
//! 3. Checks that ours computes the same indices as XLA's, by running both on the same inputs
//!    over the kernel's whole domain (see [`check`]). The checker is first tried on XLA's own
//!    pipeline: its last stage on tensors (before `LowerTensorsPass`) against its last stage,
//!    which must be the same; the summary gives what it found.
//!
//! [`report`] prints the table and fails the run when our pipeline fails on a kernel, when a
//! check finds a difference, or when the loop family's acceptance is not met. Both sides' IR
//! is written under `OUT/{xla,ours}/` and the figures to `OUT/xla.json`.

mod report;
mod tools;

use std::{fs, path::Path};

use anyhow::{Context, Result};
use xla_indexing_xla_check::{
    check::{self, Check},
    count::{Counts, count_llvm, count_mlir},
    dump::{self, Kernel},
    llvm_text,
};

pub use self::tools::Tools;

/// Our pipeline on a kernel's pre-optimization IR.
pub const OURS: &str = "builtin.module(xla-indexing-lower-xla, canonicalize, cse, symbol-dce)";

/// One kernel's figures.
struct Row {
    name: String,
    emitter: dump::Emitter,
    xla: Counts,
    /// Ours, or why our pipeline failed.
    ours: Result<Counts, String>,
    /// Divisions and remainders after `opt -O3`: XLA's and ours (`None` where a side could not
    /// be lowered or has no LLVM IR).
    llvm: (Option<usize>, Option<usize>),
    /// Divisions and remainders in XLA's own optimized LLVM IR (`*.ir-with-opt.ll`, what XLA
    /// ships), where the dump has it.
    shipped: Option<usize>,
    check: Check,
    /// The checker on XLA's own stages (its last stage on tensors against its last stage),
    /// where it has one.
    self_check: Option<Check>,
}

/// Runs every kernel of the dump in `dumps` through both pipelines with `tools`, writes what
/// it makes under `out`, prints the table and fails as [`report`] says.
pub fn run(dumps: &Path, out: &Path, tools: &Tools) -> Result<()> {
    for dir in [&out.join("xla"), &out.join("ours")] {
        if dir.exists() {
            fs::remove_dir_all(dir).with_context(|| format!("removing {}", dir.display()))?;
        }
        fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let kernels = dump::kernels(dumps)?;
    eprintln!(
        "xla-check: {} kernels in {}",
        kernels.len(),
        dumps.display()
    );
    let rows = kernels
        .iter()
        .map(|kernel| measure(kernel, tools, out))
        .collect::<Result<Vec<_>>>()?;
    report::report(&rows, out)
}

/// One kernel through both pipelines, counted and checked.
fn measure(kernel: &Kernel, tools: &Tools, out: &Path) -> Result<Row> {
    let file = |dir: &str, ext: &str| out.join(dir).join(format!("{}.{ext}", kernel.name));
    let xla_path = file("xla", "mlir");
    fs::write(&xla_path, &kernel.last_stage)
        .with_context(|| format!("writing {}", xla_path.display()))?;
    let xla = count_mlir(&kernel.last_stage);
    let xla_llvm = match &kernel.llvm_no_opt {
        Some(ll) => {
            let text =
                fs::read_to_string(ll).with_context(|| format!("reading {}", ll.display()))?;
            let legacy = file("xla", "ll");
            fs::write(&legacy, llvm_text::for_llvm22(&text))
                .with_context(|| format!("writing {}", legacy.display()))?;
            let count = tools.llvm_divisions(&legacy);
            if let Err(e) = &count {
                eprintln!(
                    "xla-check: {}: XLA's LLVM IR through opt: {e:#}",
                    kernel.name
                );
            }
            count.ok()
        }
        None => None,
    };
    let shipped = match &kernel.llvm_with_opt {
        Some(ll) => Some(count_llvm(
            &fs::read_to_string(ll).with_context(|| format!("reading {}", ll.display()))?,
        )),
        None => None,
    };
    let emitted = fs::read_to_string(&kernel.pre_optimization)
        .with_context(|| format!("reading {}", kernel.pre_optimization.display()))?;
    let ours_text = tools.xla_indexing_opt(&kernel.pre_optimization, OURS);
    let (ours, ours_llvm, check) = match ours_text {
        Ok(text) => {
            let ours_path = file("ours", "mlir");
            fs::write(&ours_path, &text)
                .with_context(|| format!("writing {}", ours_path.display()))?;
            let ll = file("ours", "ll");
            let llvm = tools
                .to_llvm_ir(&ours_path, &ll)
                .and_then(|()| tools.llvm_divisions(&ll));
            if let Err(e) = &llvm {
                eprintln!("xla-check: {}: ours to LLVM: {e:#}", kernel.name);
            }
            let check = check::compare(&kernel.last_stage, &text, &emitted);
            (Ok(count_mlir(&text)), llvm.ok(), check)
        }
        Err(e) => (
            Err(format!("{e:#}")),
            None,
            Check::Unchecked("our pipeline failed".into()),
        ),
    };
    let self_check = kernel
        .tensor_stage
        .as_deref()
        .map(|tensors| check::compare(&kernel.last_stage, tensors, &emitted));
    Ok(Row {
        self_check,
        name: kernel.name.clone(),
        emitter: kernel.emitter.clone(),
        xla,
        ours,
        llvm: (xla_llvm, ours_llvm),
        shipped,
        check,
    })
}
