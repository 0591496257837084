//! What index arithmetic costs: per op, per function, and what a rewrite saves.
//!
//! The cost of a function counts its integer divisions and remainders (`arith` ops, and
//! `floordiv`/`ceildiv`/`mod` in the maps of affine and `xla_indexing` ops), its ops (all but
//! constants, and each operation inside those maps, which is one op once the map is lowered)
//! and its arithmetic (each `arith` op, and each operation inside those maps; a signed
//! division twice; a division of an affine map with the ops `lower-affine` adds to correct it
//! for negative dividends). A
//! rewrite is taken only when the function gets cheaper in one count and no costlier in any
//! ([`Cost::improves_on`]): what the rewrite adds against what then dies
//! ([`dying_cost`]), so a division that several users share counts once, and copying it into
//! several users to remove it from one never pays.

use std::ops::{Add, AddAssign};

use melior::ir::{AffineExpr, OperationRef, Value, ValueLike, operation::OperationLike};
use xla_indexing_core::Expr;

use xla_indexing_mlir::{
    indexing_ops::{is_apply_indexing, op_map},
    ir::{
        affine_map_attribute, defining_op, integer_set_attribute, is_memory_effect_free, op_name,
        users, walk_nested,
    },
};

/// Most ops counted as dying with one rewrite; beyond, the saving is underestimated (which
/// only makes the pass more cautious).
const MAX_DYING: usize = 64;

/// The counts of a piece of IR.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cost {
    /// Integer divisions and remainders.
    pub divisions: usize,
    /// Ops other than constants.
    pub ops: usize,
    /// `arith` ops and the operations inside maps.
    pub arithmetic: usize,
}

impl Add for Cost {
    type Output = Cost;
    fn add(self, other: Cost) -> Cost {
        Cost {
            divisions: self.divisions + other.divisions,
            ops: self.ops + other.ops,
            arithmetic: self.arithmetic + other.arithmetic,
        }
    }
}

impl AddAssign for Cost {
    fn add_assign(&mut self, other: Cost) {
        *self = *self + other;
    }
}

impl Cost {
    /// Whether replacing `other` by `self` makes no count larger and at least one smaller.
    pub fn improves_on(self, other: Cost) -> bool {
        self.divisions <= other.divisions
            && self.ops <= other.ops
            && self.arithmetic <= other.arithmetic
            && self != other
    }

    /// Whether no count of `self` exceeds that of `other`.
    pub fn within(self, other: Cost) -> bool {
        self.divisions <= other.divisions
            && self.ops <= other.ops
            && self.arithmetic <= other.arithmetic
    }

    /// One `apply_indexing` op computing `exprs`.
    pub fn map_op(exprs: &[Expr]) -> Cost {
        exprs.iter().fold(
            Cost {
                ops: 1,
                ..Cost::default()
            },
            |acc, e| acc + Cost::of_expr(e),
        )
    }

    /// One `affine.apply` computing `exprs`: an `apply_indexing`'s cost, and each division's
    /// correction for negative dividends that `lower-affine` emits (see [`affine_cost`]).
    pub fn affine_op(exprs: &[Expr]) -> Cost {
        exprs.iter().fold(Cost::map_op(exprs), |acc, e| {
            let corrections = e.cost().div_mods * AFFINE_DIVISION_CORRECTION;
            acc + Cost {
                divisions: 0,
                ops: corrections,
                arithmetic: corrections,
            }
        })
    }

    /// The divisions and operations inside `e` (no op): each operation is one op once the map
    /// is lowered, as in an `arith` tree.
    pub fn of_expr(e: &Expr) -> Cost {
        let c = e.cost();
        Cost {
            divisions: c.div_mods,
            ops: c.ops,
            arithmetic: c.ops,
        }
    }
}

/// Constants, which cost nothing (MLIR's integer range analysis makes the `index` ones).
const CONSTANT_OPS: &[&str] = &["arith.constant", "index.constant", "index.bool.constant"];

/// What `op` costs, without the ops nested in its regions.
pub fn op_cost(op: &OperationRef) -> Cost {
    let name = op_name(op);
    let one = |divisions: usize, arithmetic: usize| Cost {
        divisions,
        ops: 1,
        arithmetic,
    };
    if CONSTANT_OPS.contains(&name.as_str()) {
        return Cost::default();
    }
    if name.starts_with("arith.") {
        let (divisions, arithmetic) = arith_op_cost(&name);
        return one(divisions, arithmetic);
    }
    one(0, 0) + map_cost(op, &name)
}

/// The divisions and arithmetic of one `arith` op `name`: a signed division or remainder
/// counts twice as arithmetic (its lowering corrects for negative operands, which the unsigned
/// ones need not).
pub fn arith_op_cost(name: &str) -> (usize, usize) {
    if is_signed_division(name) {
        return (1, 2);
    }
    match name.strip_prefix("arith.").unwrap_or(name) {
        "divui" | "remui" | "ceildivui" => (1, 1),
        _ => (0, 1),
    }
}

/// Whether `arith` op `name` is a signed division or remainder (whose lowering corrects for
/// negative operands).
pub fn is_signed_division(name: &str) -> bool {
    matches!(
        name.strip_prefix("arith.").unwrap_or(name),
        "divsi" | "remsi" | "floordivsi" | "ceildivsi"
    )
}

/// What an op's maps compute (its affine maps, integer set or indexing map), as written.
fn map_cost(op: &OperationRef, name: &str) -> Cost {
    let affine = |attribute: &str| -> Cost {
        op.attribute(attribute)
            .ok()
            .and_then(affine_map_attribute)
            .map(|map| {
                (0..map.result_count())
                    .filter_map(|i| map.result(i).ok())
                    .fold(Cost::default(), |acc, e| acc + affine_cost(e))
            })
            .unwrap_or_default()
    };
    match name {
        "affine.apply" | "affine.min" | "affine.max" | "affine.load" | "affine.store" => {
            affine("map")
        }
        "affine.for" => affine("lowerBoundMap") + affine("upperBoundMap"),
        "affine.if" => op
            .attribute("condition")
            .ok()
            .and_then(integer_set_attribute)
            .map(|set| {
                set.constraints
                    .iter()
                    .fold(Cost::default(), |acc, (e, _)| acc + affine_cost(*e))
            })
            .unwrap_or_default(),
        // The attribute holds the map's canonical text, which is what the op computes.
        name if is_apply_indexing(name) => op_map(op)
            .map(|m| {
                m.results()
                    .iter()
                    .fold(Cost::default(), |acc, e| acc + Cost::of_expr(e))
            })
            .unwrap_or_default(),
        _ => Cost::default(),
    }
}

/// The fewest ops `lower-affine` adds to a `floordiv`, `ceildiv` or `mod` of an affine map to
/// correct it for negative dividends, whatever the dividends' ranges: a compare, an add and a
/// select for `mod` (5 for `floordiv`, 7 for `ceildiv`). One count for all three, so that
/// pricing a map's core expression (which does not tell them apart) agrees with pricing the
/// map.
const AFFINE_DIVISION_CORRECTION: usize = 3;

/// The divisions and operations of an affine expression as written: each binary node is an
/// operation (one op once lowered), and `floordiv`, `ceildiv` and `mod` nodes are divisions
/// with [`AFFINE_DIVISION_CORRECTION`] ops more.
pub fn affine_cost(e: AffineExpr) -> Cost {
    let mut cost = Cost::default();
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        if e.is_dim() || e.is_symbol() || e.is_constant() {
            continue;
        }
        cost.arithmetic += 1;
        cost.ops += 1;
        if e.is_floor_div() || e.is_ceil_div() || e.is_mod() {
            cost.divisions += 1;
            cost.ops += AFFINE_DIVISION_CORRECTION;
            cost.arithmetic += AFFINE_DIVISION_CORRECTION;
        }
        stack.push(e.lhs());
        stack.push(e.rhs());
    }
    cost
}

/// The cost of every op nested in `op` (not `op` itself).
pub fn nested_cost(op: &OperationRef) -> Cost {
    let mut total = Cost::default();
    walk_nested(op, &mut |nested| total += op_cost(nested));
    total
}

/// What the ops in `replaced` cost, with every op that dies with them: the producers all of
/// whose results are only used by dying ops, that have no memory effects (so the greedy driver
/// erases them) and that produce none of `kept` (values the rewrite goes on using).
pub fn dying_cost(replaced: &[OperationRef], kept: &[Value]) -> Cost {
    let mut dying: Vec<OperationRef> = replaced.to_vec();
    let mut work: Vec<OperationRef> = replaced.to_vec();
    'work: while let Some(op) = work.pop() {
        for i in 0..op.operand_count() {
            let Ok(operand) = op.operand(i) else {
                continue;
            };
            if kept.contains(&operand) {
                continue;
            }
            let Some(producer) = defining_op(operand) else {
                continue;
            };
            if dying.contains(&producer) || !is_memory_effect_free(&producer) {
                continue;
            }
            let results: Vec<Value> = (0..producer.result_count())
                .filter_map(|r| producer.result(r).ok().map(Value::from))
                .collect();
            let dies = results
                .iter()
                .all(|r| !kept.contains(r) && users(*r).all(|u| dying.contains(&u)));
            if !dies {
                continue;
            }
            if dying.len() >= MAX_DYING {
                break 'work;
            }
            dying.push(producer);
            work.push(producer);
        }
    }
    dying
        .iter()
        .fold(Cost::default(), |acc, op| acc + op_cost(op))
}

/// Whether `value` is used by an affine op that requires its index operands to be valid affine
/// dimensions or symbols (every affine op but `affine.apply` and `affine.yield`).
pub fn has_strict_affine_user(value: Value) -> bool {
    users(value).any(|u| {
        let name = op_name(&u);
        name.starts_with("affine.") && name != "affine.apply" && name != "affine.yield"
    })
}

/// The integer and index results of `op` that have uses, with their positions.
pub fn used_results<'c, 'a>(op: &OperationRef<'c, 'a>) -> Vec<(usize, Value<'c, 'a>)> {
    (0..op.result_count())
        .filter_map(|i| {
            let value: Value = op.result(i).ok()?.into();
            xla_indexing_mlir::ir::int_width(value.r#type())?;
            xla_indexing_mlir::ir::has_uses(value).then_some((i, value))
        })
        .collect()
}
