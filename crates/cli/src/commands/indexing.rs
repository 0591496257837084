//! `xla-indexing indexing`: indexing maps of an HLO module.

use std::num::NonZeroUsize;
use std::path::PathBuf;

use xla_indexing_hlo::{Direction, Options, analyze_module_with_progress};

use crate::diag::{Diagnostic, Failure};
use crate::output::{Format, OutputArgs, SyntaxArg};
use crate::progress::{Progress, QuietArg};

/// Print the indexing maps of every fused computation of an HLO file, of one computation's
/// root, or of one instruction.
///
/// Ops without maps (while, conditional, opaque custom calls, collectives, ...) are counted by
/// opcode in one warning (`-q` silences it; with --instruction, only that instruction is
/// reported) and listed under "unsupported" in JSON; the rest is analysed and the exit code
/// stays 0.
/// Example:
///   xla-indexing indexing examples/hlo/softmax.hlo --utilization
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The .hlo file (HLO text as XLA dumps it).
    file: PathBuf,
    /// Analyse this computation's root instead of every fused computation.
    #[arg(long, value_name = "C")]
    computation: Option<String>,
    /// Analyse this instruction alone (its operands are the targets).
    #[arg(long, value_name = "I")]
    instruction: Option<String>,
    /// out2in: what each output element reads; in2out: what each input element feeds.
    #[arg(long, value_parser = ["out2in", "in2out"], default_value = "out2in")]
    direction: String,
    /// Count the elements of each operand that are read.
    #[arg(long)]
    utilization: bool,
    /// Maps between physical indices: each array's dimensions in the order its layout stores
    /// them, major to minor (XLA's use_physical_layout).
    #[arg(long)]
    physical: bool,
    /// Threads that analyse the fusions (default: one per core); the output does not depend on it.
    #[arg(long, value_name = "N")]
    threads: Option<NonZeroUsize>,
    #[command(flatten)]
    progress: QuietArg,
    #[command(flatten)]
    pub syntax: SyntaxArg,
    #[command(flatten)]
    pub output: OutputArgs,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let (text, module) = super::read_module(&args.file)?;
    let options = Options {
        computation: args.computation.clone(),
        instruction: args.instruction.clone(),
        direction: Direction::parse(&args.direction).unwrap_or_default(),
        utilization: args.utilization,
        physical: args.physical,
        keep_known_runtime_vars: false,
        threads: args.threads,
    };
    let mut progress = Progress::new("indexing", 0, args.progress.quiet);
    let report = analyze_module_with_progress(&module, &options, &mut |done, total| {
        progress.update(done, total)
    })
    .map_err(|e| super::hlo_failure(e, &args.file, &text))?;
    drop(progress);
    let file = args.file.to_string_lossy();
    let warnings = if args.progress.quiet {
        Vec::new()
    } else {
        report.warnings()
    };
    for warning in warnings {
        Diagnostic::warning(warning.message)
            .in_file(&file, &text, warning.at.map(|at| (at.line, at.column)))
            .emit(args.output.diag_format());
    }
    let out = match args.output.format {
        Format::Text => report.to_text(),
        Format::Json => report.to_json().to_string(),
    };
    args.output.write(&args.syntax.respell(&out))
}
