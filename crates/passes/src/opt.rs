//! Running pass pipelines in process, as `mlir-opt --pass-pipeline=...` with the plugin does:
//! the file is parsed into a [`Session`] (every upstream dialect and ours, every upstream pass
//! and ours registered), the pipeline is parsed and run, and the module is printed as `mlir-opt`
//! prints it.

use xla_indexing_core::stack::on_large_stack;
pub use xla_indexing_mlir::session::{
    Message, OptError, OptOptions, OptOutput, Session, Severity, check_parses, full_context,
};

use crate::register_passes;

/// A [`Session`] in which the project's passes are registered (as the plugin registers them
/// in `mlir-opt`), for parsing the file `name` and running pipelines on it.
pub fn session(name: &str, options: OptOptions) -> Session {
    register_passes();
    Session::new(name, options)
}

/// Parses `source` (the text of the file `name`, which locations name), runs `pipeline`
/// (`builtin.module(xla-indexing-simplify)`) on it and prints the result. All of it runs on a
/// thread with a 1 GiB stack: MLIR's parser, verifier, walks and printer recurse into every
/// nested region, and overflow the main thread's 8 MiB near 4000 levels; input nested deeper
/// than [`MAX_NESTING`](xla_indexing_mlir::session::MAX_NESTING) is a parse error.
pub fn run_pipeline(
    source: &str,
    name: &str,
    pipeline: &str,
    options: OptOptions,
) -> Result<OptOutput, OptError> {
    on_large_stack(|| {
        let session = session(name, options);
        let mut module = session.parse(source)?;
        session.run(&mut module, pipeline)?;
        Ok(OptOutput {
            text: module.as_operation().to_string(),
            messages: session.take_messages(),
        })
    })
    .unwrap_or_else(|e| {
        Err(OptError::Pass(vec![Message {
            severity: Severity::Error,
            message: format!("no thread to parse and run on: {e}"),
            file: None,
            line: None,
            column: None,
        }]))
    })
}
