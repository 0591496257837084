//! `BoundsReport::to_mlir`: the lowered loop nest as MLIR text, compared whole with the snapshots
//! in `snapshots/` (`UPDATE_EXPECT=1` rewrites them) and, where
//! `/usr/lib/llvm-22/bin/mlir-opt` exists (here and in CI), verified by it.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use expect_test::expect_file;
use xla_indexing_loops::sched;
use xla_indexing_testkit::tools::require;

const MLIR_OPT: &str = "/usr/lib/llvm-22/bin/mlir-opt";

fn mlir(text: &str) -> String {
    let report = sched::infer_bounds(&sched::parse(text).expect("parses")).expect("infers");
    let mlir = report.to_mlir().expect("lowers");
    verify(&mlir);
    mlir
}

/// Runs mlir-opt on the text, with the affine dialect lowered too, and fails on any error.
fn verify(mlir: &str) {
    let installed = if Path::new(MLIR_OPT).exists() {
        Ok(())
    } else {
        Err(format!("{MLIR_OPT} is not installed"))
    };
    if require("verifying the lowered schedule", installed).is_none() {
        return;
    }
    let mut child = Command::new(MLIR_OPT)
        .arg("--lower-affine")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(mlir.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "mlir-opt rejects\n{mlir}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn example_schedules_verify() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/sched");
    let mut count = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        mlir(&std::fs::read_to_string(entry.unwrap().path()).unwrap());
        count += 1;
    }
    assert!(count >= 4);
}

#[test]
fn fuse_then_split_allocates_one_row() {
    let m = mlir(include_str!("../../../examples/sched/fuse_split.sched"));
    expect_file!["snapshots/fuse_split.mlir"].assert_eq(&m);
}

#[test]
fn uneven_splits_bound_loops_by_min_and_guard_statements() {
    let m = mlir(include_str!("../../../examples/sched/fuse_split_3.sched"));
    expect_file!["snapshots/fuse_split_3.mlir"].assert_eq(&m);
}

#[test]
fn reductions_start_from_their_identity() {
    let m = mlir(
        "A = placeholder((8, 6), name='A')\n\
         k = reduce_axis((0, 6), name='k')\n\
         B = compute((8,), lambda i: max(A[i, k] * 2, axis=k), name='B')\n\
         C = compute((8,), lambda c: B[c] + 1, name='C')\n\
         s = create_schedule(C)\n\
         o, n = s[C].split(C.op.axis[0], nparts=3)\n\
         s[B].compute_at(s[C], o)\n",
    );
    expect_file!["snapshots/reduction.mlir"].assert_eq(&m);
}

#[test]
fn same_names_in_two_stages_stay_apart() {
    let m = mlir(
        "C = tvm.compute((5, 16), lambda i, j : tvm.const(5, \"int32\"), name='C')\n\
         D = tvm.compute((5, 16), lambda i, j : C[i, j]*2 - i // 2 + max(C[i, j], -C[i, j]) % 3, name='D')\n\
         s = tvm.create_schedule(D.op)\n\
         s[C].compute_at(s[D], D.op.axis[1])\n",
    );
    expect_file!["snapshots/same_names.mlir"].assert_eq(&m);
}
