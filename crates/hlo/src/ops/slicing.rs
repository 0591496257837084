//! `slice`, `pad` and `concatenate`: strided windows, padding and stacking along a dimension.

use xla_indexing_core::{Expr, IndexingMap, Interval};

use super::{OpContext, OrAnalysisError, map_with_bounds, scalar_read, scalar_write};
use crate::attrs::{AttrValue, PadDim, SliceDim};
use crate::direction::Direction;
use crate::error::HloError;

/// `slice`: result index `d` reads operand index `d * stride + start`.
pub fn slice(cx: &OpContext<'_>, dir: Direction) -> Result<IndexingMap, HloError> {
    cx.expect_operands(1)?;
    let out = cx.result_array()?;
    let op = cx.operand_array(0)?;
    let Some(AttrValue::Slice(spec)) = cx.instr.attr("slice") else {
        return Err(cx.error("missing attribute slice={[start:limit:stride], ...}"));
    };
    if spec.len() != op.rank() || out.rank() != op.rank() {
        return Err(cx.error(format!(
            "slice has {} dimensions, the operand {} and the result {}",
            spec.len(),
            op.rank(),
            out.rank()
        )));
    }
    for (i, s) in spec.iter().enumerate() {
        let &SliceDim {
            start,
            limit,
            stride,
        } = s;
        if start < 0 || start > limit || limit > op.dims[i] || stride < 1 {
            return Err(cx.error(format!(
                "slice [{start}:{limit}:{stride}] is out of range for dimension {i} of size {}",
                op.dims[i]
            )));
        }
        let size = xla_indexing_core::interval::ceil_div(limit - start, stride);
        if size != out.dims[i] {
            return Err(cx.error(format!(
                "slice [{start}:{limit}:{stride}] has {size} elements but result dimension {i} has {}",
                out.dims[i]
            )));
        }
    }
    match dir {
        Direction::OutputToInput => {
            let results = spec
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    Expr::dim(i as u32)
                        .checked_scale(s.stride)
                        .and_then(|e| e.checked_add_const(s.start))
                })
                .collect::<Result<_, _>>()
                .or_err(cx)?;
            Ok(IndexingMap::from_tensor_sizes(results, &out.dims, &[]))
        }
        Direction::InputToOutput => {
            let mut results = Vec::new();
            let mut bounds = Vec::new();
            let mut strided = Vec::new();
            for (i, s) in spec.iter().enumerate() {
                let shifted = Expr::dim(i as u32).checked_add_const(-s.start).or_err(cx)?;
                results.push(shifted.floor_div(s.stride).or_err(cx)?);
                // The last element taken is start + (size - 1) * stride (no overflow: it is
                // below the operand's size).
                bounds.push(Interval::new(
                    s.start,
                    s.start + (out.dims[i] - 1) * s.stride,
                ));
                if s.stride > 1 {
                    strided.push(shifted.modulo(s.stride).or_err(cx)?);
                }
            }
            let mut map = map_with_bounds(results, bounds, &[]);
            for e in strided {
                map.add_constraint(e, Interval::point(0));
            }
            Ok(map)
        }
    }
}

/// The padding of each dimension, checked against the shapes.
fn padding(cx: &OpContext<'_>) -> Result<Vec<PadDim>, HloError> {
    cx.expect_operands(2)?;
    let out = cx.result_array()?;
    let op = cx.operand_array(0)?;
    if cx.operand_array(1)?.rank() != 0 {
        return Err(cx.error("the padding value must be a scalar"));
    }
    let pads = match cx.instr.attr("padding") {
        Some(AttrValue::Padding(p)) => p.clone(),
        None if op.rank() == 0 => Vec::new(),
        _ => return Err(cx.error("missing attribute padding=low_high_interior x ...")),
    };
    if pads.len() != op.rank() || out.rank() != op.rank() {
        return Err(cx.error(format!(
            "padding has {} dimensions, the operand {} and the result {}",
            pads.len(),
            op.rank(),
            out.rank()
        )));
    }
    for (i, p) in pads.iter().enumerate() {
        if p.interior < 0 {
            return Err(cx.error(format!("dimension {i} has negative interior padding")));
        }
        let n = op.dims[i];
        let size = (n.max(1) - 1)
            .checked_mul(p.interior)
            .and_then(|x| x.checked_add(n))
            .and_then(|x| x.checked_add(p.low))
            .and_then(|x| x.checked_add(p.high))
            .ok_or_else(|| cx.error("padded size overflows"))?;
        if size != out.dims[i] {
            return Err(cx.error(format!(
                "padding {}_{}_{} of dimension {i} (size {n}) gives {size}, the result has {}",
                p.low, p.high, p.interior, out.dims[i]
            )));
        }
    }
    Ok(pads)
}

/// `pad`, output to input: result index `d` holds operand element `(d - low) / (interior + 1)`
/// where that division is exact and in range; every result element reads the padding value.
pub fn pad_output_to_input(cx: &OpContext<'_>) -> Result<Vec<(usize, IndexingMap)>, HloError> {
    let pads = padding(cx)?;
    let out = cx.result_array()?;
    let op = cx.operand_array(0)?;
    let mut results = Vec::new();
    let mut bounds = Vec::new();
    let mut strided = Vec::new();
    for (i, p) in pads.iter().enumerate() {
        let step = p.interior + 1;
        let shifted = Expr::dim(i as u32).checked_add_const(-p.low).or_err(cx)?;
        results.push(shifted.floor_div(step).or_err(cx)?);
        // Positions of operand elements: low + k * step for k in [0, n - 1], clipped to the result.
        let last = (op.dims[i] - 1)
            .checked_mul(step)
            .and_then(|x| x.checked_add(p.low))
            .ok_or_else(|| cx.error("padded position overflows"))?;
        bounds.push(Interval::new(p.low.max(0), last.min(out.dims[i] - 1)));
        if step > 1 {
            strided.push(shifted.modulo(step).or_err(cx)?);
        }
    }
    let mut map = map_with_bounds(results, bounds, &[]);
    for e in strided {
        map.add_constraint(e, Interval::point(0));
    }
    Ok(vec![(0, map), (1, scalar_read(&out.dims))])
}

/// `pad`, input to output: operand element `d` lands at `d * (interior + 1) + low` when that is
/// inside the result; the padding value goes to every result element.
pub fn pad_input_to_output(cx: &OpContext<'_>, operand: usize) -> Result<IndexingMap, HloError> {
    let pads = padding(cx)?;
    let out = cx.result_array()?;
    if operand == 1 {
        return Ok(scalar_write(&out.dims));
    }
    let op = cx.operand_array(0)?;
    let results: Vec<Expr> = pads
        .iter()
        .enumerate()
        .map(|(i, p)| {
            Expr::dim(i as u32)
                .checked_scale(p.interior + 1)
                .and_then(|e| e.checked_add_const(p.low))
        })
        .collect::<Result<_, _>>()
        .or_err(cx)?;
    let mut map = IndexingMap::from_tensor_sizes(results.clone(), &op.dims, &[]);
    for (i, r) in results.into_iter().enumerate() {
        let range = map.expr_range(&r);
        let inside = Interval::upto(out.dims[i]);
        if !inside.contains_interval(range) {
            map.add_constraint(r, inside);
        }
    }
    map.simplify();
    Ok(map)
}

/// `concatenate` along `dimensions={k}`: operand `j` fills result positions
/// `[offset_j, offset_j + size_j - 1]` of dimension `k`.
fn concat_layout(cx: &OpContext<'_>) -> Result<(usize, Vec<i64>), HloError> {
    let out = cx.result_array()?;
    let dims = cx.dim_list("dimensions", cx.ints("dimensions")?, out.rank())?;
    let [k] = dims[..] else {
        return Err(cx.error("concatenate needs exactly one dimension"));
    };
    if cx.instr.operands.is_empty() {
        return Err(cx.error("concatenate needs operands"));
    }
    let mut offsets = Vec::new();
    let mut offset = 0i64;
    for j in 0..cx.instr.operands.len() {
        let op = cx.operand_array(j)?;
        let same_elsewhere =
            op.rank() == out.rank() && (0..out.rank()).all(|i| i == k || op.dims[i] == out.dims[i]);
        if !same_elsewhere {
            return Err(cx.error(format!(
                "operand {j} has dimensions {:?}, incompatible with the result {:?} along {k}",
                op.dims, out.dims
            )));
        }
        offsets.push(offset);
        offset = offset
            .checked_add(op.dims[k])
            .ok_or_else(|| cx.error("concatenated size overflows"))?;
    }
    if offset != out.dims[k] {
        return Err(cx.error(format!(
            "operands add up to {offset} along dimension {k}, the result has {}",
            out.dims[k]
        )));
    }
    Ok((k, offsets))
}

/// `concatenate` in either direction: output to every operand, or operand `j` to the output
/// (as the pair `(j, map)`).
pub fn concatenate(
    cx: &OpContext<'_>,
    dir: Direction,
) -> Result<Vec<(usize, IndexingMap)>, HloError> {
    let (k, offsets) = concat_layout(cx)?;
    let out = cx.result_array()?;
    (0..offsets.len())
        .map(|j| {
            let op = cx.operand_array(j)?;
            let shift = match dir {
                Direction::OutputToInput => -offsets[j],
                Direction::InputToOutput => offsets[j],
            };
            let results = (0..out.rank())
                .map(|i| {
                    let d = Expr::dim(i as u32);
                    if i == k {
                        d.checked_add_const(shift).or_err(cx)
                    } else {
                        Ok(d)
                    }
                })
                .collect::<Result<_, _>>()?;
            let map = match dir {
                Direction::OutputToInput => {
                    let mut bounds: Vec<Interval> =
                        out.dims.iter().map(|&s| Interval::upto(s)).collect();
                    bounds[k] = Interval::new(offsets[j], offsets[j] + op.dims[k] - 1);
                    map_with_bounds(results, bounds, &[])
                }
                Direction::InputToOutput => IndexingMap::from_tensor_sizes(results, &op.dims, &[]),
            };
            Ok((j, map))
        })
        .collect()
}
