//! Lowering of `xla_indexing.loop` (and of XLA's `xla.loop`, which means the same) to `scf`, the
//! first step of `xla-indexing-lower-apply`.
//!
//! # What it produces
//!
//! Let `M` be the loop's map and `N` the map `M` with its dimensions narrowed to the ranges that
//! [`Ranges`] proves for the `dims` operands, then simplified by the core (which keeps the set
//! of domain points: it only tightens bounds, rewrites constraints and drops those that always
//! hold, or marks the map known empty). Then:
//!
//! * If `N` is known empty, the loop's results are replaced by its `inits` and the loop, body
//!   included, is erased.
//! * Otherwise each range variable `s_j` of `N`, the first outermost, gets one `scf.for` from the
//!   lower bound of `s_j` in `N` to its upper bound plus one, step 1. The loop-carried values are
//!   the `iter_args` of every `scf.for`, threaded from the outer loop to the inner one; each loop
//!   yields the results of what it contains. Without range variables there is no `scf.for`.
//! * A condition is built from checks: a dimension whose operand's known range is not inside its
//!   bounds in `N` is compared with those bounds, and every constraint `e in [lo, hi]` of `N`
//!   whose expression's range over the bounds alone is not inside `[lo, hi]` is compared with `lo`
//!   and `hi` (`arith.cmpi sge`/`sle`, or `eq` for a point; only the sides that can fail). The
//!   constraint expressions are the results of an `xla_indexing.apply_indexing` whose map has
//!   `N`'s dimensions and range variables with their bounds but no constraints; the comparisons
//!   are joined by `arith.andi`. The checks of dims, and of constraints that use no range
//!   variable (computed by a map of the dims alone), come before the loop nest, since they do not
//!   change in it; the others are inside the innermost loop (or, without range variables, in
//!   place of the loop op).
//! * With checks, an `scf.if` on the condition yields the carried values: its then-branch is the
//!   body, its else-branch yields the carried values unchanged. Without checks the body goes
//!   directly into the innermost loop (or before the loop op).
//! * The body: an `xla_indexing.apply_indexing` of `N` over the dims and the induction variables
//!   gives the map's results (none when the map has none); the body's arguments are replaced by
//!   the induction variables, those results and the carried values; its ops are moved; its
//!   `xla_indexing.yield` becomes `scf.yield`.
//!
//! For example, with `%d` bounded by `[0, 3]`,
//!
//! ```mlir
//! %r = xla_indexing.loop (%d)[%i, %j] -> (%x)
//!     in #xla_indexing.map<"(d0)[s0, s1] -> (d0 * 32 + s0 * 4 + s1), domain: d0 in [0, 3],
//!                           s0 in [0, 7], s1 in [0, 3], s0 + s1 in [0, 8]">
//!     iter_args(%acc = %zero) -> (index) {
//!   %next = arith.addi %acc, %x : index
//!   xla_indexing.yield %next : index
//! }
//! ```
//!
//! becomes (before the `apply_indexing` ops are lowered to `arith` by the same pass)
//!
//! ```mlir
//! %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%a = %zero) -> (index) {
//!   %in = scf.for %j = %c0 to %c4 step %c1 iter_args(%b = %a) -> (index) {
//!     %e = xla_indexing.apply_indexing #xla_indexing.map<"(d0)[s0, s1] -> (s0 + s1), domain: ...">(%d, %i, %j)
//!     %ok = arith.cmpi sle, %e, %c8 : index
//!     %y = scf.if %ok -> (index) {
//!       %x = xla_indexing.apply_indexing #xla_indexing.map<"... -> (d0 * 32 + s0 * 4 + s1), ...">(%d, %i, %j)
//!       %next = arith.addi %b, %x : index
//!       scf.yield %next : index
//!     } else {
//!       scf.yield %b : index
//!     }
//!     scf.yield %y : index
//!   }
//!   scf.yield %in : index
//! }
//! ```
//!
//! # Why it is sound
//!
//! * The loop nest visits every point of the box of `N`'s range-variable bounds in lexicographic
//!   order, the first variable outermost, as the op specifies. `N`'s domain is `M`'s domain
//!   intersected with "every dim lies in its known range"; since the dims always do (the ranges
//!   are sound), `N` and `M` have the same points for the dims' values, and simplification keeps
//!   that set.
//! * The condition holds exactly at the points of `N`'s domain: the loops keep the range
//!   variables within their bounds, and every dim bound and constraint is either checked or
//!   implied by the bounds (its range over them lies inside its interval). So the body runs
//!   exactly at the domain's points, in order, and elsewhere the carried values pass unchanged.
//! * The constraint expressions' maps have no constraints: lowering them assumes only the bounds,
//!   which the loops guarantee for the range variables; where a dim is outside its bounds its
//!   own check is false, and the `andi` is false whatever the other values (the lowered
//!   arithmetic has no undefined behaviour: it divides by positive constants only). Giving those
//!   maps the constraints would let the lowering assume the very facts being checked.
//! * The results' `apply_indexing` runs only where the condition holds, that is inside the
//!   domain, which is where its lowering (simplified within the domain) is exact.
//! * A known-empty domain has no point: the body never runs and the results are the inits.

use melior::{
    Context,
    ir::{
        Attribute, Block, BlockLike, Identifier, Location, Operation, OperationRef, Region,
        RegionLike, Type, Value,
        attribute::IntegerAttribute,
        operation::{OperationBuilder, OperationLike, WalkOrder},
        r#type::IntegerType,
    },
};
use xla_indexing_core::{Expr, IndexingMap, Interval, VarRef};
use xla_indexing_mlir::handles::{BlockHandle, OpHandle, ValueHandle, collect_ops, with_context};
use xla_indexing_mlir::ir::op_name;
use xla_indexing_mlir::ods::xla_indexing::apply_indexing;

use super::error::{LowerError, LowerErrorKind};
use super::ranges::{Ranges, narrowed};
use xla_indexing_mlir::{
    indexing_ops::{XLA_LOOP, XLA_YIELD, YIELD, is_loop, is_yield, op_map},
    ir::emit_error,
    map_attribute,
};

/// `arith.cmpi` predicates (`arith::CmpIPredicate`).
const EQ: i64 = 0;
const SLE: i64 = 3;
const SGE: i64 = 5;

/// Lowers every `xla_indexing.loop` and `xla.loop` nested in `root` (inner loops first) as the module
/// documentation describes. A loop that cannot be lowered gets an error diagnostic with the
/// reason and makes this an `Err`; the loops lowered before it stay lowered.
pub fn lower_loops(root: OperationRef) -> Result<(), LowerError> {
    let root_handle = OpHandle::of(&root);
    let loops = collect_ops(&root, WalkOrder::PostOrder, |op| {
        OpHandle::of(op) != root_handle && is_loop(&op_name(op))
    });
    // SAFETY: the context is used inside the closure only.
    unsafe {
        with_context(&root, |context| {
            for handle in loops {
                // Post order: the loops nested in this one are already lowered (moved, not
                // destroyed), and this one is still live, since only loops lowered before it
                // were destroyed.
                let op = handle.get();
                if let Err(error) = lower_loop(context, op) {
                    emit_error(op.location(), &error.to_string());
                    return Err(LowerErrorKind::CannotLower(op_name(&op)).into());
                }
            }
            Ok(())
        })
    }
}

/// The parts of a verified `xla_indexing.loop` or `xla.loop`.
struct Parts {
    map: IndexingMap,
    dims: Vec<ValueHandle>,
    inits: Vec<ValueHandle>,
    body: BlockHandle,
    terminator: OpHandle,
}

/// Reads `op`, checking what the lowering relies on (the verifier checks it too, but a pass may
/// see IR that was not verified).
fn parts(op: &OperationRef) -> Result<Parts, LowerErrorKind> {
    let name = op_name(op);
    let invalid = LowerErrorKind::Invalid;
    let map = op_map(op).ok_or_else(|| invalid(format!("{name} has no readable indexing map")))?;
    if !map.rt_vars().is_empty() {
        return Err(invalid(format!(
            "{name} does not support runtime variables, but its map has {}",
            map.rt_vars().len()
        )));
    }
    let num_dims = map.dims().len();
    let operands: Vec<ValueHandle> = (0..op.operand_count())
        .filter_map(|i| op.operand(i).ok().map(ValueHandle::of))
        .collect();
    if operands.len() < num_dims {
        return Err(invalid(format!(
            "{name} has {} operands, but its map has {num_dims} dims",
            operands.len()
        )));
    }
    let (dims, inits) = operands.split_at(num_dims);
    if op.result_count() != inits.len() {
        return Err(invalid(format!(
            "{name} has {} results but {} inits",
            op.result_count(),
            inits.len()
        )));
    }
    let body = op
        .region(0)
        .ok()
        .and_then(|r| r.first_block())
        .ok_or_else(|| invalid(format!("{name} has no body")))?;
    let expected = map.range_vars().len() + map.results().len() + inits.len();
    if body.argument_count() != expected {
        return Err(invalid(format!(
            "the body of {name} has {} arguments, expected {expected}",
            body.argument_count()
        )));
    }
    let terminator = body
        .terminator()
        .filter(|t| is_yield(&op_name(t)) && t.operand_count() == inits.len())
        .ok_or_else(|| {
            invalid(format!(
                "the body of {name} must end with an {} of one value per init ({})",
                if name == XLA_LOOP { XLA_YIELD } else { YIELD },
                inits.len()
            ))
        })?;
    Ok(Parts {
        map,
        dims: dims.to_vec(),
        inits: inits.to_vec(),
        body: BlockHandle::of(&body),
        terminator: OpHandle::of(&terminator),
    })
}

/// One check of the condition: `value >= lo` and/or `value <= hi` (`eq` when both and equal),
/// where the value is a dim operand or a constraint expression.
struct Check<T> {
    what: T,
    lo: Option<i64>,
    hi: Option<i64>,
}

/// The checks that decide whether a point of the loop nest lies in `map`'s domain: dims (by
/// position) whose known range (`dim_ranges`) is not inside their bounds, and constraint
/// expressions whose range over the bounds alone is not inside their interval.
fn checks(map: &IndexingMap, dim_ranges: &[Interval]) -> (Vec<Check<usize>>, Vec<Check<Expr>>) {
    // The sides of `bounds` that values of `range` may cross (both for a point: one `eq`).
    let sides = |range: Interval, bounds: Interval| {
        let lo = (range.lo < bounds.lo).then_some(bounds.lo);
        let hi = (range.hi > bounds.hi).then_some(bounds.hi);
        match (lo, hi) {
            (None, None) => None,
            _ if bounds.lo == bounds.hi => Some((Some(bounds.lo), Some(bounds.hi))),
            sides => Some(sides),
        }
    };
    let dims = map
        .dims()
        .iter()
        .zip(dim_ranges)
        .enumerate()
        .filter_map(|(i, (var, range))| {
            let (lo, hi) = sides(*range, var.bounds)?;
            Some(Check { what: i, lo, hi })
        })
        .collect();
    let bounds_only = bounds_map(map, Vec::new());
    let ev = bounds_only.range_evaluator(false);
    let constraints = map
        .constraints()
        .iter()
        .filter_map(|(e, interval)| {
            let (lo, hi) = sides(ev.range(e), *interval)?;
            Some(Check {
                what: e.clone(),
                lo,
                hi,
            })
        })
        .collect();
    (dims, constraints)
}

/// Whether `e` uses a symbol (here: a range variable).
fn uses_symbols(e: &Expr) -> bool {
    let mut found = false;
    e.for_each_var(&mut |v| found |= matches!(v, VarRef::Sym(_)));
    found
}

/// A map with `map`'s dims and range variables (bounds and names) and no constraints.
fn bounds_map(map: &IndexingMap, results: Vec<Expr>) -> IndexingMap {
    IndexingMap::new(
        results,
        map.dims().to_vec(),
        map.range_vars().to_vec(),
        Vec::new(),
    )
}

/// Where new ops go: before an op, or at the end of a block.
#[derive(Clone, Copy)]
enum Cursor {
    Before(OpHandle),
    End(BlockHandle),
}

/// Builds ops for one loop.
struct Builder<'c> {
    context: &'c Context,
    location: Location<'c>,
    index: Type<'c>,
}

impl<'c> Builder<'c> {
    /// Builds op `name` and inserts it at `at`.
    fn op(
        &self,
        at: Cursor,
        name: &str,
        operands: &[ValueHandle],
        results: &[Type<'c>],
        attributes: &[(&str, Attribute<'c>)],
        regions: Vec<Region<'c>>,
    ) -> Result<OpHandle, LowerErrorKind> {
        let operands = values(operands);
        let attributes: Vec<(Identifier, Attribute)> = attributes
            .iter()
            .map(|(n, a)| (Identifier::new(self.context, n), *a))
            .collect();
        let op = OperationBuilder::new(name, self.location)
            .add_operands(&operands)
            .add_results(results)
            .add_attributes(&attributes)
            .add_regions_vec(regions)
            .build()
            .map_err(|e| LowerErrorKind::Build {
                op: name.to_string(),
                message: e.to_string(),
            })?;
        Ok(insert(at, op))
    }

    /// An `arith.constant` of type index.
    fn constant(&self, at: Cursor, value: i64) -> Result<ValueHandle, LowerErrorKind> {
        let attribute: Attribute = IntegerAttribute::new(self.index, value).into();
        let op = self.op(
            at,
            "arith.constant",
            &[],
            &[self.index],
            &[("value", attribute)],
            Vec::new(),
        )?;
        Ok(results(op)[0])
    }

    /// `arith.cmpi predicate, a, constant`.
    fn compare(
        &self,
        at: Cursor,
        predicate: i64,
        a: ValueHandle,
        c: i64,
    ) -> Result<ValueHandle, LowerErrorKind> {
        let c = self.constant(at, c)?;
        let i64_type: Type = IntegerType::new(self.context, 64).into();
        let predicate: Attribute = IntegerAttribute::new(i64_type, predicate).into();
        let i1: Type = IntegerType::new(self.context, 1).into();
        let op = self.op(
            at,
            "arith.cmpi",
            &[a, c],
            &[i1],
            &[("predicate", predicate)],
            Vec::new(),
        )?;
        Ok(results(op)[0])
    }

    /// The `count` results of an `xla_indexing.apply_indexing` of `map` (none without a map).
    fn apply(
        &self,
        at: Cursor,
        operands: &[ValueHandle],
        map: Option<Attribute<'c>>,
        count: usize,
    ) -> Result<Vec<ValueHandle>, LowerErrorKind> {
        let Some(map) = map else {
            return Ok(Vec::new());
        };
        let op = apply_indexing(
            self.context,
            &vec![self.index; count],
            &values(operands),
            map,
            self.location,
        );
        Ok(results(insert(at, op.into())))
    }

    /// The conjunction of `checks` on `values` (one per check), joined to `and` if given; `None`
    /// when there is nothing to check.
    fn condition<T>(
        &self,
        at: Cursor,
        checks: &[Check<T>],
        values: &[ValueHandle],
        and: Option<ValueHandle>,
    ) -> Result<Option<ValueHandle>, LowerErrorKind> {
        let mut condition = and;
        for (check, value) in checks.iter().zip(values) {
            let comparisons = match (check.lo, check.hi) {
                (Some(lo), Some(hi)) if lo == hi => vec![(EQ, lo)],
                (lo, hi) => lo
                    .map(|lo| (SGE, lo))
                    .into_iter()
                    .chain(hi.map(|hi| (SLE, hi)))
                    .collect(),
            };
            for (predicate, c) in comparisons {
                let cmp = self.compare(at, predicate, *value, c)?;
                condition = Some(match condition {
                    None => cmp,
                    Some(acc) => {
                        let i1 = type_of(cmp);
                        let and = self.op(at, "arith.andi", &[acc, cmp], &[i1], &[], Vec::new())?;
                        results(and)[0]
                    }
                });
            }
        }
        Ok(condition)
    }

    /// A region of one block with arguments of `types`.
    fn region(&self, types: &[Type<'c>]) -> Region<'c> {
        let region = Region::new();
        let arguments: Vec<(Type, Location)> = types.iter().map(|t| (*t, self.location)).collect();
        region.append_block(Block::new(&arguments));
        region
    }
}

/// Inserts the new op `op` at `at`.
fn insert(at: Cursor, op: Operation) -> OpHandle {
    // SAFETY: the block (of the anchor op, or the one given) is live and takes ownership of the
    // new op.
    unsafe {
        match at {
            Cursor::Before(anchor) => anchor.insert_before(op),
            Cursor::End(block) => block.append(op),
        }
    }
}

/// Views of `handles`, operands of an op being built.
fn values<'c, 'a>(handles: &[ValueHandle]) -> Vec<Value<'c, 'a>> {
    // SAFETY: the operands are live values of the IR being rewritten.
    handles.iter().map(|v| unsafe { v.get() }).collect()
}

/// The results of `op`.
fn results(op: OpHandle) -> Vec<ValueHandle> {
    // SAFETY: the ops of a loop being lowered are live.
    unsafe { op.results() }
}

/// The entry block of region `index` of `op`.
fn entry_block(op: OpHandle, index: usize) -> Result<BlockHandle, LowerErrorKind> {
    // SAFETY: `op` is a live op.
    unsafe { op.entry_block(index) }
        .ok_or_else(|| LowerErrorKind::Invalid("a region built with one block has none".into()))
}

/// The type of `value`.
fn type_of<'c>(value: ValueHandle) -> Type<'c> {
    // SAFETY: `value` is live, and its type lives as long as the context.
    unsafe { value.ty() }
}

/// Replaces every use of `old[i]` by `new[i]`.
fn replace_all(old: &[ValueHandle], new: &[ValueHandle]) {
    for (o, n) in old.iter().zip(new) {
        // SAFETY: both values are live and of the same type.
        unsafe { o.replace_all_uses_with(*n) };
    }
}

/// Lowers one loop.
fn lower_loop(context: &Context, op: OperationRef) -> Result<(), LowerErrorKind> {
    let parts = parts(&op)?;
    let raw = OpHandle::of(&op);
    let dim_ranges = Ranges::new().operands(&op, 0, parts.dims.len());
    let mut map = narrowed(&parts.map, &dim_ranges);
    map.simplify();
    if map.is_known_empty() {
        replace_all(&results(raw), &parts.inits);
        // SAFETY: the loop's results have no uses left; the loop and its body go.
        unsafe { raw.erase() };
        return Ok(());
    }
    // Everything that can fail is prepared before the IR changes.
    let upper_bounds: Vec<i64> = map
        .range_vars()
        .iter()
        .enumerate()
        .map(|(j, v)| {
            v.bounds.hi.checked_add(1).ok_or_else(|| {
                LowerErrorKind::Unsupported(format!("the upper bound of range variable s{j} is the largest index: the loop has no end"))
            })
        })
        .collect::<Result<_, _>>()?;
    let (dim_checks, constraint_checks) = checks(&map, &dim_ranges);
    // Constraints on dims alone do not change in the loop nest: they are computed before it, by a
    // map without range variables; the others inside it.
    let (invariant_checks, variant_checks): (Vec<_>, Vec<_>) = constraint_checks
        .into_iter()
        .partition(|c| !uses_symbols(&c.what));
    let attribute =
        |m: &IndexingMap| map_attribute(context, m).map_err(LowerErrorKind::MapAttribute);
    let results_map = (!map.results().is_empty())
        .then(|| attribute(&map))
        .transpose()?;
    let exprs =
        |checks: &[Check<Expr>]| -> Vec<Expr> { checks.iter().map(|c| c.what.clone()).collect() };
    let invariant_map = (!invariant_checks.is_empty())
        .then(|| {
            let m = IndexingMap::new(
                exprs(&invariant_checks),
                map.dims().to_vec(),
                Vec::new(),
                Vec::new(),
            );
            attribute(&m)
        })
        .transpose()?;
    let variant_map = (!variant_checks.is_empty())
        .then(|| attribute(&bounds_map(&map, exprs(&variant_checks))))
        .transpose()?;

    let b = Builder {
        context,
        location: op.location(),
        index: Type::index(context),
    };
    // What does not change in the loop nest is checked before it.
    let before = Cursor::Before(raw);
    let dim_values: Vec<ValueHandle> = dim_checks.iter().map(|c| parts.dims[c.what]).collect();
    let dims_ok = b.condition(before, &dim_checks, &dim_values, None)?;
    let invariant_values = b.apply(before, &parts.dims, invariant_map, invariant_checks.len())?;
    let invariant_ok = b.condition(before, &invariant_checks, &invariant_values, dims_ok)?;
    let carried_types: Vec<Type> = parts.inits.iter().map(|v| type_of(*v)).collect();
    let mut at = Cursor::Before(raw);
    let mut carried = parts.inits.clone();
    let mut ivs = Vec::new();
    let mut fors = Vec::new();
    for (var, upper) in map.range_vars().iter().zip(&upper_bounds) {
        let bounds = [
            b.constant(at, var.bounds.lo)?,
            b.constant(at, *upper)?,
            b.constant(at, 1)?,
        ];
        let mut block_types = vec![b.index];
        block_types.extend(&carried_types);
        let for_op = b.op(
            at,
            "scf.for",
            &[&bounds[..], &carried].concat(),
            &carried_types,
            &[],
            vec![b.region(&block_types)],
        )?;
        let block = entry_block(for_op, 0)?;
        // SAFETY: the block was just built.
        let arguments = unsafe { block.arguments() };
        ivs.push(arguments[0]);
        carried = arguments[1..].to_vec();
        fors.push((for_op, block));
        at = Cursor::End(block);
    }
    let point: Vec<ValueHandle> = [&parts.dims[..], &ivs].concat();

    let variant_values = b.apply(at, &point, variant_map, variant_checks.len())?;
    let condition = b.condition(at, &variant_checks, &variant_values, invariant_ok)?;
    let body = Body {
        parts: &parts,
        results_map,
        point: &point,
        ivs: &ivs,
        carried: &carried,
    };
    let mut values = match condition {
        None => body.emit(&b, at)?,
        Some(condition) => {
            // Without carried values the else-branch has nothing to do: an empty region.
            let else_region = if carried.is_empty() {
                Region::new()
            } else {
                b.region(&[])
            };
            let if_op = b.op(
                at,
                "scf.if",
                &[condition],
                &carried_types,
                &[],
                vec![b.region(&[]), else_region],
            )?;
            let then_block = entry_block(if_op, 0)?;
            if !carried.is_empty() {
                let else_block = entry_block(if_op, 1)?;
                b.op(
                    Cursor::End(else_block),
                    "scf.yield",
                    &carried,
                    &[],
                    &[],
                    Vec::new(),
                )?;
            }
            let yielded = body.emit(&b, Cursor::End(then_block))?;
            b.op(
                Cursor::End(then_block),
                "scf.yield",
                &yielded,
                &[],
                &[],
                Vec::new(),
            )?;
            results(if_op)
        }
    };
    for (for_op, block) in fors.iter().rev() {
        b.op(
            Cursor::End(*block),
            "scf.yield",
            &values,
            &[],
            &[],
            Vec::new(),
        )?;
        values = results(*for_op);
    }
    replace_all(&results(raw), &values);
    // SAFETY: the loop's results have no uses left and its body holds only the old yield.
    unsafe { raw.erase() };
    Ok(())
}

/// The body of a loop being lowered, and what replaces its arguments.
struct Body<'p, 'c> {
    parts: &'p Parts,
    /// The map whose results the body receives (`None` when it has none).
    results_map: Option<Attribute<'c>>,
    /// The dims, then the induction variables.
    point: &'p [ValueHandle],
    ivs: &'p [ValueHandle],
    carried: &'p [ValueHandle],
}

impl<'c> Body<'_, 'c> {
    /// Computes the map's results at `at`, moves the body's ops there with its arguments
    /// replaced, and returns the values its `xla_indexing.yield` gives.
    fn emit(&self, b: &Builder<'c>, at: Cursor) -> Result<Vec<ValueHandle>, LowerErrorKind> {
        let map_results = b.apply(
            at,
            self.point,
            self.results_map,
            self.parts.map.results().len(),
        )?;
        let new: Vec<ValueHandle> = [self.ivs, &map_results, self.carried].concat();
        // SAFETY: the body block, its ops and its terminator are live; the terminator stays,
        // every other op moves (in order) to `at`.
        unsafe {
            replace_all(&self.parts.body.arguments(), &new);
            for op in self.parts.body.operations() {
                if op == self.parts.terminator {
                    break;
                }
                match at {
                    Cursor::Before(anchor) => op.move_before(anchor),
                    Cursor::End(block) => op.move_to_end(block),
                }
            }
            Ok(self.parts.terminator.operands())
        }
    }
}
