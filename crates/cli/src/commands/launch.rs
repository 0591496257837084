//! `xla-indexing launch`: launch grids and thread-id maps of every fusion of an HLO module.

use std::path::{Path, PathBuf};

use xla_indexing_hlo::gpu::{Device, KernelPlan, plan_module, report};
use xla_indexing_hlo::parse_module;

use crate::diag::Failure;
use crate::output::{Format, OutputArgs, read_input};

/// Print, per fusion, the launch grid (threads per block, blocks, unroll factor) of the loop
/// emitter on an sm_90 GPU, the thread-id indexing map (th_x..bl_z, [chunk_id, unroll_id]),
/// and the thread-id to operand maps.
///
/// A launch that would exceed a hardware limit is an error naming the fusion (exit 1).
/// Example:
///   xla-indexing launch examples/hlo/transpose_exp_add.hlo
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The .hlo file (HLO text as XLA dumps it).
    file: PathBuf,
    #[command(flatten)]
    pub output: OutputArgs,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let (_, plans) = plans(&args.file)?;
    let out = match args.output.format {
        Format::Text => report::launch_text(&plans),
        Format::Json => report::launch_json(&plans).to_string(),
    };
    args.output.write(&out)
}

/// Reads, parses and plans every kernel of an HLO file on the default device.
pub fn plans(file: &Path) -> Result<(String, Vec<KernelPlan>), Failure> {
    let text = read_input(file)?;
    let plans = parse_module(&text)
        .and_then(|m| plan_module(&m, &Device::default()))
        .map_err(|e| super::hlo_failure(e, file, &text))?;
    Ok((text, plans))
}
