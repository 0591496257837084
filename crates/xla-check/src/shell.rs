//! Commands as a shell would write them, for messages.

use std::{fmt::Write as _, process::Command};

/// `command` as a shell-like line: each argument quoted where it holds whitespace or quotes.
pub fn describe(command: &Command) -> String {
    let mut line = command.get_program().to_string_lossy().into_owned();
    for arg in command.get_args() {
        let arg = arg.to_string_lossy();
        if arg.is_empty() || arg.contains(|c: char| c.is_whitespace() || "\"'$\\".contains(c)) {
            let _ = write!(line, " '{}'", arg.replace('\'', r"'\''"));
        } else {
            let _ = write!(line, " {arg}");
        }
    }
    line
}
