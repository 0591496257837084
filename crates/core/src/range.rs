//! Interval evaluation of expressions over a map's domain.

use crate::expr::{Atom, Expr};
use crate::interval::Interval;
use crate::map::IndexingMap;

/// Computes a sound over-approximation of an expression's values over a map's domain: variables
/// take their bounds, and, if asked, a constraint registered for exactly a sub-expression narrows
/// that sub-expression's range.
pub struct RangeEvaluator<'a> {
    map: &'a IndexingMap,
    use_constraints: bool,
}

impl<'a> RangeEvaluator<'a> {
    pub fn new(map: &'a IndexingMap, use_constraints: bool) -> Self {
        RangeEvaluator {
            map,
            use_constraints,
        }
    }

    pub fn map(&self) -> &'a IndexingMap {
        self.map
    }

    /// The range of `e`.
    ///
    /// The sum is computed without overflow (in `i128`); when its range leaves `i64`, the
    /// expression may overflow somewhere on the domain and nothing is known: the full range is
    /// returned, never a saturated one that could pass for a point.
    pub fn range(&self, e: &Expr) -> Interval {
        let (mut lo, mut hi) = (i128::from(e.constant_term()), i128::from(e.constant_term()));
        for (atom, coef) in e.terms() {
            let r = self.atom_range(atom);
            let (a, b) = (
                i128::from(r.lo) * i128::from(*coef),
                i128::from(r.hi) * i128::from(*coef),
            );
            lo += a.min(b);
            hi += a.max(b);
        }
        let acc = match (i64::try_from(lo), i64::try_from(hi)) {
            (Ok(lo), Ok(hi)) => Interval::new(lo, hi),
            _ => Interval::FULL,
        };
        self.narrow(e, acc)
    }

    /// The range of one atom.
    pub fn atom_range(&self, atom: &Atom) -> Interval {
        let r = match atom {
            Atom::Var(v) => return self.map.var(*v).map_or(Interval::FULL, |v| v.bounds),
            Atom::FloorDiv(x, k) => self.range(x).floor_div(*k),
            Atom::CeilDiv(x, k) => self.range(x).ceil_div(*k),
            Atom::Mod(x, k) => self.range(x).modulo(*k),
        };
        if !self.use_constraints || self.map.constraints().is_empty() {
            return r;
        }
        let r = self.narrow(&Expr::atom(atom.clone()), r);
        match atom {
            Atom::Mod(x, k) => r.intersect(self.shifted_residue(x, *k).unwrap_or(r)),
            _ => r,
        }
    }

    /// `(x0 + c) mod k` is the point `(r + c) mod k` when a constraint fixes `x0 mod k` to `r`.
    fn shifted_residue(&self, x: &Expr, k: i64) -> Option<Interval> {
        let c = x.constant_term();
        if c == 0 {
            return None;
        }
        let key = x.checked_add_const(-c).ok()?.modulo(k).ok()?;
        let r = self.map.constraints().get(&key)?.as_point()?;
        Some(Interval::point(crate::interval::mod_floor(
            r.checked_add(c)?,
            k,
        )))
    }

    fn narrow(&self, e: &Expr, r: Interval) -> Interval {
        if !self.use_constraints {
            return r;
        }
        match self.map.constraints().get(e) {
            Some(c) => r.intersect(*c),
            None => r,
        }
    }

    /// Whether `e >= 0` everywhere on the domain.
    pub fn is_non_negative(&self, e: &Expr) -> bool {
        self.range(e).lo >= 0
    }
}
