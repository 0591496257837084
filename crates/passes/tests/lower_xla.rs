//! Evaluation test of `xla-indexing-lower-xla` on the index computations of real XLA CPU kernels
//! (the maps are copied verbatim from the dumps of `test/xla/Inputs/`): at every point of the
//! arguments' `xla.range`s, each lowered function gives what the `xla.apply_indexing` ops it was
//! made of give, wherever those are defined (inside their maps' domains), and the lowering
//! divides no more often than the test says.

use xla_indexing_mlir::session::OptOptions;
use xla_indexing_passes::opt::{run_pipeline, session};
use xla_indexing_testkit::evaluate::evaluate_function;

/// Index computations of XLA's kernels, each a function of its indices.
const KERNELS: &str = r#"
module {
  // The tiled 5-D transpose (tiled.transpose_copy_fusion.mlir): the offsets of a tile.
  func.func @tiled_transpose(%pid: index {xla.range = [0 : index, 0 : index]}, %tid: index {xla.range = [0 : index, 39 : index]}) -> (index, index, index) {
    %1 = xla.apply_indexing #xla.indexing_map<"(pid, tid) -> (((pid * 40 + tid) mod 40 mod 10) / 5), domain: pid in [0, 0], tid in [0, 39]">(%pid, %tid) {xla.range = [0 : index, 1 : index]}
    %2 = xla.apply_indexing #xla.indexing_map<"(pid, tid) -> (((pid * 40 + tid) mod 40) / 10), domain: pid in [0, 0], tid in [0, 39]">(%pid, %tid) {xla.range = [0 : index, 3 : index]}
    %3 = xla.apply_indexing #xla.indexing_map<"(pid, tid) -> ((pid * 40 + tid) mod 40 mod 10 mod 5), domain: pid in [0, 0], tid in [0, 39]">(%pid, %tid) {xla.range = [0 : index, 4 : index]}
    return %1, %2, %3 : index, index, index
  }

  // The reshape chain (reshape.copy_bitcast_fusion.mlir): the element of the input read.
  func.func @reshape_chain(%arg1: index {xla.range = [0 : index, 2 : index]}, %arg2: index {xla.range = [0 : index, 127 : index]}) -> (index, index) {
    %0 = xla.apply_indexing #xla.indexing_map<"(d0, d1) -> (d0 * 2 + d1 / 64), domain: d0 in [0, 2], d1 in [0, 127]">(%arg1, %arg2)
    %1 = xla.apply_indexing #xla.indexing_map<"(d0, d1) -> ((d1 / 16) mod 4), domain: d0 in [0, 2], d1 in [0, 127]">(%arg1, %arg2)
    %2 = xla.apply_indexing #xla.indexing_map<"(d0, d1) -> (d1 mod 16), domain: d0 in [0, 2], d1 in [0, 127]">(%arg1, %arg2)
    %3 = xla.apply_indexing #xla.indexing_map<"(d0, d1, d2) -> (d0 * 6 + d1), domain: d0 in [0, 3], d1 in [0, 5], d2 in [0, 15]">(%1, %0, %2)
    return %3, %2 : index, index
  }

  // The pad with interior padding (padint.broadcast_multiply_fusion.mlir): whether an output
  // row is an input row, and which.
  func.func @pad(%arg1: index {xla.range = [0 : index, 129 : index]}, %arg2: index {xla.range = [0 : index, 127 : index]}) -> (i1, index) {
    %0 = xla.apply_indexing #xla.indexing_map<"(d0, d1) -> ((d0 - 1) mod 2), domain: d0 in [1, 127], d1 in [0, 127]">(%arg1, %arg2)
    %c0 = arith.constant 0 : index
    %1 = arith.cmpi eq, %0, %c0 : index
    %c1 = arith.constant 1 : index
    %c127 = arith.constant 127 : index
    %3 = arith.cmpi sge, %arg1, %c1 : index
    %4 = arith.cmpi sle, %arg1, %c127 : index
    %5 = arith.andi %3, %4 : i1
    %6 = arith.andi %1, %5 : i1
    %13 = xla.apply_indexing #xla.indexing_map<"(d0, d1) -> ((d0 - 1) / 2), domain: d0 in [1, 127], d1 in [0, 127]">(%arg1, %arg2) {xla.range = [0 : index, 63 : index]}
    return %6, %13 : i1, index
  }
}
"#;

/// A function of [`KERNELS`], its arguments' ranges and the most divisions and remainders its
/// lowering may hold.
struct Case {
    name: &'static str,
    ranges: &'static [(i64, i64)],
    max_divisions: usize,
}

const CASES: &[Case] = &[
    Case {
        name: "tiled_transpose",
        ranges: &[(0, 0), (0, 39)],
        max_divisions: 2,
    },
    Case {
        name: "reshape_chain",
        ranges: &[(0, 2), (0, 127)],
        max_divisions: 2,
    },
    Case {
        name: "pad",
        ranges: &[(0, 129), (0, 127)],
        max_divisions: 1,
    },
];

/// Every point of the box `ranges`.
fn points(ranges: &[(i64, i64)]) -> Vec<Vec<i64>> {
    ranges.iter().fold(vec![Vec::new()], |acc, &(lo, hi)| {
        acc.iter()
            .flat_map(|p| {
                (lo..=hi).map(move |v| {
                    let mut q = p.clone();
                    q.push(v);
                    q
                })
            })
            .collect()
    })
}

/// The text of function `@name` in a printed module.
fn function<'a>(module: &'a str, name: &str) -> &'a str {
    let start = module
        .find(&format!("func.func @{name}("))
        .unwrap_or_else(|| panic!("no @{name} in\n{module}"));
    let end = module[start..]
        .find("\n  }")
        .map_or(module.len(), |e| start + e);
    &module[start..end]
}

#[test]
fn lowered_index_arithmetic_means_what_xla_maps_mean() {
    let lowered = run_pipeline(
        KERNELS,
        "lower_xla.mlir",
        "builtin.module(xla-indexing-lower-xla, cse)",
        OptOptions::default(),
    )
    .unwrap_or_else(|e| panic!("lower-xla failed: {e}"))
    .text;
    assert!(!lowered.contains("xla.apply_indexing"), "{lowered}");
    let session = session("lower_xla.mlir", OptOptions::default());
    let before = session.parse(KERNELS).expect("the kernels parse");
    let after = session.parse(&lowered).expect("the lowered kernels parse");
    for &Case {
        name,
        ranges,
        max_divisions,
    } in CASES
    {
        let body = function(&lowered, name);
        let divisions = [
            "arith.divui",
            "arith.remui",
            "arith.divsi",
            "arith.remsi",
            "arith.floordivsi",
            "arith.ceildiv",
        ]
        .iter()
        .map(|op| body.matches(op).count())
        .sum::<usize>();
        assert!(
            divisions <= max_divisions,
            "@{name} divides {divisions} times, at most {max_divisions} expected:\n{body}"
        );
        let mut compared = 0;
        for point in points(ranges) {
            let want = evaluate_function(&before, name, &point).expect("the source evaluates");
            let got = evaluate_function(&after, name, &point).expect("the lowering evaluates");
            assert_eq!(want.len(), got.len(), "@{name}");
            for (i, (w, g)) in want.iter().zip(&got).enumerate() {
                if let Some(w) = w {
                    assert_eq!(Some(*w), *g, "@{name} result {i} at {point:?}:\n{body}");
                    compared += 1;
                }
            }
        }
        assert!(compared > 0, "@{name}: no defined result to compare");
    }
}
