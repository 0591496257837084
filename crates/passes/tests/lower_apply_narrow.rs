//! Property test of `xla-indexing-lower-apply`'s 32-bit arithmetic: random `apply_indexing` maps
//! whose values lie around 2^31 (some fit in `i32`, some do not) are lowered in process with the
//! default `index-bitwidth=32`, run with `mlir-runner` at points of their domains (the corners
//! of the box, their neighbours and random points), and every result must equal the core's
//! evaluation. Without `mlir-runner` only the lowering is checked, and the test says so. Maps with
//! `min` and `max` are lowered and run both ways: as `arith` ops and as `affine` ops.

mod common;

use std::fmt::Write as _;

use xla_indexing_core::{Expr, IndexingMap, Interval, Var};
use xla_indexing_testkit::rng::{ExprShape, SplitMix64};

use common::runner::{self, TO_LLVM, run};

/// Maps per program; `XLA_INDEXING_PROPTEST_CASES` raises the number of maps for long runs.
const MAPS_PER_PROGRAM: u64 = 40;
const POINTS_PER_MAP: usize = 12;

/// Cases in all; `XLA_INDEXING_PROPTEST_CASES` raises it for long runs.
fn cases() -> u64 {
    xla_indexing_testkit::proptest_cases(200)
}

fn random_bounds(rng: &mut SplitMix64) -> Interval {
    const TWO_31: i64 = 1 << 31;
    match rng.range(0, 5) {
        0 => Interval::new(0, rng.range(0, 100)),
        1 => Interval::new(0, rng.range(1 << 20, 1 << 24)),
        2 => Interval::new(0, TWO_31 - 1 - rng.range(0, 3)),
        3 => Interval::new(0, TWO_31 + rng.range(-2, 2)),
        4 => Interval::new(-rng.range(1, 1 << 30), rng.range(0, 1 << 30)),
        _ => Interval::new(
            rng.range(TWO_31 - 100, TWO_31 - 10),
            TWO_31 + rng.range(-5, 100),
        ),
    }
}

/// What the random expressions are made of: values around 2^31.
const SHAPE: ExprShape = ExprShape {
    constants: (-1 << 31, 1 << 31),
    coefficients: &[1, 1, 1, 2, 3, 128, 1024, -1, -2],
    divisors: &[2, 3, 7, 10, 128, 1000, 65536],
    leaf_odds: 4,
    constant_odds: 6,
    sum_terms: (2, 2),
    weights: [2, 1, 1, 1, 0, 1, 1, 0, 0],
};

fn random_expr(rng: &mut SplitMix64, depth: u32, num_vars: u32) -> Expr {
    SHAPE.expr(rng, depth, num_vars, 0)
}

fn random_map(rng: &mut SplitMix64) -> IndexingMap {
    let n = rng.range(1, 3) as u32;
    let dims = (0..n).map(|_| Var::new(random_bounds(rng))).collect();
    let depth = rng.range(1, 3) as u32;
    let results = (0..rng.range(1, 3))
        .map(|_| random_expr(rng, depth, n))
        .collect();
    IndexingMap::new(results, dims, Vec::new(), Vec::new())
}

/// Points of `map`'s box: corners, their neighbours inside the box, random points.
fn points(rng: &mut SplitMix64, map: &IndexingMap) -> Vec<Vec<i64>> {
    (0..POINTS_PER_MAP)
        .map(|k| {
            map.dims()
                .iter()
                .map(|v| {
                    let b = v.bounds;
                    match (k + rng.range(0, 1) as usize) % 4 {
                        0 => b.lo,
                        1 => b.hi,
                        2 => (b.hi - 1).max(b.lo),
                        _ => rng.range(b.lo, b.hi),
                    }
                })
                .collect()
        })
        .collect()
}

fn opt(source: &str, pipeline: &str) -> String {
    runner::opt(source, "lower_apply_narrow.mlir", pipeline)
}

/// Lowers and runs one program of random maps; returns how many results were computed on
/// `i32` and how many on `index`.
fn check(seed: u64) -> (usize, usize) {
    let mut rng = SplitMix64::new(seed);
    let maps: Vec<IndexingMap> = (0..MAPS_PER_PROGRAM)
        .map(|_| random_map(&mut rng))
        .collect();
    let (source, expected) = program(&maps, |map| points(&mut rng, map));
    let lowered = opt(&source, "builtin.module(xla-indexing-lower-apply)");
    assert!(
        !lowered.contains("xla_indexing."),
        "seed {seed}:\n{lowered}"
    );
    // Arithmetic ops on i32 and on index (the rest of the program has none).
    const OPS: [&str; 8] = [
        "arith.addi",
        "arith.subi",
        "arith.muli",
        "arith.divui",
        "arith.remui",
        "arith.ceildivui",
        "arith.floordivsi",
        "arith.ceildivsi",
    ];
    let on = |ty: &str| {
        lowered
            .lines()
            .filter(|l| OPS.iter().any(|op| l.contains(op)) && l.trim_end().ends_with(ty))
            .count()
    };
    let (narrow, wide) = (on(": i32"), on(": index"));
    assert_runs_as_evaluated(&lowered, &expected, &format!("seed {seed}:\n{source}"));
    (narrow, wide)
}

/// A program whose `main` prints the value of every map at its `points`, and the lines it
/// must print (the core's evaluation).
fn program(
    maps: &[IndexingMap],
    mut points: impl FnMut(&IndexingMap) -> Vec<Vec<i64>>,
) -> (String, String) {
    let mut source = String::from(
        "func.func private @printI64(i64)\nfunc.func private @printNewline()\n\
         func.func @print(%v: index) {\n  %i = arith.index_cast %v : index to i64\n  \
         func.call @printI64(%i) : (i64) -> ()\n  func.call @printNewline() : () -> ()\n  return\n}\n",
    );
    let mut main = String::from("func.func @main() {\n");
    let mut expected = String::new();
    for (id, map) in maps.iter().enumerate() {
        let n = map.dims().len();
        let m = map.results().len();
        let params: Vec<String> = (0..n).map(|i| format!("%d{i}: index")).collect();
        let args: Vec<String> = (0..n).map(|i| format!("%d{i}")).collect();
        let types = vec!["index"; m].join(", ");
        writeln!(
            source,
            "func.func @map{id}({}) -> ({types}) {{\n  %r:{m} = xla_indexing.apply_indexing #xla_indexing.map<\"{map}\">({}) : {types}\n  return {} : {types}\n}}",
            params.join(", "),
            args.join(", "),
            (0..m).map(|k| format!("%r#{k}")).collect::<Vec<_>>().join(", "),
        )
        .unwrap();
        for (p, point) in points(map).into_iter().enumerate() {
            let Some(values) = map.evaluate(&point, &[]) else {
                continue;
            };
            let mut call_args = Vec::new();
            for (i, x) in point.iter().enumerate() {
                writeln!(main, "  %a{id}_{p}_{i} = arith.constant {x} : index").unwrap();
                call_args.push(format!("%a{id}_{p}_{i}"));
            }
            writeln!(
                main,
                "  %v{id}_{p}:{m} = func.call @map{id}({}) : ({}) -> ({types})",
                call_args.join(", "),
                vec!["index"; n].join(", "),
            )
            .unwrap();
            for (k, v) in values.iter().enumerate() {
                writeln!(main, "  func.call @print(%v{id}_{p}#{k}) : (index) -> ()").unwrap();
                writeln!(expected, "{v}").unwrap();
            }
        }
    }
    main.push_str("  return\n}\n");
    source.push_str(&main);
    (source, expected)
}

/// Runs `lowered` (when `mlir-runner` is installed) and compares what it prints with
/// `expected`; `context` says which program failed.
fn assert_runs_as_evaluated(lowered: &str, expected: &str, context: &str) {
    if !runner::runner_for("lower_apply_narrow") {
        return;
    }
    let actual = run(&opt(lowered, TO_LLVM));
    for (line, (want, got)) in expected.lines().zip(actual.lines()).enumerate() {
        assert_eq!(want, got, "{context}\nprinted value #{line}:\n{lowered}");
    }
    assert_eq!(
        expected.lines().count(),
        actual.lines().count(),
        "{context}"
    );
}

#[test]
fn narrowed_arithmetic_equals_the_maps() {
    let (mut narrow, mut wide) = (0, 0);
    for seed in 0..cases().div_ceil(MAPS_PER_PROGRAM) {
        let (n, w) = check(seed);
        narrow += n;
        wide += w;
    }
    // Both kinds occur, or the test would not test the limit.
    assert!(narrow > 0 && wide > 0, "{narrow} narrowed, {wide} wide");
}

/// `min` and `max` become `arith.minsi`/`arith.maxsi` in the `arith` lowering, and
/// `affine.min`/`affine.max` (whose values an `affine.apply` then reads) where affine ops are
/// preferred; both compute the maps' values at every point of their domains.
#[test]
fn min_and_max_lower_to_arith_and_affine_ops() {
    let maps: Vec<IndexingMap> = [
        "(d0, d1) -> (max(d0 floordiv 2, 4) + min(d0, d1) * 3, min(d0 * 3, d1 + 7) mod 5), domain: d0 in [0, 11], d1 in [0, 11]",
        "(d0, d1) -> (max(d0 - d1, d1 - d0), -min(d0, 2) + max(d1 ceildiv 3, d0)), domain: d0 in [0, 11], d1 in [0, 11]",
    ]
    .iter()
    .map(|text| IndexingMap::parse(text).unwrap())
    .collect();
    let every_point = |map: &IndexingMap| {
        map.domain_points(1 << 10)
            .unwrap()
            .into_iter()
            .map(|(d, _)| d)
            .collect()
    };
    let (source, expected) = program(&maps, every_point);
    for (options, ops) in [
        ("", ["arith.minsi", "arith.maxsi"]),
        ("{prefer-affine=true}", ["affine.min", "affine.max"]),
    ] {
        let pipeline = format!("builtin.module(xla-indexing-lower-apply{options})");
        let lowered = opt(&source, &pipeline);
        for op in ops {
            assert!(lowered.contains(op), "{pipeline}: no {op} in\n{lowered}");
        }
        assert!(!lowered.contains("xla_indexing."), "{lowered}");
        assert_runs_as_evaluated(&lowered, &expected, &pipeline);
    }
}
