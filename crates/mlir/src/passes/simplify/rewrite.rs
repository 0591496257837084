//! Rewriting the values of an op to their cheapest forms.
//!
//! For each used integer result of an op, in order of preference:
//!
//! 1. a value that is already there ([`quick_replacement`]): a constant, a root, or a value
//!    with the same expression that may be used at the op (it dominates it, assumes no more
//!    than the result does, has its type, and is a valid affine operand where an affine user
//!    needs one). Identity: `v = w` wherever `expr(v) = expr(w)` and both are exact.
//! 2. a new computation ([`Candidate`]) of its simplified expression over roots, reusing the
//!    values already computed for any part of it ([`FormBuilder`]), or, for map ops, the op's
//!    own map simplified over its own operands. It is taken only when the function gets
//!    cheaper ([`Cost::improves_on`]): what it adds against the op and everything that dies
//!    with it ([`dying_cost`]).

use std::rc::Rc;

use melior::{
    Context, RewriterBase,
    ir::{
        AffineMap, Identifier, OperationRef, Type, TypeLike, Value, ValueLike,
        attribute::IntegerAttribute, operation::OperationBuilder, operation::OperationLike,
    },
};
use xla_indexing_core::{Atom, Expr, IndexingMap, Interval, Var, VarRef};

use super::{
    super::{
        arith::{self, Remainders},
        ranges::narrowed,
    },
    cost::{Cost, arith_op_cost, dying_cost, has_strict_affine_user, op_cost, used_results},
    values::{IndexValues, Known},
};
use crate::{
    affine::{affine_from_expr, expr_from_affine},
    attribute::{attribute_map, map_attribute},
    ir::{
        affine_map_attribute, affine_map_attribute_of, int_width, is_usable_at,
        is_valid_affine_operand, op_name, single_user,
    },
};

/// What replaces a value that is already there.
#[derive(Clone, Copy)]
enum Replacement<'c, 'a> {
    Constant(i64),
    Value(Value<'c, 'a>),
}

/// How an op's values are computed anew.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// `arith` ops (one result).
    Arith,
    /// One `affine.apply`.
    AffineApply,
    /// One `xla_indexing.apply_indexing`.
    ApplyIndexing,
}

/// Expressions over `leaves` (dimension `i` is `leaves[i]`, whose values lie in `ranges[i]`).
struct Form<'c, 'a> {
    exprs: Vec<Expr>,
    leaves: Vec<Value<'c, 'a>>,
    ranges: Vec<Interval>,
}

/// A new computation of the staying results of an op.
struct Candidate<'c, 'a> {
    form: Form<'c, 'a>,
    /// For `apply_indexing`: the new op's map (over the leaves, its results those of the form).
    domain: Option<IndexingMap>,
    plan: Option<arith::Plan>,
    cost: Cost,
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
    if rewrite_op(values, context, op, rewriter) {
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
    // A value the analysis does not read is its own root: nothing computes it otherwise.
    if results
        .iter()
        .zip(&knowns)
        .all(|((_, v), k)| values.is_own_root(*v, k))
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
        // An op whose values are what it computes from roots, as simplified as they get,
        // computes them as cheaply as anything could.
        let operands_are_roots = (0..op.operand_count()).all(|i| {
            op.operand(i)
                .ok()
                .and_then(|v| values.known(v))
                .is_some_and(|k| k.expr.as_var().is_some() || k.expr.as_constant().is_some())
        });
        if staying.len() == results.len()
            && operands_are_roots
            && uses_every_operand(&op, kind)
            && knowns.iter().all(|k| k.settled)
            && costs_what_it_computes(&op, kind, &knowns)
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
        let staying_knowns: Vec<&Known> = staying.iter().map(|&i| &*knowns[i]).collect();
        let staying_indices: Vec<usize> = staying.iter().map(|&i| results[i].0).collect();
        let candidates = [
            global_candidate(values, &op, kind, &staying_knowns),
            local_candidate(values, &op, kind, &staying_indices),
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
            Cost::map_op(&exprs) == own
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
            let Some(map) = op
                .attribute("indexing_map")
                .ok()
                .and_then(|a| attribute_map(a).ok())
            else {
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
        "xla_indexing.apply_indexing" => Some(Kind::ApplyIndexing),
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
    if let Some(c) = known.expr.as_constant() {
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

/// What the leaves of a new computation must be.
#[derive(Clone, Copy)]
enum LeafType {
    /// Of the value's own type; valid affine operands when `strict`.
    Same { strict: bool },
    /// `index` values (for maps); valid affine operands when `strict`.
    Index { strict: bool },
}

/// Whether `w` may stand in `op` for part of a value known as `target`.
fn reusable(
    values: &mut IndexValues,
    op: &OperationRef,
    target: &Known,
    w: Value,
    leaf: LeafType,
) -> bool {
    let (type_ok, strict) = match leaf {
        LeafType::Same { strict } => (target.same_type(w), strict),
        LeafType::Index { strict } => (w.r#type().is_index(), strict),
    };
    type_ok
        && is_usable_at(w, op)
        && (!strict || is_valid_affine_operand(w))
        && values.known(w).is_some_and(|k| target.assumes(&k))
}

/// Builds a [`Form`] from expressions over roots, taking every part that a usable value
/// already computes from that value.
struct FormBuilder<'v, 'o, 'c, 'a> {
    values: &'v mut IndexValues,
    op: &'o OperationRef<'c, 'a>,
    target: &'o Known,
    leaf: LeafType,
    leaves: Vec<Value<'c, 'a>>,
    ranges: Vec<Interval>,
}

impl<'c, 'a> FormBuilder<'_, '_, 'c, 'a> {
    fn leaf(&mut self, value: Value<'c, 'a>) -> Option<Expr> {
        let i = match self.leaves.iter().position(|l| *l == value) {
            Some(i) => i,
            None => {
                let range = self.values.known(value)?.range;
                self.leaves.push(value);
                self.ranges.push(range);
                self.leaves.len() - 1
            }
        };
        Some(Expr::dim(i as u32))
    }

    /// A usable value whose expression is `e`.
    fn existing(&mut self, e: &Expr) -> Option<Value<'c, 'a>> {
        let candidates = self.values.values_of(e);
        candidates
            .into_iter()
            .find(|w| reusable(self.values, self.op, self.target, *w, self.leaf))
    }

    /// `e` (over roots) over leaves.
    fn convert(&mut self, e: &Expr) -> Option<Expr> {
        if let Some(w) = self.existing(e) {
            return self.leaf(w);
        }
        let c = e.constant_term();
        if c != 0
            && !e.terms().is_empty()
            && let Some(w) = self.existing(&e.without_constant())
        {
            return self.leaf(w)?.checked_add_const(c).ok();
        }
        let mut parts = vec![Expr::constant(c)];
        for (atom, coefficient) in e.terms() {
            let converted = match atom {
                Atom::Var(VarRef::Dim(root)) => {
                    let value = self.values.root_value(*root);
                    reusable(self.values, self.op, self.target, value, self.leaf).then_some(())?;
                    self.leaf(value)?
                }
                Atom::Var(VarRef::Sym(_)) => return None,
                Atom::FloorDiv(x, k) | Atom::CeilDiv(x, k) | Atom::Mod(x, k) => {
                    match self.existing(&Expr::atom(atom.clone())) {
                        Some(w) => self.leaf(w)?,
                        None => {
                            let x = self.convert(x)?;
                            match atom {
                                Atom::FloorDiv(..) => x.floor_div(*k),
                                Atom::CeilDiv(..) => x.ceil_div(*k),
                                _ => x.modulo(*k),
                            }
                            .ok()?
                        }
                    }
                }
            };
            parts.push(converted.checked_scale(*coefficient).ok()?);
        }
        Expr::sum(&parts).ok()
    }
}

/// The staying results' simplified expressions over roots, computed from leaves.
fn global_candidate<'c, 'a>(
    values: &mut IndexValues,
    op: &OperationRef<'c, 'a>,
    kind: Kind,
    staying: &[&Known],
) -> Option<Candidate<'c, 'a>> {
    let first = *staying.first()?;
    let strict = (0..op.result_count())
        .filter_map(|i| op.result(i).ok())
        .any(|r| has_strict_affine_user(r.into()));
    let leaf = match kind {
        Kind::Arith => LeafType::Same { strict },
        Kind::AffineApply | Kind::ApplyIndexing => LeafType::Index { strict },
    };
    // Facts of every staying result hold where the op's results are used.
    let mut target = first.clone();
    let mut facts: Vec<_> = staying
        .iter()
        .flat_map(|k| k.facts.iter().cloned())
        .collect();
    facts.sort();
    facts.dedup();
    target.facts = facts.into();
    let mut builder = FormBuilder {
        values,
        op,
        target: &target,
        leaf,
        leaves: Vec::new(),
        ranges: Vec::new(),
    };
    let exprs = staying
        .iter()
        .map(|k| builder.convert(&k.expr))
        .collect::<Option<Vec<Expr>>>()?;
    // A new `apply_indexing` keeps the facts its results need as its domain (those over
    // values usable here).
    let facts: Vec<(Expr, Interval)> = match kind {
        Kind::ApplyIndexing => target
            .facts
            .iter()
            .filter_map(|(e, interval)| Some((builder.convert(e)?, *interval)))
            .collect(),
        _ => Vec::new(),
    };
    let form = Form {
        exprs,
        leaves: builder.leaves,
        ranges: builder.ranges,
    };
    let domain = (kind == Kind::ApplyIndexing).then(|| {
        let mut map = leaf_map(&form, form.exprs.clone());
        for (e, interval) in facts {
            map.add_constraint(e, interval);
        }
        map
    });
    priced(form, domain, kind, first.width)
}

/// For map ops: the op's own map, simplified over the ranges of its own operands.
fn local_candidate<'c, 'a>(
    values: &mut IndexValues,
    op: &OperationRef<'c, 'a>,
    kind: Kind,
    staying: &[usize],
) -> Option<Candidate<'c, 'a>> {
    let leaves: Vec<Value> = (0..op.operand_count())
        .map(|i| op.operand(i).ok())
        .collect::<Option<_>>()?;
    let ranges: Vec<Interval> = leaves
        .iter()
        .map(|v| values.known(*v).map(|k| k.range))
        .collect::<Option<_>>()?;
    match (kind, op_name(op).as_str()) {
        (Kind::AffineApply, "affine.apply") => {
            let map = affine_map_attribute(op.attribute("map").ok()?)?;
            let num_dims = map.dim_count();
            let e = expr_from_affine(map.result(0).ok()?)?;
            // Symbols become the dimensions after the map's own.
            let e = e
                .rewrite_vars(&mut |v| match v {
                    VarRef::Sym(j) => Some(Expr::dim(num_dims as u32 + j)),
                    VarRef::Dim(_) => None,
                })
                .ok()?;
            let (simplified, _) = values.simplify_over(&e, &ranges)?;
            let form = Form {
                exprs: vec![simplified],
                leaves,
                ranges,
            };
            priced(form, None, kind, 64)
        }
        (Kind::ApplyIndexing, _) => {
            let written = attribute_map(op.attribute("indexing_map").ok()?).ok()?;
            let mut tight = narrowed(&written, &ranges);
            tight.simplify();
            if tight.is_known_empty() {
                return None;
            }
            let num_dims = written.dims().len() as u32;
            let exprs = staying
                .iter()
                .map(|&i| {
                    tight
                        .results()
                        .get(i)?
                        .rewrite_vars(&mut |v| match v {
                            VarRef::Sym(j) => Some(Expr::dim(num_dims + j)),
                            VarRef::Dim(_) => None,
                        })
                        .ok()
                })
                .collect::<Option<Vec<Expr>>>()?;
            let results = staying
                .iter()
                .map(|&i| tight.results().get(i).cloned())
                .collect::<Option<Vec<Expr>>>()?;
            let mut domain = written.with_results(results);
            domain.simplify();
            let form = Form {
                exprs,
                leaves,
                ranges,
            };
            priced(form, Some(domain), kind, 64)
        }
        _ => None,
    }
}

/// The candidate computing `form` as `kind`, with its cost.
fn priced<'c, 'a>(
    form: Form<'c, 'a>,
    domain: Option<IndexingMap>,
    kind: Kind,
    width: u32,
) -> Option<Candidate<'c, 'a>> {
    // Facts that contradict each other: the values are never defined, and no op can say so.
    if domain.as_ref().is_some_and(IndexingMap::is_known_empty) {
        return None;
    }
    match kind {
        Kind::Arith => {
            let [e] = form.exprs.as_slice() else {
                return None;
            };
            let map = leaf_map(&form, vec![e.clone()]);
            let plan = arith::plan(e, &map.range_evaluator(true), width, &Remainders::Rem)?;
            let cost = plan.ops.iter().fold(Cost::default(), |acc, op| {
                let (divisions, arithmetic) = arith_op_cost(op.name);
                acc + Cost {
                    divisions,
                    ops: 1,
                    arithmetic,
                }
            });
            Some(Candidate {
                form,
                domain,
                plan: Some(plan),
                cost,
            })
        }
        Kind::AffineApply | Kind::ApplyIndexing => {
            let exprs = match &domain {
                Some(map) => map.results().to_vec(),
                None => form.exprs.clone(),
            };
            let cost = Cost::map_op(&exprs);
            Some(Candidate {
                form,
                domain,
                plan: None,
                cost,
            })
        }
    }
}

/// The indexing map of `results` over the leaves of `form`, with their ranges as domain.
fn leaf_map(form: &Form, results: Vec<Expr>) -> IndexingMap {
    let dims = form.ranges.iter().map(|r| Var::new(*r)).collect();
    IndexingMap::new(results, dims, Vec::new(), Vec::new())
}

/// Emits `candidate` before `op`: the values of the staying results (`staying`, positions in
/// `results`).
fn materialize<'c>(
    context: &'c Context,
    rewriter: &RewriterBase<'c, '_>,
    op: &OperationRef<'c, '_>,
    candidate: &Candidate,
    results: &[(usize, Value)],
    staying: &[usize],
) -> Option<Vec<Value<'c, 'c>>> {
    let location = op.location();
    // SAFETY: the leaves are live values of the IR being rewritten, used before it changes.
    let leaf = |i: usize| -> Option<Value<'c, 'c>> {
        candidate
            .form
            .leaves
            .get(i)
            .map(|v| unsafe { Value::from_raw(v.to_raw()) })
    };
    let index = Type::index(context);
    let new_op = |name: &str,
                  attribute: (&str, melior::ir::Attribute<'c>),
                  operands: &[Value<'c, 'c>],
                  count: usize|
     -> Option<Vec<Value<'c, 'c>>> {
        let built = OperationBuilder::new(name, location)
            .add_operands(operands)
            .add_attributes(&[(Identifier::new(context, attribute.0), attribute.1)])
            .add_results(&vec![index; count])
            .build()
            .ok()?;
        let inserted = rewriter.insert(built);
        (0..count)
            // SAFETY: the op was just inserted into the IR, which owns it from now on.
            .map(|i| Some(unsafe { Value::from_raw(inserted.result(i).ok()?.to_raw()) }))
            .collect()
    };
    let leaves: Vec<Value<'c, 'c>> = (0..candidate.form.leaves.len())
        .map(leaf)
        .collect::<Option<_>>()?;
    if let Some(plan) = &candidate.plan {
        let ty = results.get(*staying.first()?)?.1.r#type();
        // SAFETY: as for the leaves.
        let ty: Type<'c> = unsafe { Type::from_raw(ty.to_raw()) };
        let var = |v: VarRef| match v {
            VarRef::Dim(i) => leaves.get(i as usize).copied(),
            VarRef::Sym(_) => None,
        };
        let value = arith::materialize(context, plan, rewriter, location, ty, &var)?;
        return Some(vec![value]);
    }
    match op_name(op).as_str() {
        "xla_indexing.apply_indexing" => {
            let map = candidate.domain.as_ref()?;
            let attribute = map_attribute(context, map).ok()?;
            new_op(
                "xla_indexing.apply_indexing",
                ("indexing_map", attribute),
                &leaves,
                map.results().len(),
            )
        }
        _ => {
            let exprs: Vec<_> = candidate
                .form
                .exprs
                .iter()
                .map(|e| affine_from_expr(context, e))
                .collect();
            let map = AffineMap::new(context, leaves.len(), 0, &exprs);
            new_op(
                "affine.apply",
                ("map", affine_map_attribute_of(map)),
                &leaves,
                1,
            )
        }
    }
}

/// An `arith.constant` of value `c` and type `ty` (of `op`'s value), before the insertion
/// point.
fn constant<'c>(
    context: &'c Context,
    rewriter: &RewriterBase<'c, '_>,
    op: &OperationRef,
    ty: Type,
    c: i64,
) -> Option<Value<'c, 'c>> {
    // SAFETY: `ty` belongs to the context, which outlives the rewrite.
    let ty: Type<'c> = unsafe { Type::from_raw(ty.to_raw()) };
    int_width(ty)?;
    let value = IntegerAttribute::new(ty, c);
    let built = OperationBuilder::new("arith.constant", op.location())
        .add_attributes(&[(Identifier::new(context, "value"), value.into())])
        .add_results(&[ty])
        .build()
        .ok()?;
    let inserted = rewriter.insert(built);
    // SAFETY: the op was just inserted into the IR, which owns it from now on.
    Some(unsafe { Value::from_raw(inserted.result(0).ok()?.to_raw()) })
}
