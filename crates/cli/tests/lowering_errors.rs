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

/// The literal `{0, 1, ...}` of `n` elements.
fn table_literal(n: usize) -> String {
    let values: Vec<String> = (0..n).map(|k| k.to_string()).collect();
    format!("{{{}}}", values.join(", "))
}

/// A bare fusion adding a constant of `n` elements `0, 1, ...` to its parameter.
fn table_module(n: usize) -> String {
    format!(
        "big_table {{\n  p = s32[{n}] parameter(0)\n  table = s32[{n}] constant({})\n  ROOT a = s32[{n}] add(p, table)\n}}\n",
        table_literal(n)
    )
}

#[test]
fn array_constants_past_the_vector_limit_are_globals_and_elided_ones_say_why() {
    let mlir = |n: usize| {
        let path = module_file(&format!("table_{n}"), &table_module(n));
        common::stdout(&["compile", "-q", path.to_str().unwrap(), "--emit", "mlir"])
    };
    assert!(mlir(256).contains(": vector<256xi32>"));
    let global = mlir(300);
    assert!(
        global
            .contains("memref.global \"private\" constant @big_table_constant0 : memref<300xi32>"),
        "{global}"
    );
    let elided = table_module(300).replace(&table_literal(300), "{...}");
    assert_eq!(
        compile_error("table_elided", &elided),
        "table: cannot be lowered: constant `{...}` writes 1 elements where its shape holds 300"
    );
}
