//! The bound-aware simplifier.
//!
//! [`simplify_expr`] rewrites one expression using the ranges of its variables; the rewrite rules
//! live in [`rules`] (and, for products and divisions by an expression, in `nonaffine.rs`), each
//! with the identity it applies and the condition under which it holds.
//! [`IndexingMap::simplify`] simplifies a whole map: constraints first (see [`constraints`]), then
//! the results, using the constraints as extra range facts.
//!
//! Every rewrite preserves the value at every point of the domain, and never trades the input for
//! a form whose 64-bit evaluation could overflow there ([`RangeEvaluator::never_overflows`]): a
//! rewrite that could overflow is skipped, so wherever the input evaluates, the result evaluates
//! to the same value. The result never costs more than the input under [`Cost`]: fewer
//! `floordiv`/`ceildiv`/`mod` first, then fewer operations, then smaller coefficients. Work is
//! bounded by [`Budget`]: when it runs out, the best form found so far is returned.

pub mod constraints;
mod fit;
mod hull;
mod nonaffine;
pub mod rules;

use std::cell::RefCell;
use std::collections::HashMap;

use crate::expr::{Atom, Cost, Expr, Extremum, FastBuildHasher};
use crate::map::IndexingMap;
use crate::range::RangeEvaluator;

/// Limits on the simplifier's work, which keep it near-linear in the size of its input: no rule
/// looks at more than `max_terms` terms at a time, every loop runs at most `rounds` times, and
/// enumeration visits at most `enumeration_limit` points per box and `enumeration_total` per
/// round over a map's constraints. Past a limit, the part of the input it guards is left as it is
/// (still equal to the input at every point).
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Rewrite rounds over one expression before giving up on a fixed point.
    pub rounds: usize,
    /// Sums with more terms than this, at the top or as the argument of a `floordiv`, `ceildiv` or
    /// `mod`, are kept as built (construction folds them), not searched.
    pub max_terms: usize,
    /// Largest domain box that is enumerated to decide emptiness and tighten bounds exactly.
    pub enumeration_limit: u128,
    /// Points enumerated to tighten bounds by each constraint alone, over all the constraints of
    /// a map, per round; the constraints after that are not enumerated.
    pub enumeration_total: u128,
    /// Largest box over which one `floordiv`/`mod` atom is checked for being affine.
    pub atom_fit_points: u128,
    /// Largest box over which a whole expression is checked for being affine.
    pub expr_fit_points: u128,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            rounds: 8,
            max_terms: 48,
            enumeration_limit: 1 << 12,
            enumeration_total: 1 << 20,
            atom_fit_points: 256,
            expr_fit_points: 1024,
        }
    }
}

/// Simplifies `e` over the ranges that `ev` gives. Never returns a costlier expression.
pub fn simplify_expr(e: &Expr, ev: &RangeEvaluator<'_>) -> Expr {
    simplify_expr_with(e, ev, Budget::default())
}

/// [`simplify_expr`] with an explicit budget.
pub fn simplify_expr_with(e: &Expr, ev: &RangeEvaluator<'_>, budget: Budget) -> Expr {
    simplify_expr_in(e, ev, budget, &Memo::default())
}

/// [`simplify_expr_with`], reusing and extending `memo`, which must hold only what was found over
/// the same ranges (the same variable bounds, and the same constraints if `ev` uses them).
pub(crate) fn simplify_expr_in(
    e: &Expr,
    ev: &RangeEvaluator<'_>,
    budget: Budget,
    memo: &Memo,
) -> Expr {
    let s = Simplifier { ev, budget, memo };
    let mut best = e.clone();
    for _ in 0..budget.rounds {
        let next = s.once(&best);
        if next == best {
            break;
        }
        best = next;
    }
    debug_assert!(
        best == *e || s.is_safe(&best),
        "{e:?} was rewritten into {best:?}, which may overflow"
    );
    if best.cost() <= e.cost() {
        best
    } else {
        e.clone()
    }
}

/// What the simplifier found over one domain. Every entry depends only on the ranges of the
/// domain, so a memo serves every expression simplified over the same ranges (a map's
/// constraints, round after round, while the bounds stay).
#[derive(Default)]
pub(crate) struct Memo {
    /// The simplest form found for each atom so far: the same atom recurs across rounds and
    /// across the candidates of the rules.
    atoms: RefCell<HashMap<Atom, Expr, FastBuildHasher>>,
    /// The result of [`Simplifier::once`] for each expression it was given: the arguments of
    /// atoms recur (`x floordiv k` and `x mod k`), and a pass over a pass's result confirms it.
    passes: RefCell<HashMap<Expr, Expr, FastBuildHasher>>,
}

pub(crate) struct Simplifier<'e, 'm> {
    pub(crate) ev: &'e RangeEvaluator<'m>,
    pub(crate) budget: Budget,
    memo: &'e Memo,
}

impl Simplifier<'_, '_> {
    /// Whether `e` may replace an expression over this domain: its 64-bit evaluation never
    /// overflows there. Every rewrite the simplifier takes passes this check.
    pub(crate) fn is_safe(&self, e: &Expr) -> bool {
        self.ev.never_overflows(e)
    }

    /// One bottom-up pass: simplify the inside of each atom, rewrite the atom, then the sum.
    pub(crate) fn once(&self, e: &Expr) -> Expr {
        if let Some(r) = self.memo.passes.borrow().get(e) {
            return r.clone();
        }
        let r = self.once_uncached(e);
        self.memo.passes.borrow_mut().insert(e.clone(), r.clone());
        r
    }

    fn once_uncached(&self, e: &Expr) -> Expr {
        if let Some(c) = self.ev.point(e) {
            return Expr::constant(c);
        }
        if self.budget.max_terms < e.terms().len() {
            return e.clone();
        }
        rules::simplify_sum(self, &self.once_without_sum(e))
    }

    /// One pass of the atom rules, without the sum rules (used to judge a sum-level rewrite).
    /// Each atom's form is safe alone; the sum of them is checked too, else `e` is kept, as it is
    /// when it has more than `max_terms` terms.
    pub(crate) fn once_without_sum(&self, e: &Expr) -> Expr {
        if self.budget.max_terms < e.terms().len() {
            return e.clone();
        }
        let forms: Vec<Expr> = e.terms().iter().map(|(atom, _)| self.atom(atom)).collect();
        // Every atom kept as it is and no pair to recombine: the sum would be `e` again.
        if forms
            .iter()
            .zip(e.terms())
            .all(|(form, (atom, _))| form.as_atom() == Some(atom))
            && !e.has_recombine_pair()
        {
            return e.clone();
        }
        let mut acc = Expr::constant(e.constant_term());
        for (form, (_, coef)) in forms.iter().zip(e.terms()) {
            match acc.checked_add_scaled(form, *coef) {
                Ok(sum) => acc = sum,
                Err(_) => return e.clone(),
            }
        }
        if acc == *e || self.is_safe(&acc) {
            acc
        } else {
            e.clone()
        }
    }

    /// The simplest safe form found for one atom (cached); the atom itself when no form is safe.
    pub(crate) fn atom(&self, atom: &Atom) -> Expr {
        if let Some(e) = self.memo.atoms.borrow().get(atom) {
            return e.clone();
        }
        let e = self.atom_uncached(atom);
        // The atom kept as it is needs no check: it is also what an unsafe form gives way to.
        let e = if e.as_atom() == Some(atom) || self.is_safe(&e) {
            e
        } else {
            Expr::atom(atom.clone())
        };
        self.memo.atoms.borrow_mut().insert(atom.clone(), e.clone());
        e
    }

    fn atom_uncached(&self, atom: &Atom) -> Expr {
        let point = self.ev.atom_range(atom).as_point();
        if let Some(c) = point {
            return Expr::constant(c);
        }
        if atom
            .operands()
            .any(|x| self.budget.max_terms < x.terms().len())
        {
            return Expr::atom(atom.clone());
        }
        let rewritten = match atom {
            Atom::Var(_) => return Expr::atom(atom.clone()),
            Atom::FloorDiv(x, k) => rules::floor_div(self, &self.inner(x), *k),
            Atom::CeilDiv(x, k) => rules::ceil_div(self, &self.inner(x), *k),
            Atom::Mod(x, k) => rules::modulo(self, &self.inner(x), *k),
            Atom::Min(a, b) => rules::extremum(self, Extremum::Min, &self.inner(a), &self.inner(b)),
            Atom::Max(a, b) => rules::extremum(self, Extremum::Max, &self.inner(a), &self.inner(b)),
            Atom::Mul(a, b) => nonaffine::product(&self.inner(a), &self.inner(b)),
            Atom::DivBy(which, x, y) => {
                nonaffine::divide_by(self, *which, &self.inner(x), &self.inner(y))
            }
        };
        fit::affine_form(&rewritten, self.ev, &self.budget)
            .filter(|f| f.cost() <= rewritten.cost())
            .unwrap_or(rewritten)
    }

    fn inner(&self, x: &Expr) -> Expr {
        let mut best = x.clone();
        for _ in 0..self.budget.rounds {
            let next = self.once(&best);
            if next == best {
                break;
            }
            best = next;
        }
        best
    }

    /// The cheapest safe one of `candidates` (the first on ties). A candidate's constant summand
    /// does not count: it merges with the constant of the sum the candidate stands in.
    pub(crate) fn cheapest(&self, candidates: impl IntoIterator<Item = Expr>) -> Option<Expr> {
        let mut candidates: Vec<Expr> = candidates.into_iter().collect();
        candidates.sort_by_cached_key(Expr::cost_without_constant);
        candidates.into_iter().find(|e| self.is_safe(e))
    }
}

impl IndexingMap {
    /// Simplifies constraints and results (see the module documentation). Returns whether
    /// anything changed.
    pub fn simplify(&mut self) -> bool {
        self.simplify_with(Budget::default())
    }

    /// [`IndexingMap::simplify`] with an explicit budget.
    pub fn simplify_with(&mut self, budget: Budget) -> bool {
        let domain_changed = constraints::simplify_constraints(self, budget);
        if self.known_empty {
            return domain_changed;
        }
        let results: Vec<Expr> = {
            let ev = self.range_evaluator(true);
            let memo = Memo::default();
            self.results
                .iter()
                .map(|r| simplify_expr_in(r, &ev, budget, &memo))
                .collect()
        };
        let results_changed = results != self.results;
        self.results = results;
        domain_changed || results_changed
    }

    /// The total cost of the results and constraints.
    pub fn cost(&self) -> Cost {
        self.results
            .iter()
            .chain(self.constraints.keys())
            .map(Expr::cost)
            .fold(Cost::default(), |a, b| a + b)
    }
}
