//! `xla-indexing coalescing`: how coalesced each fusion's reads are.

use std::path::PathBuf;

use xla_indexing_gpu::accesses::coalescing_entries;

use super::{ChipArg, TilingArg};
use crate::diag::Failure;
use crate::gpu_report;
use crate::output::{Format, OutputArgs, SyntaxArg};
use crate::progress::{Progress, QuietArg};

/// For every fusion and operand, count the 128-byte transactions the first warp issues per
/// step of its loop against the fewest that would carry the same bytes, and say why an access
/// is not coalesced: which operand, which dimension the lanes move along, what ratio.
///
/// The warp's addresses follow the operand's layout (physical order, padding included).
/// A module without fusions whose entry holds several ops (HLO before XLA's fusion passes) is
/// an error at its entry (exit 1) that says how to dump the module XLA compiled.
/// Example:
///   xla-indexing coalescing examples/hlo/transpose_exp_add.hlo
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
    let tiling = args.tiling.tiling.as_ref();
    let plans = super::launch::plans(&args.file, &device, tiling, "planning", args.progress)?;
    let mut progress = Progress::new("coalescing", plans.len(), args.progress.quiet);
    let mut entries = Vec::new();
    for plan in &plans {
        entries.extend(coalescing_entries(std::slice::from_ref(plan), &device));
        progress.tick();
    }
    drop(progress);
    let out = match args.output.format {
        Format::Text => gpu_report::coalescing::text(&entries),
        Format::Json => gpu_report::coalescing::json(&entries).to_string(),
    };
    args.output.write(&args.syntax.respell(&out))
}
