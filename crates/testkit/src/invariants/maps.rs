//! What indexing maps (`xla-indexing-core`) keep on any text: the `map_parser` and `simplifier`
//! fuzz targets and the tests that replay their corpora ([`crate::corpus`]) call these
//! functions; a violation panics with a description of the input.

use xla_indexing_core::{IndexingMap, Interval};

use crate::rng::SplitMix64;

/// Points tried per map when the domain is too large to enumerate.
const SAMPLES: usize = 256;
/// Domains with at most this many points in their box are enumerated completely.
const ENUMERATE: u128 = 4096;

/// Map text: parsing never panics; a parsed map verifies, prints, and its text parses back to
/// an equal map with the same text.
pub fn map_text_round_trips(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(map) = IndexingMap::parse(text) else {
        return;
    };
    map.verify()
        .unwrap_or_else(|e| panic!("{text:?} parsed to a map that fails verification: {e}"));
    let printed = map.to_string();
    let reparsed = IndexingMap::parse(&printed)
        .unwrap_or_else(|e| panic!("{text:?} printed as {printed:?}, which fails: {e}"));
    assert_eq!(
        reparsed, map,
        "{text:?} printed as {printed:?}, which parses to another map"
    );
    assert_eq!(
        reparsed.to_string(),
        printed,
        "printing is not stable for {text:?}"
    );
}

/// Simplification: never panics, is idempotent, and gives the same values as the original map at
/// every point of small domains, or at sampled points of large ones.
pub fn simplification_is_sound(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(before) = IndexingMap::parse(text) else {
        return;
    };
    let mut after = before.clone();
    after.simplify();
    let mut again = after.clone();
    again.simplify();
    assert_eq!(
        again, after,
        "simplifying {text:?} twice changed {after} again"
    );
    for (dims, syms) in points(&before, data) {
        if !before.contains(&dims, &syms) {
            continue;
        }
        assert!(
            after.contains(&dims, &syms),
            "{text:?} simplified to {after}, which lost {dims:?} {syms:?}"
        );
        if let Some(v) = before.evaluate(&dims, &syms) {
            assert_eq!(
                after.evaluate(&dims, &syms),
                Some(v),
                "{text:?} simplified to {after} at {dims:?} {syms:?}"
            );
        }
    }
}

/// Every point of a small box, or sampled points of a large one (seeded by the input).
fn points(map: &IndexingMap, data: &[u8]) -> Vec<(Vec<i64>, Vec<i64>)> {
    if let Some(all) = map.domain_points(ENUMERATE) {
        return all;
    }
    let seed = data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3)
    });
    let mut rng = SplitMix64::new(seed);
    let nd = map.dims().len();
    (0..SAMPLES)
        .map(|_| {
            let values: Vec<i64> = map.all_vars().map(|v| sample(&mut rng, v.bounds)).collect();
            (values[..nd].to_vec(), values[nd..].to_vec())
        })
        .collect()
}

/// A value of `bounds` where rewrites go wrong if they do: near either end (the ends of i64
/// when the bounds reach them), near zero, at a random magnitude `±2^j` (where products with
/// large coefficients start to overflow), or anywhere.
fn sample(rng: &mut SplitMix64, bounds: Interval) -> i64 {
    let offset = rng.range(0, 8);
    let value = match rng.range(0, 4) {
        0 => bounds.lo.saturating_add(offset),
        1 => bounds.hi.saturating_sub(offset),
        2 => offset.saturating_sub(4),
        3 => {
            let magnitude = 1i64 << rng.range(0, 62);
            let signed = if rng.chance(1, 2) {
                magnitude
            } else {
                -magnitude
            };
            signed.saturating_add(offset.saturating_sub(4))
        }
        _ => rng.range(bounds.lo, bounds.hi),
    };
    value.clamp(bounds.lo, bounds.hi)
}
