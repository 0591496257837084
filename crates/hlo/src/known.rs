//! Runtime variables whose values the module fixes: offsets and indices computed only from
//! constants and iotas (through broadcasts, reshapes, slices, concatenations, pads, integer
//! arithmetic, selects, compares and fusion boundaries) are folded into the maps that read
//! through them, clamped as the op clamps them, so that those maps keep no runtime variable for
//! them.
//!
//! A runtime variable's provenance says which instruction holds its value and where: a map from
//! the access's dimensions to an element of that instruction. `KnownValues::value` follows
//! that element back through the producers, each step re-expressing the element's index with
//! the producer's own output-to-input map, until it reaches an iota (whose value is an index),
//! an integer constant, or something it cannot see through (a parameter of the entry, a load of
//! a non-affine constant, a float): then the value is unknown and the variable stays.

use crate::opcode::Opcode;
use std::cell::Cell;
use std::collections::HashMap;

use xla_indexing_core::{Expr, IndexingMap, Interval, Var, VarRef};

use crate::access::{Access, OutOfRange};
use crate::module::{Computation, Instruction, Module};
use crate::ops::{self, OpContext, OpKind, Outcome};
use crate::shape::ArrayShape;

/// The most producers one fold follows, all its variables and nested folds together.
const BUDGET: usize = 1024;

/// The counter of a `while` in one iteration: leaf `leaf` of the body's parameter holds
/// `value`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Iteration {
    /// The loop's body (a computation index).
    pub body: usize,
    /// The counter's leaf of the loop's state.
    pub leaf: usize,
    /// Its value in this iteration.
    pub value: i64,
}

impl Iteration {
    /// Whether leaf `leaf` of `instr`, an instruction of computation `c`, is the counter.
    fn holds(self, c: usize, instr: &Instruction, leaf: usize) -> bool {
        (c, instr.parameter_number, leaf) == (self.body, Some(0), self.leaf)
    }
}

/// What one fold may still do and knows: the producers it may follow, and the loop counter's
/// value when it folds inside one iteration.
struct Fold {
    budget: Cell<usize>,
    iteration: Option<Iteration>,
}

impl Fold {
    fn new(iteration: Option<Iteration>) -> Fold {
        Fold {
            budget: Cell::new(BUDGET),
            iteration,
        }
    }
}

/// Where to find instructions by name and the callers of each computation, built once per
/// module.
pub struct KnownValues<'m> {
    module: &'m Module,
    /// Instruction name to `(computation, instruction)`; `None` for a name used twice.
    by_name: HashMap<&'m str, Option<(usize, usize)>>,
    /// Per computation, the `fusion`s and `call`s that call it: `(computation, instruction)`.
    callers: Vec<Vec<(usize, usize)>>,
}

impl<'m> KnownValues<'m> {
    /// Indexes `module`'s instructions by name and its computations' callers.
    pub fn new(module: &'m Module) -> KnownValues<'m> {
        let mut by_name: HashMap<&str, Option<(usize, usize)>> = HashMap::new();
        let mut callers = vec![Vec::new(); module.computations.len()];
        for (c, comp) in module.computations.iter().enumerate() {
            for (i, instr) in comp.instructions.iter().enumerate() {
                by_name
                    .entry(instr.name.as_str())
                    .and_modify(|slot| *slot = None)
                    .or_insert(Some((c, i)));
                if ops::op_kind(instr.opcode) == Some(OpKind::Call) {
                    for callee in ["calls", "to_apply"]
                        .iter()
                        .flat_map(|key| instr.called(key))
                        .filter_map(|name| module.computation(name))
                    {
                        callers[callee].push((c, i));
                    }
                }
            }
        }
        KnownValues {
            module,
            by_name,
            callers,
        }
    }

    /// `access` with every runtime variable whose value is known replaced by that value:
    /// exactly where the value stays inside the variable's bounds; otherwise clamped to them
    /// (`min`/`max`) when the op clamps, or, for an op that drops what falls outside, kept only
    /// where the value is inside. Variables whose value is not known stay.
    pub fn fold(&self, access: &Access) -> Access {
        self.fold_within(access, &Fold::new(None))
    }

    /// [`KnownValues::fold`] inside one iteration of a `while`, where the loop's counter has
    /// the value `iteration` gives.
    pub fn fold_in_iteration(&self, access: &Access, iteration: Iteration) -> Access {
        self.fold_within(access, &Fold::new(Some(iteration)))
    }

    /// [`KnownValues::fold`] within `fold`'s budget and facts.
    fn fold_within(&self, access: &Access, fold: &Fold) -> Access {
        let mut out = access.clone();
        let mut k = 0;
        while k < out.runtime.len() {
            match self.folded(&out, k, fold) {
                Some(folded) => out = folded,
                None => k += 1,
            }
        }
        if out != *access {
            out.simplify();
        }
        out
    }

    /// `access` with runtime variable `k` folded, when its value is known. Its provenance map
    /// may use a prefix of the access's range variables (a scatter reads its indices at the
    /// update position a range variable walks): those are read as further dimensions of the
    /// element, so the value can name them. A variable that a later provenance or a participant
    /// reads through stays.
    fn folded(&self, access: &Access, k: usize, fold: &Fold) -> Option<Access> {
        let rt = &access.runtime[k];
        let bounds = access.map.rt_vars().get(k)?.bounds;
        // The access's variables take values the provenance's do (folding an earlier
        // variable may have narrowed them): the provenance restricted to them.
        let within = |a: &[Var], b: &[Var]| {
            a.len() <= b.len()
                && a.iter()
                    .zip(b)
                    .all(|(x, y)| x.bounds.contains_interval(y.bounds))
        };
        let aligned = rt.map.dims().len() == access.map.dims().len()
            && within(rt.map.dims(), access.map.dims())
            && within(rt.map.range_vars(), access.map.range_vars());
        let read_later = access.runtime[k + 1..]
            .iter()
            .map(|later| &later.map)
            .chain(access.participants.iter().map(|p| &p.map))
            .any(|m| m.rt_vars().len() > k);
        if !rt.map.rt_vars().is_empty() || !aligned || read_later || rt.map.is_known_empty() {
            return None;
        }
        let map = &rt.map.with_vars(
            access.map.dims().to_vec(),
            access.map.range_vars()[..rt.map.range_vars().len()].to_vec(),
        );
        let point = range_vars_as_dims(map);
        let &(c, i) = self.by_name.get(rt.instruction.as_str())?.as_ref()?;
        let value = self.value(c, i, 0, &point, fold)?;
        let range = point.expr_range(&value);
        let value = dims_past_as_range_vars(&value, map.dims().len())?;
        let (value, guard) = if bounds.contains_interval(range) {
            (value, None)
        } else {
            match rt.out_of_range {
                OutOfRange::Clamped => (clamped(&value, range, bounds), None),
                OutOfRange::Dropped => (value.clone(), Some((value, bounds))),
            }
        };
        let mut map = access.map.replace_rt_var(k, &value)?.ok()?;
        if let Some((value, bounds)) = guard {
            map.add_constraint(value, bounds);
        }
        let mut runtime = access.runtime.clone();
        runtime.remove(k);
        Some(Access {
            map,
            runtime,
            participants: access.participants.clone(),
        })
    }

    /// The value of leaf `leaf` of instruction `i` of computation `c` at the element `at` gives
    /// (a map from the access's dimensions, without symbols), as an expression over those
    /// dimensions; `None` when it is not known within the `budget` of producers.
    fn value(
        &self,
        c: usize,
        i: usize,
        leaf: usize,
        at: &IndexingMap,
        fold: &Fold,
    ) -> Option<Expr> {
        fold.budget.set(fold.budget.get().checked_sub(1)?);
        let comp = &self.module.computations[c];
        let instr = &comp.instructions[i];
        match instr.opcode {
            Opcode::Iota => {
                integer(instr.array()?)?;
                at.results()
                    .get(usize::try_from(instr.int("iota_dimension")?).ok()?)
                    .cloned()
            }
            Opcode::Constant => constant_value(instr, at),
            Opcode::Parameter if fold.iteration.is_some_and(|it| it.holds(c, instr, leaf)) => {
                fold.iteration.map(|it| Expr::constant(it.value))
            }
            Opcode::Parameter => {
                // Through the fusion boundary: the one caller's operand.
                let [(caller_c, caller_i)] = self.callers[c].as_slice() else {
                    return None;
                };
                let caller = &self.module.computations[*caller_c].instructions[*caller_i];
                let operand = *caller.operands.get(instr.parameter_number?)?;
                self.value(*caller_c, operand, leaf, at, fold)
            }
            Opcode::Fusion | Opcode::Call => {
                let callee =
                    crate::fusion::callee(self.module, &OpContext::new(self.module, comp, instr))
                        .ok()?;
                let root = self.module.computations[callee].root;
                self.value(callee, root, leaf, at, fold)
            }
            Opcode::Tuple => self.value(c, *instr.operands.get(leaf)?, 0, at, fold),
            Opcode::GetTupleElement => {
                let index = usize::try_from(instr.int("index")?).ok()?;
                let operand = *instr.operands.first()?;
                let leaves = comp.instructions[operand].shape.element_leaves(index)?;
                self.value(c, operand, leaves.start + leaf, at, fold)
            }
            Opcode::Add | Opcode::Subtract | Opcode::Multiply | Opcode::Negate => {
                let args = self.operand_values(comp, c, instr, at, fold)?;
                let value = arithmetic(instr.opcode, &args)?;
                // Past the element type's range the op wraps: the value is not this sum.
                let range = at.expr_range(&value);
                integer(instr.array()?)?
                    .contains_interval(range)
                    .then_some(value)
            }
            Opcode::Convert | Opcode::Copy => {
                let [x] = self
                    .operand_values(comp, c, instr, at, fold)?
                    .try_into()
                    .ok()?;
                let range = at.expr_range(&x);
                integer(instr.array()?)?
                    .contains_interval(range)
                    .then_some(x)
            }
            Opcode::Select => {
                let [p, t, f] = self
                    .operand_values(comp, c, instr, at, fold)?
                    .try_into()
                    .ok()?;
                match at.expr_range(&p) {
                    r if r.lo >= 1 => Some(t),
                    r if r.hi <= 0 => Some(f),
                    _ => (t == f).then_some(t),
                }
            }
            Opcode::Compare => {
                let [a, b] = self
                    .operand_values(comp, c, instr, at, fold)?
                    .try_into()
                    .ok()?;
                let direction = match instr.attr("direction") {
                    Some(crate::attrs::AttrValue::Raw(d)) => d.as_str(),
                    _ => return None,
                };
                compare(direction, at.expr_range(&(a - b)))
                    .map(|holds| Expr::constant(holds.into()))
            }
            Opcode::Maximum | Opcode::Minimum | Opcode::Clamp => {
                let args = self.operand_values(comp, c, instr, at, fold)?;
                extremum(instr.opcode, &args, at)
            }
            _ => self.through_producer(comp, c, instr, leaf, at, fold),
        }
    }

    /// The values of every operand of an elementwise op at the same element.
    fn operand_values(
        &self,
        comp: &Computation,
        c: usize,
        instr: &Instruction,
        at: &IndexingMap,
        fold: &Fold,
    ) -> Option<Vec<Expr>> {
        let cx = OpContext::new(self.module, comp, instr);
        let Outcome::Defined(accesses) = ops::output_to_input(&cx, 0).ok()? else {
            return None;
        };
        let mut values = Vec::with_capacity(instr.operands.len());
        for (j, &operand) in instr.operands.iter().enumerate() {
            let access = accesses.iter().find(|a| a.operand == j)?;
            let element = element_at(at, &access.access)?;
            values.push(self.value(c, operand, 0, &element, fold)?);
        }
        Some(values)
    }

    /// Through an op that moves elements (broadcast, reshape, bitcast, transpose, reverse,
    /// slice, pad, concatenate, dynamic-slice at a known offset, ...): the one operand element
    /// its output-to-input maps give at `at`, when exactly one map can apply there.
    fn through_producer(
        &self,
        comp: &Computation,
        c: usize,
        instr: &Instruction,
        leaf: usize,
        at: &IndexingMap,
        fold: &Fold,
    ) -> Option<Expr> {
        let kind = ops::op_kind(instr.opcode)?;
        if matches!(kind, OpKind::Elementwise | OpKind::Call | OpKind::Source) {
            return None;
        }
        let cx = OpContext::new(self.module, comp, instr);
        let Outcome::Defined(accesses) = ops::output_to_input(&cx, leaf).ok()? else {
            return None;
        };
        if instr.opcode == Opcode::Pad {
            return self.through_pad(c, instr, &accesses, at, fold);
        }
        let mut reached = None;
        for a in &accesses {
            let access = self.fold_within(&a.access, fold);
            let Some(element) = element_at(at, &access) else {
                // A map that can apply here but that no element of `at` pins down.
                let mut composed = at.compose(&access.map).ok()?;
                composed.simplify();
                if composed.is_known_empty() {
                    continue;
                }
                return None;
            };
            if reached.is_some() {
                return None;
            }
            reached = Some((a.operand, a.leaf, element));
        }
        let (operand, operand_leaf, element) = reached?;
        self.value(
            c,
            *instr.operands.get(operand)?,
            operand_leaf,
            &element,
            fold,
        )
    }

    /// Through a `pad`: the operand's element where `at` is always inside the operand's
    /// positions, the padding value where it never is.
    fn through_pad(
        &self,
        c: usize,
        instr: &Instruction,
        accesses: &[ops::OperandAccess],
        at: &IndexingMap,
        fold: &Fold,
    ) -> Option<Expr> {
        let operand = accesses.iter().find(|a| a.operand == 0)?;
        if let Some(element) = element_at(at, &operand.access) {
            return self.value(c, instr.operands[0], 0, &element, fold);
        }
        let mut composed = at.compose(&operand.access.map).ok()?;
        composed.simplify();
        if !composed.is_known_empty() {
            return None;
        }
        let padding = accesses.iter().find(|a| a.operand == 1)?;
        let element = element_at(at, &padding.access)?;
        self.value(c, *instr.operands.get(1)?, 0, &element, fold)
    }
}

/// `access` applied after `at`: the element of the access's target at each point of `at`'s
/// domain, when it is one element everywhere (no range or runtime variables, no constraint
/// left after simplification) and not known empty.
fn element_at(at: &IndexingMap, access: &Access) -> Option<IndexingMap> {
    if !access.runtime.is_empty() {
        return None;
    }
    let mut composed = at.compose(&access.map).ok()?;
    composed.simplify();
    composed.remove_unused_symbols();
    let single = composed.num_symbols() == 0
        && composed.constraints().is_empty()
        && !composed.is_known_empty();
    single.then_some(composed)
}

/// `map` (without runtime variables) with its range variables as further dimensions, after its
/// own: one element at each point of the dimensions and range variables together.
fn range_vars_as_dims(map: &IndexingMap) -> IndexingMap {
    let n = map.dims().len() as u32;
    let lift = |e: &Expr| {
        e.rewrite_vars(&mut |v| match v {
            VarRef::Sym(i) => Some(Expr::dim(n + i)),
            VarRef::Dim(_) => None,
        })
        .expect("renaming variables cannot overflow")
    };
    let mut dims = map.dims().to_vec();
    dims.extend_from_slice(map.range_vars());
    let mut out = IndexingMap::new(
        map.results().iter().map(lift).collect(),
        dims,
        Vec::new(),
        Vec::new(),
    );
    for (e, iv) in map.constraints() {
        out.add_constraint(lift(e), *iv);
    }
    out
}

/// The inverse of [`range_vars_as_dims`] on an expression: dimension `n + i` becomes range
/// variable `i`.
fn dims_past_as_range_vars(e: &Expr, n: usize) -> Option<Expr> {
    e.rewrite_vars(&mut |v| match v {
        VarRef::Dim(d) if d as usize >= n => Some(Expr::sym(d - n as u32)),
        _ => None,
    })
    .ok()
}

/// The values an integer element type holds; `None` for other types.
fn integer(shape: &ArrayShape) -> Option<Interval> {
    let element = shape.element.as_str();
    if element == "pred" {
        return Some(Interval::new(0, 1));
    }
    let bits: u32 = element
        .get(1..)?
        .parse()
        .ok()
        .filter(|b| (1..=64).contains(b))?;
    let (lo, hi): (i128, i128) = match element.as_bytes().first()? {
        b's' => (-(1 << (bits - 1)), (1 << (bits - 1)) - 1),
        b'u' => (0, (1 << bits) - 1),
        _ => return None,
    };
    let clip = |v: i128| v.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64;
    Some(Interval::new(clip(lo), clip(hi)))
}

/// The value of an integer constant at `at`: a scalar or a splat anywhere; an array at a
/// constant element, or anywhere when its values are an affine function of the index.
fn constant_value(instr: &Instruction, at: &IndexingMap) -> Option<Expr> {
    let shape = instr.array()?;
    integer(shape)?;
    let values = literal_values(instr.literal.as_deref()?)?;
    if values.len() as i64 != shape.element_count()? || values.is_empty() {
        return None;
    }
    if values.iter().all(|&v| v == values[0]) {
        return Some(Expr::constant(values[0]));
    }
    let strides = row_major_strides(&shape.dims);
    if let Some(point) = at
        .results()
        .iter()
        .map(Expr::as_constant)
        .collect::<Option<Vec<i64>>>()
    {
        let position: i64 = point.iter().zip(&strides).map(|(i, s)| i * s).sum();
        return values
            .get(usize::try_from(position).ok()?)
            .map(|&v| Expr::constant(v));
    }
    // An affine literal: v(index) = v(0) + Σ step_d * index_d, checked at every element.
    let steps: Vec<i64> = shape
        .dims
        .iter()
        .zip(&strides)
        .map(|(&n, &s)| {
            if n > 1 {
                values[s as usize] - values[0]
            } else {
                0
            }
        })
        .collect();
    let affine = values.iter().enumerate().all(|(p, &v)| {
        let mut rest = p as i64;
        let mut expected = values[0];
        for (s, step) in strides.iter().zip(&steps) {
            expected += (rest / s) * step;
            rest %= s;
        }
        expected == v
    });
    if !affine {
        return None;
    }
    let mut e = Expr::constant(values[0]);
    for (r, &step) in at.results().iter().zip(&steps) {
        e = e.checked_add(&r.checked_scale(step).ok()?).ok()?;
    }
    Some(e)
}

/// Row-major strides of `dims`.
fn row_major_strides(dims: &[i64]) -> Vec<i64> {
    let mut strides = vec![1i64; dims.len()];
    for d in (0..dims.len().saturating_sub(1)).rev() {
        strides[d] = strides[d + 1].saturating_mul(dims[d + 1]);
    }
    strides
}

/// The integers of a literal's text, in order (`{ {1, 2}, {3, 4} }`, `true`, `-7`).
fn literal_values(text: &str) -> Option<Vec<i64>> {
    text.split(|ch: char| ch == '{' || ch == '}' || ch == ',' || ch.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| match t {
            "true" => Some(1),
            "false" => Some(0),
            _ => t.parse().ok(),
        })
        .collect()
}

/// `add`, `subtract`, `multiply` (by a constant) and `negate` of known values.
fn arithmetic(opcode: Opcode, args: &[Expr]) -> Option<Expr> {
    match (opcode, args) {
        (Opcode::Add, [a, b]) => a.checked_add(b).ok(),
        (Opcode::Subtract, [a, b]) => a.checked_sub(b).ok(),
        (Opcode::Negate, [a]) => a.checked_scale(-1).ok(),
        (Opcode::Multiply, [a, b]) => match (a.as_constant(), b.as_constant()) {
            (Some(k), _) => b.checked_scale(k).ok(),
            (_, Some(k)) => a.checked_scale(k).ok(),
            _ => None,
        },
        _ => None,
    }
}

/// Whether `a direction b` holds wherever `a - b` is in `difference`; `None` when it depends.
fn compare(direction: &str, difference: Interval) -> Option<bool> {
    let (lo, hi) = (difference.lo, difference.hi);
    let decided = |always: bool, never: bool| match (always, never) {
        (true, _) => Some(true),
        (_, true) => Some(false),
        _ => None,
    };
    match direction {
        "EQ" => decided(lo == 0 && hi == 0, lo > 0 || hi < 0),
        "NE" => decided(lo > 0 || hi < 0, lo == 0 && hi == 0),
        "LT" => decided(hi < 0, lo >= 0),
        "LE" => decided(hi <= 0, lo > 0),
        "GT" => decided(lo > 0, hi <= 0),
        "GE" => decided(lo >= 0, hi < 0),
        _ => None,
    }
}

/// `value`, whose values lie in `range`, clamped to `bounds` as an op clamps an index:
/// `min(max(value, lo), hi)`, without the sides the range decides (a constant where it is
/// entirely outside).
fn clamped(value: &Expr, range: Interval, bounds: Interval) -> Expr {
    if range.lo >= bounds.hi {
        return Expr::constant(bounds.hi);
    }
    if range.hi <= bounds.lo {
        return Expr::constant(bounds.lo);
    }
    let mut out = value.clone();
    if range.lo < bounds.lo {
        out = Expr::max_of(&out, &Expr::constant(bounds.lo));
    }
    if range.hi > bounds.hi {
        out = Expr::min_of(&out, &Expr::constant(bounds.hi));
    }
    out
}

/// `maximum`, `minimum` or `clamp(lo, x, hi)` of known values: the operand it is where the
/// ranges decide, else `max`, `min` or `min(max(x, lo), hi)` (HLO's clamp).
fn extremum(opcode: Opcode, args: &[Expr], at: &IndexingMap) -> Option<Expr> {
    // Whether `a >= b` at every point.
    let at_least = |a: &Expr, b: &Expr| at.expr_range(&(a.clone() - b.clone())).lo >= 0;
    match (opcode, args) {
        (Opcode::Maximum, [x, y]) if at_least(x, y) => Some(x.clone()),
        (Opcode::Maximum, [x, y]) if at_least(y, x) => Some(y.clone()),
        (Opcode::Minimum, [x, y]) if at_least(y, x) => Some(x.clone()),
        (Opcode::Minimum, [x, y]) if at_least(x, y) => Some(y.clone()),
        (Opcode::Clamp, [lo, x, hi]) if at_least(x, lo) && at_least(hi, x) => Some(x.clone()),
        (Opcode::Clamp, [lo, x, hi]) if at_least(lo, x) && at_least(hi, lo) => Some(lo.clone()),
        (Opcode::Clamp, [_, x, hi]) if at_least(x, hi) => Some(hi.clone()),
        (Opcode::Maximum, [x, y]) => Some(Expr::max_of(x, y)),
        (Opcode::Minimum, [x, y]) => Some(Expr::min_of(x, y)),
        (Opcode::Clamp, [lo, x, hi]) => Some(Expr::min_of(&Expr::max_of(x, lo), hi)),
        _ => None,
    }
}
