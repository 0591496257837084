//! Ranges of integer and index SSA values, from what bounds them in the IR:
//!
//! * induction variables of `affine.for` (its bound maps over their operands' ranges), `scf.for`,
//!   `scf.forall` and `scf.parallel` (bounds that are constants or have known ranges), and the range variables
//!   and map results of `xla_indexing.loop`;
//! * XLA's `xla.range = [lo : index, hi : index]` on a function argument or an op;
//! * `gpu.thread_id`, `gpu.block_id`, `gpu.block_dim`, `gpu.grid_dim`: their `upper_bound`, the
//!   enclosing function's `known_block_size` / `known_grid_size`, or the sizes of the enclosing
//!   `gpu.launch` (whose region arguments are bounded the same way); ids are never negative;
//! * the results of `xla_indexing.apply_indexing` and `affine.apply` (the maps' domains and the
//!   operands' ranges), `arith.constant`, and `arith` arithmetic over bounded values;
//! * the result of any other op that implements MLIR's `InferIntRangeInterface` (a value
//!   declared bounded, `arith.andi` with a mask, `index.*` ops, ...): what the interface infers
//!   from the ranges found here for its operands;
//! * with [`Ranges::solved`], what MLIR's integer range analysis (its dataflow solver) finds
//!   for every value: the union of an `scf.if`'s or a branch's values, `scf.while` arguments,
//!   what unsigned arithmetic bounds. Each range found here is intersected with it.
//!
//! Every range is sound: a value outside it is impossible. A computation that might wrap around
//! in its type gives the full range.

use std::collections::HashMap;

use melior::ir::{
    AffineMap, OperationRef, RegionLike, Value, ValueLike, block::BlockArgument,
    operation::OperationLike,
};
use xla_indexing_core::{Expr, IndexingMap, Interval, Var, VarRef};

use xla_indexing_mlir::{
    affine::expr_from_affine,
    handles::value_key,
    index_op::{Cast, Division, GpuQuery, IndexOp},
    indexing_ops::{is_loop, op_map},
    ir::{
        RANGE_ATTRIBUTE, affine_map_attribute, argument_attribute, block_parent_op, defining_op,
        dense_array, inferred_result_range, int_width, integer_attribute, op_name, parent_op,
        range_attribute, solve_integer_ranges,
    },
};

/// Deepest chain of definitions followed for one value.
const MAX_DEPTH: usize = 48;

/// The largest value a GPU thread or block id can take (ids are 32-bit unsigned).
const MAX_GPU_ID: i64 = u32::MAX as i64 - 1;

/// Computes and caches value ranges. The IR must not change while one is in use, except as
/// [`Ranges::forget`] and [`Ranges::forget_solved`] are told.
#[derive(Default)]
pub struct Ranges {
    memo: HashMap<usize, Interval>,
    /// What MLIR's integer range analysis found, by value (see [`Ranges::solved`]).
    solved: HashMap<usize, Interval>,
    depth: usize,
}

/// The signed values of a type of `width` bits.
pub fn signed_range(width: u32) -> Interval {
    match width {
        0 => Interval::point(0),
        w if w >= 64 => Interval::FULL,
        w => Interval::new(-(1i64 << (w - 1)), (1i64 << (w - 1)) - 1),
    }
}

/// The values of a type of `width` bits as the analysis reads them: an `i1` is 0 or 1 (as
/// `simplify/semantics.rs` reads booleans, true being 1), wider integers signed.
pub fn value_range(width: u32) -> Interval {
    if width == 1 {
        Interval::new(0, 1)
    } else {
        signed_range(width)
    }
}

/// An `i1`'s range read as 0 or 1 from its signed range (`-1` is true).
fn boolean_of_signed(signed: Interval) -> Interval {
    let (can_be_true, can_be_false) = (
        signed.contains(-1) || signed.contains(1),
        signed.contains(0),
    );
    match (can_be_false, can_be_true) {
        (true, false) => Interval::point(0),
        (false, true) => Interval::point(1),
        _ => Interval::new(0, 1),
    }
}

/// An `i1`'s signed range (`-1` is true) from its range read as 0 or 1.
fn signed_of_boolean(boolean: Interval) -> Interval {
    match (boolean.contains(0), boolean.contains(1)) {
        (true, false) => Interval::point(0),
        (false, true) => Interval::point(-1),
        _ => Interval::new(-1, 0),
    }
}

/// Whether `range` is exact for a type of `width` bits: inside its signed range and, for 64
/// bits, away from the ends where interval arithmetic saturates.
pub fn fits(range: Interval, width: u32) -> bool {
    let limit = signed_range(width.min(63));
    range.is_feasible() && limit.contains_interval(range)
}

/// An indexing map whose dims and symbols are bounded by `operand_ranges`, in order (the
/// first `num_dims` of them, at most their number, bound the dims).
pub(crate) fn map_over(
    results: Vec<Expr>,
    num_dims: usize,
    operand_ranges: &[Interval],
) -> IndexingMap {
    let var = |r: &Interval| Var::new(*r);
    IndexingMap::new(
        results,
        operand_ranges[..num_dims].iter().map(var).collect(),
        operand_ranges[num_dims..].iter().map(var).collect(),
        Vec::new(),
    )
}

/// The ranges of the results of affine map `map` applied to operands of `operand_ranges`; `None`
/// for results the core cannot express.
pub fn affine_result_ranges(map: AffineMap, operand_ranges: &[Interval]) -> Vec<Option<Interval>> {
    let num_dims = map.dim_count();
    if operand_ranges.len() != num_dims + map.symbol_count() {
        return vec![None; map.result_count()];
    }
    (0..map.result_count())
        .map(|i| {
            let e = expr_from_affine(map.result(i).ok()?)?;
            let indexing = map_over(vec![e.clone()], num_dims, operand_ranges);
            Some(indexing.expr_range(&e))
        })
        .collect()
}

/// The maps of an `xla_indexing.apply_indexing` op (see [`apply_indexing_maps`]).
pub struct ApplyMaps {
    /// The op's own map.
    pub written: IndexingMap,
    /// That map with its variables narrowed to what the op's operands can be.
    pub narrowed: IndexingMap,
    /// The narrowed map, simplified.
    pub simplified: IndexingMap,
}

/// The maps of an `xla_indexing.apply_indexing` op. `None` when the op carries no readable map
/// or when the narrowed domain is empty (no point of it is ever reached).
pub fn apply_indexing_maps(op: &OperationRef) -> Option<ApplyMaps> {
    let written = op_map(op)?;
    let operand_ranges = Ranges::new().operands(op, 0, op.operand_count());
    let narrowed = narrowed(&written, &operand_ranges);
    let mut simplified = narrowed.clone();
    simplified.simplify();
    (!simplified.is_known_empty()).then_some(ApplyMaps {
        written,
        narrowed,
        simplified,
    })
}

/// `map` with the bounds of its variables narrowed to `operand_ranges` (dims, then range
/// variables, then runtime variables).
pub fn narrowed(map: &IndexingMap, operand_ranges: &[Interval]) -> IndexingMap {
    let mut narrowed = map.clone();
    let num_dims = map.dims().len();
    for (i, range) in operand_ranges.iter().enumerate() {
        let v = if i < num_dims {
            VarRef::Dim(i as u32)
        } else {
            VarRef::Sym((i - num_dims) as u32)
        };
        if *range != Interval::FULL {
            narrowed.add_constraint(Expr::var(v), *range);
        }
    }
    narrowed
}

impl Ranges {
    /// An empty cache.
    pub fn new() -> Self {
        Ranges::default()
    }

    /// Runs MLIR's integer range analysis on `op` (see
    /// [`xla_indexing_mlir::ir::solve_integer_ranges`]): the results it proves to take one value
    /// become that constant, and the ranges it finds for the other values bound those this
    /// cache computes; with how many results became constants. The facts hold for a value as
    /// long as it lives, whatever its op's operands are rewritten to (rewrites keep every
    /// value's meaning).
    pub fn solved(op: &OperationRef) -> (Self, usize) {
        let mut solved = HashMap::new();
        let replaced = solve_integer_ranges(op, &mut |value, lo, hi| {
            let range = Interval::new(lo, hi);
            let range = if int_width(value.r#type()) == Some(1) {
                boolean_of_signed(range)
            } else {
                range
            };
            solved.insert(value_key(value), range);
        });
        let ranges = Ranges {
            solved,
            ..Ranges::default()
        };
        (ranges, replaced.unwrap_or(0))
    }

    /// What MLIR's integer range analysis found for the value with this key.
    pub fn solved_range(&self, key: usize) -> Option<Interval> {
        self.solved.get(&key).copied()
    }

    /// Forgets what MLIR's integer range analysis found for the value with this key, which is
    /// being erased (see [`Ranges::forget`]).
    pub fn forget_solved(&mut self, key: usize) {
        self.solved.remove(&key);
    }

    /// Forgets the range of the value with this key (see [`xla_indexing_mlir::handles::value_key`]), which is
    /// being erased: its memory may hold another value next.
    pub fn forget(&mut self, key: usize) {
        self.memo.remove(&key);
    }

    /// The range of `value` (the full range for values that are not integers or index).
    pub fn of(&mut self, value: Value) -> Interval {
        let key = value_key(value);
        if let Some(r) = self.memo.get(&key) {
            return *r;
        }
        let Some(width) = int_width(value.r#type()) else {
            return Interval::FULL;
        };
        if self.depth >= MAX_DEPTH {
            return Interval::FULL;
        }
        // A value met again while its range is computed (possible only in graph regions) is
        // unbounded.
        self.memo.insert(key, Interval::FULL);
        self.depth += 1;
        // Asked first: melior's failing `try_from` prints the value, which prints (and
        // verifies) the whole module, once per op result.
        let argument = value
            .is_block_argument()
            .then(|| BlockArgument::try_from(value).ok())
            .flatten();
        let computed = if let Some(argument) = argument {
            self.block_argument(argument)
        } else if let Some(op) = defining_op(value) {
            let index = (0..op.result_count())
                .find(|&i| op.result(i).is_ok_and(|r| Value::from(r) == value))
                .unwrap_or(0);
            let declared = op
                .attribute(RANGE_ATTRIBUTE)
                .ok()
                .and_then(range_attribute)
                .map_or(Interval::FULL, |(lo, hi)| Interval::new(lo, hi));
            let mut range = self.op_result(op, index, width);
            if range == Interval::FULL {
                range = self.interface_result(op, index);
            }
            range.intersect(declared)
        } else {
            Interval::FULL
        };
        let computed = match self.solved.get(&key) {
            Some(solved) => computed.intersect(*solved),
            None => computed,
        };
        self.depth -= 1;
        // A value of a narrow type is always within the type's range.
        let range = if !computed.is_feasible()
            || (width < 64 && !value_range(width).contains_interval(computed))
        {
            value_range(width)
        } else {
            computed
        };
        self.memo.insert(key, range);
        range
    }

    /// The ranges of the operands `from..to` of `op`.
    pub fn operands(&mut self, op: &OperationRef, from: usize, to: usize) -> Vec<Interval> {
        (from..to)
            .map(|i| op.operand(i).map_or(Interval::FULL, |v| self.of(v)))
            .collect()
    }

    fn block_argument(&mut self, argument: BlockArgument) -> Interval {
        let number = argument.argument_number();
        let block = argument.owner();
        let Some(parent) = block_parent_op(block) else {
            return Interval::FULL;
        };
        // Only the entry block's arguments are induction variables.
        let is_entry = parent
            .regions()
            .any(|r| r.first_block().is_some_and(|b| b == block));
        if !is_entry {
            return Interval::FULL;
        }
        match op_name(&parent).as_str() {
            "func.func" | "gpu.func" | "xtile.entry_func" => {
                argument_attribute(&parent, number, RANGE_ATTRIBUTE)
                    .and_then(range_attribute)
                    .map_or(Interval::FULL, |(lo, hi)| Interval::new(lo, hi))
            }
            "affine.for" if number == 0 => self.affine_for_iv(&parent),
            "scf.for" if number == 0 => self.scf_for_iv(&parent),
            "scf.forall" => self.scf_forall_iv(&parent, number),
            "scf.parallel" => self.scf_parallel_iv(&parent, number),
            "gpu.launch" => self.launch_argument(&parent, number),
            name if is_loop(name) => self.loop_argument(&parent, number),
            _ => Interval::FULL,
        }
    }

    fn segments(op: &OperationRef) -> Option<Vec<usize>> {
        dense_array(op.attribute("operandSegmentSizes").ok()?)?
            .into_iter()
            .map(|n| usize::try_from(n).ok())
            .collect()
    }

    fn affine_for_iv(&mut self, op: &OperationRef) -> Interval {
        let Some(segments) = Self::segments(op) else {
            return Interval::FULL;
        };
        let (Some(lb_map), Some(ub_map)) = (
            op.attribute("lowerBoundMap")
                .ok()
                .and_then(affine_map_attribute),
            op.attribute("upperBoundMap")
                .ok()
                .and_then(affine_map_attribute),
        ) else {
            return Interval::FULL;
        };
        let lb_ranges = self.operands(op, 0, segments[0]);
        let ub_ranges = self.operands(op, segments[0], segments[0] + segments[1]);
        // The lower bound is the max of its results, the upper bound (exclusive) the min of its.
        let lo = affine_result_ranges(lb_map, &lb_ranges)
            .into_iter()
            .map(|r| r.map_or(i64::MIN, |r| r.lo))
            .max()
            .unwrap_or(i64::MIN);
        let hi = affine_result_ranges(ub_map, &ub_ranges)
            .into_iter()
            .map(|r| r.map_or(i64::MAX, |r| r.hi.saturating_sub(1)))
            .min()
            .unwrap_or(i64::MAX);
        loop_range(lo, hi)
    }

    fn scf_for_iv(&mut self, op: &OperationRef) -> Interval {
        let ranges = self.operands(op, 0, 3);
        if op.has_attribute("unsignedCmp") && ranges[0].lo < 0 {
            return Interval::FULL;
        }
        loop_range(ranges[0].lo, ranges[1].hi.saturating_sub(1))
    }

    /// `scf.parallel`: operands are the lower bounds, the upper bounds and the steps, one per
    /// induction variable.
    fn scf_parallel_iv(&mut self, op: &OperationRef, number: usize) -> Interval {
        let Some(segments) = Self::segments(op) else {
            return Interval::FULL;
        };
        if segments.len() < 3 || number >= segments[0] || segments[1] != segments[0] {
            return Interval::FULL;
        }
        let lower = self.operands(op, number, number + 1)[0];
        let upper = self.operands(op, segments[0] + number, segments[0] + number + 1)[0];
        loop_range(lower.lo, upper.hi.saturating_sub(1))
    }

    fn scf_forall_iv(&mut self, op: &OperationRef, number: usize) -> Interval {
        let (Some(lbs), Some(ubs), Some(segments)) = (
            op.attribute("staticLowerBound").ok().and_then(dense_array),
            op.attribute("staticUpperBound").ok().and_then(dense_array),
            Self::segments(op),
        ) else {
            return Interval::FULL;
        };
        if number >= lbs.len() || number >= ubs.len() {
            return Interval::FULL;
        }
        // Dynamic bounds (i64::MIN in the static list) are operands, in order.
        let mut bound = |list: &[i64], first_operand: usize| {
            if list[number] != i64::MIN {
                return Interval::point(list[number]);
            }
            let dynamic = list[..number].iter().filter(|&&v| v == i64::MIN).count();
            op.operand(first_operand + dynamic)
                .map_or(Interval::FULL, |v| self.of(v))
        };
        let lb = bound(&lbs, 0);
        let ub = bound(&ubs, segments[0]);
        loop_range(lb.lo, ub.hi.saturating_sub(1))
    }

    /// `gpu.launch`'s region arguments: block ids, thread ids, grid sizes, block sizes (x, y, z
    /// each), bounded by the launch's size operands.
    fn launch_argument(&mut self, op: &OperationRef, number: usize) -> Interval {
        let Some(segments) = Self::segments(op) else {
            return Interval::FULL;
        };
        // Cluster sizes add region arguments; then the layout differs.
        if segments.len() < 7
            || segments
                .get(7..10)
                .is_some_and(|c| c.iter().any(|&n| n != 0))
        {
            return Interval::FULL;
        }
        let first_size = segments[0];
        let size = |this: &mut Self, k: usize| {
            op.operand(first_size + k)
                .map_or(Interval::FULL, |v| this.of(v))
        };
        match number {
            0..=2 => id_range(size(self, number).hi),
            3..=5 => id_range(size(self, number).hi),
            6..=11 => size(self, number - 6).intersect(Interval::new(1, MAX_GPU_ID + 1)),
            _ => Interval::FULL,
        }
    }

    fn loop_argument(&mut self, op: &OperationRef, number: usize) -> Interval {
        let Some(map) = op_map(op) else {
            return Interval::FULL;
        };
        let num_dims = map.dims().len();
        let dims = self.operands(op, 0, num_dims);
        let map = narrowed(&map, &dims);
        let num_range = map.range_vars().len();
        if number < num_range {
            map.range_vars()[number].bounds
        } else if let Some(result) = map.results().get(number - num_range) {
            map.expr_range(result)
        } else {
            Interval::FULL
        }
    }

    fn op_result(&mut self, op: OperationRef, index: usize, width: u32) -> Interval {
        use Division::*;
        let operand =
            |this: &mut Self, i: usize| op.operand(i).map_or(Interval::FULL, |v| this.of(v));
        let nonneg = |r: Interval| r.lo >= 0;
        let Some(kind) = IndexOp::of(&op) else {
            return Interval::FULL;
        };
        // Booleans are read as 0 and 1 but compute as 0 and -1 (signed `min`/`max` of two
        // differ): their ranges come from the interface, which reads them as MLIR does.
        if width == 1 && !matches!(kind, IndexOp::Constant | IndexOp::Select) {
            return Interval::FULL;
        }
        match kind {
            IndexOp::Constant => op
                .attribute("value")
                .ok()
                .and_then(integer_attribute)
                .map_or(Interval::FULL, |c| {
                    Interval::point(if width == 1 { i64::from(c != 0) } else { c })
                }),
            // Wrapping arithmetic: exact only when nothing can wrap.
            IndexOp::Add | IndexOp::Sub | IndexOp::Mul => {
                let (a, b) = (operand(self, 0), operand(self, 1));
                let r = match kind {
                    IndexOp::Add => a + b,
                    IndexOp::Sub => a - b,
                    _ => a * b,
                };
                if fits(a, width) && fits(b, width) && fits(r, width) {
                    r
                } else {
                    Interval::FULL
                }
            }
            IndexOp::Div(division) => {
                let (a, b) = (operand(self, 0), operand(self, 1));
                let Some(k) = b.as_point().filter(|&k| k > 0) else {
                    return Interval::FULL;
                };
                match division {
                    FloorSigned => a.floor_div(k),
                    CeilSigned => a.ceil_div(k),
                    // Truncation lies between floor and ceiling.
                    TruncSigned => Interval::new(a.floor_div(k).lo, a.ceil_div(k).hi),
                    Unsigned if nonneg(a) => a.floor_div(k),
                    RemUnsigned if nonneg(a) => a.modulo(k),
                    RemUnsigned => Interval::new(0, k - 1),
                    RemSigned if nonneg(a) => a.modulo(k),
                    RemSigned => Interval::new(-(k - 1), k - 1),
                    Unsigned | CeilUnsigned => Interval::FULL,
                }
            }
            IndexOp::MinMax { max, signed: true } => {
                let (a, b) = (operand(self, 0), operand(self, 1));
                if max {
                    Interval::new(a.lo.max(b.lo), a.hi.max(b.hi))
                } else {
                    Interval::new(a.lo.min(b.lo), a.hi.min(b.hi))
                }
            }
            IndexOp::Select => operand(self, 1).hull(operand(self, 2)),
            // Sign extension keeps the value (a boolean's true becomes -1); so does zero
            // extension of a non-negative one.
            IndexOp::Cast(Cast::Signed) => {
                let boolean = op
                    .operand(0)
                    .is_ok_and(|v| int_width(v.r#type()) == Some(1));
                let a = operand(self, 0);
                if boolean { signed_of_boolean(a) } else { a }
            }
            IndexOp::Cast(Cast::Unsigned) => {
                let a = operand(self, 0);
                if nonneg(a) { a } else { Interval::FULL }
            }
            IndexOp::Cast(Cast::Truncate) => {
                let a = operand(self, 0);
                if fits(a, width) { a } else { Interval::FULL }
            }
            IndexOp::ApplyIndexing => self.apply_indexing_result(&op, index),
            IndexOp::AffineApply => {
                let Some(map) = op.attribute("map").ok().and_then(affine_map_attribute) else {
                    return Interval::FULL;
                };
                let ranges = self.operands(&op, 0, op.operand_count());
                affine_result_ranges(map, &ranges)
                    .first()
                    .copied()
                    .flatten()
                    .unwrap_or(Interval::FULL)
            }
            IndexOp::Gpu { query, dim } => match query {
                GpuQuery::ThreadId | GpuQuery::BlockId => {
                    self.gpu_id(&op, query == GpuQuery::ThreadId, dim)
                }
                GpuQuery::BlockDim | GpuQuery::GridDim => {
                    self.gpu_size(&op, query == GpuQuery::BlockDim, dim)
                }
            },
            IndexOp::MinMax { signed: false, .. }
            | IndexOp::And
            | IndexOp::Or
            | IndexOp::Xor
            | IndexOp::Cmp
            | IndexOp::AffineMinMax { .. } => Interval::FULL,
        }
    }

    /// What the op's `InferIntRangeInterface` says of result `index`, given the ranges of its
    /// operands found here: the range of an op read nowhere else (a bounded value of another
    /// dialect, `arith.andi` with a mask, ...). Booleans go to and come from the interface as
    /// MLIR reads them, signed (`-1` is true).
    fn interface_result(&mut self, op: OperationRef, index: usize) -> Interval {
        let operands: Vec<(i64, i64)> = (0..op.operand_count())
            .map(|i| {
                let Ok(v) = op.operand(i) else {
                    return (Interval::FULL.lo, Interval::FULL.hi);
                };
                let r = self.of(v);
                let r = if int_width(v.r#type()) == Some(1) {
                    signed_of_boolean(r)
                } else {
                    r
                };
                (r.lo, r.hi)
            })
            .collect();
        let boolean = op
            .result(index)
            .is_ok_and(|r| int_width(r.r#type()) == Some(1));
        inferred_result_range(&op, index, &operands).map_or(Interval::FULL, |(lo, hi)| {
            let r = Interval::new(lo, hi);
            if boolean { boolean_of_signed(r) } else { r }
        })
    }

    fn apply_indexing_result(&mut self, op: &OperationRef, index: usize) -> Interval {
        let Some(map) = op_map(op) else {
            return Interval::FULL;
        };
        let ranges = self.operands(op, 0, op.operand_count());
        let map = narrowed(&map, &ranges);
        if map.is_known_empty() {
            return Interval::FULL;
        }
        map.results()
            .get(index)
            .map_or(Interval::FULL, |e| map.expr_range(e))
    }

    /// `gpu.thread_id` or `gpu.block_id`.
    fn gpu_id(&mut self, op: &OperationRef, thread: bool, dim: usize) -> Interval {
        if let Some(bound) = op.attribute("upper_bound").ok().and_then(integer_attribute) {
            return id_range(bound);
        }
        match self.known_size(op, thread, dim) {
            Some(size) => id_range(size.hi),
            None => id_range(MAX_GPU_ID + 1),
        }
    }

    /// `gpu.block_dim` or `gpu.grid_dim`.
    fn gpu_size(&mut self, op: &OperationRef, block: bool, dim: usize) -> Interval {
        if let Some(bound) = op.attribute("upper_bound").ok().and_then(integer_attribute) {
            return Interval::new(1, bound);
        }
        self.known_size(op, block, dim)
            .unwrap_or(Interval::new(1, MAX_GPU_ID + 1))
    }

    /// The block size (`block`) or grid size in dimension `dim` that the nearest enclosing
    /// function (`known_block_size` / `known_grid_size`) or `gpu.launch` gives.
    fn known_size(&mut self, op: &OperationRef, block: bool, dim: usize) -> Option<Interval> {
        let names: &[&str] = if block {
            &["known_block_size", "gpu.known_block_size"]
        } else {
            &["known_grid_size", "gpu.known_grid_size"]
        };
        let mut parent = parent_op(op);
        while let Some(p) = parent {
            let name = op_name(&p);
            if name == "gpu.launch" {
                let segments = Self::segments(&p)?;
                let k = if block { 3 + dim } else { dim };
                let value = p.operand(segments[0] + k).ok()?;
                return Some(self.of(value));
            }
            for attribute in names {
                if let Some(sizes) = p.attribute(attribute).ok().and_then(dense_array) {
                    return sizes.get(dim).map(|&s| Interval::point(s));
                }
            }
            if name.ends_with("func") || name == "gpu.module" || name == "builtin.module" {
                return None;
            }
            parent = parent_op(&p);
        }
        None
    }
}

/// The values of an induction variable from `lo` to `hi` (inclusive); an empty loop's variable
/// is never used, so it gets the full range.
fn loop_range(lo: i64, hi: i64) -> Interval {
    if lo <= hi {
        Interval::new(lo, hi)
    } else {
        Interval::FULL
    }
}

/// `[0, bound - 1]` for an id below `bound`, never above the largest GPU id.
fn id_range(bound: i64) -> Interval {
    Interval::new(0, bound.saturating_sub(1).clamp(0, MAX_GPU_ID))
}
