//! What comparisons, selects, `min`s and `max`es come to where the ranges decide them, and
//! what the ops that hold regions let their blocks assume ([`IndexValues::entry_facts`]): the
//! condition of an `scf.if` or `affine.if` in its then-region (and its negation in the else
//! region where that is one constraint), a loop's step in its body.

use std::rc::Rc;

use melior::ir::{BlockLike, BlockRef, OperationRef, RegionLike, Value, operation::OperationLike};
use xla_indexing_core::{Expr, Interval};

use super::known::{Fact, Known};
use super::unsigned_order::negative;
use super::values::IndexValues;
use xla_indexing_mlir::{
    affine::expr_from_affine,
    index_op::IndexOp,
    ir::{affine_map_attribute, defining_op, integer_set_attribute, op_name},
};

/// The predicates of `arith.cmpi`, in the order of its `predicate` attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Predicate {
    Eq,
    Ne,
    Slt,
    Sle,
    Sgt,
    Sge,
    Ult,
    Ule,
    Ugt,
    Uge,
}

impl Predicate {
    fn from_attribute(op: &OperationRef) -> Option<Predicate> {
        use Predicate::*;
        let value = xla_indexing_mlir::ir::integer_attribute(op.attribute("predicate").ok()?)?;
        [Eq, Ne, Slt, Sle, Sgt, Sge, Ult, Ule, Ugt, Uge]
            .get(usize::try_from(value).ok()?)
            .copied()
    }

    /// The predicate that holds exactly where this one does not.
    fn negated(self) -> Predicate {
        use Predicate::*;
        match self {
            Eq => Ne,
            Ne => Eq,
            Slt => Sge,
            Sle => Sgt,
            Sgt => Sle,
            Sge => Slt,
            Ult => Uge,
            Ule => Ugt,
            Ugt => Ule,
            Uge => Ult,
        }
    }

    /// The signed predicate with the same meaning on two values of which `a_order` and
    /// `b_order` say how they compare as unsigned integers: both of one sign compare as
    /// signed, and a negative value is above every non-negative one; nothing is below 0
    /// (`x ult 0` is false and `x uge 0` true for any `x`).
    fn signed(self, a: Interval, b: Interval) -> Option<Signed> {
        use Predicate::*;
        let unsigned = |p: Predicate| -> Option<Signed> {
            let (a_neg, b_neg) = (negative(a)?, negative(b)?);
            if a_neg == b_neg {
                return Some(Signed::Compare(p));
            }
            // A negative value is the larger one as unsigned.
            let a_above = a_neg;
            Some(Signed::Known(match p {
                Slt | Sle => !a_above,
                _ => a_above,
            }))
        };
        // No value is below 0 as unsigned, whatever its sign.
        let zero = |r: Interval| r == Interval::point(0);
        match self {
            Ult if zero(b) => Some(Signed::Known(false)),
            Uge if zero(b) => Some(Signed::Known(true)),
            Ugt if zero(a) => Some(Signed::Known(false)),
            Ule if zero(a) => Some(Signed::Known(true)),
            Ult => unsigned(Slt),
            Ule => unsigned(Sle),
            Ugt => unsigned(Sgt),
            Uge => unsigned(Sge),
            p => Some(Signed::Compare(p)),
        }
    }

    /// Whether `a - b` in `d` decides a signed comparison.
    fn decide_signed(self, d: Interval) -> Option<bool> {
        use Predicate::*;
        let (always, never) = match self {
            Eq => (d == Interval::point(0), !d.contains(0)),
            Ne => (!d.contains(0), d == Interval::point(0)),
            Slt => (d.hi < 0, d.lo >= 0),
            Sle => (d.hi <= 0, d.lo > 0),
            Sgt => (d.lo > 0, d.hi <= 0),
            Sge => (d.lo >= 0, d.hi < 0),
            _ => return None,
        };
        decision(always, never)
    }

    /// The interval of `a - b` where a signed predicate holds; `None` for `ne`.
    fn difference_interval(self) -> Option<Interval> {
        use Predicate::*;
        Some(match self {
            Eq => Interval::point(0),
            Slt => Interval::new(i64::MIN, -1),
            Sle => Interval::new(i64::MIN, 0),
            Sgt => Interval::new(1, i64::MAX),
            Sge => Interval::new(0, i64::MAX),
            _ => return None,
        })
    }
}

/// A comparison reduced to signed integers.
enum Signed {
    Compare(Predicate),
    Known(bool),
}

impl IndexValues {
    /// The facts that hold at `op`: those of its operands' known values and of its block.
    pub(super) fn context(&mut self, op: &OperationRef, knowns: &[&Known]) -> Vec<Fact> {
        let mut facts: Vec<Fact> = knowns
            .iter()
            .flat_map(|k| k.facts.iter().cloned())
            .collect();
        if let Some(block) = xla_indexing_mlir::ir::parent_block(op) {
            facts.extend(self.facts_of_block(block).iter().cloned());
        }
        facts
    }

    /// The range of `e` (over roots, composed from `knowns`) where `op` is.
    pub(super) fn range_at(
        &mut self,
        op: &OperationRef,
        e: &Expr,
        knowns: &[Rc<Known>],
    ) -> Interval {
        let knowns: Vec<&Known> = knowns.iter().map(|k| &**k).collect();
        let context = self.context(op, &knowns);
        self.simplify(e, &context)
            .map_or(Interval::FULL, |(_, r)| r)
    }

    /// The range of `a - b` where `op` is, `None` where it is never reached.
    fn difference(&mut self, op: &OperationRef, a: &Known, b: &Known) -> Option<Interval> {
        let d = a.expr.checked_sub(&b.expr).ok()?;
        let context = self.context(op, &[a, b]);
        self.simplify(&d, &context).map(|(_, r)| r)
    }

    /// What an `arith.cmpi` always gives, if the ranges decide it.
    pub(super) fn decide_cmpi(&mut self, op: &OperationRef) -> Option<bool> {
        let predicate = Predicate::from_attribute(op)?;
        let (a, b) = self.known_operands(op)?;
        if a.width == 1 {
            return None;
        }
        if let Some(decided) = self.decide_by_unsigned_order(op, predicate) {
            return Some(decided);
        }
        match predicate.signed(a.range, b.range)? {
            Signed::Known(value) => Some(value),
            Signed::Compare(p) => p.decide_signed(self.difference(op, &a, &b)?),
        }
    }

    /// What an unsigned `arith.cmpi` gives where the unsigned order of its operands
    /// (`unsigned_order.rs`) decides it: `x ule y` and `y uge x` hold, `x ugt y` and `y ult x`
    /// do not, wherever `x <=u y` is proved.
    fn decide_by_unsigned_order(
        &mut self,
        op: &OperationRef,
        predicate: Predicate,
    ) -> Option<bool> {
        let (x, y) = (op.operand(0).ok()?, op.operand(1).ok()?);
        let (lower, upper, holds) = match predicate {
            Predicate::Ule => (x, y, true),
            Predicate::Ugt => (x, y, false),
            Predicate::Uge => (y, x, true),
            Predicate::Ult => (y, x, false),
            _ => return None,
        };
        self.unsigned_at_most(lower, upper).then_some(holds)
    }

    /// Which operand an `arith.min*`/`max*` always gives, or else the range of its result.
    pub(super) fn decide_min_max(&mut self, op: &OperationRef) -> Option<Pick> {
        let (a, b) = self.known_operands(op)?;
        let IndexOp::MinMax { max, signed } = IndexOp::of(op)? else {
            return None;
        };
        let is_min = !max;
        // Booleans are read as 0 and 1, and the signed order of theirs is the other way round.
        if a.width == 1 {
            return None;
        }
        if !signed {
            let (x, y) = (op.operand(0).ok()?, op.operand(1).ok()?);
            // x <=u y: minui is x, maxui is y; y <=u x: the other way round.
            if self.unsigned_at_most(x, y) {
                return Some(Pick::Operand(usize::from(!is_min)));
            }
            if self.unsigned_at_most(y, x) {
                return Some(Pick::Operand(usize::from(is_min)));
            }
            if a.range.lo < 0 || b.range.lo < 0 {
                return Some(Pick::Range(Interval::FULL));
            }
        }
        let d = self.difference(op, &a, &b)?;
        // a <= b always: min is a, max is b; a >= b always: the other way round.
        let pick = if d.hi <= 0 {
            Some(usize::from(!is_min))
        } else if d.lo >= 0 {
            Some(usize::from(is_min))
        } else {
            None
        };
        Some(match pick {
            Some(i) => Pick::Operand(i),
            None => Pick::Range(min_max_range(&[a.range, b.range], is_min)),
        })
    }

    /// The results of an `affine.min` (`is_min`) or `affine.max` that can be its value: a
    /// result that some other kept result never exceeds (for `min`) is dropped.
    pub(super) fn min_max_kept(
        &mut self,
        op: &OperationRef,
        results: &[(Expr, Vec<Rc<Known>>)],
        is_min: bool,
    ) -> Option<Vec<usize>> {
        let operands = results.first().map(|(_, k)| k.clone()).unwrap_or_default();
        let knowns: Vec<&Known> = operands.iter().map(|k| &**k).collect();
        let context = self.context(op, &knowns);
        let mut kept: Vec<usize> = (0..results.len()).collect();
        let mut i = 0;
        while i < kept.len() {
            let dominated = kept.iter().any(|&j| {
                j != kept[i] && {
                    let d = results[j].0.checked_sub(&results[kept[i]].0).ok();
                    let d = d.and_then(|d| self.simplify(&d, &context));
                    // For min: result j is never above result i, so i is never needed (ties
                    // keep the first of equal results).
                    d.is_some_and(|(_, r)| {
                        let below = if is_min { r.hi <= 0 } else { r.lo >= 0 };
                        below && (r != Interval::point(0) || j < kept[i])
                    })
                }
            });
            if dominated {
                kept.remove(i);
            } else {
                i += 1;
            }
        }
        Some(kept)
    }

    /// For each constraint of an `affine.if`'s set (over its operands), whether it always
    /// holds (`Some(true)`), never holds (`Some(false)`), or depends.
    pub(super) fn decide_affine_if(&mut self, op: &OperationRef) -> Option<Vec<Option<bool>>> {
        let (constraints, context) = self.affine_if_set(op)?;
        Some(
            constraints
                .into_iter()
                .map(|(e, interval)| {
                    let (_, r) = self.simplify(&e, &context)?;
                    if interval.contains_interval(r) {
                        Some(true)
                    } else if !r.intersect(interval).is_feasible() {
                        Some(false)
                    } else {
                        None
                    }
                })
                .collect(),
        )
    }

    /// Whether the constraints of an `affine.if`'s set, with what holds at the op, hold at no
    /// point together (though each alone may).
    pub(super) fn affine_if_never_holds(&mut self, op: &OperationRef) -> bool {
        let Some((mut facts, context)) = self.affine_if_set(op) else {
            return false;
        };
        facts.extend(context);
        self.known_empty(&facts)
    }

    /// The constraints of an `affine.if`'s set over roots ([`Self::affine_if_constraints`]) and
    /// what holds at the op.
    fn affine_if_set(&mut self, op: &OperationRef) -> Option<(Vec<Fact>, Vec<Fact>)> {
        let constraints = self.affine_if_constraints(op)?;
        let knowns = self.operand_knowns(op)?;
        let knowns: Vec<&Known> = knowns.iter().map(|k| &**k).collect();
        Some((constraints, self.context(op, &knowns)))
    }

    /// The constraints of an `affine.if` over roots, each as `e in interval` (`e >= 0` or
    /// `e == 0`).
    fn affine_if_constraints(&mut self, op: &OperationRef) -> Option<Vec<Fact>> {
        let set = integer_set_attribute(op.attribute("condition").ok()?)?;
        let knowns = self.operand_knowns(op)?;
        if knowns.len() != set.num_dims + set.num_symbols {
            return None;
        }
        let exprs: Vec<Expr> = knowns.iter().map(|k| k.expr.clone()).collect();
        let (dims, syms) = exprs.split_at(set.num_dims);
        set.constraints
            .iter()
            .map(|(e, is_eq)| {
                let e = expr_from_affine(*e)?.substitute(dims, syms).ok()?;
                Some(set_constraint(e, *is_eq))
            })
            .collect()
    }

    /// What `parent` lets the entry of its region holding `block` assume.
    pub(super) fn entry_facts(&mut self, parent: &OperationRef, block: BlockRef) -> Vec<Fact> {
        let region = (0..parent.region_count()).find(|&i| {
            parent
                .region(i)
                .ok()
                .and_then(|r| r.first_block())
                .is_some_and(|b| b == block)
        });
        let Some(region) = region else {
            return Vec::new();
        };
        match op_name(parent).as_str() {
            "scf.if" => parent
                .operand(0)
                .ok()
                .map(|c| self.condition_facts(c, region == 0))
                .unwrap_or_default(),
            "affine.if" => {
                let Some(constraints) = self.affine_if_constraints(parent) else {
                    return Vec::new();
                };
                if region == 0 {
                    return constraints;
                }
                // Where the set fails, one of the constraints that do not always hold fails: if
                // that is one inequality `e >= 0`, then `e <= -1`.
                let decisions = self.decide_affine_if(parent).unwrap_or_default();
                let open: Vec<&Fact> = constraints
                    .iter()
                    .zip(decisions.iter().chain(std::iter::repeat(&None)))
                    .filter(|(_, d)| **d != Some(true))
                    .map(|(c, _)| c)
                    .collect();
                match open.as_slice() {
                    [(e, interval)] if interval.hi == i64::MAX => {
                        vec![(e.clone(), Interval::new(i64::MIN, -1))]
                    }
                    _ => Vec::new(),
                }
            }
            "scf.for" => self.step_facts(block, parent.operand(0).ok(), parent.operand(2).ok()),
            "affine.for" => {
                let lower = parent
                    .attribute("lowerBoundMap")
                    .ok()
                    .and_then(affine_map_attribute)
                    .filter(|m| m.result_count() == 1)
                    .and_then(|m| m.result(0).ok())
                    .filter(|e| e.is_constant())
                    .map(|e| e.constant_value());
                let step = parent
                    .attribute("step")
                    .ok()
                    .and_then(xla_indexing_mlir::ir::integer_attribute);
                match (lower, step) {
                    (Some(lower), Some(step)) => self.iv_step_fact(block, lower, step),
                    _ => Vec::new(),
                }
            }
            _ => Vec::new(),
        }
    }

    /// `(iv - lower) mod step == 0` for the induction variable of an `scf.for` body.
    fn step_facts(
        &mut self,
        block: BlockRef,
        lower: Option<Value>,
        step: Option<Value>,
    ) -> Vec<Fact> {
        let constant =
            |this: &mut Self, v: Option<Value>| this.known(v?).and_then(|k| k.expr.as_constant());
        match (constant(self, lower), constant(self, step)) {
            (Some(lower), Some(step)) => self.iv_step_fact(block, lower, step),
            _ => Vec::new(),
        }
    }

    fn iv_step_fact(&mut self, block: BlockRef, lower: i64, step: i64) -> Vec<Fact> {
        if step <= 1 {
            return Vec::new();
        }
        let Some(iv) = block.argument(0).ok().and_then(|a| self.known(a.into())) else {
            return Vec::new();
        };
        iv.expr
            .checked_add_const(lower.wrapping_neg())
            .and_then(|e| e.modulo(step))
            .map(|e| vec![(e, Interval::point(0))])
            .unwrap_or_default()
    }

    /// What holds where the `i1` `condition` is true (`holds`) or false.
    fn condition_facts(&mut self, condition: Value, holds: bool) -> Vec<Fact> {
        let Some(op) = defining_op(condition) else {
            return Vec::new();
        };
        match IndexOp::of(&op) {
            Some(IndexOp::And) if holds => {
                let mut facts = Vec::new();
                for i in 0..2 {
                    if let Ok(c) = op.operand(i) {
                        facts.extend(self.condition_facts(c, true));
                    }
                }
                facts
            }
            Some(IndexOp::Cmp) => self.comparison_facts(&op, holds).unwrap_or_default(),
            _ => Vec::new(),
        }
    }

    /// `a - b in I` where the comparison of `op` holds (`holds`) or fails.
    fn comparison_facts(&mut self, op: &OperationRef, holds: bool) -> Option<Vec<Fact>> {
        let predicate = Predicate::from_attribute(op)?;
        let predicate = if holds {
            predicate
        } else {
            predicate.negated()
        };
        let (a, b) = self.known_operands(op)?;
        if a.width == 1 {
            return None;
        }
        let Signed::Compare(p) = predicate.signed(a.range, b.range)? else {
            return None;
        };
        let interval = p.difference_interval()?;
        let mut facts: Vec<Fact> = a.facts.iter().chain(b.facts.iter()).cloned().collect();
        facts.push((a.expr.checked_sub(&b.expr).ok()?, interval));
        Some(facts)
    }

    fn known_operands(&mut self, op: &OperationRef) -> Option<(Rc<Known>, Rc<Known>)> {
        Some((
            self.known(op.operand(0).ok()?)?,
            self.known(op.operand(1).ok()?)?,
        ))
    }

    fn operand_knowns(&mut self, op: &OperationRef) -> Option<Vec<Rc<Known>>> {
        (0..op.operand_count())
            .map(|i| self.known(op.operand(i).ok()?))
            .collect()
    }
}

/// What an `arith.min*`/`max*` comes to.
pub(super) enum Pick {
    /// Always this operand.
    Operand(usize),
    /// Either operand: its result lies in this range.
    Range(Interval),
}

/// The range of the `min` (`is_min`) or `max` of values of `ranges`.
pub(super) fn min_max_range(ranges: &[Interval], is_min: bool) -> Interval {
    let pick = |f: fn(i64, i64) -> i64, g: fn(&Interval) -> i64| {
        ranges.iter().map(g).reduce(f).unwrap_or(0)
    };
    if is_min {
        Interval::new(pick(i64::min, |r| r.lo), pick(i64::min, |r| r.hi))
    } else {
        Interval::new(pick(i64::max, |r| r.lo), pick(i64::max, |r| r.hi))
    }
}

/// `Some(true)` for what always holds, `Some(false)` for what never does, else `None`.
pub(super) fn decision(always: bool, never: bool) -> Option<bool> {
    if always {
        Some(true)
    } else if never {
        Some(false)
    } else {
        None
    }
}

/// An integer set's constraint `e == 0` (`is_eq`) or `e >= 0` as a fact, its constant moved
/// into the interval (`x + c >= 0` is `x in [-c, ..]`), so that constraints on one `x` meet
/// (`d0 - d1 == 0` and `d0 - d1 - 1 >= 0`).
pub(super) fn set_constraint(e: Expr, is_eq: bool) -> Fact {
    let c = e.constant_term();
    let (e, lo) = match c.checked_neg() {
        Some(lo) if c != 0 && !e.terms().is_empty() => (e.without_constant(), lo),
        _ => (e, 0),
    };
    let interval = if is_eq {
        Interval::point(lo)
    } else {
        Interval::new(lo, i64::MAX)
    };
    (e, interval)
}
