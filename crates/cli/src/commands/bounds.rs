//! `xla-indexing bounds`: TVM bound inference on a schedule file.

use std::path::PathBuf;

use crate::diag::Failure;
use crate::output::{Format, OutputArgs, read_input};

/// Infer every IterVar's range and every stage's realized region of a TVM schedule, exactly.
///
/// Text output lists the ranges, the regions and the lowered loop nest.
/// Example:
///   xla-indexing bounds examples/sched/fuse_split.sched --format json
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The .sched file.
    file: PathBuf,
    #[command(flatten)]
    pub output: OutputArgs,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let text = read_input(&args.file)?;
    let report = xla_indexing_loops::sched::parse(&text)
        .and_then(|s| xla_indexing_loops::sched::infer_bounds(&s))
        .map_err(|e| super::loops_failure(e, &args.file, &text))?;
    let out = match args.output.format {
        Format::Text => report.to_text(),
        Format::Json => report.to_json().to_string(),
    };
    args.output.write(&out)
}
