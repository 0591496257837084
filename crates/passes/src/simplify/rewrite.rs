//! Rewriting the values of an op to their cheapest forms.
//!
//! For each used integer result of an op, in order of preference:
//!
//! 1. a value that is already there ([`quick_replacement`]): a constant, a root, or a value
//!    with the same expression that may be used at the op (it dominates it, assumes no more
//!    than the result does, has its type, and is a valid affine operand where an affine user
//!    needs one). Identity: `v = w` wherever `expr(v) = expr(w)` and both are exact.
//! 2. a new computation (a candidate of `forms.rs`) of its simplified expression over roots,
//!    reusing the values already computed for any part of it, or, for map ops, the op's
//!    own map simplified over its own operands (see `forms.rs`). It is taken only when the
//!    function gets cheaper ([`Cost::improves_on`]): what it adds against the op and
//!    everything that dies with it ([`dying_cost`]).

use std::rc::Rc;
use xla_indexing_mlir::handles::{stretch_type, stretch_value};

use melior::{
    Context, RewriterBase,
    ir::{
        Identifier, OperationRef, Type, Value, ValueLike, attribute::IntegerAttribute,
        operation::OperationBuilder, operation::OperationLike,
    },
};
use xla_indexing_core::{Expr, VarRef};

use super::{
    cost::{dying_cost, has_strict_affine_user, op_cost, used_results},
    forms::{Candidate, Kind, LeafType, global_candidate, local_candidate, materialize, reusable},
    known::Known,
    share,
    values::IndexValues,
};
use xla_indexing_mlir::{
    affine::expr_from_affine,
    indexing_ops::{is_apply_indexing, op_map},
    ir::{affine_map_attribute, int_width, op_name, single_user, users},
};

/// What replaces a value that is already there.
#[derive(Clone, Copy)]
enum Replacement<'c, 'a> {
    Constant(i64),
    Value(Value<'c, 'a>),
}

/// Rewrites the used integer results of `op` (an `arith`, `affine.apply`, `affine.min`,
/// `affine.max` or `xla_indexing.apply_indexing` op) to cheaper forms; returns whether it
/// changed the IR.
///
/// When `op` stays as it is and its value has a single user that computes values too, that
/// user is tried: the driver revisits `op` when one of its users goes, and then the one left
/// may now take `op`'s computation over.
pub fn rewrite_values(
    values: &mut IndexValues,
    context: &Context,
    op: OperationRef,
    rewriter: &RewriterBase,
) -> bool {
    if rewrite_op(values, context, op, rewriter)
        || share::share_block_divisions(values, context, op, rewriter)
    {
        return true;
    }
    let single_user = match used_results(&op).as_slice() {
        [(_, value)] => single_user(*value),
        _ => None,
    };
    single_user
        .filter(|user| kind_of(user).is_some())
        .is_some_and(|user| rewrite_op(values, context, user, rewriter))
}

fn rewrite_op(
    values: &mut IndexValues,
    context: &Context,
    op: OperationRef,
    rewriter: &RewriterBase,
) -> bool {
    let results = used_results(&op);
    if results.is_empty() || op_name(&op) == "arith.constant" {
        return false;
    }
    let Some(knowns) = results
        .iter()
        .map(|(_, v)| values.known(*v))
        .collect::<Option<Vec<Rc<Known>>>>()
    else {
        return false;
    };
    // A value the analysis does not read is its own root: nothing computes it otherwise,
    // unless it takes one value.
    if results
        .iter()
        .zip(&knowns)
        .all(|((_, v), k)| values.is_own_root(*v, k) && point_of_root(values, k).is_none())
    {
        return false;
    }
    let quick: Vec<Option<Replacement>> = results
        .iter()
        .zip(&knowns)
        .map(|((_, v), known)| quick_replacement(values, &op, *v, known))
        .collect();
    let staying: Vec<usize> = (0..results.len()).filter(|&i| quick[i].is_none()).collect();
    let candidate = if staying.is_empty() {
        None
    } else {
        let Some(kind) = kind_of(&op) else {
            return false;
        };
        let staying_knowns: Vec<&Known> = staying.iter().map(|&i| &*knowns[i]).collect();
        let lowering = unsigned_lowering(values, &op, &staying_knowns);
        if lowering.is_none()
            && staying.len() == results.len()
            && already_cheapest(values, &op, kind, &knowns)
        {
            return false;
        }
        let reused: Vec<Value> = quick
            .iter()
            .filter_map(|q| match q {
                Some(Replacement::Value(w)) => Some(*w),
                _ => None,
            })
            .collect();
        let staying_indices: Vec<usize> = staying.iter().map(|&i| results[i].0).collect();
        let candidates = [
            global_candidate(values, &op, kind, &staying_knowns),
            local_candidate(values, &op, kind, &staying_indices),
            lowering,
        ];
        // Without a cheaper computation of the staying results the op stays, and replacing
        // its other results alone saves nothing.
        let Some(best) = candidates
            .into_iter()
            .flatten()
            .filter(|c| {
                let kept: Vec<Value> = c.form.leaves.iter().chain(&reused).copied().collect();
                c.cost.improves_on(dying_cost(&[op], &kept))
            })
            .min_by_key(|c| (c.cost.divisions, c.cost.ops, c.cost.arithmetic))
        else {
            return false;
        };
        Some(best)
    };
    rewriter.set_insertion_point_before(op);
    let mut new_values: Vec<Option<Value>> = quick
        .iter()
        .zip(&results)
        .map(|(q, (_, v))| match q {
            Some(Replacement::Value(w)) => Some(*w),
            Some(Replacement::Constant(c)) => constant(context, rewriter, &op, v.r#type(), *c),
            None => None,
        })
        .collect();
    if let Some(candidate) = candidate {
        let Some(computed) = materialize(context, rewriter, &op, &candidate, &results, &staying)
        else {
            return false;
        };
        for (&i, value) in staying.iter().zip(computed) {
            new_values[i] = Some(value);
        }
    }
    let Some(new_values) = new_values.into_iter().collect::<Option<Vec<Value>>>() else {
        return false;
    };
    for ((_, old), new) in results.iter().zip(&new_values) {
        rewriter.replace_all_uses_with(*old, *new);
    }
    rewriter.erase_op(op);
    // A new value means what the old one did.
    for (new, known) in new_values.into_iter().zip(&knowns) {
        values.adopt(new, known);
    }
    true
}

/// An `affine.apply` that divides and that no affine op reads, as `arith` ops whose divisions
/// are all unsigned (their dividends are never negative): `lower-affine` would correct each
/// division for negative dividends. Identity: `x floordiv k = x divui k` and
/// `x mod k = x remui k` for `x >= 0`, `k > 0` (see `arith::plan`).
fn unsigned_lowering<'c, 'a>(
    values: &mut IndexValues,
    op: &OperationRef<'c, 'a>,
    staying: &[&Known],
) -> Option<Candidate<'c, 'a>> {
    let [known] = staying else {
        return None;
    };
    if op_name(op) != "affine.apply" || known.expr.cost().div_mods == 0 {
        return None;
    }
    let result: Value = op.result(0).ok()?.into();
    if users(result).any(|user| op_name(&user).starts_with("affine.")) {
        return None;
    }
    global_candidate(values, op, Kind::Arith, staying).filter(Candidate::divides_unsigned)
}

/// Whether `op` computes its values (known as `knowns`) as cheaply as anything could: it uses
/// every one of its operands, which are roots or constants, its values are what it computes
/// from them, as simplified as they get, and it costs just what they do.
fn already_cheapest(
    values: &mut IndexValues,
    op: &OperationRef,
    kind: Kind,
    knowns: &[Rc<Known>],
) -> bool {
    let operands_are_roots = (0..op.operand_count()).all(|i| {
        op.operand(i)
            .ok()
            .and_then(|v| values.known(v))
            .is_some_and(|k| k.expr.as_var().is_some() || k.expr.as_constant().is_some())
    });
    operands_are_roots
        && uses_every_operand(op, kind)
        && knowns.iter().all(|k| k.settled)
        && costs_what_it_computes(op, kind, knowns)
}

/// Whether `op` costs what computing `knowns` (its results' expressions) does: one `arith` op
/// (not a signed division, which an unsigned one may replace) of one operation, or a map op
/// whose maps have the expressions' divisions and operations.
fn costs_what_it_computes(op: &OperationRef, kind: Kind, knowns: &[Rc<Known>]) -> bool {
    let own = op_cost(op);
    match kind {
        Kind::Arith => knowns.iter().all(|k| {
            let c = k.expr.cost();
            own.arithmetic == 1 && c.ops == 1 && c.div_mods == own.divisions
        }),
        Kind::AffineApply | Kind::ApplyIndexing => {
            let exprs: Vec<Expr> = knowns.iter().map(|k| k.expr.clone()).collect();
            kind.map_op_cost(&exprs) == Some(own)
        }
    }
}

/// Whether every operand of `op` takes part in what it computes (an unused one may be kept
/// alive only by `op`).
fn uses_every_operand(op: &OperationRef, kind: Kind) -> bool {
    // The map's expressions (results, and an indexing map's constraints) and its dimensions.
    let (exprs, num_dims): (Vec<Expr>, usize) = match kind {
        Kind::Arith => return true,
        Kind::AffineApply => {
            let Some(map) = op.attribute("map").ok().and_then(affine_map_attribute) else {
                return false;
            };
            let Some(exprs) = (0..map.result_count())
                .map(|i| map.result(i).ok().and_then(expr_from_affine))
                .collect()
            else {
                return false;
            };
            (exprs, map.dim_count())
        }
        Kind::ApplyIndexing => {
            let Some(map) = op_map(op) else {
                return false;
            };
            let exprs = map
                .results()
                .iter()
                .chain(map.constraints().keys())
                .cloned()
                .collect();
            (exprs, map.dims().len())
        }
    };
    (0..op.operand_count()).all(|i| {
        let v = match i.checked_sub(num_dims) {
            None => VarRef::Dim(i as u32),
            Some(j) => VarRef::Sym(j as u32),
        };
        exprs.iter().any(|e| e.uses(v))
    })
}

/// How `op`'s values are computed anew, if they can be.
fn kind_of(op: &OperationRef) -> Option<Kind> {
    let name = op_name(op);
    match name.as_str() {
        "affine.apply" | "affine.min" | "affine.max" => Some(Kind::AffineApply),
        name if is_apply_indexing(name) => Some(Kind::ApplyIndexing),
        _ if name.starts_with("arith.") && op.result_count() == 1 => Some(Kind::Arith),
        _ => None,
    }
}

/// A value already there that equals `v` (the result of `op`, known as `known`).
fn quick_replacement<'c, 'a>(
    values: &mut IndexValues,
    op: &OperationRef<'c, 'a>,
    v: Value<'c, 'a>,
    known: &Known,
) -> Option<Replacement<'c, 'a>> {
    if let Some(c) = known
        .expr
        .as_constant()
        .or_else(|| point_of_root(values, known))
    {
        return Some(Replacement::Constant(c));
    }
    let strict = has_strict_affine_user(v);
    let root = match known.expr.as_var() {
        Some(VarRef::Dim(root)) => Some(values.root_value(root)),
        _ => None,
    };
    let candidates: Vec<Value> = root
        .into_iter()
        .chain(values.values_of(&known.expr))
        .collect();
    candidates
        .into_iter()
        .find(|w| *w != v && reusable(values, op, known, *w, LeafType::Same { strict }))
        .map(Replacement::Value)
}

/// The one value of a root that takes one (`v = c` wherever `v`'s range is `[c, c]`: a
/// value read nowhere else whose range MLIR's interface narrows to a point).
fn point_of_root(values: &IndexValues, known: &Known) -> Option<i64> {
    match known.expr.as_var() {
        Some(VarRef::Dim(root)) => values.root_range(root).as_point(),
        _ => None,
    }
}

/// An `arith.constant` of value `c` and type `ty` (of `op`'s value), before the insertion
/// point.
pub(super) fn constant<'c>(
    context: &'c Context,
    rewriter: &RewriterBase<'c, '_>,
    op: &OperationRef,
    ty: Type,
    c: i64,
) -> Option<Value<'c, 'c>> {
    // SAFETY: `ty` belongs to the context, which outlives the rewrite.
    let ty: Type<'c> = unsafe { stretch_type(ty) };
    int_width(ty)?;
    let value = IntegerAttribute::new(ty, c);
    let built = OperationBuilder::new("arith.constant", op.location())
        .add_attributes(&[(Identifier::new(context, "value"), value.into())])
        .add_results(&[ty])
        .build()
        .ok()?;
    let inserted = rewriter.insert(built);
    // SAFETY: the op was just inserted into the IR, which owns it from now on.
    Some(unsafe { stretch_value(inserted.result(0).ok()?) })
}
