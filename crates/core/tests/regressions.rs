//! Regressions at the limits of i64, one test per bug, each named after what went wrong: panics
//! on overflow in the simplifier, rewrites into forms that overflow where the input does not,
//! facts drawn from wrapped or saturated arithmetic, text that does not read back, and work that
//! grew quadratically with the input.

use std::sync::mpsc;
use std::time::Duration;

use xla_indexing_core::interval::{as_unsigned, gcd, lcm, wrap_signed};
use xla_indexing_core::simplify::Budget;
use xla_indexing_core::{DimNames, Expr, IndexingMap, Interval, Var, parse_expr, parse_expr_in};
use xla_indexing_testkit::invariants::maps;

fn parse(text: &str) -> IndexingMap {
    IndexingMap::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn simplified(text: &str) -> IndexingMap {
    let mut map = parse(text);
    map.simplify();
    map
}

/// Runs `f` on another thread and fails if it takes longer than `seconds` (the work it checks
/// takes well under a second; before the fix it took minutes, or forever).
#[track_caller]
fn within<T: Send + 'static>(seconds: u64, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || send.send(f()));
    receive
        .recv_timeout(Duration::from_secs(seconds))
        .unwrap_or_else(|e| panic!("not done after {seconds} s: {e}"))
}

/// Each of these panicked in a debug build: a negated `i64::MIN` (the constant moved out of a
/// `floordiv` or `mod`, a constraint's constant, a cost without its constant, a coefficient's
/// absolute value) or an `i128` range sum of three products near `2^126`.
#[test]
fn simplify_never_panics_on_i64_min_or_huge_products() {
    let inputs = [
        "(d0)[s0] -> ((s0 - d0) mod 2), domain: d0 in [-9223372036854775808, -9223372036854775808], s0 in [0, 10]",
        "(d0, d1) -> (-(d0 floordiv 3) * 9223372036854775808 - d0 floordiv 3 - 9223372036854775808), domain: d0 in [0, 99], d1 in [0, 9]",
        "(d0, d1) -> (d0), domain: d0 in [0, 99], d1 in [0, 99], d0 + d1 - 9223372036854775808 in [-9223372036854775808, -9223372036854775708]",
        "(d0, d1) -> (((d0 - 9223372036854775808) mod 4) floordiv 2), domain: d0 in [0, 99], d1 in [0, 9], d0 mod 4 in [1, 1]",
        "(d0, d1, d2, d3) -> (d0 * 9223372036854775807 + d1 * 9223372036854775807 + d2 * 9223372036854775807 + d3), domain: d0 in [-9223372036854775808, 9223372036854775807], d1 in [-9223372036854775808, 9223372036854775807], d2 in [-9223372036854775808, 9223372036854775807], d3 in [0, 1]",
    ];
    for text in inputs {
        maps::simplification_is_sound(text.as_bytes());
    }
    assert_eq!(
        simplified(inputs[0]).to_string(),
        "(d0)[s0] -> (s0 mod 2), domain: d0 in [-9223372036854775808, -9223372036854775808], s0 in [0, 10]"
    );
}

/// `d0 floordiv -7 + d0 + 7` became `(d0 * 6) floordiv 7 + 7`, whose `d0 * 6` overflows for
/// `d0 > i64::MAX / 6` where the input has a value.
#[test]
fn rewrites_that_could_overflow_are_skipped() {
    let text = "(d0) -> (d0 floordiv -7 + d0 + 7), domain: d0 in [89, 9223372036854775807]";
    let (before, after) = (parse(text), simplified(text));
    let d0 = 6_676_828_076_320_880_542;
    assert_eq!(
        before.evaluate(&[d0], &[]),
        Some(vec![5_722_995_493_989_326_185])
    );
    assert_eq!(after.evaluate(&[d0], &[]), before.evaluate(&[d0], &[]));
    maps::simplification_is_sound(text.as_bytes());
    // The same rewrite is taken where it cannot overflow.
    assert_eq!(
        simplified("(d0) -> (d0 floordiv -7 + d0 + 7), domain: d0 in [89, 1000]").results()[0],
        parse_expr("(d0 * 6) floordiv 7 + 7", &["d0"]).unwrap()
    );
}

/// The range of `(d0 * 6) floordiv 7` was taken from the saturated range of `d0 * 6` as
/// `[i64::MIN / 7, i64::MAX / 7]`, which its values exceed.
#[test]
fn ranges_of_divisions_of_sums_beyond_i64_are_exact() {
    let map = parse("(d0) -> ((d0 * 6) floordiv 7), domain: d0 in [0, 9223372036854775807]");
    assert_eq!(
        map.expr_range(&map.results()[0]),
        Interval::new(0, 7_905_747_460_161_236_406)
    );
}

/// A zero-width integer holds only 0 (`arith.extsi` of an `i0` constant is 0, not -1).
#[test]
fn an_i0_holds_only_zero() {
    for v in [-3, -1, 0, 1, 2] {
        assert_eq!(wrap_signed(v, 0), 0);
        assert_eq!(as_unsigned(v, 0), 0);
    }
    assert_eq!(wrap_signed(1, 1), -1);
    assert_eq!(wrap_signed(255, 8), -1);
}

/// linear-bounds: a variable without bounds is bounded through a linear constraint by one that
/// has them, so a set that needs `s0 >= d0 + 1 >= 1` and `s0 <= 0` is empty.
#[test]
fn linear_constraints_bound_unbounded_variables() {
    let empty = simplified(
        "(d0)[s0] -> (d0), domain: d0 in [0, 9], s0 in [-9223372036854775808, 9223372036854775807], s0 - d0 - 1 in [0, 9223372036854775807], -s0 in [0, 9223372036854775807]",
    );
    assert!(empty.is_known_empty());
    let bounded = simplified(
        "(d0)[s0] -> (d0), domain: d0 in [0, 9], s0 in [-9223372036854775808, 9223372036854775807], s0 - d0 - 1 in [0, 9223372036854775807]",
    );
    assert_eq!(bounded.range_vars()[0].bounds, Interval::new(1, i64::MAX));
    // Both ends of a sum bound both of its variables.
    let sum = simplified(
        "(d0, d1) -> (d0 + d1), domain: d0 in [0, 100], d1 in [0, 100], d0 + d1 in [0, 10]",
    );
    assert_eq!(sum.dims()[1].bounds, Interval::new(0, 10));
}

/// `gcd(i64::MIN, 0)` was `i64::MAX`, a multiple of 7, so `(d1 - 2^63 * d0) mod 7` was taken for
/// `d1 mod 7` and recombined with `(d1 floordiv 7) * 7` into `d1`; `lcm(i64::MIN, 1)` panicked.
#[test]
fn gcd_of_i64_min_is_no_false_multiple() {
    assert_eq!(gcd(i64::MIN, 0), i64::MIN);
    assert_eq!(gcd(i64::MIN, 6), 2);
    assert_eq!(lcm(i64::MIN, 1), None);
    assert_eq!(lcm(-4, 6), Some(12));
    let text = "(d0, d1) -> ((d1 - d0 * 9223372036854775807 - d0) mod 7 + (d1 floordiv 7) * 7), domain: d0 in [1, 1], d1 in [0, 9]";
    assert_eq!(parse(text).evaluate(&[1, 0], &[]), Some(vec![6]));
    assert_eq!(simplified(text).evaluate(&[1, 0], &[]), Some(vec![6]));
}

/// Merging `d0 mod m1` and `d0 mod m2` whose lcm leaves i64 made the map known empty, though
/// `d0 = 0` satisfies both.
#[test]
fn mod_constraints_whose_lcm_overflows_are_kept() {
    let map = simplified(
        "(d0) -> (d0), domain: d0 in [0, 9223372036854775807], d0 mod 4611686018427387903 in [0, 0], d0 mod 4611686018427387902 in [0, 0]",
    );
    assert!(map.contains(&[0], &[]), "{map}");
}

/// The Chinese remainder theorem stepped through up to `m2` candidates: with `m2 = 2^62 - 1` it
/// did not finish.
#[test]
fn mod_constraints_with_huge_moduli_merge_at_once() {
    let map = within(60, || {
        simplified(
            "(d0) -> (d0), domain: d0 in [0, 9223372036854775807], d0 mod 2 in [0, 0], d0 mod 4611686018427387903 in [1, 1]",
        )
    });
    assert_eq!(map.results()[0].as_constant(), Some(1 << 62), "{map}");
}

/// The bounds of `d0` with `d0 mod 3 = 1` were moved with wrapping subtraction, which lost the
/// point `i64::MIN` (a multiple of 3 plus 1).
#[test]
fn mod_constraints_keep_points_at_i64_min() {
    let map = simplified(
        "(d0) -> (d0), domain: d0 in [-9223372036854775808, -9223372036854775800], d0 mod 3 in [1, 1]",
    );
    assert!(map.contains(&[i64::MIN], &[]), "{map}");
    assert_eq!(map.dims()[0].bounds, Interval::new(i64::MIN, i64::MIN + 6));
}

/// `i64::MIN` printed as `- 9223372036854775808`, which the parser refused as out of range: as
/// a constant, as a coefficient of a variable or of a compound atom, first or later in a sum.
#[test]
fn i64_min_prints_as_text_that_reads_back() {
    let text = "(d0) -> (d0 - 9223372036854775807 - 1), domain: d0 in [0, 9]";
    assert_eq!(
        simplified(text).to_string(),
        "(d0) -> (d0 - 9223372036854775808), domain: d0 in [0, 9]"
    );
    let min = Expr::constant(i64::MIN);
    let d0 = Expr::dim(0);
    let div = d0.floor_div(3).unwrap();
    let results = vec![
        min.clone(),
        d0.checked_add(&min).unwrap(),
        d0.checked_scale(i64::MIN).unwrap(),
        div.checked_scale(i64::MIN).unwrap(),
        Expr::dim(1)
            .checked_add(&div.checked_scale(i64::MIN).unwrap())
            .unwrap(),
        d0.checked_scale(i64::MIN).unwrap().modulo(5).unwrap(),
    ];
    let vars = vec![
        Var::new(Interval::new(i64::MIN, i64::MAX)),
        Var::new(Interval::point(i64::MIN)),
    ];
    let mut map = IndexingMap::new(results, vars, Vec::new(), Vec::new());
    map.add_constraint(
        d0.checked_scale(i64::MIN)
            .unwrap()
            .checked_add(&min)
            .unwrap(),
        Interval::new(i64::MIN, 0),
    );
    maps::map_text_round_trips(map.to_string().as_bytes());
    assert_eq!(parse_expr("-9223372036854775808", &[]), Ok(min));
    let error = parse_expr("-(-9223372036854775808)", &[]).unwrap_err();
    assert!(error.message.contains("out of the range of i64"), "{error}");
    assert_eq!(
        parse_expr("d0 * -9223372036854775808", &["d0"]).unwrap(),
        d0.checked_scale(i64::MIN).unwrap()
    );
}

/// Sums were built one term at a time, copying the growing sum: parsing `n` terms took time
/// quadratic in `n` (28 s for 20,000 `floordiv`s); so did recombining `mod`/`floordiv` pairs,
/// looking names up, merging `mod` constraints and evaluating at points over many variables;
/// and no rule may search a huge sum (here the expansion of `x mod 7` into `x - (x floordiv 7) * 7`).
#[test]
fn large_inputs_take_near_linear_time() {
    let n = 20_000;
    within(60, move || {
        let sum: Vec<String> = (2..n + 2).map(|k| format!("d0 floordiv {k}")).collect();
        let e = parse_expr(&sum.join(" + "), &["d0"]).unwrap();
        let mut map = IndexingMap::new(
            vec![e],
            vec![Var::new(Interval::new(0, 1_000_000))],
            Vec::new(),
            Vec::new(),
        );
        map.simplify();
        assert_eq!(map.results()[0].terms().len(), n);

        let pairs: Vec<String> = (0..n)
            .map(|k| format!("(d0 + {k}) mod 7 + ((d0 + {}) floordiv 7) * 7", k + 7))
            .collect();
        let e = parse_expr(&pairs.join(" + "), &["d0"]).unwrap();
        assert_eq!(e.terms().len(), 1, "every pair recombines");

        let names: Vec<String> = (0..n).map(|i| format!("x{i}")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let scope = DimNames::new(&refs);
        let vars = (0..n).map(|_| Var::new(Interval::new(0, 9))).collect();
        let sum = names.join(" + ");
        let mut map = IndexingMap::new(
            vec![
                parse_expr_in(&sum, &scope).unwrap(),
                parse_expr_in(&format!("({sum}) mod 7"), &scope).unwrap(),
            ],
            vars,
            Vec::new(),
            Vec::new(),
        );
        for (i, name) in names.iter().enumerate() {
            let c = parse_expr_in(&format!("{name} mod {}", i % 5 + 2), &scope).unwrap();
            map.add_constraint(c, Interval::point(1));
        }
        map.simplify();
        assert!(!map.is_known_empty());
    });
}

/// `max_terms` bounds the sums the rules search at every level, not only at the top.
#[test]
fn budget_max_terms_applies_to_division_arguments() {
    let text = "(d0, d1, d2) -> ((d0 * 4 + d1 + d2) floordiv 8), domain: d0 in [0, 9], d1 in [0, 1], d2 in [0, 2]";
    let mut small = parse(text);
    small.simplify_with(Budget {
        max_terms: 2,
        ..Budget::default()
    });
    assert_eq!(small, parse(text));
    assert_eq!(
        simplified(text).results()[0],
        parse_expr("d0 floordiv 2", &["d0"]).unwrap()
    );
}

/// `enumeration_total` bounds the points enumerated over all constraints. (The constraint is
/// not linear in variables, which linear-bounds would narrow without enumerating.)
#[test]
fn budget_enumeration_total_bounds_the_constraint_hull() {
    let text = "(d0, d1, d2) -> (d2), domain: d0 in [0, 63], d1 in [0, 63], d2 in [0, 99], d0 * 3 + d1 mod 4 in [0, 5]";
    let mut none = parse(text);
    none.simplify_with(Budget {
        enumeration_total: 0,
        ..Budget::default()
    });
    assert_eq!(none.dims()[0].bounds, Interval::new(0, 63));
    assert_eq!(simplified(text).dims()[0].bounds, Interval::new(0, 1));
}
