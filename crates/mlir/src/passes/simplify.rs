//! `xla-indexing-simplify`: bound-aware simplification of index arithmetic wherever it appears,
//! with the core's simplifier.
//!
//! * `xla_indexing.apply_indexing`: the map within its domain, narrowed by its operands' ranges;
//!   when every result becomes a plain variable, the op is replaced by those operands.
//! * `affine.apply`, and the maps of `affine.load`, `affine.store`, `affine.for` (bounds) and
//!   `affine.if` (conditions): their expressions over the ranges of their operands (all integers
//!   when nothing bounds them; affine arithmetic never wraps). An `affine.apply` whose result
//!   becomes an operand is replaced by it.
//! * `arith` `addi`, `subi`, `muli`, `divui`, `divsi`, `floordivsi`, `ceildivsi`, `remui`, `remsi`
//!   on integers and index: the tree of such ops that computes a value, read as an expression
//!   over its leaves (see the `arith` module), is rewritten when the simplified expression needs
//!   fewer divisions and remainders, or as many and fewer ops. Truncating and unsigned ops are
//!   read only where their dividend is provably non-negative, and no value, before or after, may
//!   wrap in its type.
//!
//! Ranges come from [`Ranges`]: loops, GPU ids and launch sizes, and the domains of maps. The
//! rewrites are patterns run by MLIR's greedy driver, which also folds and removes dead ops. The
//! pass is op-agnostic: it works on whatever op it is scheduled on.

use melior::{
    Context, RewriterBase,
    ir::{
        AffineExpr, AffineMap, Attribute, OperationRef, Value, ValueLike, attribute::AttributeLike,
        operation::OperationLike,
    },
};
use mlir_sys::{
    MlirAffineExpr, mlirAffineMapAttrGet, mlirAttributeIsAIntegerSet, mlirIntegerSetAttrGet,
    mlirIntegerSetAttrGetValue, mlirIntegerSetGet, mlirIntegerSetGetConstraint,
    mlirIntegerSetGetNumConstraints, mlirIntegerSetGetNumDims, mlirIntegerSetGetNumSymbols,
    mlirIntegerSetIsConstraintEq,
};
use xla_indexing_core::{Expr, IndexingMap, Interval, Var, VarRef};

use super::{
    PassOption, PassSpec, arith, pass_entry,
    patterns::{Rewrite, apply_greedily, set_attribute},
    ranges::{
        ApplyMaps, Ranges, affine_map_attribute, apply_indexing_maps, dense_array, int_width,
    },
};
use crate::{
    affine::{affine_from_expr, expr_from_affine},
    attribute::map_attribute,
};

/// The pass's command-line name.
pub const ARGUMENT: &str = "xla-indexing-simplify";

pass_entry!(entry, ARGUMENT, run);

/// The pass.
pub static SPEC: PassSpec = PassSpec::new(
    c"xla-indexing-simplify",
    c"XlaIndexingSimplify",
    c"Simplify index arithmetic (apply_indexing, affine maps, arith division and remainder) using the bounds of loops, GPU ids and indexing-map domains",
    &OPTIONS,
    entry,
);

static OPTIONS: [PassOption; 0] = [];

/// Ops whose index arithmetic is simplified, and how.
const PATTERNS: &[(&str, Rewrite)] = &[
    ("xla_indexing.apply_indexing", rewrite_apply_indexing),
    ("affine.apply", rewrite_affine_apply),
    ("affine.load", rewrite_affine_access),
    ("affine.store", rewrite_affine_access),
    ("affine.for", rewrite_affine_for),
    ("affine.if", rewrite_affine_if),
    ("arith.addi", rewrite_arith),
    ("arith.subi", rewrite_arith),
    ("arith.muli", rewrite_arith),
    ("arith.divui", rewrite_arith),
    ("arith.divsi", rewrite_arith),
    ("arith.floordivsi", rewrite_arith),
    ("arith.ceildivsi", rewrite_arith),
    ("arith.remui", rewrite_arith),
    ("arith.remsi", rewrite_arith),
];

fn run(operation: OperationRef, _options: &[i64]) -> Result<(), String> {
    apply_greedily(operation, PATTERNS)
}

fn rewrite_apply_indexing(context: &Context, op: OperationRef, rewriter: &RewriterBase) -> bool {
    // Results are simplified over the domain narrowed by what the operands can be; the op keeps
    // its own domain.
    let Some(ApplyMaps {
        written: map,
        simplified: tight,
        ..
    }) = apply_indexing_maps(&op)
    else {
        return false;
    };
    let num_dims = map.dims().len();
    let forwarded: Option<Vec<Value>> = tight
        .results()
        .iter()
        .map(|result| {
            let index = match result.as_var()? {
                VarRef::Dim(i) => usize::try_from(i).ok()?,
                VarRef::Sym(i) => num_dims + usize::try_from(i).ok()?,
            };
            op.operand(index).ok()
        })
        .collect();
    if let Some(values) = forwarded {
        rewriter.replace_op_with_values(op, &values);
        return true;
    }
    let mut simplified = map.with_results(tight.results().to_vec());
    simplified.simplify();
    if simplified == map {
        return false;
    }
    let Ok(attribute) = map_attribute(context, &simplified) else {
        return false;
    };
    set_attribute(rewriter, op, "indexing_map", attribute);
    true
}

/// The core's expressions of the results of `map`, or `None` if one is not quasi-affine.
fn affine_results(map: AffineMap) -> Option<Vec<Expr>> {
    (0..map.result_count())
        .map(|i| map.result(i).ok().and_then(expr_from_affine))
        .collect()
}

/// An indexing map of `results` whose dims and symbols have the ranges `operand_ranges`.
fn bounded_map(results: Vec<Expr>, num_dims: usize, operand_ranges: &[Interval]) -> IndexingMap {
    let vars = |r: &[Interval]| r.iter().map(|r| Var::new(*r)).collect();
    IndexingMap::new(
        results,
        vars(&operand_ranges[..num_dims]),
        vars(&operand_ranges[num_dims..]),
        Vec::new(),
    )
}

/// `map` simplified for operands of `operand_ranges`, or `None` if nothing changes.
fn simplify_affine_map<'c>(
    context: &'c Context,
    map: AffineMap<'c>,
    operand_ranges: &[Interval],
) -> Option<AffineMap<'c>> {
    let (num_dims, num_symbols) = (map.dim_count(), map.symbol_count());
    if operand_ranges.len() != num_dims + num_symbols {
        return None;
    }
    let mut indexing = bounded_map(affine_results(map)?, num_dims, operand_ranges);
    indexing.simplify();
    if indexing.is_known_empty() {
        return None;
    }
    let exprs: Vec<AffineExpr> = indexing
        .results()
        .iter()
        .map(|e| affine_from_expr(context, e))
        .collect();
    let simplified = AffineMap::new(context, num_dims, num_symbols, &exprs);
    (simplified != map).then_some(simplified)
}

fn affine_map_attr<'c>(map: AffineMap<'c>) -> Attribute<'c> {
    // SAFETY: `map` is a live affine map.
    unsafe { Attribute::from_raw(mlirAffineMapAttrGet(map.to_raw())) }
}

fn rewrite_affine_apply(context: &Context, op: OperationRef, rewriter: &RewriterBase) -> bool {
    let Some(map) = op.attribute("map").ok().and_then(affine_map_attribute) else {
        return false;
    };
    let ranges = Ranges::new().operands(&op, 0, op.operand_count());
    let current = simplify_affine_map(context, map, &ranges).unwrap_or(map);
    if current.result_count() == 1 {
        let e = current.result(0).ok();
        let operand = e.and_then(|e| {
            if e.is_dim() {
                Some(e.dim_position())
            } else if e.is_symbol() {
                Some(current.dim_count() + e.symbol_position())
            } else {
                None
            }
        });
        if let Some(value) = operand.and_then(|i| op.operand(i).ok()) {
            rewriter.replace_op_with_values(op, &[value]);
            return true;
        }
    }
    if current == map {
        return false;
    }
    set_attribute(rewriter, op, "map", affine_map_attr(current));
    true
}

/// `affine.load` and `affine.store`: the access map over the index operands, which follow the
/// memref (and, for a store, the value).
fn rewrite_affine_access(context: &Context, op: OperationRef, rewriter: &RewriterBase) -> bool {
    let Some(map) = op.attribute("map").ok().and_then(affine_map_attribute) else {
        return false;
    };
    let first = op
        .operand_count()
        .saturating_sub(map.dim_count() + map.symbol_count());
    let ranges = Ranges::new().operands(&op, first, op.operand_count());
    let Some(simplified) = simplify_affine_map(context, map, &ranges) else {
        return false;
    };
    set_attribute(rewriter, op, "map", affine_map_attr(simplified));
    true
}

fn rewrite_affine_for(context: &Context, op: OperationRef, rewriter: &RewriterBase) -> bool {
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
    let mut ranges = Ranges::new();
    let mut changed = Vec::new();
    let mut from = 0;
    for (name, count) in [
        ("lowerBoundMap", segments[0]),
        ("upperBoundMap", segments[1]),
    ] {
        let operand_ranges = ranges.operands(&op, from, from + count);
        from += count;
        let Some(map) = op.attribute(name).ok().and_then(affine_map_attribute) else {
            continue;
        };
        if let Some(simplified) = simplify_affine_map(context, map, &operand_ranges) {
            changed.push((name, simplified));
        }
    }
    if changed.is_empty() {
        return false;
    }
    for (name, map) in changed {
        set_attribute(rewriter, op, name, affine_map_attr(map));
    }
    true
}

fn rewrite_affine_if(context: &Context, op: OperationRef, rewriter: &RewriterBase) -> bool {
    let Ok(condition) = op.attribute("condition") else {
        return false;
    };
    // SAFETY: `condition` is live; the set is read only if it is an integer set attribute.
    let set = unsafe {
        if !mlirAttributeIsAIntegerSet(condition.to_raw()) {
            return false;
        }
        mlirIntegerSetAttrGetValue(condition.to_raw())
    };
    // SAFETY: `set` is a live integer set; positions are below its counts.
    let (num_dims, num_symbols, constraints) = unsafe {
        let n = mlirIntegerSetGetNumConstraints(set);
        let constraints: Vec<(AffineExpr, bool)> = (0..n)
            .map(|i| {
                (
                    AffineExpr::from_raw(mlirIntegerSetGetConstraint(set, i)),
                    mlirIntegerSetIsConstraintEq(set, i),
                )
            })
            .collect();
        (
            mlirIntegerSetGetNumDims(set) as usize,
            mlirIntegerSetGetNumSymbols(set) as usize,
            constraints,
        )
    };
    let ranges = Ranges::new().operands(&op, 0, op.operand_count());
    if ranges.len() != num_dims + num_symbols {
        return false;
    }
    let Some(exprs) = constraints
        .iter()
        .map(|(e, _)| expr_from_affine(*e))
        .collect::<Option<Vec<_>>>()
    else {
        return false;
    };
    let mut indexing = bounded_map(exprs, num_dims, &ranges);
    indexing.simplify();
    if indexing.is_known_empty() {
        return false;
    }
    let simplified: Vec<AffineExpr> = indexing
        .results()
        .iter()
        .map(|e| affine_from_expr(context, e))
        .collect();
    if simplified
        .iter()
        .zip(&constraints)
        .all(|(a, (b, _))| a == b)
    {
        return false;
    }
    let raw: Vec<MlirAffineExpr> = simplified.iter().map(|e| e.to_raw()).collect();
    let eq: Vec<bool> = constraints.iter().map(|(_, eq)| *eq).collect();
    // SAFETY: `raw` and `eq` hold one entry per constraint, live for the call.
    let attribute = unsafe {
        let set = mlirIntegerSetGet(
            context.to_raw(),
            num_dims as isize,
            num_symbols as isize,
            raw.len() as isize,
            raw.as_ptr(),
            eq.as_ptr(),
        );
        Attribute::from_raw(mlirIntegerSetAttrGet(set))
    };
    set_attribute(rewriter, op, "condition", attribute);
    true
}

fn rewrite_arith(context: &Context, op: OperationRef, rewriter: &RewriterBase) -> bool {
    if !arith::is_root(&op) {
        return false;
    }
    let mut ranges = Ranges::new();
    let Some(tree) = arith::tree(op, &mut ranges) else {
        return false;
    };
    let Ok(result) = op.result(0) else {
        return false;
    };
    let ty = result.r#type();
    let Some(width) = int_width(ty) else {
        return false;
    };
    let leaf_ranges: Vec<Interval> = tree.leaves.iter().map(|v| ranges.of(*v)).collect();
    let mut map = bounded_map(vec![tree.expr.clone()], leaf_ranges.len(), &leaf_ranges);
    map.simplify();
    if map.is_known_empty() {
        return false;
    }
    let Some(plan) = arith::plan(
        &map.results()[0],
        &map.range_evaluator(true),
        width,
        &arith::Remainders::Rem,
    ) else {
        return false;
    };
    if plan.cost() >= tree.cost {
        return false;
    }
    rewriter.set_insertion_point_before(op);
    let leaves = &tree.leaves;
    let var = |v: VarRef| match v {
        // SAFETY: the leaves are live values of the IR being rewritten.
        VarRef::Dim(i) => leaves
            .get(i as usize)
            .map(|l| unsafe { Value::from_raw(l.to_raw()) }),
        VarRef::Sym(_) => None,
    };
    let Some(value) = arith::materialize(context, &plan, rewriter, op.location(), ty, &var) else {
        return false;
    };
    rewriter.replace_op_with_values(op, &[value]);
    true
}
