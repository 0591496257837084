//! XLA's non-affine expressions (`SymbolicExpr`): products of two expressions and divisions by an
//! expression. Their normal form, text, ranges, and a property test that builds the forms the
//! rules of `src/simplify/nonaffine.rs` look for, with random operands over small random
//! domains, and evaluates before and after at every point (one text test per rule is in
//! `rules.rs`).

use xla_indexing_core::{Division, Expr, IndexingMap, Interval, Var};
use xla_indexing_testkit::rng::{ExprShape, SplitMix64};

#[test]
fn products_and_divisions_read_print_and_read_back() {
    for text in [
        "(d0, d1) -> (d0 * d1), domain: d0 in [0, 6], d1 in [0, 14]",
        "(d0)[s0] -> ((d0 + 1) * s0 + d0 floordiv (s0 * 2), d0 mod (s0 + 1)), domain: d0 in [0, 6], s0 in [1, 4]",
        "(d0, d1) -> (-(d0 * d1) * 3, d0 ceildiv max(d1, 1)), domain: d0 in [0, 6], d1 in [0, 4]",
    ] {
        let map = IndexingMap::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        for syntax in [
            xla_indexing_core::Syntax::Mlir,
            xla_indexing_core::Syntax::Xla,
        ] {
            let printed = map.display(syntax).to_string();
            assert_eq!(IndexingMap::parse(&printed), Ok(map.clone()), "{printed}");
        }
    }
}

/// Signs and common factors of the factors go into the coefficient, and the factors into
/// canonical order: equal products are equal expressions.
#[test]
fn products_have_one_normal_form() {
    let names = ["d0", "d1"];
    let read = |t: &str| xla_indexing_core::parse_expr(t, &names).unwrap();
    assert_eq!(read("d0 * d1"), read("d1 * d0"));
    assert_eq!(read("(2 * d0 + 4) * (-d1)"), read("-2 * ((d0 + 2) * d1)"));
    assert_eq!(read("d0 * d1 - d1 * d0"), Expr::zero());
    assert_eq!(read("(d0 * d1) * 0"), Expr::zero());
    assert!(!read("d0 * d1").is_quasi_affine());
    assert!(!read("(d0 floordiv d1) mod 4").is_quasi_affine());
    assert!(read("d0 * 3 + d1 floordiv 2").is_quasi_affine());
}

#[test]
fn division_by_a_constant_stays_affine() {
    let d0 = Expr::dim(0);
    assert_eq!(
        d0.divide_by(Division::FloorDiv, &Expr::constant(4)),
        d0.floor_div(4)
    );
    assert!(d0.divide_by(Division::Mod, &Expr::zero()).is_err());
}

/// The ranges of products (the four corners) and divisions (a divisor of one sign).
#[test]
fn ranges_of_products_and_divisions() {
    let map = IndexingMap::parse(
        "(d0, d1, d2) -> (d0), domain: d0 in [-3, 5], d1 in [2, 4], d2 in [-2, 3]",
    )
    .unwrap();
    let ev = map.range_evaluator(false);
    let names = ["d0", "d1", "d2"];
    let range = |t: &str| ev.range(&xla_indexing_core::parse_expr(t, &names).unwrap());
    assert_eq!(range("d0 * d1"), Interval::new(-12, 20));
    assert_eq!(range("d0 * d2"), Interval::new(-10, 15));
    assert_eq!(range("d0 floordiv d1"), Interval::new(-2, 2));
    assert_eq!(range("d0 ceildiv d1"), Interval::new(-1, 3));
    assert_eq!(range("d0 floordiv (-d1)"), Interval::new(-3, 1));
    assert_eq!(range("d0 mod d1"), Interval::new(0, 3));
    assert_eq!(range("(d0 + 3) mod d1"), Interval::new(0, 3));
    assert_eq!(range("d1 mod (d1 + 3)"), Interval::new(2, 4));
    assert_eq!(range("d0 mod (-d1)"), Interval::new(-3, 0));
    // A divisor that may be 0: nothing is known.
    assert_eq!(range("d0 floordiv d2"), Interval::FULL);
    assert_eq!(range("d0 mod d2"), Interval::FULL);
}

/// What the random operands are made of (quasi-affine or not).
const SHAPE: ExprShape = ExprShape {
    constants: (-6, 6),
    coefficients: &[1, 1, 2, 3, -1, -2],
    divisors: &[2, 3, 4],
    leaf_odds: 3,
    constant_odds: 5,
    sum_terms: (2, 3),
    weights: [2, 1, 1, 1, 1, 1, 1, 1, 1],
};

/// `(y*q + r) OP y` and `x OP y` for random `x`, `q`, `r` and divisors `y` (often of one sign
/// on the domain, sometimes not), over random small domains: the simplified map equals the
/// input wherever the input is defined, and the rules fire on a good share of the cases.
#[test]
fn rules_preserve_every_defined_value() {
    let mut rng = SplitMix64::new(0x5ab0_11c5);
    let (mut cases, mut fired) = (0, 0);
    for _ in 0..2000 {
        let n = rng.range(1, 3) as u32;
        let dims: Vec<Var> = (0..n)
            .map(|_| {
                let lo = rng.range(-6, 6);
                Var::new(Interval::new(lo, lo + rng.range(0, 6)))
            })
            .collect();
        let y = match rng.range(0, 2) {
            0 => Expr::dim(rng.range(0, i64::from(n) - 1) as u32),
            _ => SHAPE.expr(&mut rng, 1, n, 0),
        };
        let (q, r) = (SHAPE.expr(&mut rng, 2, n, 0), SHAPE.expr(&mut rng, 1, n, 0));
        let Ok(multiple) = y.checked_mul(&q).and_then(|yq| yq.checked_add(&r)) else {
            continue;
        };
        let dividend = if rng.chance(1, 3) { r } else { multiple };
        let which = *rng.pick(&[Division::FloorDiv, Division::CeilDiv, Division::Mod]);
        let Ok(e) = dividend.divide_by(which, &y) else {
            continue;
        };
        let before = IndexingMap::new(vec![e.clone()], dims, Vec::new(), Vec::new());
        let mut after = before.clone();
        after.simplify();
        cases += 1;
        fired += usize::from(after.results()[0].cost() < e.cost());
        for (d, s) in before.domain_points(1 << 16).unwrap() {
            if let Some(v) = before.evaluate(&d, &s) {
                assert_eq!(
                    Some(v),
                    after.evaluate(&d, &s),
                    "{before}\n  -> {after}\n  at {d:?}"
                );
            }
        }
    }
    assert!(
        cases > 1500 && fired * 4 > cases,
        "{fired} of {cases} simplified"
    );
}
