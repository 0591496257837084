//! `reshape` and `bitcast`.
//!
//! A reshape keeps the row-major order of elements. It is split into the smallest groups of
//! consecutive dimensions with equal element counts on both sides; within a group an index is
//! linearized over the source dimensions and delinearized over the target ones (one side of a
//! group with a single dimension makes that step trivial). Dimensions of size 1 stay out of the
//! groups: they read or write index 0.
//!
//! A bitcast reinterprets the buffer: from the result's logical index to its position in memory
//! (a transpose by the layout), a reshape between the two physical shapes, then back to the
//! operand's logical index. A bitcast of `{0,1}` data is therefore a transpose plus a reshape.

use xla_indexing_core::{ArithError, ComposeError, Expr, IndexingMap};

use super::{OpContext, OrAnalysisError, Outcome};
use crate::direction::Direction;
use crate::error::HloError;
use crate::shape::ArrayShape;

/// The map from an index of an array of dimensions `from` to the index of the same row-major
/// element in an array of dimensions `to`, simplified; `None` when the two hold different numbers
/// of elements.
pub fn reshape_map(from: &[i64], to: &[i64]) -> Result<Option<IndexingMap>, ArithError> {
    let count = |dims: &[i64]| dims.iter().try_fold(1i64, |a, &d| a.checked_mul(d));
    let (Some(n_from), Some(n_to)) = (count(from), count(to)) else {
        return Err(ArithError::Overflow);
    };
    if n_from != n_to {
        return Ok(None);
    }
    if n_from == 0 {
        return Ok(Some(IndexingMap::known_empty(from.len(), 0, 0, to.len())));
    }
    let big = |dims: &[i64]| -> Vec<usize> { (0..dims.len()).filter(|&i| dims[i] != 1).collect() };
    let (src, dst) = (big(from), big(to));
    let mut results = vec![Expr::zero(); to.len()];
    let (mut i, mut j) = (0, 0);
    // Equal element counts make both sides run out together.
    while i < src.len() && j < dst.len() {
        let (i0, j0) = (i, j);
        let (mut ps, mut pd) = (from[src[i]], to[dst[j]]);
        while ps != pd {
            if ps < pd {
                i += 1;
                ps *= from[src[i]];
            } else {
                j += 1;
                pd *= to[dst[j]];
            }
        }
        // Linearize the source dimensions of the group.
        let mut linear = Expr::zero();
        let mut stride = 1i64;
        for &s in src[i0..=i].iter().rev() {
            linear = linear.checked_add(&Expr::dim(s as u32).checked_scale(stride)?)?;
            stride *= from[s];
        }
        // Delinearize over the target dimensions; the most major one needs no `mod`.
        let mut stride = 1i64;
        for (k, &t) in dst[j0..=j].iter().enumerate().rev() {
            let mut e = linear.floor_div(stride)?;
            if k > 0 {
                e = e.modulo(to[t])?;
            }
            results[t] = e;
            stride *= to[t];
        }
        i += 1;
        j += 1;
    }
    let mut map = IndexingMap::from_tensor_sizes(results, from, &[]);
    map.simplify();
    Ok(Some(map))
}

/// Checks that two shapes hold the same number of elements.
fn same_count(cx: &OpContext<'_>, a: &ArrayShape, b: &ArrayShape) -> Result<(), HloError> {
    let count = |s: &ArrayShape| {
        s.element_count()
            .ok_or_else(|| cx.error(format!("{s} has more than 2^63 elements")))
    };
    if count(a)? != count(b)? {
        return Err(cx.error(format!("{a} and {b} hold different numbers of elements")));
    }
    Ok(())
}

/// `reshape` in either direction.
pub fn reshape(cx: &OpContext<'_>, dir: Direction) -> Result<IndexingMap, HloError> {
    cx.expect_operands(1)?;
    let out = cx.result_array()?;
    let op = cx.operand_array(0)?;
    same_count(cx, out, op)?;
    let (from, to) = match dir {
        Direction::OutputToInput => (out, op),
        Direction::InputToOutput => (op, out),
    };
    reshape_map(&from.dims, &to.dims)
        .or_err(cx)?
        .ok_or_else(|| cx.error("reshape between different element counts"))
}

/// The map from an index of `from` to the index of `to` that occupies the same place in memory,
/// given the layouts of both; `None` when a layout is tiled or the element counts differ.
pub fn bitcast_map(
    from: &ArrayShape,
    to: &ArrayShape,
) -> Result<Option<IndexingMap>, ComposeError> {
    let (lf, lt) = (from.layout_or_default(), to.layout_or_default());
    if !lf.tiles.is_empty() || !lt.tiles.is_empty() {
        return Ok(None);
    }
    let Some(reshape) = reshape_map(&lf.physical_dims(&from.dims), &lt.physical_dims(&to.dims))?
    else {
        return Ok(None);
    };
    let to_physical = lf.logical_to_physical(&from.dims);
    let to_logical = lt.physical_to_logical(&to.dims);
    let mut map = to_physical.compose(&reshape)?.compose(&to_logical)?;
    map.simplify();
    Ok(Some(map))
}

/// `bitcast` in either direction.
pub fn bitcast(cx: &OpContext<'_>, dir: Direction) -> Result<Outcome<IndexingMap>, HloError> {
    cx.expect_operands(1)?;
    let out = cx.result_array()?;
    let op = cx.operand_array(0)?;
    same_count(cx, out, op)?;
    let map = match dir {
        Direction::OutputToInput => bitcast_map(out, op),
        Direction::InputToOutput => bitcast_map(op, out),
    }
    .or_err(cx)?;
    Ok(match map {
        Some(m) => Outcome::Defined(m),
        None => Outcome::NotDefined("bitcast between tiled layouts".into()),
    })
}
