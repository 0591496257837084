//! `xla-indexing opt`: run a pass pipeline on an MLIR file in process, as `mlir-opt` with the
//! plugin does.

use std::path::{Path, PathBuf};

use xla_indexing_passes::opt::{Message, OptError, OptOptions, run_pipeline};

use crate::diag::{DiagFormat, Diagnostic, Exit, Failure};
use crate::output::{Format, OutputArgs, read_input};

/// Run a pass pipeline (ours and MLIR's) on an MLIR file and print the result, as
/// `mlir-opt --load-dialect-plugin=P --load-pass-plugin=P --pass-pipeline=...` does.
///
/// StableHLO in pretty form, as `jax.jit(f).lower(...).as_text()` prints it, is read as it is:
/// its ops are rewritten in generic form first (and read as ops of an unregistered dialect).
///
/// Exit codes: 3 when the input does not parse, 2 for a bad pipeline, 1 when a pass fails.
/// With --format json the result is {"mlir": TEXT} and diagnostics are JSON lines.
/// Example:
///   xla-indexing opt examples/mlir/simplify.mlir --pass-pipeline='builtin.module(xla-indexing-simplify)'
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The .mlir file.
    file: PathBuf,
    /// The pipeline, anchored on the module: builtin.module(xla-indexing-simplify, canonicalize).
    #[arg(long, value_name = "P")]
    pass_pipeline: String,
    /// Accept ops of unregistered dialects (StableHLO's generic form, as JAX prints it); implied
    /// when the file holds StableHLO in pretty form.
    #[arg(long)]
    allow_unregistered_dialect: bool,
    #[command(flatten)]
    pub output: OutputArgs,
}

pub fn run(args: Args) -> Result<(), Failure> {
    // A missing file is a usage error, text that is not UTF-8 a parse error.
    let text = read_input(&args.file)?;
    // StableHLO's pretty ops in generic form, on the lines where they were, so that MLIR's
    // diagnostics point at the user's lines. MLIR reads StableHLO only as an unregistered
    // dialect: pretty StableHLO is accepted as such.
    let generic = xla_indexing_stablehlo_text::to_generic(&text).map_err(|e| {
        super::located_failure(
            Exit::Parse,
            format!("StableHLO: {}", e.message),
            Some((e.line, e.column)),
            &args.file,
            &text,
        )
    })?;
    let options = OptOptions {
        allow_unregistered_dialect: args.allow_unregistered_dialect || generic != text,
    };
    let format = args.output.diag_format();
    match run_pipeline(
        &generic,
        &args.file.to_string_lossy(),
        &args.pass_pipeline,
        options,
    ) {
        Ok(done) => {
            for message in &done.messages {
                diagnostic(message, &args.file, &text).emit(format);
            }
            args.output.write(&mlir_result(&args.output, done.text))
        }
        Err(OptError::Parse(messages)) => {
            Err(report(&messages, &args.file, &text, format, Exit::Parse))
        }
        Err(OptError::Pass(messages)) => {
            Err(report(&messages, &args.file, &text, format, Exit::Analysis))
        }
        Err(e @ OptError::Pipeline(_)) => Err(Failure::new(
            Exit::Usage,
            Diagnostic::error(format!("--pass-pipeline: {e}")),
        )),
    }
}

/// The result as `--format` asks: the MLIR text, or `{"mlir": TEXT}`.
pub(crate) fn mlir_result(output: &OutputArgs, text: String) -> String {
    match output.format {
        Format::Text => text,
        Format::Json => serde_json::json!({ "mlir": text }).to_string(),
    }
}

/// Emits every message but the last, which becomes the failure (so they keep MLIR's order).
fn report(
    messages: &[Message],
    file: &Path,
    text: &str,
    format: DiagFormat,
    exit: Exit,
) -> Failure {
    let Some((last, before)) = messages.split_last() else {
        return Failure::new(
            exit,
            Diagnostic {
                file: Some(file.to_string_lossy().into_owned()),
                ..Diagnostic::error("MLIR failed without a diagnostic")
            },
        );
    };
    for message in before {
        diagnostic(message, file, text).emit(format);
    }
    Failure::new(exit, diagnostic(last, file, text))
}

/// The command line's form of an MLIR diagnostic: with the source line and a caret when it
/// points into the input file.
fn diagnostic(message: &Message, file: &Path, text: &str) -> Diagnostic {
    let plain = Diagnostic {
        severity: message.severity.as_str(),
        message: message.message.clone(),
        ..Diagnostic::default()
    };
    let input = file.to_string_lossy();
    match (&message.file, message.line, message.column) {
        (Some(name), Some(line), Some(column)) if *name == input => {
            plain.at(Some(&input), text, line, column)
        }
        (name, line, column) => Diagnostic {
            file: name.clone(),
            line,
            column,
            ..plain
        },
    }
}
