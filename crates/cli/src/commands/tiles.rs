//! `xla-indexing tiles`: propagation of an output tile to the operands of every fusion, concrete
//! or symbolic, the tiling space and the best tiling.

use std::path::PathBuf;

use xla_indexing_gpu::kernel_tiles::{symbolic_tiles_of_module, tiles_of_module};

use super::ChipArg;
use crate::diag::Failure;
use crate::gpu_report;
use crate::gpu_report::tiling;
use crate::output::{Format, OutputArgs, SyntaxArg};
use crate::progress::{Progress, QuietArg};

/// Propagate a tile of each fusion's output (sizes per output dimension; tile t covers
/// t_i * size_i + [0, size_i - 1]) to the tile of every operand it reads: offsets as
/// expressions of the tile ids t0, t1, ..., sizes and strides, and whether the tile is exact
/// (and under which conditions) or over-approximates, or why it cannot be expressed.
///
/// With --symbolic the sizes are symbols ts0, ts1, ...: each operand's offsets are expressions
/// of the tile ids and sizes, its sizes and strides expressions of the sizes, and the
/// constraints on the sizes (a disjunction of conjunctions) say when the tile is exact (or,
/// where it over-approximates, covers the read). --space lists, per output, the tile sizes
/// (powers of two and each dimension's own size) under which every operand's tile holds.
/// --best ranks those by a cost model (bytes moved in 32-byte sectors over the occupancy of
/// --chip, blocks of 128 threads, tiles within 64 KiB) and prints the cheapest with the cost of
/// each candidate.
///
/// Outputs whose rank differs from the number of sizes are reported as not tiled.
/// A module without fusions whose entry holds several ops (HLO before XLA's fusion passes) is
/// an error at its entry (exit 1) that says how to dump the module XLA compiled.
/// Examples:
///   xla-indexing tiles examples/hlo/transpose_exp_add.hlo --tile 4,8
///   xla-indexing tiles examples/hlo/reshape_tiles.hlo --symbolic
///   xla-indexing tiles examples/hlo/softmax.hlo --best --chip sm_90
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The .hlo file (HLO text as XLA dumps it).
    file: PathBuf,
    /// Tile sizes, one per output dimension, as one comma-separated value, e.g. 4,64.
    #[arg(long, value_name = "SIZES", value_delimiter = ',',
          required_unless_present_any = ["symbolic", "space", "best"],
          conflicts_with_all = ["symbolic", "space", "best"],
          value_parser = clap::value_parser!(i64).range(1..))]
    tile: Vec<i64>,
    /// Print every operand's symbolic tile and its constraints.
    #[arg(long, conflicts_with_all = ["space", "best"])]
    symbolic: bool,
    /// List the valid tile sizes of every output.
    #[arg(long, conflicts_with = "best")]
    space: bool,
    /// Rank the valid tile sizes of every output by the cost model.
    #[arg(long)]
    best: bool,
    /// With --best, the candidates printed per output (JSON prints all).
    #[arg(long, default_value_t = 8)]
    top: usize,
    #[command(flatten)]
    chip: ChipArg,
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
    let mut report = |done, total| progress.update(done, total);
    let json = args.output.format == Format::Json;
    let out = if args.tile.is_empty() {
        let all = symbolic_tiles_of_module(&module, &mut report)
            .map_err(|e| super::hlo_failure(e, &args.file, &text))?;
        let device = args.chip.device();
        match (args.space, args.best, json) {
            (true, _, false) => tiling::space_text(&all),
            (true, _, true) => tiling::space_json(&all).to_string(),
            (_, true, false) => tiling::best_text(&all, &device, args.top),
            (_, true, true) => tiling::best_json(&all, &device).to_string(),
            (_, _, false) => tiling::symbolic_text(&all),
            (_, _, true) => tiling::symbolic_json_report(&all).to_string(),
        }
    } else {
        let all = tiles_of_module(&module, &args.tile, &mut report)
            .map_err(|e| super::hlo_failure(e, &args.file, &text))?;
        if json {
            gpu_report::tiles::json(&all).to_string()
        } else {
            gpu_report::tiles::text(&all)
        }
    };
    drop(progress);
    args.output.write(&args.syntax.respell(&out))
}
