//! `xla-indexing launch`: launch grids and thread-id maps of every fusion of an HLO module.

use std::path::{Path, PathBuf};

use xla_indexing_gpu::tiled::{Tiling, plan_kernel_with};
use xla_indexing_gpu::{Device, KernelPlan, kernels};

use super::{ChipArg, TilingArg};
use crate::diag::Failure;
use crate::gpu_report;
use crate::output::{Format, OutputArgs, SyntaxArg};
use crate::progress::{Progress, QuietArg};

/// Print, per fusion, the launch grid (threads per block, blocks, unroll factor) of the loop
/// emitter on the GPU of --chip (sm_90 by default), the thread-id indexing map (th_x..bl_z, [chunk_id, unroll_id]),
/// and the thread-id to operand maps.
///
/// Under each output (`stores:`) and each operand map (`reads:`): whether a thread's unrolled
/// elements are one aligned vector access (`vector of 4 (16 bytes aligned)`) or scalar, and why.
///
/// A launch that would exceed a hardware limit is an error naming the fusion (exit 1).
/// A module without fusions whose entry holds several ops (HLO before XLA's fusion passes) is
/// an error at its entry (exit 1) that says how to dump the module XLA compiled.
/// Example:
///   xla-indexing launch examples/hlo/transpose_exp_add.hlo
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The .hlo file (HLO text as XLA dumps it).
    file: PathBuf,
    #[command(flatten)]
    chip: ChipArg,
    #[command(flatten)]
    tiling: TilingArg,
    #[command(flatten)]
    progress: QuietArg,
    #[command(flatten)]
    pub syntax: SyntaxArg,
    #[command(flatten)]
    pub output: OutputArgs,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let device = args.chip.device();
    let plans = plans(
        &args.file,
        &device,
        args.tiling.tiling.as_ref(),
        "launch",
        args.progress,
    )?;
    let out = match args.output.format {
        Format::Text => gpu_report::launch::text(&plans),
        Format::Json => gpu_report::launch::json(&plans).to_string(),
    };
    args.output.write(&args.syntax.respell(&out))
}

/// Reads, parses and plans every kernel of an HLO file on `device` (through `tiling` where one
/// is given), showing progress per kernel under `label`.
pub fn plans(
    file: &Path,
    device: &Device,
    tiling: Option<&Tiling>,
    label: &'static str,
    quiet: QuietArg,
) -> Result<Vec<KernelPlan>, Failure> {
    let (text, module) = super::read_fused_module(file)?;
    let kernels = kernels(&module);
    let mut progress = Progress::new(label, kernels.len(), quiet.quiet);
    kernels
        .into_iter()
        .map(|k| {
            let plan = plan_kernel_with(&module, k, device, tiling);
            progress.tick();
            plan.map_err(|e| super::hlo_failure(e, file, &text))
        })
        .collect()
}
