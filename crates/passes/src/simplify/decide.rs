//! Conditions the ranges decide: `scf.if` and `affine.if` whose branch is known, `affine.if`
//! constraints that always hold or that the others imply, `affine.min`/`affine.max` results
//! that are never the answer, and `arith.cmpf` of converted integers. (Comparisons, selects
//! and `arith` `min`/`max` are values: `rewrite.rs` replaces them by what they always give.)

use melior::{
    Context, RewriterBase,
    ir::{
        AffineExpr, BlockLike, OperationRef, RegionLike, Value, ValueLike, operation::OperationLike,
    },
};
use xla_indexing_core::Interval;

use crate::ranges::map_over;

use xla_indexing_mlir::rewrite::set_attribute;

use super::{
    affine_maps::{operand_ranges, simplified_over},
    conditions::set_constraint,
    cost::Cost,
    float_compare::decide_cmpf,
    known::Fact,
    rewrite::constant,
    values::IndexValues,
};
use xla_indexing_mlir::{
    affine::{affine_from_expr, expr_from_affine},
    ir::{
        IntegerSet, affine_map_attribute, affine_map_attribute_of, integer_set_attribute,
        integer_set_attribute_of,
    },
};

/// `scf.if` on a condition the ranges decide: replaced by the branch taken.
///
/// Identity: `if (c) A else B` is `A` where `c` always holds and `B` where it never does.
pub fn fold_scf_if(values: &mut IndexValues, op: OperationRef, rewriter: &RewriterBase) -> bool {
    let Some(taken) = op
        .operand(0)
        .ok()
        .and_then(|c| values.known(c))
        .and_then(|k| k.expr.as_constant())
    else {
        return false;
    };
    inline_branch(rewriter, op, usize::from(taken == 0))
}

/// `affine.if`: a branch the ranges decide replaces the op (identity as for [`fold_scf_if`]),
/// the else branch also where the set's constraints hold at no point together (`if (a and b)`
/// is `false` where `{a, b}` is empty over the operands' ranges, as the core's simplifier
/// proves it);
/// constraints that always hold are dropped (`if (a and b)` is `if (b)` where `a` always
/// holds); the remaining ones are simplified over their operands' ranges when that makes them
/// cheaper.
pub fn rewrite_affine_if(
    values: &mut IndexValues,
    context: &Context,
    op: OperationRef,
    rewriter: &RewriterBase,
) -> bool {
    let Some(set) = op
        .attribute("condition")
        .ok()
        .and_then(integer_set_attribute)
    else {
        return false;
    };
    let Some(decisions) = values.decide_affine_if(&op) else {
        return false;
    };
    if decisions.contains(&Some(false)) || values.affine_if_never_holds(&op) {
        return inline_branch(rewriter, op, 1);
    }
    if decisions.iter().all(|d| *d == Some(true)) {
        return inline_branch(rewriter, op, 0);
    }
    let undecided: Vec<_> = set
        .constraints
        .iter()
        .zip(&decisions)
        .filter(|(_, d)| d.is_none())
        .map(|(c, _)| *c)
        .collect();
    let operand_ranges = operand_ranges(values, &op, 0, op.operand_count());
    let kept = without_implied(undecided, set.num_dims, &operand_ranges);
    let simplified = kept
        .iter()
        .map(|(e, eq)| {
            let e = expr_from_affine(*e)?;
            let better = simplified_over(&e, set.num_dims, &operand_ranges)?;
            Some((affine_from_expr(context, &better)?, *eq))
        })
        .collect::<Option<Vec<_>>>()
        .unwrap_or(kept.clone());
    let cost = |constraints: &[(melior::ir::AffineExpr, bool)]| {
        constraints
            .iter()
            .filter_map(|(e, _)| expr_from_affine(*e))
            .fold(Cost::default(), |acc, e| acc + Cost::of_expr(&e))
    };
    let dropped = kept.len() < set.constraints.len();
    if !dropped && !cost(&simplified).improves_on(cost(&set.constraints)) {
        return false;
    }
    let new_set = IntegerSet {
        num_dims: set.num_dims,
        num_symbols: set.num_symbols,
        constraints: simplified,
    };
    set_attribute(
        rewriter,
        op,
        "condition",
        integer_set_attribute_of(context, &new_set),
    );
    true
}

/// The constraints of an integer set less those the others imply over the operands' ranges,
/// dropped one at a time in order (`s0 >= 0` and `2 * s0 >= 0` keep one of the two).
///
/// Identity: `{a, b}` is `{a}` where every point of the operands' ranges that satisfies `a`
/// satisfies `b`: the core's simplifier tightens the bounds of the variables by `a` (and the
/// other constraints kept), and `b`'s range over those bounds lies within what it requires.
fn without_implied<'c>(
    constraints: Vec<(AffineExpr<'c>, bool)>,
    num_dims: usize,
    operand_ranges: &[Interval],
) -> Vec<(AffineExpr<'c>, bool)> {
    let Some(facts) = constraints
        .iter()
        .map(|(e, eq)| Some(set_constraint(expr_from_affine(*e)?, *eq)))
        .collect::<Option<Vec<Fact>>>()
    else {
        return constraints;
    };
    if operand_ranges.len() < num_dims {
        return constraints;
    }
    let mut kept: Vec<bool> = vec![true; facts.len()];
    for i in 0..facts.len() {
        let mut others = map_over(Vec::new(), num_dims, operand_ranges);
        for (j, (e, interval)) in facts.iter().enumerate() {
            if j != i && kept[j] {
                others.add_constraint(e.clone(), *interval);
            }
        }
        others.simplify();
        let (e, interval) = &facts[i];
        if !others.is_known_empty() && interval.contains_interval(others.expr_range(e)) {
            kept[i] = false;
        }
    }
    constraints
        .into_iter()
        .zip(kept)
        .filter_map(|(c, keep)| keep.then_some(c))
        .collect()
}

/// `arith.cmpf` of an integer converted to a float against a float constant, which the
/// integer's range decides (identity in `float_compare.rs`): replaced by what it always gives.
pub fn rewrite_cmpf(
    values: &mut IndexValues,
    context: &Context,
    op: OperationRef,
    rewriter: &RewriterBase,
) -> bool {
    let Some(decided) = decide_cmpf(values, &op) else {
        return false;
    };
    let Ok(result) = op.result(0) else {
        return false;
    };
    rewriter.set_insertion_point_before(op);
    let Some(constant) = constant(context, rewriter, &op, result.r#type(), i64::from(decided))
    else {
        return false;
    };
    rewriter.replace_all_uses_with(result.into(), constant);
    rewriter.erase_op(op);
    true
}

/// `affine.min` / `affine.max` with results that are never its value: the map keeps the others
/// (`min(a, b) = a` where `a <= b` always).
pub fn narrow_min_max(
    values: &mut IndexValues,
    context: &Context,
    op: OperationRef,
    rewriter: &RewriterBase,
) -> bool {
    let Some(map) = op.attribute("map").ok().and_then(affine_map_attribute) else {
        return false;
    };
    let Some(results) = values.affine_results_of(&op) else {
        return false;
    };
    let is_min = xla_indexing_mlir::ir::op_name(&op) == "affine.min";
    let Some(kept) = values.min_max_kept(&op, &results, is_min) else {
        return false;
    };
    if kept.len() == map.result_count() || kept.is_empty() {
        return false;
    }
    let Some(exprs) = kept
        .iter()
        .map(|&i| map.result(i).ok())
        .collect::<Option<Vec<_>>>()
    else {
        return false;
    };
    let narrowed = melior::ir::AffineMap::new(context, map.dim_count(), map.symbol_count(), &exprs);
    set_attribute(rewriter, op, "map", affine_map_attribute_of(narrowed));
    true
}

/// Replaces `op` (an `scf.if` or `affine.if`) by the body of its region `region`: its ops move
/// before `op` and the values its terminator yields replace `op`'s results. An empty region
/// (an `if` without `else`) just erases `op`.
fn inline_branch(rewriter: &RewriterBase, op: OperationRef, region: usize) -> bool {
    let Some(block) = op.region(region).ok().and_then(|r| r.first_block()) else {
        if op.result_count() != 0 {
            return false;
        }
        rewriter.erase_op(op);
        return true;
    };
    let Some(terminator) = block.terminator() else {
        return false;
    };
    if block.argument_count() != 0 || terminator.operand_count() != op.result_count() {
        return false;
    }
    let yielded: Vec<Value> = (0..terminator.operand_count())
        .filter_map(|i| terminator.operand(i).ok())
        .collect();
    rewriter.inline_block_before(block, op, &[]);
    if yielded.is_empty() {
        rewriter.erase_op(op);
    } else {
        rewriter.replace_op_with_values(op, &yielded);
    }
    rewriter.erase_op(terminator);
    true
}
