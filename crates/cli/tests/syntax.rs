//! `--syntax xla|mlir` on the commands that print maps: `mlir` (the default) writes `floordiv`,
//! `xla` writes `/`; both are read back. And what `simplify` does after simplifying: symbols
//! pinned to a residue class are rescaled and unused ones removed, as XLA's callers do.

mod common;

use common::stdout as run;

#[test]
fn simplify_prints_either_syntax_and_reads_both() {
    let map =
        "(d0, d1) -> (max(d0 floordiv 4, d1), (d0 + 1) / 3), domain: d0 in [0, 39], d1 in [0, 20]";
    let mlir = "(d0, d1) -> (max(d1, d0 floordiv 4), (d0 + 1) floordiv 3), domain: d0 in [0, 39], d1 in [0, 20]\n";
    let xla = "(d0, d1) -> (max(d1, d0 / 4), (d0 + 1) / 3), domain: d0 in [0, 39], d1 in [0, 20]\n";
    assert_eq!(run(&["simplify", map]), mlir);
    assert_eq!(run(&["simplify", "--syntax", "mlir", map]), mlir);
    assert_eq!(run(&["simplify", "--syntax", "xla", map]), xla);
    // Each output reads back to itself in its own syntax.
    assert_eq!(run(&["simplify", "--syntax", "xla", xla.trim_end()]), xla);
    assert_eq!(run(&["simplify", mlir.trim_end()]), mlir);
    assert_eq!(
        run(&["simplify", "--syntax", "xla", "--format", "json", map]),
        format!("{{\"map\":\"{}\"}}\n", xla.trim_end())
    );
}

/// A division of a negated dividend: XLA writes the divisor negative, MLIR's spelling keeps it
/// positive (MLIR's affine dialect lowers no division by a negative constant).
#[test]
fn simplify_writes_each_syntax_s_divisor_sign() {
    let map = "(d0) -> (d0 floordiv -3), domain: d0 in [0, 99]";
    assert_eq!(
        run(&["simplify", "--syntax", "xla", map]),
        "(d0) -> (d0 / -3), domain: d0 in [0, 99]\n"
    );
    assert_eq!(
        run(&["simplify", map]),
        "(d0) -> ((-d0) floordiv 3), domain: d0 in [0, 99]\n"
    );
}

#[test]
fn indexing_prints_either_syntax() {
    let file = "examples/hlo/reshape_tiles.hlo";
    let mlir = run(&["indexing", file]);
    let xla = run(&["indexing", "--syntax", "xla", file]);
    assert!(
        mlir.contains("d0 floordiv 6") && !mlir.contains(" / "),
        "{mlir}"
    );
    assert_eq!(xla, mlir.replace(" floordiv ", " / "));
}

#[test]
fn simplify_rescales_and_removes_symbols() {
    assert_eq!(
        run(&[
            "simplify",
            "(d0)[s0, s1] -> (d0 + s0), domain: d0 in [0, 3], s0 in [0, 41], s1 in [0, 5], s0 mod 6 in [3, 3]",
        ]),
        "(d0)[s0] -> (d0 + s0 * 6 + 3), domain: d0 in [0, 3], s0 in [0, 6]\n"
    );
    assert_eq!(
        run(&["simplify", "(d0) -> (d0), domain: d0 in [10, 0]"]),
        "KNOWN EMPTY\n"
    );
}

#[test]
fn bounds_respell_reports_but_not_the_mlir_they_emit() {
    let file = "examples/sched/fuse_split.sched";
    let text = run(&["bounds", file]);
    assert!(text.contains(" floordiv "), "{text}");
    assert_eq!(
        run(&["bounds", "--syntax", "xla", file]),
        text.replace(" floordiv ", " / ")
    );
    // MLIR reads what `--emit mlir` writes: its own spelling, whatever --syntax says.
    let mlir = run(&["bounds", "--emit", "mlir", file]);
    assert!(mlir.contains(" floordiv "), "{mlir}");
    assert_eq!(
        run(&["bounds", "--syntax", "xla", "--emit", "mlir", file]),
        mlir
    );
}
