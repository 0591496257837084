//! Tests that need a tool outside Rust (mlir-runner, mlir-opt, ptxas, Graphviz, `script`).
//!
//! Under `cargo xtask test` and in CI (`XLA_INDEXING_REQUIRE_TOOLS` or `CI` set to anything but
//! empty or `0`), a missing tool fails the test that needs it. Under a plain `cargo test` the test
//! is skipped, and says on stderr what it skipped and why.

/// Whether a missing tool is a failure here.
pub fn tools_required() -> bool {
    ["XLA_INDEXING_REQUIRE_TOOLS", "CI"]
        .iter()
        .any(|var| std::env::var(var).is_ok_and(|v| !v.is_empty() && v != "0"))
}

/// What `test` needs, as `found` says: `Some` when it is there. When it is missing, `None`
/// (after a note on stderr) if tools are not required, else a panic that fails the test.
pub fn require<T>(test: &str, found: Result<T, String>) -> Option<T> {
    match found {
        Ok(tool) => Some(tool),
        Err(why) if tools_required() => panic!(
            "{test} cannot run: {why} (a missing tool is a failure under `cargo xtask test` and CI)"
        ),
        Err(why) => {
            eprintln!("skipped: {test}: {why}");
            None
        }
    }
}

/// `program` with `version_arg` runs: `Ok`, else why not.
pub fn program(program: &str, version_arg: &str) -> Result<(), String> {
    std::process::Command::new(program)
        .arg(version_arg)
        .output()
        .map(drop)
        .map_err(|e| format!("{program} does not run ({e})"))
}
