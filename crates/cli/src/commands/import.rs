//! `xla-indexing import`: an HLO module as MLIR.

use std::path::PathBuf;

use xla_indexing_passes::opt::{OptOptions, check_parses};
use xla_indexing_translate::import::import_module_with_progress;

use crate::diag::{Diagnostic, Exit, Failure};
use crate::output::OutputArgs;
use crate::progress::{Progress, QuietArg};

/// Write an HLO module as MLIR: the entry computation as a func.func, each fusion as an
/// xla_indexing.fusion op whose body holds StableHLO-like ops in generic form, with the
/// attributes xla-indexing-annotate reads. Read it back with --allow-unregistered-dialect.
///
/// Layouts are not imported (a copy forwards its operand, a bitcast between default layouts
/// is a reshape). Ops without a StableHLO form here are written generically, with a warning.
/// A module `indexing` refuses (shapes or attributes that do not fit, sizes that overflow, calls
/// that do not match their computation) is an error naming the instruction (exit 1).
/// With --format json the result is {"mlir": TEXT} and diagnostics are JSON lines.
/// Example (then annotated in process):
///   xla-indexing import examples/hlo/transpose_exp_add.hlo | xla-indexing opt /dev/stdin --allow-unregistered-dialect --pass-pipeline='builtin.module(xla-indexing-annotate)'
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The .hlo file (HLO text as XLA dumps it).
    file: PathBuf,
    #[command(flatten)]
    progress: QuietArg,
    #[command(flatten)]
    pub output: OutputArgs,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let (text, module) = super::read_module(&args.file)?;
    let file = args.file.to_string_lossy();
    let mut progress = Progress::new("import", 0, args.progress.quiet);
    let imported = import_module_with_progress(&module, &file, &mut |done, total| {
        progress.update(done, total)
    })
    .map_err(|e| super::hlo_failure(e, &args.file, &text))?;
    drop(progress);
    for warning in &imported.warnings {
        Diagnostic::warning(warning.message.clone())
            .at(Some(&file), &text, warning.line, warning.column)
            .emit(args.output.diag_format());
    }
    // What is written must read back: a text MLIR rejects is a bug of the import.
    let options = OptOptions {
        allow_unregistered_dialect: true,
    };
    if let Err(messages) = check_parses(&imported.text, options) {
        let detail: Vec<String> = messages
            .iter()
            .map(|m| match (m.line, m.column) {
                (Some(l), Some(c)) => format!("{l}:{c}: {}", m.message),
                _ => m.message.clone(),
            })
            .collect();
        return Err(Failure::new(
            Exit::Analysis,
            Diagnostic {
                file: Some(file.into_owned()),
                ..Diagnostic::error(format!(
                    "internal error: the imported MLIR does not parse: {}",
                    detail.join("; ")
                ))
            },
        ));
    }
    args.output
        .write(&super::opt::mlir_result(&args.output, imported.text))
}
