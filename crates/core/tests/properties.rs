//! Property tests over random maps: every point of small random domains is evaluated before and
//! after each transformation. The random expressions hold products of two expressions and
//! divisions by an expression (XLA's non-affine `SymbolicExpr`s) as well as quasi-affine ones.

use xla_indexing_core::{Atom, Expr, IndexingMap, Interval, Syntax, Var, VarRef};
use xla_indexing_testkit::invariants::maps;
use xla_indexing_testkit::rng::{ExprShape, SplitMix64};

/// Cases per property; `XLA_INDEXING_PROPTEST_CASES` raises it for long runs.
fn cases() -> u64 {
    std::env::var("XLA_INDEXING_PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000)
}

/// What the random expressions are made of.
const SHAPE: ExprShape = ExprShape {
    constants: (-20, 20),
    coefficients: &[1, 1, 1, 2, 3, 4, 8, 16, -1, -3],
    divisors: &[2, 3, 4, 5, 6, 8, 16, 12, -2, -3],
    leaf_odds: 4,
    constant_odds: 6,
    sum_terms: (2, 4),
    weights: [2, 1, 1, 1, 1, 1, 1, 1, 1],
};

fn random_expr(rng: &mut SplitMix64, depth: u32, num_dims: u32, num_syms: u32) -> Expr {
    SHAPE.expr(rng, depth, num_dims, num_syms)
}

/// A random map with its dimension count and its symbol count (range and runtime variables),
/// for random expressions over it.
fn random_map_and_vars(rng: &mut SplitMix64) -> (IndexingMap, u32, u32) {
    let map = random_map(rng);
    let (nd, ns) = (
        map.dims().len() as u32,
        (map.range_vars().len() + map.rt_vars().len()) as u32,
    );
    (map, nd, ns)
}

fn random_vars(rng: &mut SplitMix64, n: u32, width: i64) -> Vec<Var> {
    (0..n)
        .map(|_| {
            let lo = rng.range(-width, width);
            Var::new(Interval::new(lo, lo + rng.range(0, width)))
        })
        .collect()
}

/// A random map with up to 8 variables whose box has at most a few thousand points.
fn random_map(rng: &mut SplitMix64) -> IndexingMap {
    let nvars = rng.range(1, 8) as u32;
    let width = match nvars {
        1..=2 => 40,
        3..=4 => 7,
        5..=6 => 3,
        _ => 2,
    };
    let nd = rng.range(0, nvars as i64) as u32;
    let ns = nvars - nd;
    let nr = rng.range(0, ns as i64) as u32;
    let depth = rng.range(1, 4) as u32;
    let results = (0..rng.range(1, 3))
        .map(|_| random_expr(rng, depth, nd, ns))
        .collect();
    let mut map = IndexingMap::new(
        results,
        random_vars(rng, nd, width),
        random_vars(rng, nr, width),
        random_vars(rng, ns - nr, width),
    );
    for _ in 0..rng.range(0, 2) {
        let e = random_expr(rng, 2, nd, ns);
        let lo = rng.range(-30, 30);
        if rng.chance(1, 3) {
            let k = *rng.pick(&[2, 3, 4]);
            if let Ok(m) = random_expr(rng, 1, nd, ns).modulo(k) {
                let r = rng.range(0, k - 1);
                map.add_constraint(m, Interval::point(r));
            }
        } else {
            map.add_constraint(e, Interval::new(lo, lo + rng.range(0, 40)));
        }
    }
    map
}

/// Checks that `after` has the domain points of `before` and the same values there, wherever
/// `before` is defined: a division by an expression is undefined where its divisor is 0, and
/// there (and at a point where a constraint of `before` is undefined, which `before` does not
/// hold) `after` may be anything.
#[track_caller]
fn assert_same_function(before: &IndexingMap, after: &IndexingMap) {
    let points = before.domain_points(1 << 20).expect("small domain");
    if after.is_known_empty() {
        assert!(
            points.is_empty(),
            "{before}\n  was called KNOWN EMPTY but holds {:?}",
            points[0]
        );
        return;
    }
    for (d, s) in &points {
        assert!(
            after.contains(d, s),
            "{before}\n  -> {after}\n  lost the point {d:?} {s:?}"
        );
        let Some(values) = before.evaluate(d, s) else {
            continue;
        };
        assert_eq!(
            Some(values),
            after.evaluate(d, s),
            "{before}\n  -> {after}\n  at {d:?} {s:?}"
        );
    }
    let after_points = after
        .domain_points(1 << 20)
        .expect("simplification never widens bounds");
    let undefined_constraint = |d: &[i64], s: &[i64]| {
        before
            .constraints()
            .iter()
            .any(|(e, _)| e.eval(d, s).is_none())
    };
    let gained = after_points
        .iter()
        .filter(|(d, s)| !undefined_constraint(d, s))
        .count();
    assert_eq!(
        points.len(),
        gained,
        "{before}\n  -> {after}\n  gained points"
    );
}

#[test]
fn simplification_preserves_every_value() {
    let mut rng = SplitMix64::new(0x5eed);
    for _ in 0..cases() {
        let before = random_map(&mut rng);
        let mut after = before.clone();
        after.simplify();
        assert_same_function(&before, &after);
    }
}

#[test]
fn simplification_is_idempotent_and_never_costlier() {
    let mut rng = SplitMix64::new(7);
    for _ in 0..cases() {
        let before = random_map(&mut rng);
        let mut once = before.clone();
        once.simplify();
        let mut twice = once.clone();
        twice.simplify();
        assert_eq!(
            once, twice,
            "\n before: {before}\n   once: {once}\n  twice: {twice}"
        );
        if !once.is_known_empty() {
            for (b, a) in before.results().iter().zip(once.results()) {
                assert!(
                    a.cost() <= b.cost(),
                    "{b:?} (cost {:?}) became {a:?} (cost {:?})",
                    b.cost(),
                    a.cost()
                );
            }
        }
    }
}

/// In both syntaxes: the text of a map parses back to the same map, which prints the same text.
#[test]
fn print_then_parse_is_identity() {
    let mut rng = SplitMix64::new(11);
    for _ in 0..cases() {
        let mut map = random_map(&mut rng);
        if rng.chance(1, 2) {
            map.simplify();
        }
        if rng.chance(1, 3) && !map.dims().is_empty() {
            map.set_name(xla_indexing_core::VarRef::Dim(0), Some("th_x".into()));
        }
        for syntax in [Syntax::Mlir, Syntax::Xla] {
            let text = map.display(syntax).to_string();
            let parsed = IndexingMap::parse(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(parsed, map, "{text}");
            assert_eq!(parsed.display(syntax).to_string(), text);
        }
        // MLIR's spelling never divides by a negative constant (`lower-affine` rejects it), and
        // `respell` turns it into XLA text of the same map.
        let mlir = map.to_string();
        assert!(!mlir.contains(" floordiv -"), "{mlir}");
        assert_eq!(
            IndexingMap::parse(&Syntax::Xla.respell(&mlir)),
            Ok(map.clone())
        );
    }
}

/// **extremum-decided** on operands that often order each other (`b` is `a` plus a random
/// expression that is mostly of one sign): the result has the value of the input at every point,
/// and the rule fires on a good share of the cases, so that the test can fail.
#[test]
fn extremum_rule_preserves_every_value() {
    let mut rng = SplitMix64::new(0x6d69_6e6d);
    let mut decided = 0;
    let total = cases();
    for _ in 0..total {
        let (base, nd, ns) = random_map_and_vars(&mut rng);
        let a = random_expr(&mut rng, 2, nd, ns);
        let shift = random_expr(&mut rng, 1, nd, ns);
        let b = a.checked_add(&shift).unwrap_or_else(|_| shift.clone());
        let which = if rng.chance(1, 2) {
            Expr::min_of(&a, &b)
        } else {
            Expr::max_of(&a, &b)
        };
        let before = base.with_results(vec![which]);
        let mut after = before.clone();
        after.simplify();
        assert_same_function(&before, &after);
        let kept = |m: &IndexingMap| {
            m.results().iter().any(|r| {
                r.terms()
                    .iter()
                    .any(|(t, _)| matches!(t, Atom::Min(..) | Atom::Max(..)))
            })
        };
        if kept(&before) && !after.is_known_empty() && !kept(&after) {
            decided += 1;
        }
    }
    assert!(decided * 10 > total, "decided only {decided} of {total}");
}

/// What `Expr::min_of` and `Expr::max_of` decide when built (operands a constant apart, two
/// constants): the built expression has, at every point of the domain, the extremum of the
/// operands' values. Half the pairs are a constant apart, so the rule is exercised.
#[test]
fn built_extremum_has_the_extremum_of_the_values() {
    let mut rng = SplitMix64::new(0x6275_696c);
    let mut folded = 0;
    let total = cases();
    for _ in 0..total {
        let (map, nd, ns) = random_map_and_vars(&mut rng);
        let a = random_expr(&mut rng, 2, nd, ns);
        let b = if rng.chance(1, 2) {
            a.checked_add_const(rng.range(-3, 3))
                .unwrap_or_else(|_| a.clone())
        } else {
            random_expr(&mut rng, 2, nd, ns)
        };
        let (min, max) = (Expr::min_of(&a, &b), Expr::max_of(&a, &b));
        folded += usize::from(
            !matches!(min.as_atom(), Some(Atom::Min(..)))
                && !matches!(max.as_atom(), Some(Atom::Max(..))),
        );
        for (d, s) in map.domain_points(1 << 20).expect("small domain") {
            let (Some(x), Some(y)) = (a.eval(&d, &s), b.eval(&d, &s)) else {
                continue;
            };
            assert_eq!(
                min.eval(&d, &s),
                Some(x.min(y)),
                "min({a:?}, {b:?}) at {d:?} {s:?}"
            );
            assert_eq!(
                max.eval(&d, &s),
                Some(x.max(y)),
                "max({a:?}, {b:?}) at {d:?} {s:?}"
            );
        }
    }
    assert!(
        folded * 4 > total as usize,
        "folded only {folded} of {total}"
    );
}

#[test]
fn composition_evaluates_as_the_composition() {
    let mut rng = SplitMix64::new(23);
    let mut checked = 0;
    while checked < 1000 {
        let first = random_map(&mut rng);
        let k = first.results().len();
        if k > 3 {
            continue;
        }
        let ns = rng.range(0, 2) as u32;
        let results = (0..rng.range(1, 2))
            .map(|_| random_expr(&mut rng, 2, k as u32, ns))
            .collect();
        let second = IndexingMap::new(
            results,
            random_vars(&mut rng, k as u32, 6),
            random_vars(&mut rng, ns, 3),
            Vec::new(),
        );
        let Ok(composed) = first.compose(&second) else {
            continue;
        };
        let Some(points) = composed.domain_points(1 << 18) else {
            continue;
        };
        checked += 1;
        let (r1, r2, t1) = (
            first.range_vars().len(),
            second.range_vars().len(),
            first.rt_vars().len(),
        );
        // Every point of the composed domain is a point of `first` whose image lies in `second`'s
        // domain, and the value is `second(first(x))`.
        for (d, s) in &points {
            let s1: Vec<i64> = s[..r1]
                .iter()
                .chain(&s[r1 + r2..r1 + r2 + t1])
                .copied()
                .collect();
            let s2: Vec<i64> = s[r1..r1 + r2]
                .iter()
                .chain(&s[r1 + r2 + t1..])
                .copied()
                .collect();
            assert!(first.contains(d, &s1));
            let mid = first.evaluate(d, &s1).unwrap();
            assert!(
                second.contains(&mid, &s2),
                "{first}\n  o {second}\n  = {composed}\n at {d:?} {s:?}"
            );
            assert_eq!(composed.evaluate(d, s), second.evaluate(&mid, &s2));
        }
        let mut simplified = composed.clone();
        simplified.simplify();
        assert_same_function(&composed, &simplified);
    }
}

#[test]
fn interval_arithmetic_contains_every_result() {
    let mut rng = SplitMix64::new(3);
    for _ in 0..cases() {
        let a = {
            let lo = rng.range(-50, 50);
            Interval::new(lo, lo + rng.range(0, 30))
        };
        let b = {
            let lo = rng.range(-50, 50);
            Interval::new(lo, lo + rng.range(0, 30))
        };
        let k = *rng.pick(&[-7, -3, -1, 1, 2, 5, 8]);
        for x in a.lo..=a.hi {
            assert!(a.scale(k).contains(x * k));
            assert!(
                a.floor_div(k)
                    .contains(xla_indexing_core::interval::floor_div(x, k))
            );
            assert!(
                a.ceil_div(k)
                    .contains(xla_indexing_core::interval::ceil_div(x, k))
            );
            assert!(
                a.modulo(k)
                    .contains(xla_indexing_core::interval::mod_floor(x, k))
            );
            for y in [b.lo, b.hi, (b.lo + b.hi) / 2] {
                assert!((a + b).contains(x + y));
                assert!((a - b).contains(x - y));
                assert!((a * b).contains(x * y));
                assert!(a.pointwise_min(b).contains(x.min(y)));
                assert!(a.pointwise_max(b).contains(x.max(y)));
            }
        }
    }
}

#[test]
fn interval_arithmetic_saturates_at_the_limits() {
    let big = Interval::new(i64::MAX - 1, i64::MAX);
    assert_eq!((big + big).hi, i64::MAX);
    assert_eq!((-Interval::point(i64::MIN)).lo, i64::MAX);
    assert_eq!(Interval::new(i64::MIN, 0).scale(2).lo, i64::MIN);
    assert_eq!(
        (big * Interval::new(-2, 2)),
        Interval::new(i64::MIN, i64::MAX)
    );
    assert_eq!(
        Interval::point(i64::MIN).floor_div(-1),
        Interval::point(i64::MAX)
    );
    assert_eq!(Interval::new(0, 5).lt(Interval::new(6, 9)), Some(true));
    assert_eq!(Interval::new(0, 5).lt(Interval::new(5, 9)), None);
    assert_eq!(Interval::new(6, 9).le(Interval::new(0, 5)), Some(false));
    assert_eq!(
        Interval::new(3, 3).eq_values(Interval::new(3, 3)),
        Some(true)
    );
    assert_eq!(
        Interval::new(0, 2).eq_values(Interval::new(3, 4)),
        Some(false)
    );
}

/// A constant, coefficient, divisor or bound: small, near either end of i64, a large power of
/// two, or anything.
fn huge_value(rng: &mut SplitMix64) -> i64 {
    match rng.range(0, 5) {
        0 => rng.range(-20, 20),
        1 => i64::MAX - rng.range(0, 3),
        2 => i64::MIN + rng.range(0, 3),
        3 => {
            let power = 1i64 << rng.range(31, 62);
            let sign = if rng.chance(1, 2) { 1 } else { -1 };
            power * sign + rng.range(-3, 3)
        }
        _ => rng.range(i64::MIN, i64::MAX),
    }
}

/// A coefficient or divisor: usually small (the maps of real programs), sometimes huge.
fn factor(rng: &mut SplitMix64) -> i64 {
    if rng.chance(2, 3) {
        *rng.pick(&[-7, -3, -2, -1, 1, 1, 1, 2, 3, 4, 6, 7, 8, 16])
    } else {
        huge_value(rng)
    }
}

/// A random expression with values near the limits of i64; operations that would overflow are
/// left out.
fn random_huge_expr(rng: &mut SplitMix64, depth: u32, num_vars: u32) -> Expr {
    let leaf = |rng: &mut SplitMix64| {
        if num_vars == 0 || rng.chance(1, 4) {
            return Expr::constant(huge_value(rng));
        }
        let v = Expr::dim(rng.range(0, num_vars as i64 - 1) as u32);
        let k = factor(rng);
        v.checked_scale(k).unwrap_or(v)
    };
    if depth == 0 || rng.chance(1, 5) {
        return leaf(rng);
    }
    let x = random_huge_expr(rng, depth - 1, num_vars);
    let k = factor(rng);
    let built = match rng.range(0, 7) {
        0 | 1 => x.checked_add(&random_huge_expr(rng, depth - 1, num_vars)),
        2 => x.floor_div(k),
        3 => x.modulo(k),
        4 => x.ceil_div(k),
        5 => Ok(Expr::min_of(
            &x,
            &random_huge_expr(rng, depth - 1, num_vars),
        )),
        6 => Ok(Expr::max_of(
            &x,
            &random_huge_expr(rng, depth - 1, num_vars),
        )),
        _ => x.checked_scale(k),
    };
    built.unwrap_or(x)
}

/// A random map over variables whose bounds and values reach the limits of i64, with a
/// constraint now and then.
fn random_huge_map(rng: &mut SplitMix64) -> IndexingMap {
    let nd = rng.range(1, 3) as u32;
    let dims = (0..nd)
        .map(|_| {
            let (a, b) = (huge_value(rng), huge_value(rng));
            let (lo, hi) = if rng.chance(1, 3) {
                (a, a.saturating_add(rng.range(0, 9)))
            } else {
                (a.min(b), a.max(b))
            };
            Var::new(Interval::new(lo, hi))
        })
        .collect();
    let results = (0..rng.range(1, 2))
        .map(|_| random_huge_expr(rng, 3, nd))
        .collect();
    let mut map = IndexingMap::new(results, dims, Vec::new(), Vec::new());
    if rng.chance(1, 3) {
        let (a, b) = (huge_value(rng), huge_value(rng));
        map.add_constraint(
            random_huge_expr(rng, 2, nd),
            Interval::new(a.min(b), a.max(b)),
        );
    }
    map
}

/// Near the limits of i64 nothing panics or wraps: rewrites that could overflow are skipped, and
/// wherever the original evaluates without overflow the simplified map gives the same value (the
/// invariants of the fuzz targets, at sampled points near the ends of the bounds, of i64 and of
/// the magnitudes where products overflow). The text of both maps reads back.
#[test]
fn huge_values_never_panic_or_wrap() {
    let mut rng = SplitMix64::new(99);
    for _ in 0..cases() {
        let map = random_huge_map(&mut rng);
        let text = map.to_string();
        maps::map_text_round_trips(text.as_bytes());
        maps::simplification_is_sound(text.as_bytes());
        let mut simplified = map.clone();
        simplified.simplify();
        maps::map_text_round_trips(simplified.to_string().as_bytes());
    }
}

/// Forms that the rules equate print the same after simplification: a variable `v` rewritten as
/// `(v floordiv c) * c + v mod c`, and multiples of the divisor added inside a `mod`.
#[test]
fn equated_forms_simplify_to_the_same_text() {
    let mut rng = SplitMix64::new(41);
    for _ in 0..cases() / 3 {
        let map = random_map(&mut rng);
        let nd = map.dims().len() as u32;
        if nd == 0 {
            continue;
        }
        let v = rng.range(0, nd as i64 - 1) as u32;
        let c = *rng.pick(&[2, 3, 4, 8]);
        let split = Expr::dim(v)
            .floor_div(c)
            .unwrap()
            .checked_scale(c)
            .unwrap()
            .checked_add(&Expr::dim(v).modulo(c).unwrap())
            .unwrap();
        let rewrite = |e: &Expr| {
            e.rewrite_vars(&mut |w| (w == xla_indexing_core::VarRef::Dim(v)).then(|| split.clone()))
                .unwrap()
        };
        let variant = map.with_results(map.results().iter().map(rewrite).collect());
        let (mut a, mut b) = (map.clone(), variant);
        a.simplify();
        b.simplify();
        assert_eq!(a.to_string(), b.to_string(), "\n  map: {map}\n");
    }
}

/// `Expr::modulo` drops a term whose values are multiples of the modulus, by its coefficient or
/// by what divides both operands of its `min` or `max` (`min(6a, 4b) mod 2 = 0`): the result
/// has the remainder of the expression's value at every point.
#[test]
fn modulo_drops_extrema_of_multiples() {
    let mut rng = SplitMix64::new(0x6d6f_6478);
    let mut dropped = 0;
    let total = cases();
    for _ in 0..total {
        let (map, nd, ns) = random_map_and_vars(&mut rng);
        let k = rng.range(2, 6);
        let scaled = |rng: &mut SplitMix64| {
            let e = random_expr(rng, 1, nd, ns);
            e.checked_scale(k * rng.range(1, 3)).unwrap_or(e)
        };
        let (a, b) = (scaled(&mut rng), scaled(&mut rng));
        let extremum = if rng.chance(1, 2) {
            Expr::min_of(&a, &b)
        } else {
            Expr::max_of(&a, &b)
        };
        let Ok(e) = extremum.checked_add(&random_expr(&mut rng, 1, nd, ns)) else {
            continue;
        };
        let Ok(m) = e.modulo(k) else { continue };
        dropped +=
            usize::from(!format!("{m:?}").contains("min") && !format!("{m:?}").contains("max"));
        for (d, s) in map.domain_points(1 << 20).expect("small domain") {
            let Some(v) = e.eval(&d, &s) else { continue };
            assert_eq!(
                m.eval(&d, &s),
                Some(v.rem_euclid(k)),
                "({e:?}) mod {k} = {m:?} at {d:?} {s:?}"
            );
        }
    }
    assert!(
        dropped * 4 > total as usize,
        "dropped only {dropped} of {total}"
    );
}

/// `checked_add_scaled`, `checked_sub` and `without_term` build what adding the scaled or
/// negated terms builds (the same normal form), and evaluate to the sums and differences at every
/// point of small random domains.
#[test]
fn differences_evaluate_as_differences() {
    let mut rng = SplitMix64::new(0xd1ff);
    for _ in 0..cases() {
        let (map, nd, ns) = random_map_and_vars(&mut rng);
        let a = random_expr(&mut rng, 2, nd, ns);
        let b = random_expr(&mut rng, 2, nd, ns);
        let diff = a.checked_sub(&b).unwrap();
        assert_eq!(diff, a.checked_add(&b.checked_scale(-1).unwrap()).unwrap());
        let k = rng.range(-4, 4);
        let scaled_sum = a.checked_add_scaled(&b, k).unwrap();
        assert_eq!(
            scaled_sum,
            a.checked_add(&b.checked_scale(k).unwrap()).unwrap()
        );
        let removed: Vec<(Expr, Expr, i64)> = a
            .terms()
            .iter()
            .map(|(atom, c)| {
                let term = Expr::atom(atom.clone());
                let without = a.without_term(atom);
                assert_eq!(
                    without,
                    a.checked_sub(&term.checked_scale(*c).unwrap()).unwrap()
                );
                (without, term, *c)
            })
            .collect();
        for (d, s) in map.domain_points(1 << 20).expect("small domain") {
            let (Some(x), Some(y)) = (a.eval(&d, &s), b.eval(&d, &s)) else {
                continue;
            };
            assert_eq!(
                diff.eval(&d, &s),
                Some(x - y),
                "{a:?} - ({b:?}) at {d:?} {s:?}"
            );
            assert_eq!(
                scaled_sum.eval(&d, &s),
                Some(x + k * y),
                "{a:?} + {k} * ({b:?}) at {d:?} {s:?}"
            );
            for (without, term, c) in &removed {
                let t = term.eval(&d, &s).unwrap();
                assert_eq!(
                    without.eval(&d, &s),
                    Some(x - c * t),
                    "{a:?} without {term:?}"
                );
            }
        }
    }
}

/// The range of an expression holds its value at every point of the domain, with and without
/// the constraints; near the limits of i64 too (at the corners of the bounds and next to them),
/// where the divisions of ranges leave 64 bits for 128.
#[test]
fn ranges_contain_every_value() {
    let mut rng = SplitMix64::new(0x7a9e);
    for _ in 0..cases() {
        let (map, nd, ns) = random_map_and_vars(&mut rng);
        let e = random_expr(&mut rng, 3, nd, ns);
        let ranges = [false, true].map(|c| map.range_evaluator(c).range(&e));
        for (d, s) in map.domain_points(1 << 20).expect("small domain") {
            let Some(v) = e.eval(&d, &s) else { continue };
            for r in ranges {
                assert!(
                    r.contains(v),
                    "{e:?} = {v} at {d:?} {s:?}, outside {r:?} in {map}"
                );
            }
        }
        let huge = random_huge_map(&mut rng);
        if huge.is_known_empty() {
            continue;
        }
        let ranges = [false, true].map(|c| {
            let ev = huge.range_evaluator(c);
            huge.results()
                .iter()
                .map(|e| ev.range(e))
                .collect::<Vec<_>>()
        });
        let near_ends = |v: &Var| {
            let b = v.bounds;
            [
                b.lo,
                b.lo.saturating_add(1),
                b.lo / 2 + b.hi / 2,
                b.hi.saturating_sub(1),
                b.hi,
            ]
            .map(|x| x.clamp(b.lo, b.hi))
        };
        let corners: Vec<[i64; 5]> = huge.dims().iter().map(near_ends).collect();
        let mut point = vec![0; corners.len()];
        for n in 0..5usize.pow(corners.len() as u32) {
            let mut rest = n;
            for (p, c) in point.iter_mut().zip(&corners) {
                *p = c[rest % 5];
                rest /= 5;
            }
            if !huge.contains(&point, &[]) {
                continue;
            }
            let results = huge.results().iter();
            for (e, r) in results
                .clone()
                .zip(&ranges[0])
                .chain(results.zip(&ranges[1]))
            {
                let Some(v) = e.eval(&point, &[]) else {
                    continue;
                };
                assert!(
                    r.contains(v),
                    "{e:?} = {v} at {point:?}, outside {r:?} in {huge}"
                );
            }
        }
    }
}

/// linear-bounds keeps the domain: linear constraints over boxes too large for the hull
/// enumeration (so the bounds come from the rule), checked at every point.
#[test]
fn linear_constraints_keep_the_domain() {
    let mut rng = SplitMix64::new(0x11ea);
    for _ in 0..cases() / 10 {
        let n = rng.range(2, 3) as u32;
        let width = if n == 2 { 140 } else { 40 };
        let dims = random_vars(&mut rng, n, width);
        let sum = Expr::linear((0..n).map(|i| (Atom::Var(VarRef::Dim(i)), 1)).collect(), 0)
            .expect("small");
        let mut before = IndexingMap::new(vec![sum], dims, Vec::new(), Vec::new());
        for _ in 0..rng.range(1, 2) {
            let mut terms = Vec::new();
            for i in 0..n {
                if rng.chance(3, 4) {
                    let a = *rng.pick(&[1, 2, 3, -1, -2, -3]);
                    terms.push((Atom::Var(VarRef::Dim(i)), a));
                }
            }
            let Ok(e) = Expr::linear(terms, rng.range(-10, 10)) else {
                continue;
            };
            let lo = rng.range(-60, 60);
            before.add_constraint(e, Interval::new(lo, lo + rng.range(0, 40)));
        }
        let mut after = before.clone();
        after.simplify();
        assert_same_function(&before, &after);
    }
}
