//! Programs lowered in process and run by LLVM 22's `mlir-runner` from standard input.
#![allow(dead_code)]

use std::{
    io::Write as _,
    path::Path,
    process::{Command, Stdio},
};

use xla_indexing_passes::opt::{OptOptions, run_pipeline};
use xla_indexing_testkit::tools::require;

/// LLVM 22's `mlir-runner`.
pub const RUNNER: &str = "/usr/lib/llvm-22/bin/mlir-runner";
/// The runner utilities (`printI64`, ...) that programs call.
pub const RUNNER_UTILS: &str = "/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so";
/// The pipeline from `affine`, `scf` and `arith` to the LLVM dialect.
pub const TO_LLVM: &str =
    "builtin.module(lower-affine, convert-scf-to-cf, convert-to-llvm, reconcile-unrealized-casts)";

/// Whether [`RUNNER`] and [`RUNNER_UTILS`] are installed for `test` to run its programs; their
/// absence fails the test under `cargo xtask test` and CI ([`require`]) and skips the runs
/// otherwise.
pub fn runner_for(test: &str) -> bool {
    let found = match [RUNNER, RUNNER_UTILS]
        .into_iter()
        .find(|p| !Path::new(p).is_file())
    {
        Some(missing) => Err(format!("{missing} is absent")),
        None => Ok(()),
    };
    require(test, found).is_some()
}

/// `source` (named `file` in diagnostics) through `pipeline`, in process; a failure panics
/// with the source.
pub fn opt(source: &str, file: &str, pipeline: &str) -> String {
    match run_pipeline(source, file, pipeline, OptOptions::default()) {
        Ok(output) => output.text,
        Err(e) => panic!("{pipeline} failed: {e}: {e:?}\n{source}"),
    }
}

/// Runs the `@main` of `llvm` (a module in the LLVM dialect) and returns what it printed; a
/// failed run panics with `mlir-runner`'s stderr.
pub fn run(llvm: &str) -> String {
    let mut child = Command::new(RUNNER)
        .args([
            "-e",
            "main",
            "-entry-point-result=void",
            &format!("-shared-libs={RUNNER_UTILS}"),
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("mlir-runner starts");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(llvm.as_bytes())
        .expect("mlir-runner reads the program");
    let output = child.wait_with_output().expect("mlir-runner runs");
    assert!(
        output.status.success(),
        "mlir-runner failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("the output is text")
}
