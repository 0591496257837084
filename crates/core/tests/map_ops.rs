//! Operations on maps other than simplification.

use xla_indexing_core::{Expr, IndexingMap, Interval, VarRef, parse_expr};

fn parse(text: &str) -> IndexingMap {
    IndexingMap::parse(text).unwrap_or_else(|e| panic!("{text}\n{e}"))
}

#[test]
fn rescale_symbols_substitutes_the_residue_class() {
    let mut m =
        parse("(d0)[s0] -> (d0 + s0), domain: d0 in [0, 3], s0 in [0, 41], s0 mod 6 in [3, 3]");
    assert!(m.rescale_symbols());
    assert_eq!(
        m,
        parse("(d0)[s0] -> (d0 + s0 * 6 + 3), domain: d0 in [0, 3], s0 in [0, 6]")
    );
    let mut plain = parse("(d0)[s0] -> (d0 + s0), domain: d0 in [0, 3], s0 in [0, 41]");
    assert!(!plain.rescale_symbols());
}

#[test]
fn remove_unused_symbols_keeps_constrained_ones() {
    let mut m = parse(
        "(d0)[s0, s1, s2]{rt0} -> (d0 + s1), domain: d0 in [0, 9], s0 in [0, 3], s1 in [0, 3], s2 in [0, 3], rt0 in [0, 5], s2 + d0 in [0, 10], s0 mod 2 in [0, 0]",
    );
    let removed = m.remove_unused_symbols();
    assert_eq!(removed, vec![true, false, false, true]);
    assert_eq!(
        m,
        parse(
            "(d0)[s0, s1] -> (d0 + s0), domain: d0 in [0, 9], s0 in [0, 3], s1 in [0, 3], d0 + s1 in [0, 10]"
        )
    );
}

#[test]
fn remove_unused_vars_renumbers_dims() {
    let mut m = parse(
        "(d0, d1, d2)[s0] -> (d2 + s0), domain: d0 in [0, 1], d1 in [0, 2], d2 in [0, 3], s0 in [0, 4]",
    );
    assert_eq!(m.remove_unused_vars(), vec![true, true, false, false]);
    assert_eq!(
        m,
        parse("(d0)[s0] -> (d0 + s0), domain: d0 in [0, 3], s0 in [0, 4]")
    );
}

#[test]
fn symbols_become_dimensions() {
    let m = parse(
        "(d0)[s0]{rt0} -> (d0 + s0 + rt0), domain: d0 in [0, 1], s0 in [0, 2], rt0 in [0, 3], s0 mod 2 in [0, 0]",
    );
    assert_eq!(
        m.convert_symbols_to_dims(),
        parse(
            "(d0, d1, d2) -> (d0 + d1 + d2), domain: d0 in [0, 1], d1 in [0, 2], d2 in [0, 3], d1 mod 2 in [0, 0]"
        )
    );
    let m = parse(
        "(d0)[s0, s1] -> (d0 + s0 * 2 + s1), domain: d0 in [0, 1], s0 in [0, 2], s1 in [0, 3]",
    );
    assert_eq!(
        m.convert_range_vars_to_dims(&[1]),
        parse(
            "(d0, d1)[s0] -> (d0 + d1 + s0 * 2), domain: d0 in [0, 1], d1 in [0, 3], s0 in [0, 2]"
        )
    );
}

#[test]
fn constraints_on_bare_variables_tighten_bounds_and_contradictions_empty_the_map() {
    let mut m = parse("(d0, d1) -> (d0), domain: d0 in [0, 9], d1 in [0, 9]");
    m.add_constraint(Expr::dim(0), Interval::new(3, 20));
    assert_eq!(m.dims()[0].bounds, Interval::new(3, 9));
    m.add_constraint(Expr::dim(0) + Expr::dim(1), Interval::new(0, 4));
    m.add_constraint(Expr::dim(0) + Expr::dim(1), Interval::new(5, 8));
    assert!(m.is_known_empty());
    assert_eq!(m.to_string(), "KNOWN EMPTY");
}

#[test]
fn evaluation_range_and_verification() {
    let m = parse(
        "(d0)[s0] -> (d0 * 4 + s0, (d0 * 4 + s0) floordiv 3), domain: d0 in [0, 9], s0 in [0, 3]",
    );
    assert_eq!(m.evaluate(&[2], &[3]), Some(vec![11, 3]));
    assert_eq!(m.expr_range(&m.results()[0]), Interval::new(0, 39));
    assert!(m.contains(&[9], &[3]));
    assert!(!m.contains(&[10], &[0]));
    assert!(m.verify().is_ok());
    let bad = IndexingMap::new(vec![Expr::dim(3)], Vec::new(), Vec::new(), Vec::new());
    assert_eq!(
        bad.verify().unwrap_err().to_string(),
        "result #0 uses d3, but the map has 0 dims and 0 symbols"
    );
    let mut named = m.clone();
    named.set_name(VarRef::Dim(0), Some("th_x".into()));
    assert_eq!(named, m, "names do not take part in equality");
    assert!(
        named
            .to_string()
            .starts_with("(th_x)[s0] -> (th_x * 4 + s0")
    );
}

#[test]
fn evaluation_is_exact_where_only_a_partial_sum_leaves_i64() {
    let m = parse(
        "(d0, d1) -> (d0 * -2 + d1 - 18, d0 + d1, (d0 * 2 + 1) mod 3), domain: d0 in [0, 4611686018427387903], d1 in [0, 16]",
    );
    let r = |d0: i64, d1: i64, i: usize| m.results()[i].eval(&[d0, d1], &[]);
    assert_eq!(
        r((1 << 62) - 1, 16, 0),
        Some(i64::MIN),
        "-18 first or last, the sum fits"
    );
    assert_eq!(r(i64::MAX, 1, 1), None);
    assert_eq!(r(5, 0, 2), Some(2));
    assert_eq!(r(1 << 62, 0, 2), None, "the operand of mod leaves i64");
}

#[test]
fn ranges_that_leave_i64_are_unknown_not_saturated() {
    let m = parse("(d0) -> (d0 * 9223372036854775807 + 9223372036854775807), domain: d0 in [0, 1]");
    assert_eq!(m.expr_range(&m.results()[0]), Interval::FULL);
    let mut s = m.clone();
    s.simplify();
    assert_eq!(s, m, "a value that may overflow is no constant");
    let big = parse("(d0) -> (d0 + 9223372036854775806), domain: d0 in [0, 1]");
    assert_eq!(
        big.expr_range(&big.results()[0]),
        Interval::new(i64::MAX - 1, i64::MAX)
    );
}

#[test]
fn never_overflows_checks_every_product_and_partial_sum() {
    let never_overflows = |text: &str| {
        let m = parse(text);
        m.range_evaluator(true).never_overflows(&m.results()[0])
    };
    assert!(never_overflows(
        "(d0) -> (d0 * 2), domain: d0 in [0, 4611686018427387903]"
    ));
    assert!(!never_overflows(
        "(d0) -> (d0 * 2), domain: d0 in [0, 4611686018427387904]"
    ));
    // The sum fits, but evaluating `d0 + d1` first does not.
    assert!(!never_overflows(
        "(d0, d1, d2) -> (d0 + d1 - d2), domain: d0 in [4611686018427387904, 4611686018427387905], d1 in [4611686018427387904, 4611686018427387905], d2 in [4611686018427387904, 4611686018427387905]"
    ));
    assert!(!never_overflows(
        "(d0) -> ((d0 * 2) floordiv 3), domain: d0 in [0, 9223372036854775807]"
    ));
    // Every point of the domain evaluates a constrained expression inside its interval.
    assert!(never_overflows(
        "(d0) -> ((d0 * 2) floordiv 3), domain: d0 in [0, 9223372036854775807], d0 * 2 in [0, 100]"
    ));
}

#[test]
fn rescale_symbols_keeps_points_at_i64_min() {
    // i64::MIN = 3 * -3074457345618258603 + 1, but `s0 * 3 + 1` overflows there: the
    // substitution would lose the point, so it is skipped.
    let text = "(d0)[s0] -> (s0), domain: d0 in [0, 3], s0 in [-9223372036854775808, -9223372036854775788], s0 mod 3 in [1, 1]";
    let mut m = parse(text);
    m.rescale_symbols();
    // (Merging the `mod` constraints first moved the upper bound to a value congruent to 1.)
    assert_eq!(m.results(), parse(text).results());
    assert_eq!(m.constraints(), parse(text).constraints());
    // i64::MIN + 2 = 3 * -3074457345618258602 evaluates.
    let mut m = parse(
        "(d0)[s0] -> (s0), domain: d0 in [0, 3], s0 in [-9223372036854775808, -9223372036854775788], s0 mod 3 in [0, 0]",
    );
    assert!(m.rescale_symbols());
    assert_eq!(m.range_vars()[0].bounds.lo, -3_074_457_345_618_258_602);
    assert_eq!(
        m.evaluate(&[0], &[-3_074_457_345_618_258_602]),
        Some(vec![i64::MIN + 2])
    );
    // A residue outside `[0, 3)` holds nowhere: no substitution gives its points.
    let mut never =
        parse("(d0)[s0] -> (s0), domain: d0 in [0, 3], s0 in [0, 41], s0 mod 3 in [4, 4]");
    assert!(!never.rescale_symbols());
}

/// XLA's `RescaleSymbols` cases: `mod` constraints on one symbol are merged first, then the
/// symbol is replaced by its residue class. The `floordiv` of the rescaled symbol folds when
/// the substitution is built (XLA needs a `Simplify` after it for that).
#[test]
fn rescale_symbols_as_xla() {
    let mut simple = parse(
        "(d0)[s0, s1, s2] -> (s2, d0, s1, s0 / 6), domain: d0 in [0, 3], s0 in [0, 6], s1 in [0, 1], s2 in [0, 5], s0 mod 6 in [0, 0]",
    );
    assert!(simple.rescale_symbols());
    let want = parse(
        "(d0)[s0, s1, s2] -> (s2, d0, s1, s0), domain: d0 in [0, 3], s0 in [0, 1], s1 in [0, 1], s2 in [0, 5]",
    );
    assert_eq!(simple, want);
    let mut shifted = parse(
        "(d0)[s0, s1, s2] -> (s2, d0, s1, s0), domain: d0 in [0, 3], s0 in [0, 41], s1 in [0, 1], s2 in [0, 5], s0 mod 6 in [3, 3]",
    );
    assert!(shifted.rescale_symbols());
    assert_eq!(
        shifted,
        parse(
            "(d0)[s0, s1, s2] -> (s2, d0, s1, s0 * 6 + 3), domain: d0 in [0, 3], s0 in [0, 6], s1 in [0, 1], s2 in [0, 5]"
        )
    );
    let mut two = parse(
        "(d0)[s0, s1, s2] -> (s2, d0, s1, s0 / 6), domain: d0 in [0, 3], s0 in [0, 7], s1 in [0, 1], s2 in [0, 5], s0 mod 2 in [0, 0], s0 mod 3 in [0, 0]",
    );
    assert!(two.rescale_symbols());
    two.simplify();
    assert_eq!(two, want);
    // XLA leaves one of two residues with different remainders to a later pass (and which one
    // depends on hash order); the Chinese remainder theorem merges them: 33 is 3 modulo 6 and
    // 5 modulo 7.
    let mut unmerged = parse(
        "(d0)[s0, s1, s2] -> (s2, d0, s1, s0), domain: d0 in [0, 3], s0 in [0, 99], s1 in [0, 1], s2 in [0, 5], s0 mod 6 in [3, 3], s0 mod 7 in [5, 5]",
    );
    assert!(unmerged.rescale_symbols());
    assert_eq!(
        unmerged,
        parse(
            "(d0)[s0, s1, s2] -> (s2, d0, s1, s0 * 42 + 33), domain: d0 in [0, 3], s0 in [0, 1], s1 in [0, 1], s2 in [0, 5]"
        )
    );
}

/// XLA's `Simplify` neither rescales symbols nor removes unused ones (its tests keep
/// `s0 mod 6 in [0, 0]` and an unused `s0` after it); callers chain `RescaleSymbols` and
/// `RemoveUnusedSymbols` where they want them. So does `simplify`.
#[test]
fn simplify_keeps_symbols_as_xla_does() {
    let text = "(d0)[s0, s1] -> (d0, s1, s0), domain: d0 in [0, 3], s0 in [-21, -2], s1 in [0, 10], d0 mod 3 in [0, 0], s0 mod 2 in [0, 0], s0 mod 3 in [0, 0], s1 mod 5 in [1, 1]";
    let mut m = parse(text);
    assert!(m.simplify());
    assert_eq!(
        m,
        parse(
            "(d0)[s0, s1] -> (d0, s1, s0), domain: d0 in [0, 3], s0 in [-18, -6], s1 in [1, 6], d0 mod 3 in [0, 0], s0 mod 6 in [0, 0], s1 mod 5 in [1, 1]"
        )
    );
    let mut unused = parse(
        "(d0)[s0] -> (d0), domain: d0 in [0, 99], s0 in [-99, 99], s0 floordiv 3 in [-11, -5]",
    );
    assert!(unused.simplify());
    assert_eq!(
        unused,
        parse("(d0)[s0] -> (d0), domain: d0 in [0, 99], s0 in [-33, -13]")
    );
    assert_eq!(unused.remove_unused_symbols(), vec![true]);
    assert_eq!(unused, parse("(d0) -> (d0), domain: d0 in [0, 99]"));
}

/// Replacing a runtime variable by an expression over the dims is evaluating the map with the
/// variable at that expression's value, at every point.
#[test]
fn a_runtime_variable_replaced_by_its_value() {
    let m = parse(
        "(d0, d1)[s0]{rt0, rt1} -> (d0 + rt0 * 2, d1 + rt1 + s0), domain: d0 in [0, 3], d1 in [0, 4], s0 in [0, 1], rt0 in [0, 10], rt1 in [0, 10], d0 + rt1 in [0, 12]",
    );
    let value = parse_expr("d1 * 2 + 1", &["d0", "d1"]).unwrap();
    let replaced = m.replace_rt_var(0, &value).unwrap().unwrap();
    assert_eq!(replaced.rt_vars().len(), 1);
    for d0 in 0..=3 {
        for d1 in 0..=4 {
            for s0 in 0..=1 {
                for rt1 in 0..=10 {
                    let rt0 = 2 * d1 + 1;
                    assert_eq!(
                        replaced.contains(&[d0, d1], &[s0, rt1]),
                        m.contains(&[d0, d1], &[s0, rt0, rt1])
                    );
                    assert_eq!(
                        replaced.evaluate(&[d0, d1], &[s0, rt1]),
                        m.evaluate(&[d0, d1], &[s0, rt0, rt1])
                    );
                }
            }
        }
    }
    // A value that reads a runtime variable, or a variable out of the map, is refused.
    assert!(
        m.replace_rt_var(0, &parse_expr("d2", &["d0", "d1", "d2"]).unwrap())
            .is_none()
    );
    assert!(m.replace_rt_var(2, &value).is_none());
}

#[test]
fn with_vars_keeps_results_and_constraints() {
    let m = parse("(d0)[s0] -> (d0 + s0), domain: d0 in [0, 9], s0 in [0, 3], d0 + s0 in [2, 8]");
    let narrowed = m.with_vars(
        vec![xla_indexing_core::Var::new(Interval::new(1, 4))],
        vec![xla_indexing_core::Var::new(Interval::new(0, 1))],
    );
    assert_eq!(
        narrowed,
        parse("(d0)[s0] -> (d0 + s0), domain: d0 in [1, 4], s0 in [0, 1], d0 + s0 in [2, 8]")
    );
    let empty = m.with_vars(
        vec![xla_indexing_core::Var::new(Interval::new(3, 2))],
        m.range_vars().to_vec(),
    );
    assert!(empty.is_known_empty());
}
