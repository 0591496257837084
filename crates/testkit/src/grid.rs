//! The points of boxes, for tests that check a claim at every point of a small domain.

use std::borrow::Borrow;

/// Every point of the box of inclusive `bounds` (one pair per dimension), lexicographically;
/// `None` when a range is empty or overflows, or past `limit` points.
pub fn box_points_within(
    bounds: impl IntoIterator<Item = impl Borrow<(i64, i64)>>,
    limit: usize,
) -> Option<Vec<Vec<i64>>> {
    let mut points: Vec<Vec<i64>> = vec![Vec::new()];
    for b in bounds {
        let (lo, hi) = *b.borrow();
        let count = usize::try_from(hi.checked_sub(lo)?.checked_add(1)?).ok()?;
        if count == 0 || points.len().checked_mul(count)? > limit {
            return None;
        }
        points = points
            .into_iter()
            .flat_map(|p| {
                (lo..=hi).map(move |x| {
                    let mut q = p.clone();
                    q.push(x);
                    q
                })
            })
            .collect();
    }
    Some(points)
}

/// Every point of the box of inclusive `bounds`, lexicographically (none where a range is
/// empty).
pub fn box_points(bounds: impl IntoIterator<Item = impl Borrow<(i64, i64)>>) -> Vec<Vec<i64>> {
    box_points_within(bounds, usize::MAX).unwrap_or_default()
}
