//! `xla-indexing bounds`: TVM bound inference on a schedule file.

use std::path::PathBuf;

use crate::diag::{Diagnostic, Exit, Failure};
use crate::output::{Format, OutputArgs, SyntaxArg, read_input};

/// Infer every IterVar's range and every stage's realized region of a TVM schedule, exactly.
///
/// Text output lists the ranges, the regions and the lowered loop nest; --emit mlir writes the
/// loop nest as affine.for loops with memref.alloc of the inferred regions (f32 tensors).
/// Examples:
///   xla-indexing bounds examples/sched/fuse_split.sched --format json
///   xla-indexing bounds examples/sched/fuse_split.sched --emit mlir | mlir-opt
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The .sched file.
    file: PathBuf,
    /// Write the lowered loop nest in this language instead of the report.
    #[arg(long, value_enum, value_name = "LANG")]
    emit: Option<Emit>,
    #[command(flatten)]
    pub syntax: SyntaxArg,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// Languages the loop nest is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Emit {
    Mlir,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let text = read_input(&args.file)?;
    let report = xla_indexing_loops::sched::parse(&text)
        .and_then(|s| xla_indexing_loops::sched::infer_bounds(&s))
        .map_err(|e| super::loops_failure(e, &args.file, &text))?;
    let out = match (args.emit, args.output.format) {
        (Some(Emit::Mlir), Format::Text) => report
            .to_mlir()
            .map_err(|e| super::loops_failure(e, &args.file, &text))?,
        (Some(Emit::Mlir), Format::Json) => {
            return Err(Failure::new(
                Exit::Usage,
                Diagnostic::error("--emit mlir writes MLIR text, not JSON"),
            ));
        }
        (None, Format::Text) => args.syntax.respell(
            &report
                .to_text()
                .map_err(|e| super::loops_failure(e, &args.file, &text))?,
        ),
        (None, Format::Json) => args.syntax.respell(&report.to_json().to_string()),
    };
    args.output.write(&out)
}
