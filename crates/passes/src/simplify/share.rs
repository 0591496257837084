//! Divisions shared by the `affine.apply` ops of a block, recomputed together: the warp of a
//! thread `bx * 8 + (bx * 256 + tx) floordiv 32 = bx * 8 + tx floordiv 32`, its lane
//! `tx mod 32` and its warp within the block `(warp) mod 8 = tx floordiv 32` divide twice as
//! written, and no rewrite of one op alone gets cheaper (each reads a value the others keep
//! alive). Over the block's roots, with the division both need computed once, they divide
//! once less: what upstream's `cse` finds after `lower-affine` distributed the division.

use melior::{
    Context, RewriterBase,
    ir::{BlockLike, OperationRef, Value, operation::OperationLike},
};
use std::rc::Rc;
use xla_indexing_core::{Atom, Expr, VarRef};
use xla_indexing_mlir::ir::{op_name, parent_block, users};

use super::{
    cost::{Cost, has_strict_affine_user, op_cost},
    forms::{LeafType, insert_affine_apply, reusable},
    known::Known,
    values::IndexValues,
};

/// The most `affine.apply` ops of one block recomputed together.
const MAX_GROUP: usize = 64;

/// The block's `affine.apply` ops (one result each; `op` among them) recomputed from their
/// values over roots: every division that two of the values they give to other ops have as a
/// term (`c * (x div k)`) is one new op, and each such value one new op over the roots and
/// those divisions (or that division itself). `u = Σ c_i t_i` with `t_j = x div k` and `q = x
/// div k` computed once is `u = c_j q + Σ_{i≠j} c_i t_i`, exact. Taken only when the new ops
/// divide less than the block's did and cost no more in ops and arithmetic. Returns whether
/// it rewrote.
pub fn share_block_divisions(
    values: &mut IndexValues,
    context: &Context,
    op: OperationRef,
    rewriter: &RewriterBase,
) -> bool {
    let is_apply = |o: &OperationRef| op_name(o) == "affine.apply" && o.result_count() == 1;
    // Tried at the group's own ops only, each scanning the block at most until the group is too
    // large: linear in the block's size however many ops it has.
    if !is_apply(&op) {
        return false;
    }
    let Some(block) = parent_block(&op) else {
        return false;
    };
    let mut group = Vec::new();
    let mut next = block.first_operation();
    while let Some(o) = next {
        next = o.next_in_block();
        if is_apply(&o) {
            if group.len() == MAX_GROUP {
                return false;
            }
            group.push(o);
        }
    }
    if group.len() < 2 {
        return false;
    }
    let Some(plan) = plan(values, &group) else {
        return false;
    };
    let before = group
        .iter()
        .fold(Cost::default(), |acc, o| acc + op_cost(o));
    if plan.cost.divisions >= before.divisions || !plan.cost.within(before) {
        return false;
    }
    apply(values, context, rewriter, &group, plan)
}

/// The new ops of a block: the shared divisions, then each value the block gives out.
struct Plan {
    /// The shared divisions, over roots.
    shared: Vec<Expr>,
    /// Per value given out: the group op, its known value, and what computes it anew (a
    /// shared division's index, or an expression over roots and the shared divisions).
    outputs: Vec<(usize, Rc<Known>, Output)>,
    /// What the new ops cost.
    cost: Cost,
}

/// How a value given out is computed anew.
enum Output {
    Shared(usize),
    Expr(Expr),
}

/// The plan for `group`, when every value it gives out is known over roots, with the same
/// facts, and shares a division with another.
fn plan(values: &mut IndexValues, group: &[OperationRef]) -> Option<Plan> {
    let mut outputs = Vec::new();
    for (g, o) in group.iter().enumerate() {
        let result: Value = o.result(0).ok()?.into();
        let read_outside = users(result).any(|u| !group.contains(&u));
        if read_outside {
            let known = values.known(result)?;
            if known.expr.as_var().is_some() || known.expr.as_constant().is_some() {
                return None;
            }
            outputs.push((g, known));
        }
    }
    let facts = outputs.first()?.1.facts.clone();
    if outputs.iter().any(|(_, k)| k.facts != facts) {
        return None;
    }
    let divisions = |e: &Expr| -> Vec<Expr> {
        e.terms()
            .iter()
            .filter(|(a, _)| matches!(a, Atom::FloorDiv(..) | Atom::CeilDiv(..) | Atom::Mod(..)))
            .map(|(a, _)| Expr::atom(a.clone()))
            .collect()
    };
    let mut shared: Vec<Expr> = Vec::new();
    for (i, (_, k)) in outputs.iter().enumerate() {
        for d in divisions(&k.expr) {
            let elsewhere = outputs
                .iter()
                .enumerate()
                .any(|(j, (_, other))| j != i && divisions(&other.expr).contains(&d));
            if elsewhere && !shared.contains(&d) {
                shared.push(d);
            }
        }
    }
    if shared.is_empty() {
        return None;
    }
    let mut cost = shared.iter().fold(Cost::default(), |acc, d| {
        acc + Cost::affine_op(std::slice::from_ref(d))
    });
    let mut planned = Vec::new();
    for (g, known) in outputs {
        let output = match shared.iter().position(|d| *d == known.expr) {
            Some(s) => Output::Shared(s),
            None => {
                let e = with_shared_as_symbols(&known.expr, &shared)?;
                cost += Cost::affine_op(std::slice::from_ref(&e));
                Output::Expr(e)
            }
        };
        planned.push((g, known, output));
    }
    Some(Plan {
        shared,
        outputs: planned,
        cost,
    })
}

/// `e` with its terms that are shared divisions written as symbols (`s_i` for `shared[i]`).
fn with_shared_as_symbols(e: &Expr, shared: &[Expr]) -> Option<Expr> {
    let mut parts = vec![Expr::constant(e.constant_term())];
    for (atom, coefficient) in e.terms() {
        let whole = Expr::atom(atom.clone());
        let part = match shared.iter().position(|d| *d == whole) {
            Some(s) => Expr::sym(s as u32),
            None => whole,
        };
        parts.push(part.checked_scale(*coefficient).ok()?);
    }
    Expr::sum(&parts).ok()
}

/// Emits `plan` before the group's first op, gives each new value to the uses of the one it
/// replaces, and erases the group.
fn apply(
    values: &mut IndexValues,
    context: &Context,
    rewriter: &RewriterBase,
    group: &[OperationRef],
    plan: Plan,
) -> bool {
    let first = group[0];
    let strict = plan.outputs.iter().any(|(g, _, _)| {
        group[*g]
            .result(0)
            .is_ok_and(|r| has_strict_affine_user(r.into()))
    });
    let target = plan.outputs[0].1.clone();
    rewriter.set_insertion_point_before(first);
    let emitter = Emitter {
        context,
        rewriter,
        first,
        target: &target,
        strict,
    };
    let mut shared_values = Vec::with_capacity(plan.shared.len());
    for d in &plan.shared {
        let Some(v) = emitter.emit(values, d, &[]) else {
            return false;
        };
        shared_values.push(v);
    }
    let mut replaced = Vec::with_capacity(plan.outputs.len());
    for (g, known, output) in &plan.outputs {
        let new = match output {
            Output::Shared(s) => shared_values[*s],
            Output::Expr(e) => {
                let Some(v) = emitter.emit(values, e, &shared_values) else {
                    return false;
                };
                v
            }
        };
        replaced.push((*g, known.clone(), new));
    }
    for (g, _, new) in &replaced {
        if let Ok(old) = group[*g].result(0) {
            rewriter.replace_all_uses_with(old.into(), *new);
        }
    }
    for o in group.iter().rev() {
        rewriter.erase_op(*o);
    }
    for (s, d) in plan.shared.iter().enumerate() {
        if let Some(known) = plan
            .outputs
            .iter()
            .map(|(_, k, _)| k)
            .find(|k| k.expr == *d)
        {
            values.adopt(shared_values[s], known);
        }
    }
    for (_, known, new) in replaced {
        values.adopt(new, &known);
    }
    true
}

/// Emits the new ops before the group's first op.
struct Emitter<'e, 'c, 'a> {
    context: &'c Context,
    rewriter: &'e RewriterBase<'c, 'a>,
    first: OperationRef<'c, 'a>,
    /// What the new values are known to assume.
    target: &'e Known,
    /// Whether their leaves must be valid affine operands.
    strict: bool,
}

impl<'c> Emitter<'_, 'c, '_> {
    /// One new op of `e` (over roots, and symbol `s` for `shared[s]`), over the leaves it
    /// reads, each usable before the first op.
    fn emit(
        &self,
        values: &mut IndexValues,
        e: &Expr,
        shared: &[Value<'c, 'c>],
    ) -> Option<Value<'c, 'c>> {
        let mut reads: Vec<VarRef> = Vec::new();
        e.for_each_var(&mut |v| reads.push(v));
        reads.sort_unstable();
        reads.dedup();
        let leaf = LeafType::Index {
            strict: self.strict,
        };
        let mut leaves = Vec::with_capacity(reads.len());
        for v in &reads {
            leaves.push(match *v {
                VarRef::Dim(root) => {
                    let value: Value<'c, 'c> = values.root_value(root);
                    reusable(values, &self.first, self.target, value, leaf).then_some(value)?
                }
                VarRef::Sym(s) => *shared.get(s as usize)?,
            });
        }
        let local = e
            .rewrite_vars(&mut |v| {
                let i = reads.binary_search(&v).ok()?;
                Some(Expr::dim(i as u32))
            })
            .ok()?;
        let location = self.first.location();
        insert_affine_apply(self.context, self.rewriter, location, &local, &leaves)
    }
}
