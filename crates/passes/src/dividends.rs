//! The floor divisions of all `xla_indexing.apply_indexing` ops under an operation, as sums of
//! SSA values, so that lowering one op can take its remainders from quotients that another op
//! computes (see `arith::Remainders::FromQuotient`): after `cse`, a thread divides its linear
//! id by 175 once, whether the quotient is read by a condition, a load or a store.
//!
//! Only dividends that are affine in the ops' operands are kept. A dividend is a hint, never
//! trusted: lowering uses it only where it is congruent to the remainder's own dividend in the
//! op's variables, so a stale entry (an operand value replaced during the rewrites) costs a
//! missed sharing, not a wrong value.

use melior::ir::{
    OperationRef,
    operation::{OperationLike, WalkOrder, WalkResult},
};
use xla_indexing_core::{Atom, Expr, IndexingMap, VarRef};
use xla_indexing_mlir::{handles::value_key, indexing_ops::is_apply_indexing, ir::op_name};

use super::{arith::collect_divisions, ranges::apply_indexing_maps};

/// A dividend over SSA values: `(value, coefficient)` terms sorted by value, and a constant.
type Key = (Vec<(usize, i64)>, i64);

/// The floor divisions `(dividend, divisor)` found under an operation.
#[derive(Debug, Default)]
pub struct SharedDividends(Vec<(Key, i64)>);

impl SharedDividends {
    /// The affine floor-division dividends of every `apply_indexing` under `operation`, in
    /// its map as simplified and as written (lowering may pick either), in walk order, without
    /// repeats.
    pub fn collect(operation: OperationRef) -> SharedDividends {
        let mut all = SharedDividends::default();
        operation.walk(WalkOrder::PreOrder, |op| {
            if is_apply_indexing(&op_name(&op))
                && let Some(maps) = apply_indexing_maps(&op)
            {
                all.add(&op, &maps.simplified);
                all.add(&op, &maps.written);
            }
            WalkResult::Advance
        });
        all
    }

    fn add(&mut self, op: &OperationRef, map: &IndexingMap) {
        let (mut divisions, mut mods) = (Vec::new(), Vec::new());
        for e in map.results() {
            collect_divisions(e, &mut divisions, &mut mods);
        }
        for (x, k) in divisions {
            if let Some(key) = key_of(&x, op, map)
                && !self.0.iter().any(|(y, m)| *m == k && *y == key)
            {
                self.0.push((key, k));
            }
        }
    }

    /// The dividends that op `op` (with map `map`) can express: those over its operands only,
    /// as expressions in its variables.
    pub fn for_op(&self, op: &OperationRef, map: &IndexingMap) -> Vec<(Expr, i64)> {
        let vars: Vec<(usize, VarRef)> = (0..op.operand_count())
            .filter_map(|i| Some((value_key(op.operand(i).ok()?), var_of(map, i)?)))
            .collect();
        self.0
            .iter()
            .filter_map(|((terms, constant), k)| {
                let mut e = Expr::constant(*constant);
                for (value, c) in terms {
                    let (_, v) = vars.iter().find(|(w, _)| w == value)?;
                    e = e.checked_add(&Expr::var(*v).checked_scale(*c).ok()?).ok()?;
                }
                Some((e, *k))
            })
            .collect()
    }
}

/// The variable of operand `i` of an op whose map is `map` (dims, then symbols).
fn var_of(map: &IndexingMap, i: usize) -> Option<VarRef> {
    let num_dims = map.dims().len();
    if i < num_dims {
        return Some(VarRef::Dim(u32::try_from(i).ok()?));
    }
    let s = i - num_dims;
    (s < map.num_symbols()).then_some(VarRef::Sym(s as u32))
}

/// `x` as a sum of the op's operand values, if it is affine in its variables.
fn key_of(x: &Expr, op: &OperationRef, map: &IndexingMap) -> Option<Key> {
    let num_dims = map.dims().len();
    let mut terms: Vec<(usize, i64)> = Vec::new();
    for (atom, c) in x.terms() {
        let Atom::Var(v) = atom else {
            return None;
        };
        let i = match v {
            VarRef::Dim(i) => *i as usize,
            VarRef::Sym(i) => num_dims + *i as usize,
        };
        let value = value_key(op.operand(i).ok()?);
        match terms.iter_mut().find(|(w, _)| *w == value) {
            Some((_, sum)) => *sum = sum.checked_add(*c)?,
            None => terms.push((value, *c)),
        }
    }
    terms.retain(|(_, c)| *c != 0);
    terms.sort_unstable();
    Some((terms, x.constant_term()))
}
