//! What the CLI tests share.

use std::path::Path;
use std::process::{Command, Output};

/// A run of the binary with `args`, in the workspace root (so that `examples/...` paths
/// resolve).
pub fn output(args: &[&str]) -> Output {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    Command::new(env!("CARGO_BIN_EXE_xla-indexing"))
        .args(args)
        .current_dir(root)
        .output()
        .unwrap()
}

/// The stdout of a successful run of the binary with `args`, in the workspace root; fails the
/// test with the binary's stderr otherwise.
pub fn stdout(args: &[&str]) -> String {
    let out = output(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}
