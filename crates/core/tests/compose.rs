//! Composition examples of the indexing-analysis seed, built from the per-op maps it gives.

use xla_indexing_core::IndexingMap;

fn parse(text: &str) -> IndexingMap {
    IndexingMap::parse(text).unwrap_or_else(|e| panic!("{text}\n{e}"))
}

fn composed(maps: &[&str]) -> IndexingMap {
    let mut acc = parse(maps[0]);
    for m in &maps[1..] {
        acc = acc.compose(&parse(m)).unwrap();
        acc.simplify();
        acc.remove_unused_symbols();
    }
    acc
}

#[test]
fn reshape_after_reshape_is_the_identity() {
    // f32[10, 10, 10] -> f32[50, 20] -> f32[10, 10, 10]: output -> reshape1 -> p0.
    let reshape2 = "(d0, d1, d2) -> ((d0 * 100 + d1 * 10 + d2) floordiv 20, (d0 * 100 + d1 * 10 + d2) mod 20), domain: d0 in [0, 9], d1 in [0, 9], d2 in [0, 9]";
    let reshape1 = "(d0, d1) -> ((d0 * 20 + d1) floordiv 100, ((d0 * 20 + d1) floordiv 10) mod 10, (d0 * 20 + d1) mod 10), domain: d0 in [0, 49], d1 in [0, 19]";
    assert_eq!(
        composed(&[reshape2, reshape1]),
        parse("(d0, d1, d2) -> (d0, d1, d2), domain: d0 in [0, 9], d1 in [0, 9], d2 in [0, 9]")
    );
}

#[test]
fn transposes_around_exponentials_collapse_to_one_map() {
    // The seed's lhs path: transpose {0, 2, 1} of exp of transpose {1, 0, 2} of p0 = f32[20, 10, 50].
    let lhs = composed(&[
        "(d0, d1, d2) -> (d0, d2, d1), domain: d0 in [0, 9], d1 in [0, 49], d2 in [0, 19]",
        "(d0, d1, d2) -> (d0, d1, d2), domain: d0 in [0, 9], d1 in [0, 19], d2 in [0, 49]",
        "(d0, d1, d2) -> (d1, d0, d2), domain: d0 in [0, 9], d1 in [0, 19], d2 in [0, 49]",
    ]);
    // The rhs path: transpose {1, 0, 2} of exp of transpose {2, 1, 0} of p0.
    let rhs = composed(&[
        "(d0, d1, d2) -> (d1, d0, d2), domain: d0 in [0, 9], d1 in [0, 49], d2 in [0, 19]",
        "(d0, d1, d2) -> (d0, d1, d2), domain: d0 in [0, 49], d1 in [0, 9], d2 in [0, 19]",
        "(d0, d1, d2) -> (d2, d1, d0), domain: d0 in [0, 49], d1 in [0, 9], d2 in [0, 19]",
    ]);
    let expected =
        parse("(d0, d1, d2) -> (d2, d0, d1), domain: d0 in [0, 9], d1 in [0, 49], d2 in [0, 19]");
    assert_eq!(lhs, expected);
    assert_eq!(rhs, expected);
}

#[test]
fn symbols_are_concatenated_range_then_runtime() {
    let consumer = parse(
        "(d0)[s0]{rt0} -> (d0 + s0 + rt0), domain: d0 in [0, 3], s0 in [0, 1], rt0 in [0, 2]",
    );
    let producer = parse(
        "(d0)[s0]{rt0} -> (d0 * 2 + s0 + rt0 * 100), domain: d0 in [0, 5], s0 in [0, 1], rt0 in [0, 4]",
    );
    let m = consumer.compose(&producer).unwrap();
    assert_eq!(
        m.to_string(),
        "(d0)[s0, s1]{rt0, rt1} -> (d0 * 2 + s0 * 2 + s1 + rt0 * 2 + rt1 * 100), domain: d0 in [0, 3], s0 in [0, 1], s1 in [0, 1], rt0 in [0, 2], rt1 in [0, 4], d0 + s0 + rt0 in [0, 5]"
    );
}

#[test]
fn mismatched_arity_is_an_error() {
    let a = parse("(d0) -> (d0, d0), domain: d0 in [0, 3]");
    let b = parse("(d0) -> (d0), domain: d0 in [0, 3]");
    assert!(
        a.compose(&b)
            .unwrap_err()
            .to_string()
            .contains("2 results but the second has 1 dims")
    );
}
