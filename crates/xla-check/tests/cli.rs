//! The `xla-check` binary: `compare` on two kernels written to files, and errors that end the
//! run with a message, never a panic.

use std::{
    fs,
    path::PathBuf,
    process::{Command, Output},
};

/// A kernel that copies element `at` of a 4-element input to element 0 of its output.
fn kernel(at: usize) -> String {
    format!(
        "module {{
  func.func @f(%arg0: tensor<4xf32>, %arg1: tensor<1xf32>) -> tensor<1xf32> attributes {{xla.entry}} {{
    %c0 = arith.constant 0 : index
    %at = arith.constant {at} : index
    %x = tensor.extract %arg0[%at] : tensor<4xf32>
    %r = tensor.insert %x into %arg1[%c0] : tensor<1xf32>
    return %r : tensor<1xf32>
  }}
}}"
    )
}

/// A directory of this test's own under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn xla_check(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xla-check"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn compare_says_whether_two_kernels_write_the_same() {
    let dir = scratch("compare");
    for (name, at) in [("a", 2), ("b", 2), ("c", 3)] {
        fs::write(dir.join(format!("{name}.mlir")), kernel(at)).unwrap();
    }
    let path = |name: &str| dir.join(format!("{name}.mlir")).display().to_string();
    let same = xla_check(&["compare", &path("a"), &path("b")]);
    assert!(same.status.success());
    assert_eq!(String::from_utf8_lossy(&same.stdout), "same (1 elements)\n");
    let differs = xla_check(&["compare", &path("a"), &path("c")]);
    assert_eq!(differs.status.code(), Some(1));
    // Element 0 of the second argument, which has no slice: buffer 1 << 16 | 1.
    assert!(String::from_utf8_lossy(&differs.stdout).starts_with("DIFFERS: at (65537, 0)"));
}

#[test]
fn missing_inputs_are_errors() {
    let dir = scratch("missing");
    let missing = dir.join("none").display().to_string();
    for args in [
        vec!["compare", &missing, &missing],
        vec![
            "bench",
            "--dumps",
            &missing,
            "--out",
            &missing,
            "--xla-indexing",
            &missing,
        ],
    ] {
        let out = xla_check(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.starts_with("xla-check: error: ") && stderr.contains(&missing),
            "{stderr}"
        );
    }
}
