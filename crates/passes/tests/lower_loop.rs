//! Property test of `xla-indexing-lower-apply` on `xla_indexing.loop`: random small loops (random
//! maps, dims inside and outside their bounds, known to the pass or not, nested loops) are
//! lowered in process, run with `mlir-runner`, and every loop's visits (the values of its range
//! variables and results, in order, folded into a hash, and their count) must equal a brute-force
//! enumeration of its domain with the core (`IndexingMap::domain_points` and `evaluate`). Both
//! `index-bitwidth` settings are run. Without `mlir-runner` the lowering is still checked (it
//! succeeds and leaves no `xla_indexing` op), and the test says that it did not execute.

mod common;

use std::fmt::Write as _;

use expect_test::expect_file;
use xla_indexing_core::{Expr, IndexingMap, Interval, Var};
use xla_indexing_testkit::rng::{ExprShape, SplitMix64};

use common::runner::{self, TO_LLVM, run};

/// The modulus of the hash (the program's `arith.remsi` is Rust's `%`).
const P: i64 = 1_000_000_007;

/// `h * 31 + v`, reduced as the program reduces it.
fn mix(h: i64, v: i64) -> i64 {
    (h * 31 + v) % P
}

/// What the random expressions are made of.
const SHAPE: ExprShape = ExprShape {
    constants: (-9, 9),
    coefficients: &[1, 1, 1, 2, 3, 5, -1, -2],
    divisors: &[2, 3, 4, 5, 7, -3],
    leaf_odds: 3,
    constant_odds: 6,
    sum_terms: (2, 3),
    weights: [2, 1, 1, 1, 0, 1, 1, 0, 0],
};

fn random_expr(rng: &mut SplitMix64, depth: u32, num_dims: u32, num_syms: u32) -> Expr {
    SHAPE.expr(rng, depth, num_dims, num_syms)
}

fn random_vars(rng: &mut SplitMix64, n: u32, width: i64) -> Vec<Var> {
    (0..n)
        .map(|_| {
            let lo = rng.range(-width, width);
            Var::new(Interval::new(lo, lo + rng.range(0, width)))
        })
        .collect()
}

/// A random loop map with `num_dims` dims (none when `None`: 0 to 2) that is not known empty.
fn random_map(rng: &mut SplitMix64, num_dims: Option<u32>) -> IndexingMap {
    loop {
        let nd = num_dims.unwrap_or_else(|| rng.range(0, 2) as u32);
        let nr = rng.range(0, 3) as u32;
        let width = match nr {
            0 | 1 => 12,
            2 => 6,
            _ => 4,
        };
        let depth = rng.range(1, 3) as u32;
        let results = (0..rng.range(0, 2))
            .map(|_| random_expr(rng, depth, nd, nr))
            .collect();
        let mut map = IndexingMap::new(
            results,
            random_vars(rng, nd, width),
            random_vars(rng, nr, width),
            Vec::new(),
        );
        for _ in 0..rng.range(0, 2) {
            let e = random_expr(rng, depth, nd, nr);
            // An interval around part of the expression's range, so that it often binds.
            let range = map.expr_range(&e);
            let lo = rng.range(range.lo - 2, range.hi);
            let hi = rng.range(lo, range.hi + 2);
            map.add_constraint(e, Interval::new(lo, hi));
        }
        if !map.is_known_empty() {
            return map;
        }
    }
}

/// Where a loop's dims come from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Dims {
    /// `arith.constant`s in the loop's function: their values are known to the pass.
    Constants,
    /// Arguments of the loop's function: nothing is known about them.
    Arguments,
}

/// One test case: a loop with given dim values, possibly with an inner loop in its body whose
/// only dim is the outer loop's first result.
struct Case {
    map: IndexingMap,
    dims: Vec<i64>,
    source: Dims,
    inner: Option<IndexingMap>,
}

fn random_case(rng: &mut SplitMix64) -> Case {
    let nested = rng.chance(1, 4);
    let mut map = random_map(rng, None);
    let inner = if nested {
        // The inner loop's dim is the outer loop's first result.
        if map.results().is_empty() {
            let result = if map.range_vars().is_empty() {
                Expr::constant(rng.range(-3, 3))
            } else {
                Expr::sym(0)
            };
            map = map.with_results(vec![result]);
        }
        Some(random_map(rng, Some(1)))
    } else {
        None
    };
    let dims = map
        .dims()
        .iter()
        .map(|v| {
            if rng.chance(2, 3) {
                rng.range(v.bounds.lo, v.bounds.hi)
            } else {
                rng.range(v.bounds.lo - 3, v.bounds.hi + 3)
            }
        })
        .collect();
    let source = if rng.chance(1, 2) {
        Dims::Constants
    } else {
        Dims::Arguments
    };
    Case {
        map,
        dims,
        source,
        inner,
    }
}

/// The points of `map`'s domain for the given dim values, in order, with the map's results:
/// `(range variables, results)` per point.
fn visits(map: &IndexingMap, dims: &[i64]) -> Vec<(Vec<i64>, Vec<i64>)> {
    let mut fixed = map.clone();
    for (i, d) in dims.iter().enumerate() {
        fixed.add_constraint(Expr::dim(i as u32), Interval::point(*d));
    }
    fixed
        .domain_points(1 << 20)
        .expect("small domains")
        .into_iter()
        .map(|(d, s)| {
            let results = map.evaluate(&d, &s).expect("small values");
            (s, results)
        })
        .collect()
}

/// The hash and count the program must print for `case`, by brute force.
fn expected(case: &Case) -> (i64, i64) {
    let (mut h, mut n) = (0, 0);
    for (syms, results) in visits(&case.map, &case.dims) {
        for v in syms.iter().chain(&results) {
            h = mix(h, *v);
        }
        n += 1;
        if let Some(inner) = &case.inner {
            for (syms, results) in visits(inner, &[results[0]]) {
                for v in syms.iter().chain(&results) {
                    h = mix(h, *v);
                }
                n += 1;
            }
        }
    }
    (h, n)
}

/// A loop over `map` whose body folds its range variables and results into `h` and counts
/// itself in `n`, then runs `inner` (if any) on its first result. Names are suffixed by `tag`.
fn write_loop(
    out: &mut String,
    map: &IndexingMap,
    dims: &[String],
    inner: Option<&IndexingMap>,
    init: (&str, &str),
    tag: &str,
) -> String {
    let syms: Vec<String> = (0..map.range_vars().len())
        .map(|j| format!("%s{j}_{tag}"))
        .collect();
    let results: Vec<String> = (0..map.results().len())
        .map(|k| format!("%r{k}_{tag}"))
        .collect();
    let (h, n) = (format!("%h_{tag}"), format!("%n_{tag}"));
    let loop_value = format!("%loop_{tag}");
    let sym_list = if syms.is_empty() {
        String::new()
    } else {
        format!("[{}]", syms.join(", "))
    };
    writeln!(
        out,
        "  {loop_value}:2 = xla_indexing.loop ({}){sym_list} -> ({}) in #xla_indexing.map<\"{map}\"> iter_args({h} = {}, {n} = {}) -> (index, index) {{",
        dims.join(", "),
        results.join(", "),
        init.0,
        init.1,
    )
    .unwrap();
    let mut acc = h.clone();
    for (i, v) in syms.iter().chain(&results).enumerate() {
        writeln!(
            out,
            "  %mix{i}_{tag} = func.call @mix({acc}, {v}) : (index, index) -> index"
        )
        .unwrap();
        acc = format!("%mix{i}_{tag}");
    }
    writeln!(out, "  %count_{tag} = arith.addi {n}, %one : index").unwrap();
    let mut yielded = (acc, format!("%count_{tag}"));
    if let Some(inner) = inner {
        let inner_tag = format!("{tag}i");
        let value = write_loop(
            out,
            inner,
            &[results[0].clone()],
            None,
            (&yielded.0, &yielded.1),
            &inner_tag,
        );
        yielded = (format!("{value}#0"), format!("{value}#1"));
    }
    writeln!(
        out,
        "  xla_indexing.yield {}, {} : index, index\n  }}",
        yielded.0, yielded.1
    )
    .unwrap();
    loop_value
}

/// A program that prints `id, hash, count` for every case.
fn program(cases: &[Case]) -> String {
    let mut out = String::from(
        "func.func private @printI64(i64)
func.func private @printComma()
func.func private @printNewline()
func.func @mix(%h: index, %v: index) -> index {
  %c31 = arith.constant 31 : index
  %p = arith.constant 1000000007 : index
  %m = arith.muli %h, %c31 : index
  %s = arith.addi %m, %v : index
  %r = arith.remsi %s, %p : index
  return %r : index
}
func.func @print(%id: index, %h: index, %n: index) {
  %i = arith.index_cast %id : index to i64
  %hi = arith.index_cast %h : index to i64
  %ni = arith.index_cast %n : index to i64
  func.call @printI64(%i) : (i64) -> ()
  func.call @printComma() : () -> ()
  func.call @printI64(%hi) : (i64) -> ()
  func.call @printComma() : () -> ()
  func.call @printI64(%ni) : (i64) -> ()
  func.call @printNewline() : () -> ()
  return
}
",
    );
    let mut main = String::from("func.func @main() {\n");
    for (id, case) in cases.iter().enumerate() {
        let num_dims = case.dims.len();
        let (params, dims): (Vec<String>, Vec<String>) = match case.source {
            Dims::Arguments => (0..num_dims)
                .map(|i| (format!("%a{i}: index"), format!("%a{i}")))
                .unzip(),
            Dims::Constants => (
                Vec::new(),
                (0..num_dims).map(|i| format!("%k{i}")).collect(),
            ),
        };
        writeln!(
            out,
            "func.func @case{id}({}) -> (index, index) {{\n  %zero = arith.constant 0 : index\n  %one = arith.constant 1 : index",
            params.join(", ")
        )
        .unwrap();
        if case.source == Dims::Constants {
            for (i, d) in case.dims.iter().enumerate() {
                writeln!(out, "  %k{i} = arith.constant {d} : index").unwrap();
            }
        }
        let value = write_loop(
            &mut out,
            &case.map,
            &dims,
            case.inner.as_ref(),
            ("%zero", "%zero"),
            "o",
        );
        writeln!(out, "  return {value}#0, {value}#1 : index, index\n}}").unwrap();
        let mut args = Vec::new();
        if case.source == Dims::Arguments {
            for (i, d) in case.dims.iter().enumerate() {
                writeln!(main, "  %c{id}_{i} = arith.constant {d} : index").unwrap();
                args.push(format!("%c{id}_{i}"));
            }
        }
        writeln!(
            main,
            "  %id{id} = arith.constant {id} : index\n  %res{id}:2 = func.call @case{id}({}) : ({}) -> (index, index)\n  func.call @print(%id{id}, %res{id}#0, %res{id}#1) : (index, index, index) -> ()",
            args.join(", "),
            vec!["index"; args.len()].join(", ")
        )
        .unwrap();
    }
    main.push_str("  return\n}\n");
    out.push_str(&main);
    out
}

fn opt(source: &str, pipeline: &str) -> String {
    runner::opt(source, "lower_loop_property.mlir", pipeline)
}

/// The function `@name` of a printed module.
fn function(module: &str, name: &str) -> String {
    let header = format!("  func.func @{name}(");
    let mut lines = module.lines().skip_while(|l| !l.starts_with(&header));
    let mut out = String::new();
    for line in lines.by_ref() {
        out.push_str(line);
        out.push('\n');
        if line == "  }" {
            break;
        }
    }
    assert!(!out.is_empty(), "no @{name} in\n{module}");
    out
}

/// What the program of `cases` prints: per case its number, hash and count (brute force).
fn printed(cases: &[Case]) -> String {
    cases
        .iter()
        .enumerate()
        .map(|(id, case)| {
            let (h, n) = expected(case);
            format!("{id}, {h}, {n}\n")
        })
        .collect()
}

/// Lowers and runs `cases` with each `index-bitwidth`, comparing with brute force.
fn check(seed: u64, n_cases: usize) {
    let mut rng = SplitMix64::new(seed);
    let cases: Vec<Case> = (0..n_cases).map(|_| random_case(&mut rng)).collect();
    let source = program(&cases);
    let expected = printed(&cases);
    let executable = runner::runner_for("lower_loop");
    for bitwidth in [32, 64] {
        let pipeline =
            format!("builtin.module(xla-indexing-lower-apply{{index-bitwidth={bitwidth}}})");
        let lowered = opt(&source, &pipeline);
        assert!(
            !lowered.contains("xla_indexing."),
            "seed {seed}: an xla_indexing op is left:\n{lowered}"
        );
        if !executable {
            continue;
        }
        let actual = run(&opt(&lowered, TO_LLVM));
        for ((id, want), got) in expected.lines().enumerate().zip(actual.lines()) {
            assert_eq!(
                want,
                got,
                "seed {seed}, index-bitwidth={bitwidth}, case {id}:\nmap {}\ndims {:?}\ninner {:?}\nsource:\n{source}\nlowered:\n{lowered}",
                cases[id].map,
                cases[id].dims,
                cases[id].inner.as_ref().map(|m| m.to_string()),
            );
        }
        assert_eq!(
            expected.lines().count(),
            actual.lines().count(),
            "seed {seed}: the program printed\n{actual}"
        );
    }
}

/// Cases in all; `XLA_INDEXING_PROPTEST_CASES` raises it for long runs.
fn cases() -> u64 {
    xla_indexing_testkit::proptest_cases(240)
}

#[test]
fn random_loops_visit_exactly_their_domain() {
    // 40 loops per program (one seed each), so that one mlir-runner run covers many.
    for seed in 0..cases().div_ceil(40) {
        check(seed, 40);
    }
}

#[test]
fn nested_and_unknown_dims_visit_exactly_their_domain() {
    // A fixed case: the dim of unknown range is outside its bounds for half the calls.
    let map = IndexingMap::parse(
        "(d0)[s0, s1] -> (d0 + s0, s1 - d0), domain: d0 in [1, 6], s0 in [0, 3], s1 in [-2, 2], \
         d0 mod 3 in [0, 1], d0 + s0 + s1 in [2, 7]",
    )
    .unwrap();
    let inner = IndexingMap::parse(
        "(d0)[s0] -> (d0 * 2 - s0), domain: d0 in [0, 5], s0 in [0, 2], (d0 + s0) mod 2 in [0, 0]",
    )
    .unwrap();
    let cases: Vec<Case> = (-1..9)
        .map(|d| Case {
            map: map.clone(),
            dims: vec![d],
            source: Dims::Arguments,
            inner: Some(inner.clone()),
        })
        .collect();
    let source = program(&cases);
    let lowered = opt(&source, "builtin.module(xla-indexing-lower-apply)");
    assert!(!lowered.contains("xla_indexing."), "{lowered}");
    // The ten cases differ only in their arguments: one function shows the lowered nest.
    expect_file!["snapshots/lower_loop_nested.mlir"].assert_eq(&function(&lowered, "case0"));
    if !runner::runner_for("nested_and_unknown_dims_visit_exactly_their_domain") {
        return;
    }
    let actual = run(&opt(&lowered, TO_LLVM));
    let expected = printed(&cases);
    assert_eq!(expected, actual);
}
