//! What each op computes, as an expression over roots ([`IndexValues::read_op`]); comparisons,
//! selects, `min` and `max` read as what they always give where `conditions.rs` decides them.
//!
//! An op is read only where its meaning is exactly the expression's: truncating and unsigned
//! divisions only on dividends of one sign, casts only where the value survives them, and every
//! composed value within its type or flagged `nsw`, whose wrapping is poison (checked in
//! `values.rs`).

use std::rc::Rc;

use melior::ir::{OperationRef, operation::OperationLike};
use xla_indexing_core::{Expr, Interval, VarRef};

use super::{
    conditions::{Pick, min_max_range},
    fold::{Flags, fold},
    known::{Known, Read, Reading},
    unsigned_order::negative,
    values::IndexValues,
};
use xla_indexing_mlir::{
    affine::expr_from_affine_with,
    index_op::{Cast, Division, IndexOp},
    indexing_ops::op_map,
    ir::{affine_map_attribute, constant_value},
};

impl IndexValues {
    /// How result `index` of `op` is read.
    pub(super) fn read_op(
        &mut self,
        op: &OperationRef,
        index: usize,
        width: u32,
        depth: usize,
    ) -> Option<Read> {
        let kind = IndexOp::of(op)?;
        let operand = |this: &mut Self, i: usize| -> Option<Rc<Known>> {
            this.known_at_depth(op.operand(i).ok()?, depth)
        };
        let exact = |expr: Expr, knowns: &[&Known]| Some(Read::Exact(Reading::of(expr, knowns)));
        // An `arith` op of constants is a constant, whatever it computes.
        if kind.is_arith() && kind != IndexOp::Constant {
            let constants: Option<Vec<i64>> = (0..op.operand_count())
                .map(|i| operand(self, i)?.expr.as_constant())
                .collect();
            if let Some(c) = constants.and_then(|c| fold(op, &c)).map(|c| c.signed()) {
                return exact(
                    Expr::constant(if width == 1 { i64::from(c != 0) } else { c }),
                    &[],
                );
            }
        }
        // A boolean is read as 0 or 1 but computes as 0 or -1: `addi` is `xor`, and signed
        // `min`/`max` take the other one. Only what reads the same both ways is composed.
        if width == 1
            && !matches!(
                kind,
                IndexOp::Constant | IndexOp::Cmp | IndexOp::Select | IndexOp::Cast(_)
            )
        {
            return None;
        }
        match kind {
            IndexOp::Constant => {
                let c = constant_value(op.result(0).ok()?.into())?;
                exact(
                    Expr::constant(if width == 1 { i64::from(c != 0) } else { c }),
                    &[],
                )
            }
            IndexOp::Add | IndexOp::Sub | IndexOp::Mul => {
                let nuw = Flags::of(op).nuw;
                // `x -nuw y` where `x <=u y` (`unsigned_order.rs`): defined only where
                // `x >=u y` too, so there `x = y` and the difference is 0.
                if kind == IndexOp::Sub
                    && nuw
                    && self.unsigned_at_most(op.operand(0).ok()?, op.operand(1).ok()?)
                {
                    return exact(Expr::constant(0), &[]);
                }
                let (a, b) = (operand(self, 0)?, operand(self, 1)?);
                let defined_where = if nuw {
                    Some(unsigned_no_wrap(kind, a.range, b.range)?)
                } else {
                    None
                };
                let expr = match kind {
                    IndexOp::Add => a.expr.checked_add(&b.expr).ok()?,
                    IndexOp::Sub => a.expr.checked_sub(&b.expr).ok()?,
                    _ => match (a.expr.as_constant(), b.expr.as_constant()) {
                        (_, Some(k)) => a.expr.checked_scale(k).ok()?,
                        (Some(k), None) => b.expr.checked_scale(k).ok()?,
                        (None, None) => return None,
                    },
                };
                let mut reading = Reading::of(expr, &[&a, &b]);
                if let Some(Some(interval)) = defined_where {
                    reading.facts.push((reading.expr.clone(), interval));
                }
                Some(Read::Exact(reading))
            }
            IndexOp::Div(kind) => {
                let (a, b) = (operand(self, 0)?, operand(self, 1)?);
                let expr = division(kind, &a, b.expr.as_constant()?)?;
                exact(expr, &[&a, &b])
            }
            // Truncation to a boolean keeps a value that is already 0 or 1; sign extension of
            // a boolean makes true -1.
            IndexOp::Cast(_) if width == 1 => {
                let a = operand(self, 0)?;
                Interval::new(0, 1)
                    .contains_interval(a.range)
                    .then(|| Read::Exact(Reading::of(a.expr.clone(), &[&a])))
            }
            IndexOp::Cast(cast @ (Cast::Signed | Cast::Truncate)) => {
                let a = operand(self, 0)?;
                let expr = if cast == Cast::Signed && a.width == 1 {
                    a.expr.checked_scale(-1).ok()?
                } else {
                    a.expr.clone()
                };
                exact(expr, &[&a])
            }
            IndexOp::Cast(Cast::Unsigned) => {
                let a = operand(self, 0)?;
                (a.range.lo >= 0).then(|| Read::Exact(Reading::of(a.expr.clone(), &[&a])))
            }
            IndexOp::Cmp => {
                let decided = self.decide_cmpi(op)?;
                exact(Expr::constant(i64::from(decided)), &[])
            }
            IndexOp::Select => {
                let (c, a, b) = (operand(self, 0)?, operand(self, 1)?, operand(self, 2)?);
                match c.expr.as_constant() {
                    Some(taken) => {
                        let chosen = if taken != 0 { &a } else { &b };
                        exact(chosen.expr.clone(), &[chosen, &c])
                    }
                    // Defined where the operand selected is: only the facts of both hold.
                    None if a.expr == b.expr => {
                        let mut reading = Reading::of(a.expr.clone(), &[&c]);
                        reading
                            .facts
                            .extend(a.facts.iter().filter(|f| b.facts.contains(f)).cloned());
                        Some(Read::Exact(reading))
                    }
                    None => Some(Read::Root(a.range.hull(b.range))),
                }
            }
            IndexOp::MinMax { .. } => {
                let (a, b) = (operand(self, 0)?, operand(self, 1)?);
                match self.decide_min_max(op)? {
                    Pick::Operand(i) => {
                        let chosen = if i == 0 { &a } else { &b };
                        exact(chosen.expr.clone(), &[chosen])
                    }
                    Pick::Range(range) => Some(Read::Root(range)),
                }
            }
            IndexOp::AffineApply => {
                let results = self.affine_results(op, depth)?;
                let (expr, knowns) = results.into_iter().nth(index)?;
                let knowns: Vec<&Known> = knowns.iter().map(|k| &**k).collect();
                exact(expr, &knowns)
            }
            IndexOp::AffineMinMax { max } => {
                let is_min = !max;
                let results = self.affine_results(op, depth)?;
                let kept = self.min_max_kept(op, &results, is_min)?;
                if let [only] = kept.as_slice() {
                    let (expr, knowns) = &results[*only];
                    let knowns: Vec<&Known> = knowns.iter().map(|k| &**k).collect();
                    return exact(expr.clone(), &knowns);
                }
                let ranges: Vec<Interval> = kept
                    .iter()
                    .map(|&i| self.range_at(op, &results[i].0, &results[i].1))
                    .collect();
                Some(Read::Root(min_max_range(&ranges, is_min)))
            }
            IndexOp::ApplyIndexing => self.read_apply_indexing(op, index, depth),
            IndexOp::And | IndexOp::Or | IndexOp::Xor | IndexOp::Gpu { .. } => None,
        }
    }

    /// The results of an `affine.apply`, `affine.min` or `affine.max` over roots, each with
    /// the known operands it was composed from.
    pub(super) fn affine_results_of(
        &mut self,
        op: &OperationRef,
    ) -> Option<Vec<(Expr, Vec<Rc<Known>>)>> {
        self.affine_results(op, 0)
    }

    fn affine_results(
        &mut self,
        op: &OperationRef,
        depth: usize,
    ) -> Option<Vec<(Expr, Vec<Rc<Known>>)>> {
        let map = affine_map_attribute(op.attribute("map").ok()?)?;
        let operands: Vec<Rc<Known>> = (0..op.operand_count())
            .map(|i| self.known_at_depth(op.operand(i).ok()?, depth))
            .collect::<Option<_>>()?;
        if operands.len() != map.dim_count() + map.symbol_count() {
            return None;
        }
        let exprs: Vec<Expr> = operands.iter().map(|k| k.expr.clone()).collect();
        let num_dims = map.dim_count();
        let operand = |v: VarRef| match v {
            VarRef::Dim(i) => exprs.get(i as usize).cloned(),
            VarRef::Sym(j) => exprs.get(num_dims + j as usize).cloned(),
        };
        (0..map.result_count())
            .map(|i| {
                let e = expr_from_affine_with(map.result(i).ok()?, &operand)?;
                Some((e, operands.clone()))
            })
            .collect()
    }

    /// Result `index` of an `xla_indexing.apply_indexing`: the map's result over its operands'
    /// expressions, with the map's domain (bounds and constraints the operands' ranges do not
    /// already imply) as facts: outside the domain the op's results mean nothing.
    fn read_apply_indexing(
        &mut self,
        op: &OperationRef,
        index: usize,
        depth: usize,
    ) -> Option<Read> {
        let map = op_map(op)?;
        if map.is_known_empty() {
            return None;
        }
        let operands: Vec<Rc<Known>> = (0..op.operand_count())
            .map(|i| self.known_at_depth(op.operand(i).ok()?, depth))
            .collect::<Option<_>>()?;
        let num_dims = map.dims().len();
        if operands.len() != num_dims + map.num_symbols() {
            return None;
        }
        let exprs: Vec<Expr> = operands.iter().map(|k| k.expr.clone()).collect();
        let (dims, syms) = exprs.split_at(num_dims);
        let result = map.results().get(index)?.substitute(dims, syms).ok()?;
        let knowns: Vec<&Known> = operands.iter().map(|k| &**k).collect();
        let mut reading = Reading::of(result, &knowns);
        let bounds = map
            .all_vars()
            .zip(&operands)
            .map(|(var, known)| (known.expr.clone(), var.bounds, known.range));
        let mut domain: Vec<(Expr, Interval, Interval)> = bounds.collect();
        for (constraint, interval) in map.constraints() {
            let e = constraint.substitute(dims, syms).ok()?;
            let range = self.simplify(&e, &[]).map_or(Interval::FULL, |(_, r)| r);
            domain.push((e, *interval, range));
        }
        reading.facts.extend(
            domain
                .into_iter()
                .filter(|(_, interval, range)| !interval.contains_interval(*range))
                .map(|(e, interval, _)| (e, interval)),
        );
        Some(Read::Exact(reading))
    }
}

/// Where `x op y` flagged `nuw` (`op` an `addi`, `subi` or `muli` of operands in `a` and `b`)
/// is defined, as a constraint on the integer result `x op y` (`Some(None)`: wherever it fits
/// the type, which `values.rs` checks), or `None` where the operands' signs do not say or it is
/// never defined (it is then read as a root, which no other value is taken for). Read unsigned,
/// a negative operand is `2^w` above its value, so
/// - `x +nuw y` and `x *nuw y` of non-negative operands, and `x -nuw y` of a negative `x` and a
///   non-negative `y`, wrap only where the integer result leaves the type;
/// - `x -nuw y` of operands of one sign is defined where `x - y >= 0`;
/// - `x +nuw y` of operands of different signs is defined where `x + y < 0`.
fn unsigned_no_wrap(kind: IndexOp, a: Interval, b: Interval) -> Option<Option<Interval>> {
    match (kind, negative(a)?, negative(b)?) {
        (IndexOp::Add | IndexOp::Mul, false, false) | (IndexOp::Sub, true, false) => Some(None),
        (IndexOp::Sub, x, y) if x == y => Some(Some(Interval::new(0, i64::MAX))),
        (IndexOp::Add, x, y) if x != y => Some(Some(Interval::new(i64::MIN, -1))),
        _ => None,
    }
}

/// `a` divided by the constant `k` as the `arith` division `kind` does it, as an expression,
/// where that is exact: floor and ceiling divisions always; truncating and unsigned ones on
/// dividends of one sign (unsigned: never negative, and `k` positive).
fn division(kind: Division, a: &Known, k: i64) -> Option<Expr> {
    if k == 0 {
        return None;
    }
    let x = &a.expr;
    let nonneg = a.range.lo >= 0;
    let nonpos = a.range.hi <= 0;
    let magnitude = k.checked_abs()?;
    // Truncation toward zero: floor(|x| / |k|) with the sign of x / k.
    let truncated = |quotient: bool| -> Option<Expr> {
        let (abs_x, x_sign) = if nonneg {
            (x.clone(), 1)
        } else if nonpos {
            (x.checked_scale(-1).ok()?, -1)
        } else {
            return None;
        };
        if quotient {
            let sign = if k > 0 { x_sign } else { -x_sign };
            abs_x.floor_div(magnitude).ok()?.checked_scale(sign).ok()
        } else {
            abs_x.modulo(magnitude).ok()?.checked_scale(x_sign).ok()
        }
    };
    match kind {
        Division::FloorSigned => x.floor_div(k).ok(),
        Division::CeilSigned => x.ceil_div(k).ok(),
        Division::TruncSigned => truncated(true),
        Division::RemSigned => truncated(false),
        Division::Unsigned if nonneg && k > 0 => x.floor_div(k).ok(),
        Division::RemUnsigned if nonneg && k > 0 => x.modulo(k).ok(),
        Division::CeilUnsigned if nonneg && k > 0 => x.ceil_div(k).ok(),
        Division::Unsigned | Division::RemUnsigned | Division::CeilUnsigned => None,
    }
}
