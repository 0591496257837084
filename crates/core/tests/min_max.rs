//! `min(a, b)` and `max(a, b)` in expressions: text, construction, evaluation, ranges,
//! composition and simplification. XLA's expectations for them (`SimplifyMin_*`,
//! `SimplifyMax_*`, the range evaluator and the canonicalization of its `SymbolicExpr`) are
//! written here as maps in, maps out.

use xla_indexing_core::{Expr, IndexingMap, Interval, Syntax, parse_expr};

fn parse(text: &str) -> IndexingMap {
    IndexingMap::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// `text` simplified, checked against the input at every point of its domain.
#[track_caller]
fn simplified(text: &str) -> IndexingMap {
    let before = parse(text);
    let mut after = before.clone();
    after.simplify();
    for (d, s) in before.domain_points(1 << 16).expect("a small domain") {
        assert_eq!(
            before.evaluate(&d, &s),
            after.evaluate(&d, &s),
            "{text} at {d:?}"
        );
    }
    after
}

#[track_caller]
fn check(input: &str, expected: &str) {
    let got = simplified(input);
    assert_eq!(got, parse(expected), "\n input: {input}\n   got: {got}");
}

fn expr(text: &str) -> Expr {
    parse_expr(text, &["d0", "d1"]).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn simplify_min_adjacent() {
    check(
        "(d0) -> (min(d0, d0 + 1)), domain: d0 in [0, 10]",
        "(d0) -> (d0), domain: d0 in [0, 10]",
    );
}

#[test]
fn simplify_min_constant() {
    check(
        "(d0) -> (min(10, d0)), domain: d0 in [0, 5]",
        "(d0) -> (d0), domain: d0 in [0, 5]",
    );
}

#[test]
fn simplify_max_adjacent() {
    check(
        "(d0) -> (max(d0, d0 - 1)), domain: d0 in [0, 10]",
        "(d0) -> (d0), domain: d0 in [0, 10]",
    );
}

#[test]
fn simplify_max_constant() {
    check(
        "(d0) -> (max(10, d0)), domain: d0 in [0, 5]",
        "(d0) -> (10), domain: d0 in [0, 5]",
    );
}

#[test]
fn simplify_min_complex() {
    check(
        "(d0, d1) -> (min(128, d0 * 32 + d1 / 64 + 1)), domain: d0 in [0, 3], d1 in [0, 2047]",
        "(d0, d1) -> (d0 * 32 + d1 / 64 + 1), domain: d0 in [0, 3], d1 in [0, 2047]",
    );
}

#[test]
fn simplify_max_complex() {
    check(
        "(d0, d1) -> (max(128, d0 * 32 + d1 / 64 + 1)), domain: d0 in [0, 3], d1 in [0, 2047]",
        "(d0, d1) -> (128), domain: d0 in [0, 3], d1 in [0, 2047]",
    );
}

/// The bounds decide only a part of the domain: nothing to drop.
#[test]
fn undecided_branches_stay() {
    for text in [
        "(d0) -> (min(d0, 100)), domain: d0 in [0, 150]",
        "(d0, d1) -> (max(d0, d1)), domain: d0 in [0, 9], d1 in [5, 20]",
    ] {
        let mut m = parse(text);
        assert!(!m.simplify(), "{text} became {m}");
    }
    check(
        "(d0) -> (min(d0, 100)), domain: d0 in [0, 50]",
        "(d0) -> (d0), domain: d0 in [0, 50]",
    );
}

/// The difference of the operands is bounded where their own ranges overlap: `d0 + d1` and
/// `d0` overlap, but `d0 + d1 - d0 = d1 >= 0`.
#[test]
fn correlated_operands_are_compared_by_their_difference() {
    check(
        "(d0, d1) -> (min(d0 + d1, d0), max(d0 + d1, d0)), domain: d0 in [0, 9], d1 in [0, 4]",
        "(d0, d1) -> (d0, d0 + d1), domain: d0 in [0, 9], d1 in [0, 4]",
    );
}

/// A constraint on an operand narrows its range, which decides the branch.
#[test]
fn constraints_decide_branches() {
    check(
        "(d0, d1) -> (min(d0 + d1, 20)), domain: d0 in [0, 15], d1 in [0, 15], d0 + d1 in [0, 18]",
        "(d0, d1) -> (d0 + d1), domain: d0 in [0, 15], d1 in [0, 15], d0 + d1 in [0, 18]",
    );
}

/// Operands simplify inside, and the branches decided there go with them.
#[test]
fn operands_simplify_inside() {
    check(
        "(d0, d1) -> (max(d0 floordiv 16, d1 mod 8) + min(d1 mod 8, 7)), domain: d0 in [0, 15], d1 in [0, 5]",
        "(d0, d1) -> (d1 * 2), domain: d0 in [0, 15], d1 in [0, 5]",
    );
}

#[test]
fn ranges_are_exact() {
    // XLA's `RangeEvaluatorTest`.
    let m = parse("(d0, d1) -> (0), domain: d0 in [0, 9], d1 in [-10, -1]");
    let range = |text: &str| m.expr_range(&expr(text));
    assert_eq!(range("min(d0, d1)"), Interval::new(-10, -1));
    assert_eq!(range("max(d0, d1)"), Interval::new(0, 9));
    assert_eq!(range("min(d0, 4)"), Interval::new(0, 4));
    assert_eq!(range("max(d0, -d1) * -2"), Interval::new(-20, -2));
    assert_eq!(range("min(d0, d1 + 5) floordiv 2"), Interval::new(-3, 2));
    // Every value in the range is taken.
    let values: Vec<i64> = (0..=9)
        .flat_map(|a: i64| (-10..=-1).map(move |b: i64| a.min(b + 5)))
        .collect();
    let r = range("min(d0, d1 + 5)");
    assert_eq!(
        (r.lo, r.hi),
        (*values.iter().min().unwrap(), *values.iter().max().unwrap())
    );
}

#[test]
fn construction_folds_what_holds_everywhere() {
    // XLA's `Canonicalization_MinMax` and constant folding.
    assert_eq!(expr("min(2, 5) + max(2, 7)"), Expr::constant(9));
    assert_eq!(expr("max(d0, d0)"), expr("d0"));
    assert_eq!(expr("min(d0, d0)"), expr("d0"));
    assert_eq!(expr("max(d0, d0 + 1)"), expr("d0 + 1"));
    assert_eq!(expr("min(d0, d0 - 1)"), expr("d0 - 1"));
    assert_eq!(expr("min(d0, d1) + min(d1, d0)"), expr("min(d0, d1) * 2"));
    assert_eq!(
        format!("{:?}", expr("min(d0, d1) + min(d1, d0)")),
        "min(d0, d1) * 2"
    );
    // Operands are ordered, so the atom is one whatever the order written.
    assert_eq!(expr("max(d1 + 3, d0 * 2)"), expr("max(d0 * 2, d1 + 3)"));
    // Undecided pairs stay.
    assert_ne!(expr("min(d0, d1)"), expr("d0"));
    assert_ne!(expr("min(d0, 2 * d0)"), expr("d0"));
}

#[test]
fn evaluation_is_exact() {
    let e = expr("max(min(d1, 2), 0) * 5 + min(d0 floordiv 2, d1) - max(d0, -d1)");
    for d0 in -6..=6i64 {
        for d1 in -6..=6i64 {
            let want = d1.clamp(0, 2) * 5 + d0.div_euclid(2).min(d1) - d0.max(-d1);
            assert_eq!(e.eval(&[d0, d1], &[]), Some(want), "at {d0}, {d1}");
        }
    }
    // An operand that overflows makes the value undefined, whichever branch would win.
    let big = parse_expr("min(d0 * 4611686018427387904, 0)", &["d0"]).unwrap();
    assert_eq!(big.eval(&[1], &[]), Some(0));
    assert_eq!(big.eval(&[2], &[]), None);
}

#[test]
fn text_reads_and_prints_min_and_max() {
    for (text, printed) in [
        ("min(d0, d1) floordiv 2", "min(d0, d1) floordiv 2"),
        ("-min(d0, d1)", "-min(d0, d1)"),
        ("-max(d0, d1) * 3 + 1", "-max(d0, d1) * 3 + 1"),
        (
            "(max(d1, d0 + 1) + d0) mod 4",
            "(d0 + max(d0 + 1, d1)) mod 4",
        ),
        ("min(max(d0, 0), d1 - 1)", "min(d1 - 1, max(d0, 0))"),
        ("max(-d0, d1) * 2", "max(-d0, d1) * 2"),
    ] {
        let e = expr(text);
        assert_eq!(format!("{e:?}"), printed, "{text}");
        assert_eq!(expr(printed), e, "{printed}");
    }
    // `min` and `max` name variables where no call follows.
    let m = parse("(min, max) -> (min + max, min(min, max)), domain: min in [0, 3], max in [2, 5]");
    assert_eq!(
        m.to_string(),
        "(min, max) -> (min + max, min(min, max)), domain: min in [0, 3], max in [2, 5]"
    );
    assert_eq!(m.evaluate(&[3, 2], &[]), Some(vec![5, 2]));
}

#[test]
fn xla_syntax_writes_the_same_min_and_max() {
    let m = parse("(d0, d1) -> (min(d0 floordiv 4, d1)), domain: d0 in [0, 99], d1 in [0, 9]");
    assert_eq!(
        m.display(Syntax::Xla).to_string(),
        "(d0, d1) -> (min(d1, d0 / 4)), domain: d0 in [0, 99], d1 in [0, 9]"
    );
}

#[test]
fn composition_substitutes_into_both_operands() {
    let first = parse("(d0) -> (d0 * 2, 9 - d0), domain: d0 in [0, 6]");
    let second =
        parse("(d0, d1) -> (min(d0, d1), max(d0 + 1, 4)), domain: d0 in [0, 20], d1 in [0, 20]");
    let composed = first.compose(&second).unwrap();
    for d0 in 0..=6i64 {
        assert_eq!(
            composed.evaluate(&[d0], &[]),
            Some(vec![(2 * d0).min(9 - d0), (2 * d0 + 1).max(4)])
        );
    }
    let mut simplified = composed;
    simplified.simplify();
    assert_eq!(
        simplified.results()[1],
        parse_expr("max(d0 * 2 + 1, 4)", &["d0"]).unwrap()
    );
}

#[test]
fn constraints_may_hold_min_and_max() {
    let m = simplified(
        "(d0, d1) -> (d0 + d1), domain: d0 in [0, 9], d1 in [0, 9], min(d0, d1) in [3, 20]",
    );
    assert_eq!(m.dims()[0].bounds, Interval::new(3, 9));
    assert_eq!(m.dims()[1].bounds, Interval::new(3, 9));
    assert!(m.constraints().is_empty(), "{m}");
}
