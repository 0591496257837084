//! Runs the lit suite in `test/` against the plugin that `cargo test` just built.
//!
//! The `xla-indexing` binary reaches lit too (the `xla-indexing-cli` feature of `lit.cfg.py`):
//! the one named by `XLA_INDEXING_CLI`, which must then exist (`cargo xtask test` builds the
//! workspace's binaries first and sets it), else `target/<profile>/xla-indexing` when a build
//! left one there. `cargo test` does not build another package's binaries, so without either
//! the tests that need it are reported unsupported, except under `cargo xtask test` and CI
//! (`xla_indexing_testkit::tools`), where a missing tool fails the suite.
//!
//! lit's per-test results and summary go straight to this process's stdout (not through the
//! test harness's capture), so `cargo xtask test` can count every lit test.

use std::{
    env,
    path::{Path, PathBuf},
    process::Command,
};

/// The plugin next to this test binary: with crate-type `["cdylib", "rlib"]`, `cargo test`
/// builds `libxla_indexing_plugin.so` in `target/<profile>/deps/`.
fn plugin_path() -> PathBuf {
    let exe = env::current_exe().expect("path of the test binary");
    exe.with_file_name("libxla_indexing_plugin.so")
}

/// The `xla-indexing` binary: `XLA_INDEXING_CLI` (which must exist), else the one in
/// `target/<profile>/` when present.
fn cli_path() -> Option<PathBuf> {
    if let Some(given) = env::var_os("XLA_INDEXING_CLI") {
        let given = PathBuf::from(given);
        assert!(
            given.is_file(),
            "XLA_INDEXING_CLI names a missing file: {}",
            given.display()
        );
        return Some(given);
    }
    let exe = env::current_exe().expect("path of the test binary");
    // target/<profile>/deps/lit-<hash> -> target/<profile>/xla-indexing
    let profile_dir = exe.parent()?.parent()?;
    Some(profile_dir.join("xla-indexing")).filter(|p| p.is_file())
}

#[test]
fn lit_suite() {
    let plugin = plugin_path();
    assert!(plugin.is_file(), "missing plugin {}", plugin.display());
    let suite = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test");
    let lit = env::var("LIT").unwrap_or_else(|_| "/usr/lib/llvm-22/bin/lit".into());
    let mut command = Command::new(&lit);
    command
        .arg("-v")
        .arg(&suite)
        .arg(format!("--param=xla_indexing_plugin={}", plugin.display()));
    if let Some(cli) = cli_path() {
        command.arg(format!("--param=xla_indexing_cli={}", cli.display()));
    }
    if xla_indexing_testkit::tools::tools_required() {
        command.arg("--param=require_tools=1");
    }
    let status = command
        .status()
        .unwrap_or_else(|e| panic!("cannot run {lit}: {e}"));
    assert!(status.success(), "lit suite failed ({status})");
}
