//! What the analysis knows of a value ([`Known`]: its expression over roots, its range, the
//! facts it brings) and how an op result reads ([`Read`], [`Reading`]): the data that
//! `values.rs` keeps, `semantics.rs` reads ops into and `conditions.rs` decides with.

use std::rc::Rc;

use melior::ir::{Type, TypeLike, Value, ValueLike};
use xla_indexing_core::{Expr, Interval};

use super::depends::Depends;

/// `expr in interval`, over roots.
pub type Fact = (Expr, Interval);

/// What is known of one integer or index value.
#[derive(Clone, Debug)]
pub struct Known {
    /// The value as an expression over roots, simplified (exact wherever [`Known::facts`] and
    /// the facts of the value's block hold). A root's expression is its own dimension.
    pub expr: Expr,
    /// The values it can take.
    pub range: Interval,
    /// What may be assumed wherever the value is used (sorted, without repeats).
    pub facts: Rc<[Fact]>,
    /// Whether the expression is exactly what the op computes from its operands' expressions:
    /// simplifying found nothing more.
    pub settled: bool,
    /// Bits of its type (`index` counts as 64).
    pub width: u32,
    /// The identity of its type ([`type_key`]).
    pub(super) ty: usize,
    /// The roots what is known was found from: those of its operands and of the facts of its
    /// block, and its own if it is one.
    pub(super) depends: Depends,
}

impl Known {
    /// Whether `value` has this value's type.
    pub fn same_type(&self, value: Value) -> bool {
        type_key(value.r#type()) == self.ty
    }

    /// Whether every fact of `other` is one of this value's: where these hold, so do those.
    pub fn assumes(&self, other: &Known) -> bool {
        other.facts.iter().all(|f| self.facts.contains(f))
    }
}

/// How an op result is read.
pub enum Read {
    /// As an expression over roots.
    Exact(Reading),
    /// As a root, within this range (beyond what [`Ranges`](crate::ranges::Ranges)
    /// finds).
    Root(Interval),
}

/// An op result as an expression over roots, with the facts it brings.
pub struct Reading {
    /// The result's expression.
    pub expr: Expr,
    /// What may be assumed wherever the result is used.
    pub facts: Vec<Fact>,
}

impl Reading {
    /// A reading of `expr` that brings the facts of `operands`.
    pub fn of(expr: Expr, operands: &[&Known]) -> Reading {
        Reading {
            expr,
            facts: operands
                .iter()
                .flat_map(|k| k.facts.iter().cloned())
                .collect(),
        }
    }
}

/// The identity of a type.
pub fn type_key(ty: Type) -> usize {
    ty.to_raw().ptr as usize
}
