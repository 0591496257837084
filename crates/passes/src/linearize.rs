//! Linear addressing, the step of `xla-indexing-lower-apply` before `apply_indexing` is lowered
//! (option `linearize`, on by default).
//!
//! A `memref.load` or `memref.store` of a buffer with a static shape and static non-negative
//! strides (rank 2 or more), whose indices are all results of one `xla_indexing.apply_indexing`
//! `A`, becomes an access to a one-dimensional view of the same memory at the linear offset:
//!
//! ```text
//! %i:2 = xla_indexing.apply_indexing #xla_indexing.map<"(d0) -> (d0 floordiv 45, d0 mod 45), ...">(%t)
//! %v = memref.load %m[%i#0, %i#1] : memref<84x45xf32>
//! ```
//! becomes
//! ```text
//! %flat = memref.reinterpret_cast %m to offset: [0], sizes: [3780], strides: [1] : memref<84x45xf32> to memref<3780xf32>
//! %l = xla_indexing.apply_indexing #xla_indexing.map<"(d0) -> (d0), ...">(%t)
//! %v = memref.load %flat[%l] : memref<3780xf32>
//! ```
//!
//! The offset's map is the sum as written over `A`'s simplified results; lowering it weighs it
//! against its simplification as a whole (see `lower_apply`), which finds the forms above.
//!
//! Identity: the memref lowering addresses `%m[i_0, ..., i_{n-1}]` at `aligned + offset + Σ_k
//! i_k * stride_k`; the view has the same aligned pointer and offset and stride 1, and `%l`
//! computes `Σ_k stride_k * r_k` from the results `r_k` of `A`'s map that the access uses, with
//! `A`'s operands: the same element is read or written. Condition: the buffer's sizes, strides
//! and offset are static, the strides non-negative and the span `1 + Σ_k (size_k - 1) *
//! stride_k` fits in 63 bits; otherwise the access stays as it is.
//!
//! The gain is that the offset is simplified as a whole within `A`'s domain: a row-major store
//! at `(t floordiv 45, t mod 45)` is at `t`, a reshape or bitcast of a row-major buffer reads at
//! the thread's own offset, and a transpose of `[96, 100, 130]` reads at `t * 130 - (t floordiv
//! 9600) * 1247999` (one division where the multi-index takes three).

use std::rc::Rc;

use melior::{
    Context, RewriterBase,
    ir::{
        Attribute, Identifier, Operation, OperationRef, Type, Value, ValueLike,
        operation::{OperationBuilder, OperationLike},
    },
};
use xla_indexing_core::{Expr, IndexingMap};

use super::ranges::apply_indexing_maps;
use xla_indexing_mlir::handles::stretch_value;
use xla_indexing_mlir::indexing_ops::is_apply_indexing;
use xla_indexing_mlir::ir::{defining_op, memref_memory_space, memref_strides, op_name, shape_of};
use xla_indexing_mlir::map_attribute;
use xla_indexing_mlir::ods::xla_indexing::apply_indexing;
use xla_indexing_mlir::rewrite::{PatternError, RewriteFn, apply_greedily};

/// Rewrites every access of `operation` that can be linearized (see the module's doc);
/// `simplify` says whether the linear offsets are simplified.
pub fn linearize_accesses(operation: OperationRef, simplify: bool) -> Result<(), PatternError> {
    // An access's memref is operand 0 of a load and operand 1 of a store.
    let access = |memref_at: usize| -> RewriteFn {
        Rc::new(move |context, op, rewriter| linearize(context, op, rewriter, memref_at, simplify))
    };
    apply_greedily(
        operation,
        &[("memref.load", access(0)), ("memref.store", access(1))],
    )
}

/// A static strided memref type: sizes, strides, offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StaticLayout {
    pub sizes: Vec<i64>,
    pub strides: Vec<i64>,
    pub offset: i64,
}

impl StaticLayout {
    /// The layout of memref type `ty`, if its sizes, strides and offset are static.
    pub fn of(ty: Type) -> Option<StaticLayout> {
        let sizes = shape_of(ty).filter(|s| s.is_memref)?.static_sizes()?;
        let (strides, offset) = memref_strides(ty)?;
        Some(StaticLayout {
            sizes,
            strides: strides.into_iter().collect::<Option<_>>()?,
            offset: offset?,
        })
    }

    /// The number of elements from the first to the last one addressed, `1 + Σ (size - 1) *
    /// stride`; `None` for an empty buffer, a negative stride, or a span beyond 63 bits.
    pub fn span(&self) -> Option<i64> {
        let mut last = 0i64;
        for (&size, &stride) in self.sizes.iter().zip(&self.strides) {
            if size <= 0 || stride < 0 {
                return None;
            }
            last = last.checked_add((size - 1).checked_mul(stride)?)?;
        }
        last.checked_add(1)
    }
}

/// Linearizes the access `op` whose memref is operand `memref_at`, its indices the operands
/// after it (the offset simplified if `simplify`). Every new op is built before any is
/// inserted, so that a failure leaves the IR as it was.
fn linearize(
    context: &Context,
    op: OperationRef,
    rewriter: &RewriterBase,
    memref_at: usize,
    simplify: bool,
) -> bool {
    let Some(plan) = linearization(&op, memref_at, simplify) else {
        return false;
    };
    let Some(built) = build(context, &op, &plan, memref_at) else {
        return false;
    };
    let [cast, offset, access] = built;
    rewriter.set_insertion_point_after_value(plan.memref);
    rewriter.insert(cast);
    rewriter.set_insertion_point_before(op);
    rewriter.insert(offset);
    let access = rewriter.insert(access);
    // SAFETY: the values are results of the op just inserted, which the IR owns.
    let values: Vec<Value> = (0..access.result_count())
        .filter_map(|i| access.result(i).ok())
        .map(|r| unsafe { stretch_value(r) })
        .collect();
    rewriter.replace_op_with_values(op, &values);
    true
}

/// The view, the offset's `apply_indexing` and the new access of `op`, not yet inserted.
fn build<'c>(
    context: &'c Context,
    op: &OperationRef<'c, '_>,
    plan: &Linearization<'c, '_>,
    memref_at: usize,
) -> Option<[Operation<'c>; 3]> {
    let location = op.location();
    let array = |text: String| Attribute::parse(context, &text);
    let named = |name: &str, a| (Identifier::new(context, name), a);
    let cast = OperationBuilder::new("memref.reinterpret_cast", location)
        .add_operands(&[plan.memref])
        .add_attributes(&[
            named(
                "static_offsets",
                array(format!("array<i64: {}>", plan.offset))?,
            ),
            named("static_sizes", array(format!("array<i64: {}>", plan.span))?),
            named("static_strides", array("array<i64: 1>".into())?),
            named(
                "operandSegmentSizes",
                array("array<i32: 1, 0, 0, 0>".into())?,
            ),
        ])
        .add_results(&[Type::parse(context, &plan.view_type)?])
        .build()
        .ok()?;
    let offset: Operation = apply_indexing(
        context,
        &[Type::index(context)],
        &plan.apply_operands,
        map_attribute(context, &plan.map).ok()?,
        location,
    )
    .into();
    // SAFETY: the results belong to ops that are inserted into the IR with the access.
    let (view, linear) = unsafe {
        (
            stretch_value(cast.result(0).ok()?),
            stretch_value(offset.result(0).ok()?),
        )
    };
    let mut operands: Vec<Value> = (0..memref_at).filter_map(|i| op.operand(i).ok()).collect();
    operands.extend([view, linear]);
    let results: Vec<Type> = (0..op.result_count())
        .filter_map(|i| op.result(i).ok().map(|r| r.r#type()))
        .collect();
    // The builder borrows the name until `build`.
    let name = op_name(op);
    let mut builder = OperationBuilder::new(&name, location)
        .add_operands(&operands)
        .add_results(&results);
    if let Ok(nontemporal) = op.attribute("nontemporal") {
        builder = builder.add_attributes(&[named("nontemporal", nontemporal)]);
    }
    Some([cast, offset, builder.build().ok()?])
}

/// What linearizing one access takes.
struct Linearization<'c, 'a> {
    memref: Value<'c, 'a>,
    view_type: String,
    offset: i64,
    span: i64,
    /// The operands of the `apply_indexing` that computes the indices.
    apply_operands: Vec<Value<'c, 'a>>,
    /// Its map with the linear offset as the one result.
    map: IndexingMap,
}

/// The linearization of access `op` (memref at operand `memref_at`), if it can be linearized;
/// the offset over the simplified map if `simplify`, else over the map as written.
fn linearization<'c, 'a>(
    op: &OperationRef<'c, 'a>,
    memref_at: usize,
    simplify: bool,
) -> Option<Linearization<'c, 'a>> {
    let memref = op.operand(memref_at).ok()?;
    let layout = StaticLayout::of(memref.r#type())?;
    let rank = layout.sizes.len();
    if rank < 2 || op.operand_count() != memref_at + 1 + rank {
        return None;
    }
    let span = layout.span()?;
    // The indices: results of one apply_indexing.
    let mut apply: Option<OperationRef> = None;
    let mut positions = Vec::with_capacity(rank);
    for k in 0..rank {
        let index = op.operand(memref_at + 1 + k).ok()?;
        let def = defining_op(index)?;
        if !is_apply_indexing(&op_name(&def)) {
            return None;
        }
        if apply.is_some_and(|a| a != def) {
            return None;
        }
        positions.push(
            (0..def.result_count())
                .find(|&i| def.result(i).is_ok_and(|r| Value::from(r) == index))?,
        );
        apply = Some(def);
    }
    let apply = apply?;
    let maps = apply_indexing_maps(&apply)?;
    let domain = if simplify {
        maps.simplified
    } else {
        maps.written
    };
    // The sum of the results as they are: lowering weighs it against its simplification.
    let mut linear = Expr::constant(0);
    for (&r, &stride) in positions.iter().zip(&layout.strides) {
        let term = domain.results().get(r)?.checked_scale(stride).ok()?;
        linear = linear.checked_add(&term).ok()?;
    }
    let map = domain.with_results(vec![linear]);
    let element = element_text(memref.r#type());
    let space = memory_space_suffix(memref.r#type());
    let strided = if layout.offset == 0 {
        String::new()
    } else {
        format!(", strided<[1], offset: {}>", layout.offset)
    };
    Some(Linearization {
        memref,
        view_type: format!("memref<{span}x{element}{strided}{space}>"),
        offset: layout.offset,
        span,
        apply_operands: (0..apply.operand_count())
            .filter_map(|i| apply.operand(i).ok())
            .collect(),
        map,
    })
}

/// The element type of memref type `ty`, as text.
fn element_text(ty: Type) -> String {
    shape_of(ty).map_or_else(String::new, |s| s.element.to_string())
}

/// `, SPACE` for a memref type in a memory space other than the default, else nothing.
fn memory_space_suffix(ty: Type) -> String {
    memref_memory_space(ty).map_or_else(String::new, |space| format!(", {space}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(sizes: &[i64], strides: &[i64]) -> StaticLayout {
        StaticLayout {
            sizes: sizes.to_vec(),
            strides: strides.to_vec(),
            offset: 0,
        }
    }

    #[test]
    fn spans_cover_the_addressed_elements() {
        assert_eq!(layout(&[84, 45], &[45, 1]).span(), Some(3780));
        assert_eq!(layout(&[100, 200], &[1, 100]).span(), Some(20000));
        // Padded rows: the last row ends before the padding.
        assert_eq!(layout(&[8, 100], &[128, 1]).span(), Some(7 * 128 + 100));
        assert_eq!(layout(&[4, 3], &[0, 1]).span(), Some(3));
        assert_eq!(layout(&[4, 0], &[1, 1]).span(), None);
        assert_eq!(layout(&[4, 3], &[-1, 1]).span(), None);
        assert_eq!(layout(&[i64::MAX, 3], &[2, 1]).span(), None);
    }
}
