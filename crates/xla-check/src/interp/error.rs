//! Why a run stops: a wrong access, an op the table has no handler for, or something the
//! interpreter does not run, each wrapped in where it happened.

use std::fmt::Display;

use xla_indexing_core::ParseError;

/// Why a run of a kernel stopped.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// An access out of a tensor's bounds: a wrong index in the kernel, not a limit of the
    /// interpreter.
    #[error("index {index} out of [0, {size})")]
    OutOfBounds { index: i64, size: i64 },
    /// An op that no handler of the table runs.
    #[error("the op {name} is not interpreted")]
    UnknownOp { name: String },
    /// An `apply_indexing`'s map that the project's parser rejects.
    #[error(transparent)]
    Map(#[from] ParseError),
    /// What the interpreter does not run (control flow on float data, a dynamic offset, ...),
    /// or op text it cannot read: a limit of the interpreter, not a verdict on the kernel.
    #[error("{0}")]
    Unsupported(String),
    /// An error at an op: its line (1-based) and text.
    #[error("line {line}: `{text}`: {inner}")]
    AtOp {
        line: usize,
        text: String,
        inner: Box<RunError>,
    },
    /// An error inside something named: a function (`in @f`), a side of a comparison.
    #[error("{context}: {inner}")]
    In {
        context: String,
        inner: Box<RunError>,
    },
}

impl RunError {
    /// The error itself, without where it happened.
    pub fn root(&self) -> &RunError {
        match self {
            RunError::AtOp { inner, .. } | RunError::In { inner, .. } => inner.root(),
            other => other,
        }
    }

    /// This error inside `context`.
    pub fn within(self, context: impl Into<String>) -> RunError {
        RunError::In {
            context: context.into(),
            inner: Box::new(self),
        }
    }
}

/// The interpreter's results.
pub type Result<T, E = RunError> = std::result::Result<T, E>;

/// Stops the run: [`RunError::Unsupported`] with a message formatted as by `format!`.
macro_rules! fail {
    ($($message:tt)*) => {
        return Err($crate::interp::RunError::Unsupported(format!($($message)*)))
    };
}

/// An `Option` whose `None` stops the run with [`RunError::Unsupported`], saying what is
/// missing.
pub(crate) trait Need<T> {
    /// The value, or an error saying `what`.
    fn need(self, what: &str) -> Result<T>;
    /// The value, or an error saying what `what` makes (for messages worth formatting only
    /// when needed).
    fn need_with<D: Display>(self, what: impl FnOnce() -> D) -> Result<T>;
}

impl<T> Need<T> for Option<T> {
    fn need(self, what: &str) -> Result<T> {
        self.ok_or_else(|| RunError::Unsupported(what.to_owned()))
    }

    fn need_with<D: Display>(self, what: impl FnOnce() -> D) -> Result<T> {
        self.ok_or_else(|| RunError::Unsupported(what().to_string()))
    }
}
