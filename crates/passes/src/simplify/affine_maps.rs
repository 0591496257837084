//! The maps of `affine.load`, `affine.store` and `affine.for` (its bounds), simplified in place
//! over the ranges of their operands when that makes them cheaper. Identity: a map's results
//! are unchanged at every point of its operands' ranges.

use melior::{
    Context, RewriterBase,
    ir::{AffineExpr, AffineMap, OperationRef, operation::OperationLike},
};
use xla_indexing_core::{Expr, Interval, VarRef};

use crate::ranges::map_over;

use super::{cost::Cost, values::IndexValues};
use xla_indexing_mlir::rewrite::set_attribute;
use xla_indexing_mlir::{
    affine::{affine_from_expr, expr_from_affine},
    ir::{affine_map_attribute, affine_map_attribute_of, dense_array},
};

/// `affine.load` and `affine.store`: the access map over the index operands, which follow the
/// memref (and, for a store, the value).
pub fn rewrite_affine_access(
    values: &mut IndexValues,
    context: &Context,
    op: OperationRef,
    rewriter: &RewriterBase,
) -> bool {
    let Some(map) = op.attribute("map").ok().and_then(affine_map_attribute) else {
        return false;
    };
    let first = op
        .operand_count()
        .saturating_sub(map.dim_count() + map.symbol_count());
    let ranges = operand_ranges(values, &op, first, op.operand_count());
    let Some(simplified) = simplify_affine_map(context, map, &ranges) else {
        return false;
    };
    set_attribute(rewriter, op, "map", affine_map_attribute_of(simplified));
    true
}

/// `affine.for`: its lower and upper bound maps.
pub fn rewrite_affine_for(
    values: &mut IndexValues,
    context: &Context,
    op: OperationRef,
    rewriter: &RewriterBase,
) -> bool {
    let Some(segments) = op
        .attribute("operandSegmentSizes")
        .ok()
        .and_then(dense_array)
        .and_then(|s| {
            s.into_iter()
                .map(|n| usize::try_from(n).ok())
                .collect::<Option<Vec<_>>>()
        })
    else {
        return false;
    };
    let mut changed = Vec::new();
    let mut from = 0;
    for (name, count) in [
        ("lowerBoundMap", segments[0]),
        ("upperBoundMap", segments[1]),
    ] {
        let ranges = operand_ranges(values, &op, from, from + count);
        from += count;
        let Some(map) = op.attribute(name).ok().and_then(affine_map_attribute) else {
            continue;
        };
        if let Some(simplified) = simplify_affine_map(context, map, &ranges) {
            changed.push((name, simplified));
        }
    }
    if changed.is_empty() {
        return false;
    }
    for (name, map) in changed {
        set_attribute(rewriter, op, name, affine_map_attribute_of(map));
    }
    true
}

/// `map` with its results simplified for operands of `ranges`, when that makes it cheaper.
fn simplify_affine_map<'c>(
    context: &'c Context,
    map: AffineMap<'c>,
    ranges: &[Interval],
) -> Option<AffineMap<'c>> {
    let num_dims = map.dim_count();
    if ranges.len() != num_dims + map.symbol_count() {
        return None;
    }
    // Constants and plain operands have nothing to simplify.
    let trivial = (0..map.result_count())
        .filter_map(|i| map.result(i).ok())
        .all(|e| e.is_constant() || e.is_dim() || e.is_symbol());
    if trivial {
        return None;
    }
    let exprs = (0..map.result_count())
        .map(|i| expr_from_affine(map.result(i).ok()?))
        .collect::<Option<Vec<Expr>>>()?;
    let simplified: Vec<Expr> = exprs
        .iter()
        .map(|e| simplified_over(e, num_dims, ranges).unwrap_or_else(|| e.clone()))
        .collect();
    if simplified == exprs {
        return None;
    }
    let affine: Vec<AffineExpr> = simplified
        .iter()
        .map(|e| affine_from_expr(context, e))
        .collect::<Option<_>>()?;
    Some(AffineMap::new(
        context,
        num_dims,
        map.symbol_count(),
        &affine,
    ))
}

/// The ranges of operands `from..to` of `op`.
pub fn operand_ranges(
    values: &mut IndexValues,
    op: &OperationRef,
    from: usize,
    to: usize,
) -> Vec<Interval> {
    (from..to)
        .map(|i| {
            op.operand(i)
                .ok()
                .and_then(|v| values.known(v))
                .map_or(Interval::FULL, |k| k.range)
        })
        .collect()
}

/// `e` (dimensions first, then symbols, of `ranges`) simplified, when that makes it cheaper.
pub fn simplified_over(e: &Expr, num_dims: usize, ranges: &[Interval]) -> Option<Expr> {
    if ranges.len() < num_dims {
        return None;
    }
    let mut map = map_over(vec![e.clone()], num_dims, ranges);
    map.simplify();
    if map.is_known_empty() {
        return None;
    }
    let simplified = map.results()[0].clone();
    let uses_missing = {
        let mut missing = false;
        simplified.for_each_var(&mut |v| {
            let i = match v {
                VarRef::Dim(i) => i as usize,
                VarRef::Sym(j) => num_dims + j as usize,
            };
            missing |= i >= ranges.len();
        });
        missing
    };
    (!uses_missing && Cost::of_expr(&simplified).improves_on(Cost::of_expr(e)))
        .then_some(simplified)
}
