//! The one error type of this crate: a message, where in the input it points, and whether the
//! input could not be read at all ([`ErrorKind::Parse`]) or was read but is wrong
//! ([`ErrorKind::Semantic`]).

/// What went wrong, which decides the exit code of the command that reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The text is not in the language (exit code 3).
    Parse,
    /// The text parses but the program is wrong or cannot be analysed (exit code 1).
    Semantic,
}

/// An error with a 1-based line and column (0 when it has no place in the input).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message} at line {line}, column {column}")]
pub struct LoopsError {
    /// Whether the input could not be parsed or was parsed but is wrong (decides the exit code).
    pub kind: ErrorKind,
    /// What is wrong, without the position.
    pub message: String,
    /// 1-based line in the input; 0 when the error has no place in it.
    pub line: usize,
    /// 1-based column (in characters) in the line; 0 when the error has no place in the input.
    pub column: usize,
}

impl LoopsError {
    /// A syntax error at `line:column`.
    pub fn parse(message: impl Into<String>, line: usize, column: usize) -> LoopsError {
        LoopsError {
            kind: ErrorKind::Parse,
            message: message.into(),
            line,
            column,
        }
    }

    /// A semantic error at `line:column`.
    pub fn semantic(message: impl Into<String>, line: usize, column: usize) -> LoopsError {
        LoopsError {
            kind: ErrorKind::Semantic,
            message: message.into(),
            line,
            column,
        }
    }
}

/// A place in the input: 1-based line and column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pos {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

impl Pos {
    /// A semantic error at this position.
    pub fn error(self, message: impl Into<String>) -> LoopsError {
        LoopsError::semantic(message, self.line, self.column)
    }
}
