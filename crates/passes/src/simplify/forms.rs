//! New computations of an op's values ([`Candidate`]s) and how much they cost.
//!
//! * [`global_candidate`]: the values' simplified expressions over roots, each part that a
//!   usable value already computes taken from that value ([`FormBuilder`]).
//! * [`local_candidate`]: for map ops, the op's own map simplified over the ranges of its own
//!   operands.
//!
//! A candidate is priced as what it adds ([`Cost`]); [`materialize`] emits it.

use melior::{
    Context, RewriterBase,
    ir::{
        AffineMap, Identifier, Location, OperationRef, Type, TypeLike, Value, ValueLike,
        operation::OperationBuilder, operation::OperationLike,
    },
};
use xla_indexing_core::{Atom, Expr, IndexingMap, Interval, Var, VarRef};
use xla_indexing_mlir::handles::{stretch_type, stretch_value};

use super::{
    super::{
        arith::{self, Remainders},
        ranges::narrowed,
    },
    cost::{Cost, arith_op_cost, has_strict_affine_user, is_signed_division},
    known::Known,
    values::IndexValues,
};
use xla_indexing_mlir::{
    affine::{affine_from_expr, expr_from_affine},
    indexing_ops::{is_apply_indexing, map_attribute_for, map_attribute_name, op_map},
    ir::{
        affine_map_attribute, affine_map_attribute_of, has_uses, is_usable_at,
        is_valid_affine_operand, op_name,
    },
};

/// How an op's values are computed anew.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// `arith` ops (one result).
    Arith,
    /// One `affine.apply`.
    AffineApply,
    /// One `xla_indexing.apply_indexing`.
    ApplyIndexing,
}

impl Kind {
    /// What one map op of this kind computing `exprs` costs (an `affine.apply` also pays the
    /// corrections `lower-affine` adds to its divisions); `None` for `arith` ops, priced by
    /// their plan.
    pub(super) fn map_op_cost(self, exprs: &[Expr]) -> Option<Cost> {
        match self {
            Kind::Arith => None,
            Kind::AffineApply => Some(Cost::affine_op(exprs)),
            Kind::ApplyIndexing => Some(Cost::map_op(exprs)),
        }
    }
}

/// Expressions over `leaves` (dimension `i` is `leaves[i]`, whose values lie in `ranges[i]`).
pub(super) struct Form<'c, 'a> {
    exprs: Vec<Expr>,
    pub(super) leaves: Vec<Value<'c, 'a>>,
    ranges: Vec<Interval>,
}

/// A new computation of the staying results of an op.
pub(super) struct Candidate<'c, 'a> {
    pub(super) form: Form<'c, 'a>,
    /// For `apply_indexing`: the new op's map (over the leaves, its results those of the form).
    domain: Option<IndexingMap>,
    plan: Option<arith::Plan>,
    pub(super) cost: Cost,
}

impl Candidate<'_, '_> {
    /// Whether the candidate is `arith` ops none of which is a signed division or remainder.
    pub(super) fn divides_unsigned(&self) -> bool {
        self.plan
            .as_ref()
            .is_some_and(|plan| plan.ops.iter().all(|op| !is_signed_division(op.name)))
    }
}

/// What the leaves of a new computation must be.
#[derive(Clone, Copy)]
pub(super) enum LeafType {
    /// Of the value's own type; valid affine operands when `strict`.
    Same { strict: bool },
    /// `index` values (for maps); valid affine operands when `strict`.
    Index { strict: bool },
}

/// Whether `w` may stand in `op` for part of a value known as `target`: it has the type, is
/// usable at `op` (and a valid affine operand where that is needed), assumes no more facts, and
/// is computed anyway (a value without uses is about to go: reusing it would keep its op).
pub(super) fn reusable(
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
        && (w.is_block_argument() || has_uses(w))
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
                _ => match self.existing(&Expr::atom(atom.clone())) {
                    Some(w) => self.leaf(w)?,
                    None => {
                        let operands = atom
                            .operands()
                            .map(|x| self.convert(x))
                            .collect::<Option<Vec<_>>>()?;
                        atom.with_operands(&operands).ok()?
                    }
                },
            };
            parts.push(converted.checked_scale(*coefficient).ok()?);
        }
        Expr::sum(&parts).ok()
    }
}

/// The staying results' simplified expressions over roots, computed from leaves.
pub(super) fn global_candidate<'c, 'a>(
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
pub(super) fn local_candidate<'c, 'a>(
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
            let written = op_map(op)?;
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
            let cost = kind.map_op_cost(&exprs)?;
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
pub(super) fn materialize<'c>(
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
            .map(|v| unsafe { stretch_value(*v) })
    };
    let new_op = |name: &str,
                  attribute: (&str, melior::ir::Attribute<'c>),
                  operands: &[Value<'c, 'c>],
                  count: usize| {
        insert_index_op(
            context, rewriter, location, name, attribute, operands, count,
        )
    };
    let leaves: Vec<Value<'c, 'c>> = (0..candidate.form.leaves.len())
        .map(leaf)
        .collect::<Option<_>>()?;
    if let Some(plan) = &candidate.plan {
        let ty = results.get(*staying.first()?)?.1.r#type();
        // SAFETY: as for the leaves.
        let ty: Type<'c> = unsafe { stretch_type(ty) };
        let var = |v: VarRef| match v {
            VarRef::Dim(i) => leaves.get(i as usize).copied(),
            VarRef::Sym(_) => None,
        };
        let value = arith::materialize(context, plan, rewriter, location, ty, &var)?;
        return Some(vec![value]);
    }
    match op_name(op).as_str() {
        name if is_apply_indexing(name) => {
            // A new op of the same dialect as the one it replaces.
            let map = candidate.domain.as_ref()?;
            let attribute = map_attribute_for(context, name, map).ok()?;
            new_op(
                name,
                (map_attribute_name(name), attribute),
                &leaves,
                map.results().len(),
            )
        }
        _ => insert_affine_apply(
            context,
            rewriter,
            location,
            &candidate.form.exprs[0],
            &leaves,
        )
        .map(|v| vec![v]),
    }
}

/// Inserts `affine.apply` of `expr` over `leaves` (dimension `i` is `leaves[i]`) at the
/// rewriter's insertion point; its value.
pub(super) fn insert_affine_apply<'c>(
    context: &'c Context,
    rewriter: &RewriterBase<'c, '_>,
    location: Location<'c>,
    expr: &Expr,
    leaves: &[Value<'c, 'c>],
) -> Option<Value<'c, 'c>> {
    let map = AffineMap::new(
        context,
        leaves.len(),
        0,
        &[affine_from_expr(context, expr)?],
    );
    let attribute = ("map", affine_map_attribute_of(map));
    insert_index_op(
        context,
        rewriter,
        location,
        "affine.apply",
        attribute,
        leaves,
        1,
    )?
    .pop()
}

/// Inserts op `name` with one attribute, `operands` and `count` index results at the
/// rewriter's insertion point; its values.
fn insert_index_op<'c>(
    context: &'c Context,
    rewriter: &RewriterBase<'c, '_>,
    location: Location<'c>,
    name: &str,
    attribute: (&str, melior::ir::Attribute<'c>),
    operands: &[Value<'c, 'c>],
    count: usize,
) -> Option<Vec<Value<'c, 'c>>> {
    let built = OperationBuilder::new(name, location)
        .add_operands(operands)
        .add_attributes(&[(Identifier::new(context, attribute.0), attribute.1)])
        .add_results(&vec![Type::index(context); count])
        .build()
        .ok()?;
    let inserted = rewriter.insert(built);
    (0..count)
        // SAFETY: the op was just inserted into the IR, which owns it from now on.
        .map(|i| Some(unsafe { stretch_value(inserted.result(i).ok()?) }))
        .collect()
}
