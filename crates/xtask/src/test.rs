//! `cargo xtask test`: setup, rustfmt, clippy, the workspace's binaries and
//! `cargo test --workspace`, summed up in one closing line `N passed, N failed` (`, N skipped` when some were).

use std::{path::Path, process::Command};

use anyhow::Result;

use crate::{run, setup};

/// Test counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub passed: u64,
    /// Failures, lit's unsupported tests included.
    pub failed: u64,
    pub skipped: u64,
    /// lit's tests whose `REQUIRES` were not met: a missing tool, which fails `cargo xtask test`.
    pub unsupported: u64,
}

impl Counts {
    fn add(&mut self, other: Counts) {
        self.passed += other.passed;
        self.failed += other.failed;
        self.skipped += other.skipped;
        self.unsupported += other.unsupported;
    }
}

impl std::fmt::Display for Counts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} passed, {} failed", self.passed, self.failed)?;
        if self.skipped > 0 {
            write!(f, ", {} skipped", self.skipped)?;
        }
        Ok(())
    }
}

/// Runs everything and prints the closing line; returns whether all passed.
pub fn test(root: &Path) -> Result<bool> {
    let mut total = Counts::default();
    let tools = match setup::setup(root) {
        Ok(tools) => tools,
        Err(e) => {
            eprintln!("xtask: setup failed: {e:#}");
            total.failed += 1;
            println!("{total}");
            return Ok(false);
        }
    };
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut failed_steps = Vec::new();

    for (name, args) in [
        ("rustfmt", &["fmt", "--all", "--check"][..]),
        (
            "clippy",
            &[
                "clippy",
                "--workspace",
                "--all-targets",
                "--",
                "-D",
                "warnings",
            ][..],
        ),
    ] {
        if !run::status(Command::new(&cargo).args(args).current_dir(root))?.success() {
            failed_steps.push(name);
            total.failed += 1;
        }
    }

    // `cargo test` builds no other package's binaries, and the lit suite runs `xla-indexing`:
    // build them first, and hand lit the binary (it fails, not skips, when that is missing).
    let mut test = Command::new(&cargo);
    test.args(["test", "--workspace", "--no-fail-fast"])
        .env("PTXAS", &tools.ptxas)
        .env("XLA_INDEXING_REQUIRE_TOOLS", "1")
        .current_dir(root);
    let cli = crate::target_dir(root).join("debug/xla-indexing");
    if run::status(
        Command::new(&cargo)
            .args(["build", "--workspace", "--bins"])
            .current_dir(root),
    )?
    .success()
    {
        test.env("XLA_INDEXING_CLI", &cli);
    } else {
        failed_steps.push("cargo build --bins");
        total.failed += 1;
    }
    let (status, lines) = run::tee(&mut test)?;
    let (rust, lit) = (rust_counts(&lines), lit_counts(&lines));
    total.add(rust);
    total.add(lit);
    if !status.success() {
        failed_steps.push("cargo test");
        if rust.failed + lit.failed == 0 {
            // It failed before running a test (a build error, say): count it once.
            total.failed += 1;
        }
    }

    eprintln!(
        "xtask: rust tests: {rust}; lit tests: {lit} ({} unsupported, counted as failed: must be 0)",
        lit.unsupported
    );
    if !failed_steps.is_empty() {
        eprintln!("xtask: failed: {}", failed_steps.join(", "));
    }
    println!("{total}");
    Ok(failed_steps.is_empty() && total.failed == 0)
}

/// Sums libtest's `test result: ok. 3 passed; 0 failed; 1 ignored; ...` lines.
pub fn rust_counts(lines: &[String]) -> Counts {
    let mut counts = Counts::default();
    for line in lines {
        let Some(rest) = line.trim().strip_prefix("test result: ") else {
            continue;
        };
        let Some((_, fields)) = rest.split_once(". ") else {
            continue;
        };
        for field in fields.split(';') {
            let mut words = field.split_whitespace();
            let (Some(n), Some(what)) = (words.next(), words.next()) else {
                continue;
            };
            let Ok(n) = n.parse::<u64>() else { continue };
            match what {
                "passed" => counts.passed += n,
                "failed" => counts.failed += n,
                "ignored" => counts.skipped += n,
                _ => {}
            }
        }
    }
    counts
}

/// Reads lit's closing summary (`Total Discovered Tests: N` and lines like `  Passed : 3 (..%)`).
pub fn lit_counts(lines: &[String]) -> Counts {
    let mut counts = Counts::default();
    let mut in_summary = false;
    for line in lines {
        if line.starts_with("Total Discovered Tests:") {
            in_summary = true;
            continue;
        }
        if !in_summary {
            continue;
        }
        let Some((name, rest)) = line.split_once(':') else {
            in_summary = false;
            continue;
        };
        let Some(Ok(n)) = rest.split_whitespace().next().map(str::parse::<u64>) else {
            in_summary = false;
            continue;
        };
        match name.trim() {
            "Passed" | "Expectedly Failed" => counts.passed += n,
            "Unsupported" => {
                counts.unsupported += n;
                counts.failed += n;
            }
            "Skipped" | "Excluded" => counts.skipped += n,
            _ => counts.failed += n,
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(String::from).collect()
    }

    #[test]
    fn rust_counts_sum_every_result_line() {
        let out = lines(
            "test result: ok. 3 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.01s\n\
             noise\n\
             test result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.20s",
        );
        assert_eq!(
            rust_counts(&out),
            Counts {
                passed: 5,
                failed: 1,
                skipped: 1,
                ..Counts::default()
            }
        );
    }

    #[test]
    fn lit_counts_read_the_summary_and_fail_unsupported_tests() {
        let out = lines(
            "PASS: xla-indexing :: a.mlir (1 of 4)\n\
             Total Discovered Tests: 4\n  Unsupported: 1 (25.00%)\n  Passed     : 2 (50.00%)\n  \
             Failed     : 1 (25.00%)\n\
             test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out",
        );
        assert_eq!(
            lit_counts(&out),
            Counts {
                passed: 2,
                failed: 2,
                skipped: 0,
                unsupported: 1
            }
        );
    }

    #[test]
    fn lit_counts_treat_unresolved_as_failed() {
        let out =
            lines("Total Discovered Tests: 2\n  Passed    : 1 (50.00%)\n  Unresolved: 1 (50.00%)");
        assert_eq!(
            lit_counts(&out),
            Counts {
                passed: 1,
                failed: 1,
                skipped: 0,
                ..Counts::default()
            }
        );
    }

    #[test]
    fn counts_print_the_closing_line() {
        assert_eq!(
            Counts {
                passed: 7,
                failed: 0,
                skipped: 0,
                ..Counts::default()
            }
            .to_string(),
            "7 passed, 0 failed"
        );
        assert_eq!(
            Counts {
                passed: 7,
                failed: 1,
                skipped: 2,
                ..Counts::default()
            }
            .to_string(),
            "7 passed, 1 failed, 2 skipped"
        );
    }
}
