//! Runs the lit suite in `test/` against the plugin that `cargo test` just built.
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

#[test]
fn lit_suite() {
    let plugin = plugin_path();
    assert!(plugin.is_file(), "missing plugin {}", plugin.display());
    let suite = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test");
    let lit = env::var("LIT").unwrap_or_else(|_| "/usr/lib/llvm-22/bin/lit".into());
    let status = Command::new(&lit)
        .arg("-v")
        .arg(&suite)
        .arg(format!("--param=xla_indexing_plugin={}", plugin.display()))
        .status()
        .unwrap_or_else(|e| panic!("cannot run {lit}: {e}"));
    assert!(status.success(), "lit suite failed ({status})");
}
