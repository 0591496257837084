//! `xla-indexing opt` reads StableHLO as `jax.jit(f).lower(...).as_text()` prints it (pretty
//! form): `xla-indexing-annotate` attaches the same maps as on the generic form of the same
//! programs (the corpus of `crates/stablehlo-text/tests/data`).

mod common;

use std::process::Command;

const DATA: &str = "crates/stablehlo-text/tests/data";
const ANNOTATE: &str = "--pass-pipeline=builtin.module(xla-indexing-annotate)";

/// Programs with elementwise ops, broadcasts, reductions, dots, gathers, scatters, dynamic
/// slices, pads, slices, concatenations, convolutions, transposes and reshapes (one with its
/// debug information).
const PROGRAMS: &[&str] = &[
    "softmax",
    "softmax_debuginfo",
    "layer_norm",
    "attention",
    "reductions",
    "gather",
    "scatter",
    "dynamic_slices",
    "pads",
    "slices",
    "concatenates",
    "convolution",
    "transpose",
    "reshape_chain",
];

#[test]
fn annotate_attaches_the_same_maps_to_pretty_and_generic_stablehlo() {
    for name in PROGRAMS {
        let pretty = common::stdout(&["opt", &format!("{DATA}/{name}.pretty.mlir"), ANNOTATE]);
        let generic = common::stdout(&[
            "opt",
            &format!("{DATA}/{name}.generic.mlir"),
            "--allow-unregistered-dialect",
            ANNOTATE,
        ]);
        let maps = pretty.matches("xla_indexing.operand_maps = [").count();
        assert!(maps > 0, "{name}: no maps attached\n{pretty}");
        // Both come out of MLIR in generic form: the same module, the same maps on every op
        // (and the same remarks on the ops the pass skips).
        assert_eq!(pretty, generic, "{name}");
    }
}

#[test]
fn the_maps_of_a_pretty_transpose_are_those_of_its_dims() {
    let out = common::stdout(&["opt", &format!("{DATA}/transpose.pretty.mlir"), ANNOTATE]);
    assert!(
        out.contains(r#"#xla_indexing.map<"(d0, d1, d2) -> (d0, d2, d1), domain: d0 in [0, 1], d1 in [0, 3], d2 in [0, 2]">"#),
        "{out}"
    );
}

/// Pretty StableHLO that does not parse is refused with exit 3 at its line and column.
#[test]
fn bad_pretty_stablehlo_is_a_located_parse_error() {
    let dir = std::env::temp_dir().join(format!("pretty-stablehlo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.mlir");
    std::fs::write(
        &file,
        "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = stablehlo.add %a, : tensor<4xf32>\n  return %0 : tensor<4xf32>\n}\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_xla-indexing"))
        .arg("opt")
        .arg(&file)
        .arg(ANNOTATE)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains("bad.mlir:2:26: error: StableHLO: expected an operand or a keyword in stablehlo.add, found ':'"),
        "{stderr}"
    );
}
