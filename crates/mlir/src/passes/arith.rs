//! Index arithmetic written with `arith` ops, to and from the core's quasi-affine expressions.
//!
//! * [`tree`] reads the tree of `arith` ops that computes one value as an [`Expr`] over its
//!   leaves (the values it starts from), where the operations' meaning is exactly the
//!   expression's: `addi`/`subi`/`muli` that cannot wrap, divisions and remainders by positive
//!   constants, the truncating and unsigned ones only on values that are never negative.
//! * [`plan`] turns an expression into a short sequence of `arith` ops, unsigned `divui`/`remui`
//!   where the dividend is never negative (a `mod` first adds a multiple of the modulus that
//!   makes it so), and [`materialize`] emits it through a rewriter. [`plan_narrow`] plans the
//!   same ops on narrower integers (`i32` for `index`) when every value on the way fits there.

use melior::{
    Context, RewriterBase,
    ir::{
        Attribute, Identifier, Location, OperationRef, Type, TypeLike, Value, ValueLike,
        attribute::IntegerAttribute, operation::OperationBuilder, operation::OperationLike,
        r#type::IntegerType,
    },
};
use mlir_sys::{
    mlirOpOperandGetNextUse, mlirOpOperandGetOwner, mlirOpOperandIsNull, mlirTypeIsAIndex,
    mlirValueGetFirstUse,
};
use xla_indexing_core::{Atom, Expr, Interval, RangeEvaluator, VarRef};

use super::ranges::{Ranges, constant_value, defining_op, fits, int_width, op_name, signed_range};

/// The `arith` ops whose trees are read.
pub const OPS: &[&str] = &[
    "arith.addi",
    "arith.subi",
    "arith.muli",
    "arith.divui",
    "arith.divsi",
    "arith.floordivsi",
    "arith.ceildivsi",
    "arith.remui",
    "arith.remsi",
];

/// Deepest nesting of ops read into one tree.
const MAX_DEPTH: usize = 32;

/// A tree of `arith` ops read as an expression over `leaves` (dimension `i` is `leaves[i]`).
pub struct Tree<'c, 'a> {
    pub expr: Expr,
    pub leaves: Vec<Value<'c, 'a>>,
    /// The ops of the tree that divide or take a remainder, and all its ops.
    pub cost: (usize, usize),
}

/// The single user of `value`, if it has exactly one use.
pub fn single_user<'c, 'a>(value: Value<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    // SAFETY: `value` is live; uses are walked while the IR does not change.
    unsafe {
        let first = mlirValueGetFirstUse(value.to_raw());
        if mlirOpOperandIsNull(first) || !mlirOpOperandIsNull(mlirOpOperandGetNextUse(first)) {
            return None;
        }
        Some(OperationRef::from_raw(mlirOpOperandGetOwner(first)))
    }
}

/// Whether `op` computes the top of a tree: it is one of [`OPS`] and its value does not feed a
/// single other such op (which would read it into its own tree).
pub fn is_root(op: &OperationRef) -> bool {
    if !OPS.contains(&op_name(op).as_str()) {
        return false;
    }
    let Ok(result) = op.result(0) else {
        return false;
    };
    !single_user(result.into()).is_some_and(|user| OPS.contains(&op_name(&user).as_str()))
}

/// Reads the tree of `root` (one of [`OPS`]); `None` when its type is not an integer or index,
/// or a value of the tree might wrap.
pub fn tree<'c: 'a, 'a>(root: OperationRef<'c, 'a>, ranges: &mut Ranges) -> Option<Tree<'c, 'a>> {
    let value: Value = root.result(0).ok()?.into();
    let width = int_width(value.r#type())?;
    let mut reader = Reader {
        ranges,
        width,
        leaves: Vec::new(),
        cost: (0, 0),
    };
    let expr = reader.read(value, true, 0)?;
    Some(Tree {
        expr,
        leaves: reader.leaves,
        cost: reader.cost,
    })
}

struct Reader<'r, 'c, 'a> {
    ranges: &'r mut Ranges,
    width: u32,
    leaves: Vec<Value<'c, 'a>>,
    cost: (usize, usize),
}

impl<'c: 'a, 'a> Reader<'_, 'c, 'a> {
    fn leaf(&mut self, value: Value<'c, 'a>) -> Expr {
        let i = match self.leaves.iter().position(|l| *l == value) {
            Some(i) => i,
            None => {
                self.leaves.push(value);
                self.leaves.len() - 1
            }
        };
        Expr::dim(i as u32)
    }

    /// The expression of `value`, reading its defining op into the tree when it is one of
    /// [`OPS`] used only here (or the root).
    fn read(&mut self, value: Value<'c, 'a>, root: bool, depth: usize) -> Option<Expr> {
        if let Some(c) = constant_value(value) {
            return Some(Expr::constant(c));
        }
        let op = match defining_op(value) {
            Some(op)
                if depth < MAX_DEPTH
                    && OPS.contains(&op_name(&op).as_str())
                    && (root || single_user(value).is_some()) =>
            {
                op
            }
            _ => return Some(self.leaf(value)),
        };
        // Every value of the tree must be exact in its type.
        if !fits(self.ranges.of(value), self.width) {
            return if root { None } else { Some(self.leaf(value)) };
        }
        let name = op_name(&op);
        let (a, b) = (op.operand(0).ok()?, op.operand(1).ok()?);
        let divisor = constant_value(b).filter(|&k| k > 0);
        let dividend_nonneg = self.ranges.of(a).lo >= 0;
        let expr = match name.as_str() {
            "arith.addi" | "arith.subi" => {
                let (x, y) = (
                    self.read(a, false, depth + 1)?,
                    self.read(b, false, depth + 1)?,
                );
                if name == "arith.addi" {
                    x.checked_add(&y)
                } else {
                    x.checked_sub(&y)
                }
                .ok()?
            }
            "arith.muli" => match (constant_value(a), constant_value(b)) {
                (_, Some(k)) => self.read(a, false, depth + 1)?.checked_scale(k).ok()?,
                (Some(k), None) => self.read(b, false, depth + 1)?.checked_scale(k).ok()?,
                (None, None) => return Some(self.leaf(value)),
            },
            "arith.floordivsi" | "arith.ceildivsi" | "arith.divsi" | "arith.divui"
            | "arith.remsi" | "arith.remui" => {
                let Some(k) = divisor else {
                    return Some(self.leaf(value));
                };
                let exact = matches!(name.as_str(), "arith.floordivsi" | "arith.ceildivsi")
                    || dividend_nonneg;
                if !exact {
                    return Some(self.leaf(value));
                }
                let x = self.read(a, false, depth + 1)?;
                self.cost.0 += 1;
                match name.as_str() {
                    "arith.ceildivsi" => x.ceil_div(k),
                    "arith.remsi" | "arith.remui" => x.modulo(k),
                    _ => x.floor_div(k),
                }
                .ok()?
            }
            _ => return Some(self.leaf(value)),
        };
        self.cost.1 += 1;
        Some(expr)
    }
}

/// An operand of a planned op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand {
    Var(VarRef),
    Const(i64),
    /// The result of the `i`-th planned op.
    Op(usize),
}

/// A planned sequence of binary `arith` ops and the operand holding the result.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    pub ops: Vec<(&'static str, Operand, Operand)>,
    pub result: Option<Operand>,
    /// Set when the ops compute on integers narrower than the values' type (see
    /// [`plan_narrow`]).
    pub narrow: Option<Narrow>,
}

/// How a [`Plan`] computes on narrower integers: the variables are truncated to `width` bits
/// and the result extended back to the values' type, with sign extension where it may be
/// negative and zero extension otherwise (`index_cast` or `index_castui` for `index`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Narrow {
    pub width: u32,
    /// The variables that may be negative.
    pub signed_vars: Vec<VarRef>,
    /// Whether the result may be negative.
    pub signed_result: bool,
}

impl Plan {
    /// The planned ops that divide or take a remainder, and all planned ops.
    pub fn cost(&self) -> (usize, usize) {
        let divs = self
            .ops
            .iter()
            .filter(|(name, _, _)| name.contains("div") || name.contains("rem"))
            .count();
        (divs, self.ops.len())
    }

    fn push(&mut self, name: &'static str, a: Operand, b: Operand) -> Operand {
        self.ops.push((name, a, b));
        Operand::Op(self.ops.len() - 1)
    }
}

/// Plans `e` as `arith` ops on values of `width` bits whose ranges `ev` gives. `None` when a
/// value on the way might not be exact in the type.
pub fn plan(e: &Expr, ev: &RangeEvaluator, width: u32) -> Option<Plan> {
    let mut plan = Plan::default();
    let result = plan_sum(&mut plan, e, ev, width)?;
    plan.result = Some(result);
    // Every constant operand must be a value of the type.
    let limit = signed_range(width);
    let constants = plan
        .ops
        .iter()
        .flat_map(|(_, a, b)| [a, b])
        .chain(&plan.result);
    for operand in constants {
        if let Operand::Const(c) = operand
            && !limit.contains(*c)
        {
            return None;
        }
    }
    Some(plan)
}

/// Plans `e` like [`plan`] with values of `width` bits, but computed in `narrow` bits when
/// [`plan`] succeeds for `narrow` bits and there is an op to narrow; otherwise it is [`plan`]
/// for `width` bits.
///
/// The narrow plan is exact: [`plan`] for `narrow` bits checks that every variable, every
/// intermediate value, every constant and the result lie in the signed range of `narrow` bits
/// (`[-2^31, 2^31 - 1]` for 32) over the domain, so no `addi`, `subi` or `muli` wraps and
/// `floordivsi`/`ceildivsi` (by positive constants) see their true operands; the unsigned
/// `divui`, `remui` and `ceildivui` are planned only for dividends that are never negative,
/// which then lie in `[0, 2^31 - 1]`, where the unsigned and signed readings agree. Truncating a
/// variable of that range to `narrow` bits keeps its value, and extending the result back (with
/// sign extension if it may be negative) restores it.
pub fn plan_narrow(e: &Expr, ev: &RangeEvaluator, width: u32, narrow: u32) -> Option<Plan> {
    if narrow < width
        && let Some(mut p) = plan(e, ev, narrow).filter(|p| !p.ops.is_empty())
    {
        let mut signed_vars = Vec::new();
        e.for_each_var(&mut |v| {
            if ev.atom_range(&Atom::Var(v)).lo < 0 && !signed_vars.contains(&v) {
                signed_vars.push(v);
            }
        });
        p.narrow = Some(Narrow {
            width: narrow,
            signed_vars,
            signed_result: ev.range(e).lo < 0,
        });
        return Some(p);
    }
    plan(e, ev, width)
}

fn plan_sum(plan: &mut Plan, e: &Expr, ev: &RangeEvaluator, width: u32) -> Option<Operand> {
    let check = |r: Interval| fits(r, width).then_some(());
    check(ev.range(e))?;
    // Positive terms first, so that negative ones are subtracted from them.
    let mut terms: Vec<&(Atom, i64)> = e.terms().iter().collect();
    terms.sort_by_key(|(_, c)| *c < 0);
    let mut acc: Option<(Operand, Interval)> = None;
    for (atom, c) in terms {
        let range = ev.atom_range(atom);
        check(range)?;
        let mut v = plan_atom(plan, atom, ev, width)?;
        let magnitude = c.checked_abs()?;
        if magnitude != 1 {
            check(range.scale(magnitude))?;
            v = plan.push("arith.muli", v, Operand::Const(magnitude));
        }
        let term_range = range.scale(*c);
        acc = Some(match acc {
            None if *c < 0 => {
                // `0 - v` is exact only if `-v` fits too (`-(-2^31)` does not fit in 32 bits).
                check(term_range)?;
                (plan.push("arith.subi", Operand::Const(0), v), term_range)
            }
            None => (v, term_range),
            Some((a, r)) => {
                let sum = r + term_range;
                check(sum)?;
                let name = if *c < 0 { "arith.subi" } else { "arith.addi" };
                (plan.push(name, a, v), sum)
            }
        });
    }
    let constant = e.constant_term();
    Some(match acc {
        None => Operand::Const(constant),
        Some((a, _)) if constant == 0 => a,
        Some((a, _)) => plan.push("arith.addi", a, Operand::Const(constant)),
    })
}

fn plan_atom(plan: &mut Plan, atom: &Atom, ev: &RangeEvaluator, width: u32) -> Option<Operand> {
    let (x, k, op) = match atom {
        Atom::Var(v) => return Some(Operand::Var(*v)),
        Atom::FloorDiv(x, k) => (x, *k, "floordiv"),
        Atom::CeilDiv(x, k) => (x, *k, "ceildiv"),
        Atom::Mod(x, k) => (x, *k, "mod"),
    };
    if !fits(Interval::point(k), width) || k <= 0 {
        return None;
    }
    let lo = ev.range(x).lo;
    // `x mod k` is `(x + m * k) mod k`: a multiple of `k` that makes the dividend non-negative
    // turns a floor `mod` into `remui`.
    let shifted;
    let x = if op == "mod" && lo < 0 {
        let m = lo.checked_neg()?.checked_add(k - 1)? / k;
        shifted = x.checked_add_const(m.checked_mul(k)?).ok()?;
        &shifted
    } else {
        x
    };
    let nonneg = op == "mod" || lo >= 0;
    let name = match (op, nonneg) {
        ("floordiv", true) => "arith.divui",
        ("floordiv", false) => "arith.floordivsi",
        ("ceildiv", true) => "arith.ceildivui",
        ("ceildiv", false) => "arith.ceildivsi",
        _ => "arith.remui",
    };
    let v = plan_sum(plan, x, ev, width)?;
    Some(plan.push(name, v, Operand::Const(k)))
}

/// Emits `plan` before the rewriter's insertion point with values of type `ty`; `var` gives the
/// value of each variable. Returns the value of the result. A narrow plan computes in integers
/// of its width, with the variables cast to them (each once) and the result cast back to `ty`.
pub fn materialize<'c>(
    context: &'c Context,
    plan: &Plan,
    rewriter: &RewriterBase<'c, '_>,
    location: Location<'c>,
    ty: Type<'c>,
    var: &dyn Fn(VarRef) -> Option<Value<'c, 'c>>,
) -> Option<Value<'c, 'c>> {
    let emit = |name: &str,
                operands: &[Value<'c, 'c>],
                attributes: &[(Identifier<'c>, Attribute<'c>)],
                result: Type<'c>|
     -> Option<Value<'c, 'c>> {
        let op = OperationBuilder::new(name, location)
            .add_operands(operands)
            .add_attributes(attributes)
            .add_results(&[result])
            .build()
            .ok()?;
        let op = rewriter.insert(op);
        // SAFETY: the op was just inserted into the IR, which owns it from now on.
        Some(unsafe { Value::from_raw(op.result(0).ok()?.to_raw()) })
    };
    let op_ty = match &plan.narrow {
        Some(narrow) => IntegerType::new(context, narrow.width).into(),
        None => ty,
    };
    let constant = |c: i64| -> Option<Value<'c, 'c>> {
        let attribute: Attribute = IntegerAttribute::new(op_ty, c).into();
        emit(
            "arith.constant",
            &[],
            &[(Identifier::new(context, "value"), attribute)],
            op_ty,
        )
    };
    // The variables as operands of the ops: cast to the narrow type when there is one.
    let mut casts: Vec<(VarRef, Value<'c, 'c>)> = Vec::new();
    let mut leaf = |v: VarRef| -> Option<Value<'c, 'c>> {
        let value = var(v)?;
        let Some(narrow) = &plan.narrow else {
            return Some(value);
        };
        if let Some((_, cast)) = casts.iter().find(|(w, _)| *w == v) {
            return Some(*cast);
        }
        let signed = narrow.signed_vars.contains(&v);
        let cast = emit(cast_name(ty, op_ty, signed)?, &[value], &[], op_ty)?;
        casts.push((v, cast));
        Some(cast)
    };
    let mut results: Vec<Value<'c, 'c>> = Vec::with_capacity(plan.ops.len());
    let mut resolve = |o: Operand, results: &[Value<'c, 'c>]| -> Option<Value<'c, 'c>> {
        match o {
            Operand::Var(v) => leaf(v),
            Operand::Const(c) => constant(c),
            Operand::Op(i) => results.get(i).copied(),
        }
    };
    for (name, a, b) in &plan.ops {
        let (a, b) = (resolve(*a, &results)?, resolve(*b, &results)?);
        results.push(emit(name, &[a, b], &[], op_ty)?);
    }
    let result = resolve(plan.result?, &results)?;
    match &plan.narrow {
        Some(narrow) => emit(
            cast_name(op_ty, ty, narrow.signed_result)?,
            &[result],
            &[],
            ty,
        ),
        None => Some(result),
    }
}

/// The op that casts an integer or index of type `from` to `to` (one of them narrower), keeping
/// values that fit in both: `index_cast` or `index_castui` (truncation one way, sign or zero
/// extension the other) when one is `index`, else `trunci`, `extsi` or `extui`.
fn cast_name(from: Type, to: Type, signed: bool) -> Option<&'static str> {
    let (from_width, to_width) = (int_width(from)?, int_width(to)?);
    // SAFETY: both types are live.
    let index = unsafe { mlirTypeIsAIndex(from.to_raw()) || mlirTypeIsAIndex(to.to_raw()) };
    Some(match (index, signed, to_width < from_width) {
        (true, true, _) => "arith.index_cast",
        (true, false, _) => "arith.index_castui",
        (false, _, true) => "arith.trunci",
        (false, true, false) => "arith.extsi",
        (false, false, false) => "arith.extui",
    })
}
