//! The unsigned order of two values, proved from the ops that compute them wherever both are
//! defined: what `nuw` arithmetic and unsigned ops guarantee even where the signed reading of
//! `values.rs` knows nothing (operands of any sign, whose unsigned values do not fit an `i64`).
//!
//! `x <=u y` (both read unsigned) holds when
//! - `x` and `y` are one value, `x` is 0 or `y` is all ones;
//! - both are of one sign and `y - x` (over roots, with their facts) is never negative: values
//!   of one sign compare unsigned as they do signed;
//! - `x` is at most an operand of its op that is `<=u y`: `p -nuw q`, `p divui q`,
//!   `p ceildivui q`, `p remui q` and `p andi q` are at most `p` read unsigned wherever they are
//!   defined; `remui`, `andi` and `minui` are at most either operand;
//! - `y` is at least an operand of its op that is `>=u x`: `p +nuw q`, `p ori q` and `maxui`
//!   are at least either operand.
//!
//! A `nuw` op is poison where its unsigned result would wrap, and an op with a poison operand is
//! poison, so facts that hold wherever the values are defined may decide what uses them.

use melior::ir::{OperationRef, Value, operation::OperationLike};
use xla_indexing_core::Interval;

use super::{fold::Flags, values::IndexValues};
use xla_indexing_mlir::{
    index_op::{Division, IndexOp},
    ir::defining_op,
};

/// Deepest chain of ops followed to prove an order.
const MAX_DEPTH: usize = 4;

impl IndexValues {
    /// Whether `x <=u y` wherever both are defined, as the module's rules prove it.
    pub(super) fn unsigned_at_most(&mut self, x: Value, y: Value) -> bool {
        self.at_most(x, y, MAX_DEPTH)
    }

    fn at_most(&mut self, x: Value, y: Value, depth: usize) -> bool {
        if x == y {
            return true;
        }
        let (Some(kx), Some(ky)) = (self.known(x), self.known(y)) else {
            return false;
        };
        if kx.width < 2 || kx.width != ky.width {
            return false;
        }
        if kx.range == Interval::point(0) || ky.range == Interval::point(-1) {
            return true;
        }
        if one_sign(kx.range, ky.range) {
            let facts: Vec<_> = kx.facts.iter().chain(ky.facts.iter()).cloned().collect();
            let difference = ky.expr.checked_sub(&kx.expr).ok();
            if difference
                .and_then(|d| self.simplify(&d, &facts))
                .is_some_and(|(_, range)| range.lo >= 0)
            {
                return true;
            }
        }
        if depth == 0 {
            return false;
        }
        // x is at most p (or q) of its op.
        if let Some((op, kind)) = defining_binary_op(x)
            && let (Ok(p), Ok(q)) = (op.operand(0), op.operand(1))
        {
            let (below_p, below_q) = match kind {
                IndexOp::Sub => (Flags::of(&op).nuw, false),
                IndexOp::Div(Division::Unsigned | Division::CeilUnsigned) => (true, false),
                IndexOp::Div(Division::RemUnsigned)
                | IndexOp::And
                | IndexOp::MinMax {
                    max: false,
                    signed: false,
                } => (true, true),
                _ => (false, false),
            };
            if (below_p && self.at_most(p, y, depth - 1))
                || (below_q && self.at_most(q, y, depth - 1))
            {
                return true;
            }
        }
        // y is at least p or q of its op.
        if let Some((op, kind)) = defining_binary_op(y)
            && let (Ok(p), Ok(q)) = (op.operand(0), op.operand(1))
        {
            let above = match kind {
                IndexOp::Add => Flags::of(&op).nuw,
                IndexOp::Or => true,
                IndexOp::MinMax {
                    max: true,
                    signed: false,
                } => true,
                _ => false,
            };
            if above && (self.at_most(x, p, depth - 1) || self.at_most(x, q, depth - 1)) {
                return true;
            }
        }
        false
    }
}

/// The op that defines `v`, if it is an index op of two operands, and its kind.
fn defining_binary_op<'c, 'a>(v: Value<'c, 'a>) -> Option<(OperationRef<'c, 'a>, IndexOp)> {
    // (Asking an op for an operand it does not have formats the op into the error.)
    let op = defining_op(v).filter(|op| op.operand_count() == 2)?;
    let kind = IndexOp::of(&op)?;
    Some((op, kind))
}

/// Whether every value of `r` is negative (`Some(true)`), every one non-negative
/// (`Some(false)`), or neither.
pub(super) fn negative(r: Interval) -> Option<bool> {
    if r.lo >= 0 {
        Some(false)
    } else if r.hi < 0 {
        Some(true)
    } else {
        None
    }
}

/// Whether every value of `a` and of `b` is of one sign (all non-negative or all negative).
fn one_sign(a: Interval, b: Interval) -> bool {
    negative(a).is_some_and(|n| negative(b) == Some(n))
}
