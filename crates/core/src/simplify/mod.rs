//! The bound-aware simplifier.
//!
//! [`simplify_expr`] rewrites one expression using the ranges of its variables; the rewrite rules
//! live in [`rules`], each with the identity it applies and the condition under which it holds.
//! [`IndexingMap::simplify`] simplifies a whole map: constraints first (see [`constraints`]), then
//! the results, using the constraints as extra range facts.
//!
//! Every rewrite preserves the value at every point of the domain. The result never costs more
//! than the input under [`Cost`]: fewer `floordiv`/`ceildiv`/`mod` first, then fewer operations,
//! then smaller coefficients. Work is bounded by [`Budget`]: when it runs out, the best form found
//! so far is returned.

pub mod constraints;
mod fit;
pub mod rules;

use std::cell::RefCell;
use std::collections::HashMap;

use crate::expr::{Atom, Cost, Expr, FastBuildHasher};
use crate::map::IndexingMap;
use crate::range::RangeEvaluator;

/// Limits on the simplifier's work.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Rewrite rounds over one expression before giving up on a fixed point.
    pub rounds: usize,
    /// Expressions with more terms than this (at any level) are only folded, not searched.
    pub max_terms: usize,
    /// Largest domain box that is enumerated to decide emptiness and tighten bounds exactly.
    pub enumeration_limit: u128,
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
    let s = Simplifier {
        ev,
        budget,
        atoms: RefCell::new(HashMap::default()),
    };
    let mut best = e.clone();
    for _ in 0..budget.rounds {
        let next = s.once(&best);
        if next == best {
            break;
        }
        best = next;
    }
    if best.cost() <= e.cost() {
        best
    } else {
        e.clone()
    }
}

pub(crate) struct Simplifier<'e, 'm> {
    pub(crate) ev: &'e RangeEvaluator<'m>,
    pub(crate) budget: Budget,
    /// The simplest form found for each atom so far: the same atom recurs across rounds and
    /// across the candidates of the rules, and its answer depends only on the domain.
    atoms: RefCell<HashMap<Atom, Expr, FastBuildHasher>>,
}

impl Simplifier<'_, '_> {
    /// One bottom-up pass: simplify the inside of each atom, rewrite the atom, then the sum.
    pub(crate) fn once(&self, e: &Expr) -> Expr {
        if let Some(c) = self.ev.range(e).as_point() {
            return Expr::constant(c);
        }
        if e.terms().len() > self.budget.max_terms {
            return e.clone();
        }
        rules::simplify_sum(self, &self.once_without_sum(e))
    }

    /// One pass of the atom rules, without the sum rules (used to judge a sum-level rewrite).
    pub(crate) fn once_without_sum(&self, e: &Expr) -> Expr {
        let mut acc = Expr::constant(e.constant_term());
        for (atom, coef) in e.terms() {
            match self
                .atom(atom)
                .checked_scale(*coef)
                .and_then(|t| acc.checked_add(&t))
            {
                Ok(sum) => acc = sum,
                Err(_) => return e.clone(),
            }
        }
        acc
    }

    /// The simplest form found for one atom (cached).
    pub(crate) fn atom(&self, atom: &Atom) -> Expr {
        if let Some(e) = self.atoms.borrow().get(atom) {
            return e.clone();
        }
        let e = self.atom_uncached(atom);
        self.atoms.borrow_mut().insert(atom.clone(), e.clone());
        e
    }

    fn atom_uncached(&self, atom: &Atom) -> Expr {
        let point = self.ev.atom_range(atom).as_point();
        if let Some(c) = point {
            return Expr::constant(c);
        }
        let rewritten = match atom {
            Atom::Var(_) => return Expr::atom(atom.clone()),
            Atom::FloorDiv(x, k) => rules::floor_div(self, &self.inner(x), *k),
            Atom::CeilDiv(x, k) => rules::ceil_div(self, &self.inner(x), *k),
            Atom::Mod(x, k) => rules::modulo(self, &self.inner(x), *k),
        };
        let fitted = match rewritten.as_atom() {
            Some(a) => fit::atom_fit(a, self.ev, self.budget.atom_fit_points),
            None => None,
        };
        fitted
            .or_else(|| fit::affine_fit(&rewritten, self.ev, self.budget.atom_fit_points))
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

    /// The cheapest of `candidates` (the first on ties). A candidate's constant summand does not
    /// count: it merges with the constant of the sum the candidate stands in.
    pub(crate) fn cheapest(&self, candidates: impl IntoIterator<Item = Expr>) -> Option<Expr> {
        candidates.into_iter().min_by_key(|e| {
            e.checked_add_const(-e.constant_term())
                .map_or(e.cost(), |v| v.cost())
        })
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
        let before = self.clone();
        constraints::simplify_constraints(self, budget);
        if !self.known_empty {
            let results: Vec<Expr> = {
                let ev = self.range_evaluator(true);
                self.results
                    .iter()
                    .map(|r| simplify_expr_with(r, &ev, budget))
                    .collect()
            };
            self.results = results;
        }
        *self != before
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
