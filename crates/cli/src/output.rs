//! Where and how a command writes its result.

use std::io::Write;
use std::path::PathBuf;

use xla_indexing_core::Syntax;

use crate::diag::{DiagFormat, Diagnostic, Exit, Failure};

/// The result format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    #[default]
    Text,
    Json,
}

/// Options every result-writing command takes.
#[derive(Clone, Debug, clap::Args)]
pub struct OutputArgs {
    /// Write the result to FILE instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Result format (diagnostics follow it: JSON lines on stderr with `json`).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

impl OutputArgs {
    /// The diagnostic format that goes with the result format.
    pub fn diag_format(&self) -> DiagFormat {
        match self.format {
            Format::Text => DiagFormat::Text,
            Format::Json => DiagFormat::Json,
        }
    }

    /// Writes the whole result, with a final newline.
    pub fn write(&self, text: &str) -> Result<(), Failure> {
        let mut text = text.to_string();
        if !text.ends_with('\n') {
            text.push('\n');
        }
        match &self.output {
            Some(path) => std::fs::write(path, text).map_err(|e| {
                Failure::new(
                    Exit::Analysis,
                    Diagnostic::error(format!("cannot write {}: {e}", path.display())),
                )
            }),
            None => {
                let mut out = std::io::stdout().lock();
                out.write_all(text.as_bytes())?;
                out.flush()?;
                Ok(())
            }
        }
    }
}

/// How a command that prints maps spells them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum SyntaxName {
    /// MLIR's affine syntax: `floordiv`.
    #[default]
    Mlir,
    /// XLA's syntax since 2026: `/` for `floordiv`.
    Xla,
}

/// The `--syntax` option of the commands that print maps.
#[derive(Clone, Copy, Debug, clap::Args)]
pub struct SyntaxArg {
    /// How maps and expressions are written: mlir (`floordiv`) or xla (`/`, as XLA prints them
    /// since 2026); both are read.
    #[arg(long, value_enum, default_value_t = SyntaxName::Mlir)]
    pub syntax: SyntaxName,
}

impl SyntaxArg {
    /// The chosen syntax.
    pub fn syntax(self) -> Syntax {
        match self.syntax {
            SyntaxName::Mlir => Syntax::Mlir,
            SyntaxName::Xla => Syntax::Xla,
        }
    }

    /// `report` (maps and expressions as the libraries print them, in MLIR's spelling) in the
    /// chosen syntax.
    pub fn respell(self, report: &str) -> String {
        self.syntax().respell(report)
    }
}

/// Reads an input file, mapping failures to a usage error naming the file.
pub fn read_input(path: &std::path::Path) -> Result<String, Failure> {
    let bytes = std::fs::read(path).map_err(|e| {
        Failure::new(
            Exit::Usage,
            Diagnostic::error(format!("cannot read {}: {e}", path.display())),
        )
    })?;
    String::from_utf8(bytes).map_err(|e| {
        Failure::new(
            Exit::Parse,
            Diagnostic::error(format!(
                "{} is not UTF-8 text (invalid byte at offset {})",
                path.display(),
                e.utf8_error().valid_up_to()
            )),
        )
    })
}
