//! What `compile` says about a fusion it cannot lower: exit 1, one located `error:` naming the
//! fusion or the instruction, and the reason in a sentence.

mod common;

use std::fs;
use std::path::PathBuf;

/// `text` written to a file of the test's own (named `name`).
fn module_file(name: &str, text: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("lowering_{name}.hlo"));
    fs::write(&path, text).unwrap();
    path
}

/// The first line of `compile --emit mlir`'s stderr for `text`, which must fail with exit 1.
fn compile_error(name: &str, text: &str) -> String {
    let path = module_file(name, text);
    let out = common::output(&["compile", "-q", path.to_str().unwrap(), "--emit", "mlir"]);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(out.stdout.is_empty(), "{stderr}");
    let first = stderr.lines().next().unwrap_or_default();
    first
        .split_once(": error: ")
        .map_or(first, |(_, message)| message)
        .to_string()
}

#[test]
fn outputs_of_other_elements_say_which_output_and_why() {
    let text = "two_sizes {\n  p0 = f32[8] parameter(0)\n  p1 = f32[4] parameter(1)\n  n = f32[8] negate(p0)\n  e = f32[4] exponential(p1)\n  ROOT t = (f32[8], f32[4]) tuple(n, e)\n}\n";
    assert_eq!(
        compile_error("two_sizes", text),
        "two_sizes: cannot be lowered: output 1: its elements are not output 0's (f32[8]) in \
         another shape, and the kernel runs output 0's thread map"
    );
}

/// A bare fusion adding a constant of `n` elements `0, 1, ...` to its parameter.
fn table_module(n: usize) -> String {
    let values: Vec<String> = (0..n).map(|k| k.to_string()).collect();
    format!(
        "big_table {{\n  p = s32[{n}] parameter(0)\n  table = s32[{n}] constant({{{}}})\n  ROOT a = s32[{n}] add(p, table)\n}}\n",
        values.join(", ")
    )
}

#[test]
fn an_array_constant_past_the_limit_says_how_large_and_why() {
    let at_limit = module_file("table_256", &table_module(256));
    let mlir = common::stdout(&[
        "compile",
        "-q",
        at_limit.to_str().unwrap(),
        "--emit",
        "mlir",
    ]);
    assert!(mlir.contains(": vector<256xi32>"), "{mlir}");
    assert_eq!(
        compile_error("table_300", &table_module(300)),
        "table: cannot be lowered: an array constant of 300 elements: only those of at most 256 \
         are lowered (as one vector constant; XLA reads larger ones from a global buffer)"
    );
}
