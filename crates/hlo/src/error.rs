//! Errors of the HLO crate, each with the exit-code class of DESIGN §4.

/// A failure to read or analyse an HLO module.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HloError {
    /// The text is not a well-formed module (exit code 3).
    #[error("{message} at line {line}, column {column}")]
    Parse {
        line: usize,
        column: usize,
        message: String,
    },
    /// The module is well formed but inconsistent: a shape mismatch, an attribute out of range,
    /// arithmetic that overflows (exit code 1).
    #[error("{instruction} (line {line}): {message}")]
    Analysis {
        instruction: String,
        line: usize,
        column: usize,
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
