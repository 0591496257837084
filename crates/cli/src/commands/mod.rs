//! One module per subcommand.

pub mod bounds;
pub mod coalescing;
pub mod import;
pub mod indexing;
pub mod launch;
pub mod opt;
pub mod ranges;
pub mod render;
pub mod simplify;
pub mod tiles;

use crate::diag::{Diagnostic, Exit, Failure};

/// A failure for an error of the loops crate: exit 3 for unreadable input, 1 otherwise, pointing
/// at the line and column when it has one.
fn loops_failure(e: xla_indexing_loops::LoopsError, file: &std::path::Path, text: &str) -> Failure {
    let exit = match e.kind {
        xla_indexing_loops::ErrorKind::Parse => Exit::Parse,
        xla_indexing_loops::ErrorKind::Semantic => Exit::Analysis,
    };
    let diagnostic = Diagnostic::error(e.message);
    let file = file.to_string_lossy();
    Failure::new(
        exit,
        if e.line > 0 {
            diagnostic.at(Some(&file), text, e.line, e.column)
        } else {
            Diagnostic {
                file: Some(file.into_owned()),
                ..diagnostic
            }
        },
    )
}
