//! Reads of multi-dimensional tensors as reads of their row-major flattening, as XLA's CPU
//! pipeline flattens tensors before it simplifies: a `tensor.extract` of a static, unencoded
//! tensor of rank 2 or more becomes
//!
//! ```mlir
//! %flat = tensor.collapse_shape %t [[0, 1, 2, 3]] : tensor<2x3x4x50xf32> into tensor<1200xf32>
//! %offset = xla_indexing.apply_indexing #xla_indexing.map<"(d0, d1, d2, d3) ->
//!     (d0 * 600 + d1 * 200 + d2 * 50 + d3), domain: d0 in [0, 1], ...">(%i, %j, %k, %l)
//! %value = tensor.extract %flat[%offset] : tensor<1200xf32>
//! ```
//!
//! Identity: `t[i_0, ..., i_{r-1}] = collapse(t)[sum_k i_k * stride_k]` with the row-major
//! strides `stride_k = prod_{m > k} size_m`; it holds for every in-bounds index (`0 <= i_k <
//! size_k`, the map's domain), and `tensor.extract` out of bounds is undefined anyway. The gain
//! comes from `xla-indexing-simplify` afterwards: an index split by a reshape
//! (`i floordiv 600, (i floordiv 200) mod 3, ...`) and rebuilt by the offset composes back to
//! `i`, so its divisions go.

use melior::{
    Context,
    ir::{
        Attribute, Identifier, Operation, OperationRef, Type, Value, ValueLike,
        operation::{OperationBuilder, OperationLike, WalkOrder},
        r#type::RankedTensorType,
    },
};
use xla_indexing_core::{Expr, IndexingMap, Interval, Var};
use xla_indexing_mlir::{
    handles::{OpHandle, collect_ops, stretch_value, with_context},
    ir::{op_name, shape_of},
    map_attribute,
    ods::xla_indexing::apply_indexing,
};

use super::PassFailure;

/// Rewrites every `tensor.extract` under `operation` that reads a static, unencoded tensor of
/// rank 2 or more, as the module documentation says (each read is looked at once).
pub fn flatten_tensor_reads(operation: OperationRef) -> Result<(), PassFailure> {
    let reads = collect_ops(&operation, WalkOrder::PreOrder, |op| {
        op_name(op) == "tensor.extract"
    });
    // SAFETY: the context is used inside the closure only; each read is live when it is
    // rewritten (only reads rewritten before it were erased).
    unsafe {
        with_context(&operation, |context| {
            reads
                .into_iter()
                .try_for_each(|read| flatten_read(context, read))
        })
    }
}

/// The sizes of the tensor `op` (a `tensor.extract`) reads, if it is static, has no encoding
/// and has rank 2 or more.
fn flattened_sizes(op: &OperationRef) -> Option<Vec<i64>> {
    let ty = op.operand(0).ok()?.r#type();
    let tensor = RankedTensorType::try_from(ty).ok()?;
    if tensor.encoding().is_some() {
        return None;
    }
    let sizes = shape_of(ty)?.static_sizes()?;
    (sizes.len() >= 2 && sizes.iter().all(|&s| s > 0)).then_some(sizes)
}

/// Rewrites one read, if [`flattened_sizes`] accepts it.
///
/// # Safety
///
/// `read` must be a live `tensor.extract`.
unsafe fn flatten_read(context: &Context, read: OpHandle) -> Result<(), PassFailure> {
    // SAFETY: the caller passes a live read.
    let op = unsafe { read.get() };
    let Some(sizes) = flattened_sizes(&op) else {
        return Ok(());
    };
    let total: i64 = sizes
        .iter()
        .try_fold(1i64, |n, &s| n.checked_mul(s))
        .ok_or("a tensor has more elements than i64 counts")?;
    let tensor = op.operand(0).map_err(|e| e.to_string())?;
    let element = shape_of(tensor.r#type())
        .ok_or("a tensor.extract reads no tensor")?
        .element;
    let location = op.location();
    let flat_type = Type::parse(context, &format!("tensor<{total}x{element}>"))
        .ok_or("cannot write the flattened tensor type")?;
    let dims: Vec<String> = (0..sizes.len()).map(|d| d.to_string()).collect();
    let reassociation = Attribute::parse(context, &format!("[[{}]]", dims.join(", ")))
        .ok_or("cannot write the reassociation")?;
    let collapse: Operation = OperationBuilder::new("tensor.collapse_shape", location)
        .add_operands(&[tensor])
        .add_attributes(&[(Identifier::new(context, "reassociation"), reassociation)])
        .add_results(&[flat_type])
        .build()
        .map_err(|e| format!("cannot build tensor.collapse_shape: {e}"))?;
    // SAFETY: the read is live and in a block.
    let collapse = unsafe { read.insert_before(collapse) };
    let indices: Vec<Value> = (1..op.operand_count())
        .filter_map(|i| op.operand(i).ok())
        .collect();
    let map = map_attribute(context, &row_major_offset(&sizes)).map_err(|e| e.to_string())?;
    let offset: Operation =
        apply_indexing(context, &[Type::index(context)], &indices, map, location).into();
    // SAFETY: as above; the new ops were just inserted and are live.
    let (flat, offset) = unsafe {
        let offset = read.insert_before(offset);
        (
            stretch_value(collapse.get().result(0).map_err(|e| e.to_string())?),
            stretch_value(offset.get().result(0).map_err(|e| e.to_string())?),
        )
    };
    let value_type = op.result(0).map_err(|e| e.to_string())?.r#type();
    let extract: Operation = OperationBuilder::new("tensor.extract", location)
        .add_operands(&[flat, offset])
        .add_results(&[value_type])
        .build()
        .map_err(|e| format!("cannot build tensor.extract: {e}"))?;
    // SAFETY: the read is live; its result is replaced by the new read's, after which it has
    // no uses and goes.
    unsafe {
        let extract = read.insert_before(extract);
        read.results()[0].replace_all_uses_with(extract.results()[0]);
        read.erase();
    }
    Ok(())
}

/// `(d_0, ..., d_{r-1}) -> (sum_k d_k * stride_k)` over `d_k in [0, size_k - 1]`: the row-major
/// offset of an element of a tensor of `sizes`.
fn row_major_offset(sizes: &[i64]) -> IndexingMap {
    let mut stride = 1i64;
    let mut offset = Expr::constant(0);
    for (d, &size) in sizes.iter().enumerate().rev() {
        offset = offset + Expr::dim(d as u32) * stride;
        stride *= size;
    }
    let dims = sizes
        .iter()
        .map(|&s| Var::new(Interval::new(0, s - 1)))
        .collect();
    IndexingMap::new(vec![offset], dims, Vec::new(), Vec::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The offset map is the row-major linearization (each point's position when the points
    /// are listed with the last index fastest), checked at every point of the domains of
    /// shapes of rank 2 to 4, and the map's domain is exactly the in-bounds indices.
    #[test]
    fn offsets_are_row_major_at_every_point() {
        for sizes in [vec![2i64, 3], vec![1, 7], vec![2, 3, 4], vec![3, 1, 2, 5]] {
            let map = row_major_offset(&sizes);
            let total: i64 = sizes.iter().product();
            let mut point = vec![0i64; sizes.len()];
            for expected in 0..total {
                assert_eq!(map.evaluate(&point, &[]), Some(vec![expected]), "{sizes:?}");
                assert!(map.contains(&point, &[]), "{sizes:?} {point:?}");
                for d in (0..sizes.len()).rev() {
                    point[d] += 1;
                    if point[d] < sizes[d] {
                        break;
                    }
                    point[d] = 0;
                }
            }
            let mut outside = vec![0i64; sizes.len()];
            outside[0] = sizes[0];
            assert!(!map.contains(&outside, &[]), "{sizes:?}");
        }
    }
}
