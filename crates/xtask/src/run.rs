//! Running commands with what they do echoed to stderr.

use std::{
    ffi::OsStr,
    fmt::Write as _,
    io::{BufRead, BufReader, Write as _},
    process::{Command, ExitStatus, Stdio},
};

use anyhow::{Context, Result, bail};

/// Returns `command` as a shell-like line for messages.
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

/// Runs `command` with inherited streams and returns its exit status.
pub fn status(command: &mut Command) -> Result<ExitStatus> {
    eprintln!("xtask: $ {}", describe(command));
    command
        .status()
        .with_context(|| format!("cannot run `{}`", describe(command)))
}

/// Runs `command` and fails unless it succeeds.
pub fn checked(command: &mut Command) -> Result<()> {
    let status = status(command)?;
    if !status.success() {
        bail!("`{}` failed ({status})", describe(command));
    }
    Ok(())
}

/// Runs `command`, copying its stdout to ours line by line, and returns the status and the
/// lines.
pub fn tee(command: &mut Command) -> Result<(ExitStatus, Vec<String>)> {
    eprintln!("xtask: $ {}", describe(command));
    let mut child = command
        .stdout(Stdio::piped())
        .spawn()
        .with_context(|| format!("cannot run `{}`", describe(command)))?;
    let stdout = child.stdout.take().context("no stdout pipe")?;
    let mut lines = Vec::new();
    let mut reader = BufReader::new(stdout);
    let mut out = std::io::stdout().lock();
    let mut buffer = Vec::new();
    while reader
        .read_until(b'\n', &mut buffer)
        .context("reading the command's output")?
        > 0
    {
        out.write_all(&buffer)?;
        out.flush()?;
        lines.push(
            String::from_utf8_lossy(&buffer)
                .trim_end_matches(['\n', '\r'])
                .to_owned(),
        );
        buffer.clear();
    }
    drop(out);
    Ok((child.wait()?, lines))
}

/// Runs `program` with `args` and returns its stdout if it succeeds; `None` if it cannot
/// run or fails.
pub fn output<I, S>(program: &str, args: I) -> Option<String>
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let out = Command::new(program)
        .args(args)
        .stderr(Stdio::null())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// `cargo build --release -p PACKAGE` (with `extra` arguments, such as `--example NAME`) in
/// `root`, failing when the build fails.
pub fn build_release(root: &std::path::Path, package: &str, extra: &[&str]) -> Result<()> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    checked(
        Command::new(&cargo)
            .current_dir(root)
            .args(["build", "--release", "-p", package])
            .args(extra),
    )
}
