//! `xla-indexing tiles`: propagation of an output tile to the operands of every fusion.

use std::path::PathBuf;

use xla_indexing_gpu::kernel_tiles::tiles_of_module;

use crate::diag::Failure;
use crate::gpu_report;
use crate::output::{Format, OutputArgs, SyntaxArg};
use crate::progress::{Progress, QuietArg};

/// Propagate a tile of each fusion's output (sizes per output dimension; tile t covers
/// t_i * size_i + [0, size_i - 1]) to the tile of every operand it reads: offsets as
/// expressions of the tile ids t0, t1, ..., sizes and strides, and whether the tile is exact
/// (and under which conditions) or over-approximates, or why it cannot be expressed.
///
/// Outputs whose rank differs from the number of sizes are reported as not tiled.
/// A module without fusions whose entry holds several ops (HLO before XLA's fusion passes) is
/// an error at its entry (exit 1) that says how to dump the module XLA compiled.
/// Example:
///   xla-indexing tiles examples/hlo/transpose_exp_add.hlo --tile 4,8
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The .hlo file (HLO text as XLA dumps it).
    file: PathBuf,
    /// Tile sizes, one per output dimension, as one comma-separated value, e.g. 4,64.
    #[arg(long, value_name = "SIZES", value_delimiter = ',', required = true,
          value_parser = clap::value_parser!(i64).range(1..))]
    tile: Vec<i64>,
    #[command(flatten)]
    progress: QuietArg,
    #[command(flatten)]
    pub syntax: SyntaxArg,
    #[command(flatten)]
    pub output: OutputArgs,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let (text, module) = super::read_fused_module(&args.file)?;
    let mut progress = Progress::new("tiles", 0, args.progress.quiet);
    let all = tiles_of_module(&module, &args.tile, &mut |done, total| {
        progress.update(done, total)
    })
    .map_err(|e| super::hlo_failure(e, &args.file, &text))?;
    drop(progress);
    let out = match args.output.format {
        Format::Text => gpu_report::tiles::text(&all),
        Format::Json => gpu_report::tiles::json(&all).to_string(),
    };
    args.output.write(&args.syntax.respell(&out))
}
