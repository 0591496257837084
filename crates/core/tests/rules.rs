//! One test per rewrite rule: a text-in, text-out case where the rule applies and one where its
//! condition fails. Rules are documented in `src/simplify/rules.rs`, `constraints.rs` and, for
//! products and divisions by an expression, `nonaffine.rs`.

use xla_indexing_core::IndexingMap;

/// Simplifies `(d0, d1, ...) -> (expr)` over the given dimension bounds and returns the result.
fn simp(bounds: &[(i64, i64)], expr: &str) -> String {
    let dims: Vec<String> = (0..bounds.len()).map(|i| format!("d{i}")).collect();
    let domain: Vec<String> = bounds
        .iter()
        .enumerate()
        .map(|(i, (lo, hi))| format!("d{i} in [{lo}, {hi}]"))
        .collect();
    let text = format!(
        "({}) -> ({expr}), domain: {}",
        dims.join(", "),
        domain.join(", ")
    );
    let mut map = IndexingMap::parse(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let before = map.clone();
    map.simplify();
    // Every rule is also checked for soundness at every point here.
    for (d, s) in before.domain_points(1 << 18).unwrap() {
        assert_eq!(
            before.evaluate(&d, &s),
            map.evaluate(&d, &s),
            "{text} at {d:?}"
        );
    }
    let result = map.to_string();
    let (_, rest) = result.split_once(" -> (").unwrap();
    rest.split_once("), domain").unwrap().0.to_string()
}

#[test]
fn div_in_period() {
    assert_eq!(simp(&[(8, 15)], "d0 floordiv 8"), "1");
    assert_eq!(simp(&[(-8, -1)], "d0 floordiv 8"), "-1");
    assert_eq!(simp(&[(7, 16)], "d0 floordiv 8"), "d0 floordiv 8");
}

#[test]
fn ceildiv_in_period() {
    assert_eq!(simp(&[(9, 16)], "d0 ceildiv 8"), "2");
    assert_eq!(simp(&[(8, 17)], "d0 ceildiv 8"), "d0 ceildiv 8");
}

#[test]
fn mod_in_period() {
    assert_eq!(simp(&[(0, 7)], "d0 mod 8"), "d0");
    assert_eq!(simp(&[(53, 71)], "d0 mod 42"), "d0 - 42");
    assert_eq!(simp(&[(-5, -1)], "d0 mod 5"), "d0 + 5");
    assert_eq!(simp(&[(40, 42)], "d0 mod 42"), "d0 mod 42");
}

#[test]
fn bounded_remainder_in_floordiv() {
    assert_eq!(
        simp(&[(0, 9), (0, 2)], "(d0 * 6 + d1) floordiv 9"),
        "(d0 * 2) floordiv 3"
    );
    assert_eq!(
        simp(&[(0, 9), (0, 3)], "(d0 * 4 + d1) floordiv 8"),
        "d0 floordiv 2"
    );
    assert_eq!(
        simp(&[(0, 9), (0, 4)], "(d0 * 4 + d1) floordiv 8"),
        "(d0 * 4 + d1) floordiv 8"
    );
}

#[test]
fn bounded_remainder_in_mod() {
    assert_eq!(
        simp(&[(0, 9), (0, 3)], "(d0 * 4 + d1) mod 8"),
        "d1 + (d0 mod 2) * 4"
    );
    assert_eq!(
        simp(&[(0, 9), (0, 4)], "(d0 * 4 + d1) mod 8"),
        "(d0 * 4 + d1) mod 8"
    );
}

#[test]
fn div_of_mod() {
    assert_eq!(
        simp(&[(0, 100)], "(d0 mod 16) floordiv 4"),
        "(d0 floordiv 4) mod 4"
    );
    assert_eq!(
        simp(&[(0, 100)], "(d0 mod 6) floordiv 4"),
        "(d0 mod 6) floordiv 4"
    );
}

#[test]
fn div_of_div_sum() {
    assert_eq!(
        simp(
            &[(0, 1233), (0, 127)],
            "(d0 * 2 + d1 floordiv 64) floordiv 3"
        ),
        "(d0 * 128 + d1) floordiv 192"
    );
    // Two floordiv summands: only one may be merged, the result keeps one inner division.
    assert_eq!(
        simp(
            &[(0, 100), (0, 100)],
            "(d0 floordiv 3 + d1 floordiv 3) floordiv 6"
        ),
        "(d0 + (d1 floordiv 3) * 3) floordiv 18"
    );
}

#[test]
fn ceildiv_as_floordiv() {
    assert_eq!(
        simp(&[(0, 9), (0, 3)], "(d0 * 4 + d1) ceildiv 4"),
        "d0 + d1 ceildiv 4"
    );
    assert_eq!(simp(&[(0, 9), (1, 4)], "(d0 * 4 + d1) ceildiv 4"), "d0 + 1");
    assert_eq!(simp(&[(0, 9)], "d0 ceildiv 4"), "d0 ceildiv 4");
}

#[test]
fn recombine() {
    assert_eq!(
        simp(&[(0, 1023)], "(d0 mod 8) * 128 + (d0 floordiv 8) * 1024"),
        "d0 * 128"
    );
    // x ≡ y (mod c) is enough: (d0 + 8) mod 8 pairs with d0 floordiv 8.
    assert_eq!(
        simp(&[(0, 99)], "(d0 * 9) mod 8 + (d0 floordiv 8) * 8"),
        "d0"
    );
    // A floordiv coefficient that is no multiple of c still pairs with the mod through x: one
    // division is left.
    assert_eq!(
        simp(&[(0, 99)], "d0 mod 8 + (d0 floordiv 8) * 4"),
        "d0 - (d0 floordiv 8) * 4"
    );
    // Different divisors: nothing to recombine.
    assert_eq!(
        simp(&[(0, 99)], "d0 mod 8 + (d0 floordiv 4) * 4"),
        "(d0 floordiv 4) * 4 + d0 mod 8"
    );
}

#[test]
fn div_mod_expansion() {
    assert_eq!(simp(&[(0, 99)], "d0 - (d0 floordiv 8) * 8"), "d0 mod 8");
    assert_eq!(
        simp(&[(0, 99), (0, 5)], "d0 + d1 - ((d0 + d1) floordiv 4) * 4"),
        "(d0 + d1) mod 4"
    );
    assert_eq!(
        simp(&[(0, 99)], "d0 + (d0 floordiv 8) * 8"),
        "d0 + (d0 floordiv 8) * 8"
    );
}

#[test]
fn extremum_decided() {
    // By the ranges of the operands, and by the range of their difference.
    assert_eq!(simp(&[(0, 50)], "min(d0, 100)"), "d0");
    assert_eq!(simp(&[(0, 50)], "max(d0, 100)"), "100");
    assert_eq!(simp(&[(0, 9), (0, 4)], "min(d0 + d1, d0)"), "d0");
    assert_eq!(simp(&[(0, 9), (0, 4)], "max(d0 - d1, d0)"), "d0");
    assert_eq!(
        simp(&[(0, 9), (10, 20)], "max(d0, d1) * 2 - 1"),
        "d1 * 2 - 1"
    );
    // Undecided where the operands cross.
    assert_eq!(simp(&[(0, 150)], "min(d0, 100)"), "min(d0, 100)");
    assert_eq!(
        simp(&[(0, 9), (-4, 4)], "min(d0 + d1, d0)"),
        "min(d0, d0 + d1)"
    );
}

#[test]
fn construction_folds_that_need_no_bounds() {
    assert_eq!(
        simp(&[(0, 99), (0, 99)], "(d0 * 16 + d1) floordiv 8"),
        "d0 * 2 + d1 floordiv 8"
    );
    assert_eq!(
        simp(&[(0, 99), (0, 99)], "(d0 * 16 + d1) mod 8"),
        "d1 mod 8"
    );
    assert_eq!(simp(&[(0, 99)], "(d0 * 4) mod 8"), "(d0 mod 2) * 4");
    assert_eq!(
        simp(&[(0, 99)], "(d0 floordiv 2) floordiv 7"),
        "d0 floordiv 14"
    );
    assert_eq!(simp(&[(0, 99)], "(d0 mod 12) mod 4"), "d0 mod 4");
    assert_eq!(simp(&[(0, 99)], "(d0 mod 12) mod 5"), "(d0 mod 12) mod 5");
    // A division by a negative constant divides the negated dividend: MLIR's spelling keeps
    // divisors positive (XLA's writes them negative; see tests/text.rs).
    assert_eq!(simp(&[(0, 99)], "d0 floordiv -3"), "(-d0) floordiv 3");
    assert_eq!(
        simp(&[(0, 99)], "(d0 floordiv 2) floordiv -7"),
        "(-(d0 floordiv 2)) floordiv 7"
    );
    assert_eq!(simp(&[(0, 99)], "d0 mod -3"), "-((-d0) mod 3)");
}

#[track_caller]
fn check_map(input: &str, expected: &str) {
    let mut m = IndexingMap::parse(input).unwrap();
    let before = m.clone();
    m.simplify();
    assert_eq!(m, IndexingMap::parse(expected).unwrap(), "\n  got {m}");
    let points = before.domain_points(1 << 16).unwrap();
    assert_eq!(points.len(), m.domain_points(1 << 16).unwrap().len());
    assert!(points.iter().all(|(d, s)| m.contains(d, s)));
}

#[test]
fn constraint_constant_and_content() {
    check_map(
        "(d0, d1) -> (d0), domain: d0 in [0, 9], d1 in [0, 9], d0 * 2 + d1 * 2 + 3 in [5, 13]",
        "(d0, d1) -> (d0), domain: d0 in [0, 5], d1 in [0, 5], d0 + d1 in [1, 5]",
    );
    check_map(
        "(d0, d1) -> (d0), domain: d0 in [0, 9], d1 in [0, 9], -d0 - d1 in [-5, -1]",
        "(d0, d1) -> (d0), domain: d0 in [0, 5], d1 in [0, 5], d0 + d1 in [1, 5]",
    );
}

#[test]
fn constraint_floordiv_and_mod_residue() {
    check_map(
        "(d0) -> (d0), domain: d0 in [0, 99], d0 floordiv 8 in [5, 11]",
        "(d0) -> (d0), domain: d0 in [40, 95]",
    );
    check_map(
        "(d0, d1) -> (d0), domain: d0 in [0, 9], d1 in [0, 9], (d0 + d1 + 3) mod 4 in [1, 1]",
        "(d0, d1) -> (d0), domain: d0 in [0, 9], d1 in [0, 9], (d0 + d1) mod 4 in [2, 2]",
    );
}

#[test]
fn constraint_irrelevant_remainder() {
    check_map(
        "(d0)[s0, s1] -> (d0, s0, s1), domain: d0 in [0, 1999], s0 in [0, 1], s1 in [0, 2], d0 * 6 + s0 * 3 + s1 in [0, 599]",
        "(d0)[s0, s1] -> (d0, s0, s1), domain: d0 in [0, 99], s0 in [0, 1], s1 in [0, 2]",
    );
    // With 598 the remainder matters (d0 = 99 allows only s0 * 3 + s1 <= 4): not rewritten.
    let mut m = IndexingMap::parse("(d0)[s0, s1] -> (d0, s0, s1), domain: d0 in [0, 1999], s0 in [0, 1], s1 in [0, 2], d0 * 6 + s0 * 3 + s1 in [0, 598]").unwrap();
    m.simplify();
    assert_eq!(m.constraints().len(), 1, "{m}");
}

#[test]
fn merge_mod() {
    check_map(
        "()[s0] -> (s0), domain: s0 in [-21, -2], s0 mod 2 in [0, 0], s0 mod 3 in [0, 0]",
        "()[s0] -> (s0), domain: s0 in [-18, -6], s0 mod 6 in [0, 0]",
    );
    check_map(
        "()[s0] -> (s0), domain: s0 in [0, 100], s0 mod 4 in [1, 1], s0 mod 6 in [3, 3]",
        "()[s0] -> (s0), domain: s0 in [9, 93], s0 mod 12 in [9, 9]",
    );
    check_map(
        "()[s0] -> (s0), domain: s0 in [0, 100], s0 mod 4 in [1, 1], s0 mod 6 in [2, 2]",
        "KNOWN EMPTY",
    );
}

#[test]
fn enumeration_decides_emptiness_and_tightens_bounds() {
    check_map(
        "(d0, d1) -> (d0), domain: d0 in [0, 9], d1 in [0, 9], d0 + d1 in [0, 3], d0 - d1 in [7, 9]",
        "KNOWN EMPTY",
    );
    check_map(
        "(d0, d1) -> (d0), domain: d0 in [0, 9], d1 in [0, 9], d0 + d1 in [0, 3], d0 - d1 in [2, 9]",
        "(d0, d1) -> (d0), domain: d0 in [2, 3], d1 in [0, 0]",
    );
}

#[test]
fn merge_exact_divisions() {
    check_map(
        "(d0, d1) -> (((d0 - 3) floordiv 3) * 2 + d1 floordiv 3), domain: d0 in [3, 30], d1 in [0, 30], (d0 - 3) mod 3 in [0, 0], d1 mod 3 in [0, 0]",
        "(d0, d1) -> ((d0 * 2 + d1) floordiv 3 - 2), domain: d0 in [3, 30], d1 in [0, 30], d0 mod 3 in [0, 0], d1 mod 3 in [0, 0]",
    );
    // Without the constraints the divisions are not exact and must stay apart.
    assert_eq!(
        simp(
            &[(3, 30), (0, 30)],
            "((d0 - 3) floordiv 3) * 2 + d1 floordiv 3"
        ),
        "(d0 floordiv 3) * 2 + d1 floordiv 3 - 2"
    );
}

#[test]
fn affine_fit() {
    assert_eq!(simp(&[(0, 2)], "((d0 * 8) ceildiv 3) * 2"), "d0 * 6");
    assert_eq!(
        simp(&[(0, 2)], "d0 - (d0 * 8 + 4) mod 9 - 6"),
        "d0 * 2 - 10"
    );
    assert_eq!(simp(&[(3, 5)], "(d0 * 16 + 18) mod 5"), "d0 - 2");
    // Not affine over its box: stays.
    assert_eq!(simp(&[(0, 5)], "(d0 * 8) ceildiv 3"), "(d0 * 8) ceildiv 3");
}

#[test]
fn constants_and_residues_inside_div_and_mod() {
    assert_eq!(simp(&[(0, 4)], "(d0 + 2) mod 2"), "d0 mod 2");
    assert_eq!(
        simp(&[(0, 19), (0, 2)], "(d0 + d1 * 20) mod 3"),
        "(d0 - d1) mod 3"
    );
    assert_eq!(
        simp(&[(0, 99), (0, 9)], "(d0 + 7) ceildiv 2 + d1 + 8"),
        "d1 + d0 floordiv 2 + 12"
    );
    assert_eq!(simp(&[(0, 99)], "(d0 - 3) mod 3"), "d0 mod 3");
    // A constant that is no multiple of the divisor stays inside.
    assert_eq!(
        simp(&[(0, 99)], "(d0 - 1) floordiv 2"),
        "(d0 - 1) floordiv 2"
    );
}

#[test]
fn mod_of_div_in_div() {
    assert_eq!(
        simp(&[(0, 4000)], "((d0 floordiv 14) mod 46 - 3) floordiv 4"),
        "(d0 mod 644 - 42) floordiv 56"
    );
}

#[test]
fn nested_and_inner_ceildiv() {
    assert_eq!(
        simp(&[(0, 999)], "(d0 ceildiv 6) ceildiv 6"),
        "d0 ceildiv 36"
    );
    assert_eq!(
        simp(&[(0, 999)], "(d0 ceildiv 12) floordiv 8"),
        "(d0 + 11) floordiv 96"
    );
    // A ceildiv beside another summand still merges.
    assert_eq!(
        simp(&[(0, 999), (0, 5)], "(d0 ceildiv 4 + d1 * 3) floordiv 2"),
        "(d0 + d1 * 12 + 3) floordiv 8"
    );
}

#[test]
fn atom_fit_over_summands() {
    // The argument's summand `(d0 + d1) mod 2` only takes 0 and 1: the division is that summand.
    assert_eq!(
        simp(
            &[(0, 99), (0, 99)],
            "(((d0 + d1) mod 2) * 3 + 6) floordiv 8"
        ),
        "(d0 + d1) mod 2"
    );
    assert_eq!(
        simp(
            &[(0, 99), (0, 99)],
            "(((d0 + d1) mod 3) * 5 + 1) floordiv 8"
        ),
        "(((d0 + d1) mod 3) * 5 + 1) floordiv 8"
    );
}

#[test]
fn div_forms_in_context() {
    assert_eq!(
        simp(&[(3, 14)], "-d0 + ((d0 * 7) floordiv 12) * 2"),
        "d0 + ((-d0 * 5) floordiv 12) * 2"
    );
    // Alone, the smaller residue costs an extra summand: kept as written.
    assert_eq!(
        simp(&[(3, 14)], "(d0 * 7) floordiv 12"),
        "(d0 * 7) floordiv 12"
    );
}

#[test]
fn constraint_hull() {
    // Only d2 = -4, d6 = -3, d7 = 1 satisfy the constraint; the whole box (65536 points) is too
    // large to enumerate, the constraint's own three variables are not.
    check_map(
        "(d0, d1, d2, d3, d4, d5, d6, d7) -> (d6 + d7), domain: d0 in [3, 4], d1 in [0, 3], d2 in [-4, -4], d3 in [4, 11], d4 in [0, 3], d5 in [0, 15], d6 in [-3, 4], d7 in [0, 1], -d2 * 2 - d6 + d7 * 17 + 6 in [34, 34]",
        "(d0, d1, d2, d3, d4, d5, d6, d7) -> (-2), domain: d0 in [3, 4], d1 in [0, 3], d2 in [-4, -4], d3 in [4, 11], d4 in [0, 3], d5 in [0, 15], d6 in [-3, -3], d7 in [1, 1]",
    );
}

#[test]
fn multiples_of_divisor() {
    assert_eq!(simp(&[(0, 6), (1, 14)], "(d0 * d1) floordiv d1"), "d0");
    assert_eq!(simp(&[(0, 6), (1, 14)], "(d0 * d1) mod d1"), "0");
    assert_eq!(simp(&[(0, 6), (1, 14)], "(d0 * d1) ceildiv d1"), "d0");
    assert_eq!(simp(&[(0, 6), (-4, -1)], "(d0 * d1) floordiv d1"), "d0");
    assert_eq!(
        simp(&[(0, 6), (1, 14)], "(d0 * d1 + d0) floordiv d1"),
        "d0 + d0 floordiv d1"
    );
    assert_eq!(
        simp(
            &[(0, 6), (1, 4)],
            "(d0 * (d1 + 1) * 4 + 3) mod ((d1 + 1) * 2)"
        ),
        "3"
    );
    assert_eq!(simp(&[(0, 6), (1, 4)], "(d1 * 6) floordiv (d1 * 3)"), "2");
    // Where the divisor may be 0 the division is undefined there: it stays.
    assert_eq!(
        simp(&[(0, 6), (0, 14)], "(d0 * d1) floordiv d1"),
        "(d0 * d1) floordiv d1"
    );
}

#[test]
fn below_divisor() {
    assert_eq!(simp(&[(0, 6), (7, 14)], "d0 floordiv d1"), "0");
    assert_eq!(simp(&[(0, 6), (7, 14)], "d0 mod d1"), "d0");
    assert_eq!(simp(&[(0, 6), (0, 4)], "d0 mod (d0 + d1 + 1)"), "d0");
    assert_eq!(simp(&[(0, 6), (0, 4)], "d0 floordiv (d0 + d1 + 1)"), "0");
    assert_eq!(simp(&[(1, 6), (0, 4)], "d0 ceildiv (d0 + d1)"), "1");
    assert_eq!(simp(&[(0, 6), (5, 14)], "d0 mod d1"), "d0 mod d1");
}

#[test]
fn products_of_points() {
    assert_eq!(simp(&[(0, 6), (3, 3)], "d0 * d1"), "d0 * 3");
    assert_eq!(
        simp(&[(0, 6), (1, 2)], "d0 * (d1 floordiv 4)"),
        "0",
        "d1 floordiv 4 is 0 on [1, 2]"
    );
}
