//! Interval evaluation of expressions over a map's domain. A product of two expressions takes
//! the least and the greatest of the four corner products; a division by an expression is known
//! where the divisor's range is strictly positive or strictly negative (where it holds 0 the
//! division is undefined at some point, and nothing is claimed).

use crate::expr::{Atom, Division, Expr, Extremum, VarRef};
use crate::interval::{Interval, mod_floor};
use crate::map::IndexingMap;

/// Computes a sound over-approximation of an expression's values over a map's domain: variables
/// take their bounds, and, if asked, a constraint registered for exactly a sub-expression narrows
/// that sub-expression's range.
///
/// Ranges are of the mathematical values (over all integers, as if nothing overflowed), computed in
/// `i128` with unbounded ends where even that would overflow; a range that leaves `i64` is unknown.
/// The rules of the simplifier reason about these values. Whether 64-bit evaluation of an expression
/// can overflow on the domain is a separate question, answered by
/// [`RangeEvaluator::never_overflows`].
pub struct RangeEvaluator<'a> {
    map: &'a IndexingMap,
    /// The constraints used (none unless asked for), looked up by expression equality: a
    /// handful, compared by their hashes first.
    constraints: Vec<(&'a Expr, Interval)>,
    /// The divisors `k` of the constraints `c * (x mod k) in [r, r]`, the only ones that
    /// [`RangeEvaluator::shifted_residue`] can find.
    residue_divisors: Vec<i64>,
}

/// A range of integers that may leave `i64`: `None` is an unbounded end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Span {
    lo: Option<i128>,
    hi: Option<i128>,
}

impl Span {
    fn exact(r: Interval) -> Span {
        Span {
            lo: Some(i128::from(r.lo)),
            hi: Some(i128::from(r.hi)),
        }
    }

    /// The range as an `i64` interval, or `None` when it leaves `i64`.
    fn within_i64(self) -> Option<Interval> {
        let lo = i64::try_from(self.lo?).ok()?;
        let hi = i64::try_from(self.hi?).ok()?;
        Some(Interval::new(lo, hi))
    }

    /// The range as an `i64` interval; the full range when it leaves `i64` (nothing is known then:
    /// a clamped range could pass for an exact one).
    fn to_interval(self) -> Interval {
        self.within_i64().unwrap_or(Interval::FULL)
    }

    /// `{x * c}`.
    fn scale(self, c: i64) -> Span {
        let c = i128::from(c);
        let (a, b) = (
            self.lo.and_then(|v| v.checked_mul(c)),
            self.hi.and_then(|v| v.checked_mul(c)),
        );
        if c < 0 {
            Span { lo: b, hi: a }
        } else {
            Span { lo: a, hi: b }
        }
    }

    /// `{x + y}`.
    fn add(self, o: Span) -> Span {
        Span {
            lo: self.lo.zip(o.lo).and_then(|(a, b)| a.checked_add(b)),
            hi: self.hi.zip(o.hi).and_then(|(a, b)| a.checked_add(b)),
        }
    }

    /// Applies a rounding division by `k != 0`, which is monotone: increasing for `k > 0`,
    /// decreasing for `k < 0`.
    fn divide(self, k: i64, div: fn(i128, i128) -> Option<i128>) -> Span {
        let k = i128::from(k);
        let (a, b) = (
            self.lo.and_then(|v| div(v, k)),
            self.hi.and_then(|v| div(v, k)),
        );
        if k < 0 {
            Span { lo: b, hi: a }
        } else {
            Span { lo: a, hi: b }
        }
    }

    /// `{x mod k}` (floor semantics) for `k != 0`: exact when the range does not cross a multiple
    /// of `k`, else every residue.
    fn modulo(self, k: i64) -> Span {
        let k = i128::from(k);
        if let (Some(lo), Some(hi)) = (self.lo, self.hi)
            && floor_div_wide(lo, k) == floor_div_wide(hi, k)
        {
            return Span {
                lo: mod_floor_wide(lo, k),
                hi: mod_floor_wide(hi, k),
            };
        }
        let (lo, hi) = if k < 0 { (k + 1, 0) } else { (0, k - 1) };
        Span {
            lo: Some(lo),
            hi: Some(hi),
        }
    }

    /// `{x * y}` for `x` in `self` and `y` in `o`: from the least to the greatest of the four
    /// products of the ends (a product is monotone in each factor while the other keeps its
    /// sign, so its extremes over a box lie at the corners). Unknown where an end is unbounded.
    fn multiply(self, o: Span) -> Span {
        let corners = (|| {
            let (a, b, c, d) = (self.lo?, self.hi?, o.lo?, o.hi?);
            Some([
                a.checked_mul(c)?,
                a.checked_mul(d)?,
                b.checked_mul(c)?,
                b.checked_mul(d)?,
            ])
        })();
        Span::hull_of(corners)
    }

    /// `{x floordiv y}` or `{x ceildiv y}` (as `div` rounds) for `x` in `self` and `y` in `o`,
    /// where every `y` is positive or every `y` is negative: from the least to the greatest
    /// quotient at the four corners (`x / y` is monotone in `x` and in `y` while `y` keeps its
    /// sign, and rounding is monotone). Unknown where `o` holds 0 or an end is unbounded.
    fn divide_by(self, o: Span, div: fn(i128, i128) -> Option<i128>) -> Span {
        let corners = (|| {
            let (a, b, c, d) = (self.lo?, self.hi?, o.lo?, o.hi?);
            if c <= 0 && 0 <= d {
                return None;
            }
            Some([div(a, c)?, div(a, d)?, div(b, c)?, div(b, d)?])
        })();
        Span::hull_of(corners)
    }

    /// `{x mod y}` for `x` in `self` and `y` in `o` (floor semantics: the sign of `y`). For
    /// positive `y` up to `h`: `[0, h - 1]`, and `x` itself where `0 <= x < lo(y)`, at most
    /// `hi(x)` where `x >= 0`. For negative `y` the mirror image. Unknown where `o` holds 0.
    fn modulo_by(self, o: Span) -> Span {
        let unknown = Span { lo: None, hi: None };
        let (Some(c), Some(d)) = (o.lo, o.hi) else {
            return unknown;
        };
        if 0 < c {
            if self.lo.is_some_and(|lo| 0 <= lo) {
                if self.hi.is_some_and(|hi| hi < c) {
                    return self;
                }
                let hi = self.hi.map_or(d - 1, |hi| hi.min(d - 1));
                return Span {
                    lo: Some(0),
                    hi: Some(hi),
                };
            }
            return Span {
                lo: Some(0),
                hi: Some(d - 1),
            };
        }
        if d < 0 {
            if self.hi.is_some_and(|hi| hi <= 0) {
                if self.lo.is_some_and(|lo| d < lo) {
                    return self;
                }
                let lo = self.lo.map_or(c + 1, |lo| lo.max(c + 1));
                return Span {
                    lo: Some(lo),
                    hi: Some(0),
                };
            }
            return Span {
                lo: Some(c + 1),
                hi: Some(0),
            };
        }
        unknown
    }

    /// The span from the least to the greatest of `values`; unknown without them.
    fn hull_of(values: Option<[i128; 4]>) -> Span {
        match values {
            Some(v) => Span {
                lo: v.iter().min().copied(),
                hi: v.iter().max().copied(),
            },
            None => Span { lo: None, hi: None },
        }
    }

    /// `{min(x, y)}` or `{max(x, y)}` for `x` in `self` and `y` in `o`: exact, since the least and
    /// the greatest values come from the lower and the upper ends. An unbounded end stays
    /// unbounded unless the other operand bounds that end of the result (`min(x, 5) <= 5`).
    fn extremum(self, which: Extremum, o: Span) -> Span {
        // Unbounded below is the least lower end, unbounded above the greatest upper end.
        let least = |a: Option<i128>, b: Option<i128>| a.zip(b).map(|(a, b)| a.min(b));
        let greatest = |a: Option<i128>, b: Option<i128>| a.zip(b).map(|(a, b)| a.max(b));
        let either = |a: Option<i128>, b: Option<i128>, f: fn(i128, i128) -> i128| match (a, b) {
            (Some(a), Some(b)) => Some(f(a, b)),
            (Some(v), None) | (None, Some(v)) => Some(v),
            (None, None) => None,
        };
        match which {
            Extremum::Min => Span {
                lo: least(self.lo, o.lo),
                hi: either(self.hi, o.hi, i128::min),
            },
            Extremum::Max => Span {
                lo: either(self.lo, o.lo, i128::max),
                hi: greatest(self.hi, o.hi),
            },
        }
    }

    /// The values in both (the known bounds of `r` replace unbounded ends).
    fn intersect(self, r: Interval) -> Span {
        let (lo, hi) = (i128::from(r.lo), i128::from(r.hi));
        Span {
            lo: Some(self.lo.map_or(lo, |v| v.max(lo))),
            hi: Some(self.hi.map_or(hi, |v| v.min(hi))),
        }
    }
}

/// The spans of an atom's operands (at most two), without allocating.
#[derive(Clone, Copy, Default)]
struct Operands {
    spans: [Span; 2],
    len: usize,
}

impl Operands {
    fn one(s: Span) -> Operands {
        Operands {
            spans: [s, Span::default()],
            len: 1,
        }
    }

    /// The span `f` gives each operand of `atom`; `None` when it gives none for one of them.
    fn of(atom: &Atom, mut f: impl FnMut(&Expr) -> Option<Span>) -> Option<Operands> {
        let mut out = Operands::default();
        for x in atom.operands() {
            out.spans[out.len] = f(x)?;
            out.len += 1;
        }
        Some(out)
    }

    fn as_slice(&self) -> &[Span] {
        &self.spans[..self.len]
    }
}

/// The truncated quotient and remainder of `a / k`, `None` on overflow. Computed in `i64` where
/// both fit (a division in `i128` is a call into the runtime library, many times slower).
fn div_rem_wide(a: i128, k: i128) -> Option<(i128, i128)> {
    if let (Ok(a), Ok(k)) = (i64::try_from(a), i64::try_from(k))
        && let (Some(q), Some(r)) = (a.checked_div(k), a.checked_rem(k))
    {
        return Some((q.into(), r.into()));
    }
    Some((a.checked_div(k)?, a.checked_rem(k)?))
}

/// `floor(a / k)` in `i128`, `None` on overflow.
pub(crate) fn floor_div_wide(a: i128, k: i128) -> Option<i128> {
    let (q, r) = div_rem_wide(a, k)?;
    Some(if r != 0 && ((r < 0) != (k < 0)) {
        q - 1
    } else {
        q
    })
}

/// `ceil(a / k)` in `i128`, `None` on overflow.
pub(crate) fn ceil_div_wide(a: i128, k: i128) -> Option<i128> {
    let (q, r) = div_rem_wide(a, k)?;
    Some(if r != 0 && ((r < 0) == (k < 0)) {
        q + 1
    } else {
        q
    })
}

/// `a mod k` with the sign of `k`, in `i128`, `None` on overflow.
fn mod_floor_wide(a: i128, k: i128) -> Option<i128> {
    let (_, r) = div_rem_wide(a, k)?;
    Some(if r != 0 && ((r < 0) != (k < 0)) {
        r + k
    } else {
        r
    })
}

impl<'a> RangeEvaluator<'a> {
    /// An evaluator over `map`'s variable bounds; with `use_constraints`, a constraint on exactly a
    /// sub-expression also narrows that sub-expression's range.
    pub fn new(map: &'a IndexingMap, use_constraints: bool) -> Self {
        let constraints: Vec<(&Expr, Interval)> = if use_constraints {
            map.constraints().iter().map(|(e, iv)| (e, *iv)).collect()
        } else {
            Vec::new()
        };
        let residue_divisors = constraints
            .iter()
            .filter_map(|(e, iv)| match e.terms() {
                [(Atom::Mod(_, k), _)] if e.constant_term() == 0 && iv.as_point().is_some() => {
                    Some(*k)
                }
                _ => None,
            })
            .collect();
        RangeEvaluator {
            map,
            constraints,
            residue_divisors,
        }
    }

    /// The map whose domain the ranges are taken over.
    pub fn map(&self) -> &'a IndexingMap {
        self.map
    }

    /// The range of `e`'s values; the full range when it is unknown (see the type's documentation).
    pub fn range(&self, e: &Expr) -> Interval {
        self.span(e).to_interval()
    }

    /// The one value of `e` when its range is a single point, as [`RangeEvaluator::range`] finds
    /// it. A sum of ranges is a point only where every summand is, so the summands are looked at
    /// one by one until one is not (the first, most of the time), unless a constraint bounds `e`
    /// itself.
    pub(crate) fn point(&self, e: &Expr) -> Option<i64> {
        if self.constraint(e).is_none()
            && e.terms().iter().any(|(atom, _)| {
                let s = self.atom_span(atom);
                s.lo != s.hi
            })
        {
            return None;
        }
        self.range(e).as_point()
    }

    /// The range of one atom's values, as [`RangeEvaluator::range`].
    pub fn atom_range(&self, atom: &Atom) -> Interval {
        self.atom_span(atom).to_interval()
    }

    /// Whether evaluating `e` in 64-bit arithmetic, as [`Expr::eval`] does (the constant, then each
    /// term in order, every atom's argument first), stays within `i64` at every point of the
    /// domain. A sufficient check: every argument, product and partial sum, at every depth, has
    /// its range within `i64`; a sub-expression bounded by a constraint of the domain counts as
    /// checked, since every point of the domain evaluates it inside the constraint's interval.
    pub fn never_overflows(&self, e: &Expr) -> bool {
        self.checked_range(e).is_some()
    }

    fn span(&self, e: &Expr) -> Span {
        let sum = e.terms().iter().fold(
            Span::exact(Interval::point(e.constant_term())),
            |acc, (atom, coef)| acc.add(self.atom_span(atom).scale(*coef)),
        );
        self.narrow(e, sum)
    }

    fn atom_span(&self, atom: &Atom) -> Span {
        let args = match atom {
            Atom::Var(v) => Operands::one(self.var_span(*v)),
            _ => Operands::of(atom, |x| Some(self.span(x))).unwrap_or_default(),
        };
        self.apply(atom, args.as_slice())
    }

    fn var_span(&self, v: VarRef) -> Span {
        Span::exact(self.map.var(v).map_or(Interval::FULL, |v| v.bounds))
    }

    /// The span of `atom` when its operands have the spans `args`, one per operand (a variable
    /// is its own operand), narrowed by the constraints.
    fn apply(&self, atom: &Atom, args: &[Span]) -> Span {
        let r = match (atom, args) {
            (Atom::Var(_), [x]) => return *x,
            (Atom::FloorDiv(_, k), [x]) => x.divide(*k, floor_div_wide),
            (Atom::CeilDiv(_, k), [x]) => x.divide(*k, ceil_div_wide),
            (Atom::Mod(_, k), [x]) => x.modulo(*k),
            (Atom::Min(..), [a, b]) => a.extremum(Extremum::Min, *b),
            (Atom::Max(..), [a, b]) => a.extremum(Extremum::Max, *b),
            (Atom::Mul(..), [a, b]) => a.multiply(*b),
            (Atom::DivBy(Division::FloorDiv, ..), [x, y]) => x.divide_by(*y, floor_div_wide),
            (Atom::DivBy(Division::CeilDiv, ..), [x, y]) => x.divide_by(*y, ceil_div_wide),
            (Atom::DivBy(Division::Mod, ..), [x, y]) => x.modulo_by(*y),
            // Not reached (`args` has one span per operand); nothing is known then.
            _ => Span { lo: None, hi: None },
        };
        if self.constraints.is_empty() {
            return r;
        }
        let r = match self.atom_constraint(atom) {
            Some(c) => r.intersect(c),
            None => r,
        };
        match atom {
            Atom::Mod(x, k) => self.shifted_residue(x, *k).map_or(r, |p| r.intersect(p)),
            _ => r,
        }
    }

    /// The range of `e`'s 64-bit evaluation, or `None` if it may overflow (see
    /// [`RangeEvaluator::never_overflows`]).
    fn checked_range(&self, e: &Expr) -> Option<Interval> {
        if let Some(c) = self.constraint(e) {
            return Some(c);
        }
        let mut acc = Span::exact(Interval::point(e.constant_term()));
        for (atom, coef) in e.terms() {
            let args = match atom {
                Atom::Var(v) => Operands::one(self.var_span(*v)),
                _ => Operands::of(atom, |x| Some(Span::exact(self.checked_range(x)?)))?,
            };
            let product = self.apply(atom, args.as_slice()).scale(*coef);
            product.within_i64()?;
            acc = acc.add(product);
            acc.within_i64()?;
        }
        acc.within_i64()
    }

    /// `(x0 + c) mod k` is the point `(r + c) mod k` when a constraint fixes `x0 mod k` to `r`.
    fn shifted_residue(&self, x: &Expr, k: i64) -> Option<Interval> {
        let c = x.constant_term();
        // The key below is `g * (y mod m)` for a divisor `m` of `k`.
        if c == 0 || !self.residue_divisors.iter().any(|d| k % d == 0) {
            return None;
        }
        let key = x.checked_add_const(c.checked_neg()?).ok()?.modulo(k).ok()?;
        let r = self.constraint(&key)?.as_point()?;
        Some(Interval::point(mod_floor(r.checked_add(c)?, k)))
    }

    /// The interval of a constraint on exactly `e`, if constraints are used.
    fn constraint(&self, e: &Expr) -> Option<Interval> {
        self.constraints
            .iter()
            .find(|(c, _)| *c == e)
            .map(|(_, iv)| *iv)
    }

    /// The interval of a constraint on exactly `1 * atom`, if constraints are used.
    fn atom_constraint(&self, atom: &Atom) -> Option<Interval> {
        self.constraints
            .iter()
            .find(|(c, _)| c.as_atom() == Some(atom))
            .map(|(_, iv)| *iv)
    }

    fn narrow(&self, e: &Expr, r: Span) -> Span {
        match self.constraint(e) {
            Some(c) => r.intersect(c),
            None => r,
        }
    }

    /// Whether `e >= 0` everywhere on the domain.
    pub fn is_non_negative(&self, e: &Expr) -> bool {
        self.range(e).lo >= 0
    }
}

impl IndexingMap {
    /// An evaluator of expression ranges over this map's domain.
    pub fn range_evaluator(&self, use_constraints: bool) -> RangeEvaluator<'_> {
        RangeEvaluator::new(self, use_constraints)
    }
}
