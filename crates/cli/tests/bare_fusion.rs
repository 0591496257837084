//! A file with no `ENTRY`, as XLA's emitter tests write their fusions
//! (`tests/data/bare_fusion.hlo`: a reducer, then the fused computation): every command reads the
//! last computation as one fusion's kernel; the same file with its last computation marked
//! `ENTRY` is HLO before XLA's fusion passes and stays refused.

mod common;

use std::fs;
use std::path::Path;

/// The test module, from the workspace root.
const MODULE: &str = "crates/cli/tests/data/bare_fusion.hlo";

#[test]
fn every_command_plans_the_last_computation_as_a_fusion() {
    let launch = common::stdout(&["launch", "-q", MODULE]);
    assert!(
        launch.starts_with("fused_row_sums (calls fused_row_sums): block [256, 1, 1]"),
        "{launch}"
    );
    assert!(launch.contains("emitter: row reduction"), "{launch}");
    for args in [
        &["coalescing", "-q", MODULE][..],
        &["compile", "-q", MODULE, "--emit", "mlir"],
        &["compile", "-q", MODULE, "--emit", "host"],
        &["tiles", "-q", MODULE, "--tile", "4"],
        &["indexing", "-q", MODULE],
    ] {
        let out = common::stdout(args);
        assert!(out.contains("fused_row_sums"), "{args:?}: {out}");
    }
}

#[test]
fn a_marked_entry_of_several_ops_is_still_refused() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let text = fs::read_to_string(root.join(MODULE)).unwrap();
    let marked = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bare_fusion_marked.hlo");
    fs::write(
        &marked,
        text.replace("\nfused_row_sums {", "\nENTRY fused_row_sums {"),
    )
    .unwrap();
    let out = common::output(&["launch", "-q", marked.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("fused_row_sums: the module has no fusions: its entry computation holds 3 ops (multiply, negate, reduce)"),
        "{stderr}"
    );
}
