//! Errors of the HLO crate, each with its exit-code class (docs/architecture.md, "Exit codes
//! and diagnostics").

/// A failure to read or analyse an HLO module.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HloError {
    /// The text is not a well-formed module (exit code 3).
    #[error("{message} at line {line}, column {column}")]
    Parse {
        /// 1-based line of the error.
        line: usize,
        /// 1-based column (in characters) of the error.
        column: usize,
        /// What is wrong, without the position.
        message: String,
    },
    /// The module is well formed but inconsistent: a shape mismatch, an attribute out of range,
    /// arithmetic that overflows (exit code 1).
    #[error("{instruction} (line {line}): {message}")]
    Analysis {
        /// The name of the instruction at fault.
        instruction: String,
        /// 1-based line where the instruction starts.
        line: usize,
        /// 1-based column (in characters) where the instruction starts.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// The request names something the module does not have (exit code 2).
    #[error("{0}")]
    Usage(String),
}

impl HloError {
    /// A parse error at a 1-based line and column.
    pub fn parse(line: usize, column: usize, message: impl Into<String>) -> HloError {
        HloError::Parse {
            line,
            column,
            message: message.into(),
        }
    }

    /// The 1-based line and column the error points at, when it has one.
    pub fn location(&self) -> Option<(usize, usize)> {
        match self {
            HloError::Parse { line, column, .. } | HloError::Analysis { line, column, .. } => {
                Some((*line, *column))
            }
            HloError::Usage(_) => None,
        }
    }

    /// The message without the location.
    pub fn message(&self) -> String {
        match self {
            HloError::Parse { message, .. } => message.clone(),
            HloError::Analysis {
                instruction,
                message,
                ..
            } => format!("{instruction}: {message}"),
            HloError::Usage(m) => m.clone(),
        }
    }
}
