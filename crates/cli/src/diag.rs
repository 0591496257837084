//! Diagnostics on stderr: text with the source line and a caret, or one JSON object per line.
//! Also the exit codes of every command.

use std::io::Write;

/// Exit codes shared by every command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Analysis or verification error.
    Analysis = 1,
    /// Bad command line.
    Usage = 2,
    /// Input that cannot be parsed.
    Parse = 3,
}

/// How diagnostics are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum DiagFormat {
    #[default]
    Text,
    Json,
}

/// The longest message written: a message quoting a 10 MB token would otherwise repeat it.
const MAX_MESSAGE_CHARS: usize = 500;

/// One message about the input.
#[derive(Clone, Debug, Default)]
pub struct Diagnostic {
    pub severity: &'static str,
    pub message: String,
    pub file: Option<String>,
    pub line: Option<usize>,
    pub column: Option<usize>,
    /// The text of the line the message points into, for the caret display.
    pub source_line: Option<String>,
}

impl Diagnostic {
    pub fn error(message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: "error",
            message: message.into(),
            ..Default::default()
        }
    }

    pub fn warning(message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: "warning",
            message: message.into(),
            ..Default::default()
        }
    }

    /// Points the message at `line:column` (1-based) of `source`, named `file`.
    pub fn at(
        mut self,
        file: Option<&str>,
        source: &str,
        line: usize,
        column: usize,
    ) -> Diagnostic {
        self.file = file.map(str::to_string);
        self.line = Some(line);
        self.column = Some(column);
        self.source_line = source
            .lines()
            .nth(line.saturating_sub(1))
            .map(str::to_string);
        self
    }

    /// Points the message at `location` (1-based line and column) of `source`, named `file`,
    /// when there is one; else names the file only.
    pub fn in_file(self, file: &str, source: &str, location: Option<(usize, usize)>) -> Diagnostic {
        match location {
            Some((line, column)) => self.at(Some(file), source, line, column),
            None => Diagnostic {
                file: Some(file.to_string()),
                ..self
            },
        }
    }

    /// Writes the diagnostic to stderr.
    pub fn emit(&self, format: DiagFormat) {
        let text = match format {
            DiagFormat::Json => self.to_json().to_string(),
            DiagFormat::Text => self.to_text(),
        };
        let _ = writeln!(std::io::stderr().lock(), "{text}");
    }

    /// The message, cut after [`MAX_MESSAGE_CHARS`] characters.
    fn shown_message(&self) -> String {
        match self.message.char_indices().nth(MAX_MESSAGE_CHARS) {
            Some((cut, _)) => format!("{}...", &self.message[..cut]),
            None => self.message.clone(),
        }
    }

    fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "severity": self.severity,
            "message": self.shown_message(),
            "file": self.file,
            "line": self.line,
            "column": self.column,
        })
    }

    fn to_text(&self) -> String {
        let mut out = String::new();
        if let Some(file) = &self.file {
            out.push_str(file);
            out.push(':');
        }
        if let (Some(l), Some(c)) = (self.line, self.column) {
            out.push_str(&format!("{l}:{c}:"));
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&format!("{}: {}", self.severity, self.shown_message()));
        if let (Some(src), Some(c)) = (&self.source_line, self.column) {
            let shown: String = src.chars().take(200).collect();
            let pad: String = shown
                .chars()
                .take(c.saturating_sub(1))
                .map(|ch| if ch == '\t' { '\t' } else { ' ' })
                .collect();
            out.push_str(&format!("\n  {shown}\n  {pad}^"));
        }
        out
    }
}

/// Why a command stopped before its end.
#[derive(Debug)]
pub enum Failure {
    /// An error: what to tell the user and the exit code.
    Error {
        exit: Exit,
        diagnostic: Box<Diagnostic>,
    },
    /// The reader of stdout closed it (`... | head`): the run ends quietly with exit code 0, as
    /// Unix filters do.
    ClosedOutput,
}

impl Failure {
    pub fn new(exit: Exit, diagnostic: Diagnostic) -> Failure {
        Failure::Error {
            exit,
            diagnostic: Box::new(diagnostic),
        }
    }
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Failure {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            return Failure::ClosedOutput;
        }
        Failure::new(Exit::Analysis, Diagnostic::error(format!("I/O error: {e}")))
    }
}
