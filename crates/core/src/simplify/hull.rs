//! The hull of the points of a box that satisfy a predicate: for every variable, the least and
//! the greatest value it takes at such a point.
//!
//! Each end of a variable is found by scanning its values inward, and for each value the rest
//! of the box, stopping at the first point that satisfies the predicate. Where such points are
//! dense (the usual case, and always once the bounds are the hull already) an end costs a few
//! points rather than the whole box; where they are sparse it costs at most the box, as
//! enumerating it would. Variables after the first are scanned within the hull found for the
//! ones before, which holds every satisfying point.

use crate::interval::{Interval, next_point};

/// Per variable, the least and the greatest value it takes at a point of the box `bounds`
/// (every bound feasible) where `holds` is true; `None` when no point of the box satisfies it.
pub(crate) fn satisfying_hull(
    bounds: &[Interval],
    mut holds: impl FnMut(&[i64]) -> bool,
) -> Option<Vec<Interval>> {
    let mut hull = bounds.to_vec();
    let mut scan = Scan {
        slice: bounds.to_vec(),
        point: vec![0; bounds.len()],
    };
    for i in 0..hull.len() {
        let Interval { lo, hi } = hull[i];
        let least = (lo..=hi).find(|&v| scan.slice_holds(&hull, i, v, &mut holds))?;
        // Down to `least`, which holds (a range from `least + 1` would overflow at `i64::MAX`).
        let greatest = (least..=hi)
            .rev()
            .find(|&v| v == least || scan.slice_holds(&hull, i, v, &mut holds))
            .unwrap_or(least);
        hull[i] = Interval::new(least, greatest);
    }
    Some(hull)
}

/// The buffers of one scan, reused from slice to slice.
struct Scan {
    slice: Vec<Interval>,
    point: Vec<i64>,
}

impl Scan {
    /// Whether some point of `bounds` with variable `i` at `value` satisfies `holds`.
    fn slice_holds(
        &mut self,
        bounds: &[Interval],
        i: usize,
        value: i64,
        holds: &mut impl FnMut(&[i64]) -> bool,
    ) -> bool {
        self.slice.copy_from_slice(bounds);
        self.slice[i] = Interval::point(value);
        for (x, b) in self.point.iter_mut().zip(&self.slice) {
            *x = b.lo;
        }
        loop {
            if holds(&self.point) {
                return true;
            }
            if !next_point(&mut self.point, &self.slice) {
                return false;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hull by enumerating every point of the box.
    fn enumerated_hull(
        bounds: &[Interval],
        holds: impl Fn(&[i64]) -> bool,
    ) -> Option<Vec<Interval>> {
        let mut hull: Option<Vec<Interval>> = None;
        let mut point: Vec<i64> = bounds.iter().map(|b| b.lo).collect();
        loop {
            if holds(&point) {
                let h =
                    hull.get_or_insert_with(|| point.iter().map(|&x| Interval::point(x)).collect());
                for (h, &x) in h.iter_mut().zip(&point) {
                    *h = Interval::new(h.lo.min(x), h.hi.max(x));
                }
            }
            if !next_point(&mut point, bounds) {
                return hull;
            }
        }
    }

    /// Bounds at the ends of `i64` scan without overflowing.
    #[test]
    fn scans_reach_the_ends_of_i64() {
        for bounds in [
            [Interval::new(i64::MAX - 2, i64::MAX)],
            [Interval::new(i64::MIN, i64::MIN + 2)],
        ] {
            assert_eq!(satisfying_hull(&bounds, |_| true), Some(bounds.to_vec()));
            for end in [bounds[0].lo, bounds[0].hi] {
                assert_eq!(
                    satisfying_hull(&bounds, |p| p[0] == end),
                    Some(vec![Interval::point(end)])
                );
            }
        }
    }

    #[test]
    fn scans_find_the_enumerated_hull() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n) as i64
        };
        for _ in 0..2000 {
            let bounds: Vec<Interval> = (0..1 + next(3))
                .map(|_| {
                    let lo = next(9) - 4;
                    Interval::new(lo, lo + next(6))
                })
                .collect();
            let coefs: Vec<i64> = bounds.iter().map(|_| next(7) - 3).collect();
            let (k, r, sparse) = (2 + next(5), next(2), next(3) == 0);
            // A residue of a linear form, and with `sparse` one value of it as well: sets from
            // dense to empty.
            let holds = |p: &[i64]| {
                let s: i64 = p.iter().zip(&coefs).map(|(x, c)| x * c).sum();
                s.rem_euclid(k) == r && (!sparse || s == coefs[0] * 2 + r)
            };
            assert_eq!(
                satisfying_hull(&bounds, holds),
                enumerated_hull(&bounds, holds),
                "bounds {bounds:?}, coefficients {coefs:?}, mod {k} == {r}, sparse {sparse}"
            );
        }
    }
}
