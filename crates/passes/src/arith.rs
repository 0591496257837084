//! Index expressions written as `arith` ops (what `arith` ops mean as expressions is in
//! `simplify/semantics.rs`), the non-affine ones of XLA's `SymbolicExpr` included: a product of
//! two expressions is a `muli`, a division by an expression a `divui`/`floordivsi`/`ceildivsi`
//! and its floor `mod` a `remui` or the dividend less the quotient times the divisor (see
//! [`plan_divide_by`]); `affine` ops cannot hold them.
//!
//! * [`plan`] turns an expression into a short sequence of `arith` ops, unsigned `divui` where
//!   the dividend is never negative, a `mod` as the dividend less a multiple of its quotient (a
//!   dividend that may be negative first gets a multiple of the modulus that makes it
//!   non-negative), and [`materialize`] emits it through a rewriter. [`plan_narrow`] plans the
//!   same ops on narrower integers (`i32` for `index`) when every value on the way fits there.

use melior::{
    Context, RewriterBase,
    ir::{
        Attribute, Identifier, Location, Type, TypeLike, Value, attribute::IntegerAttribute,
        operation::OperationBuilder, r#type::IntegerType,
    },
};
use xla_indexing_core::{Atom, Division, Expr, Interval, RangeEvaluator, VarRef};
use xla_indexing_mlir::handles::stretch_value;

use super::ranges::{fits, signed_range};
use xla_indexing_mlir::ir::int_width;

/// An operand of a planned op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand {
    Var(VarRef),
    Const(i64),
    /// The result of the `i`-th planned op.
    Op(usize),
}

/// How a `mod` is planned.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Remainders {
    /// `remui`: one op, the clearest to read (what `xla-indexing-simplify` writes).
    #[default]
    Rem,
    /// The dividend less a multiple of the quotient (see [`plan_mod`]): the division is shared
    /// with the quotient wherever that is computed too (what lowering for code generation
    /// writes). A `mod k` takes the first dividend congruent to its own modulo `k` among
    /// `quotients`, the floor divisions computed anyway (`(th_x - bl_x * 122) mod 250` is
    /// `(th_x + bl_x * 128) mod 250` where `(th_x + bl_x * 128) floordiv 250` is computed
    /// too), else among `remainders`, the `mod`s planned together (so that congruent ones
    /// share one division).
    FromQuotient {
        quotients: Vec<(Expr, i64)>,
        remainders: Vec<(Expr, i64)>,
    },
}

impl Remainders {
    /// [`Remainders::FromQuotient`] for `exprs`: their floor divisions, then `shared` (floor
    /// divisions computed elsewhere), as quotients; their `mod`s as remainders.
    pub fn from_quotient_of(exprs: &[Expr], shared: Vec<(Expr, i64)>) -> Remainders {
        let (mut quotients, mut remainders) = (Vec::new(), Vec::new());
        for e in exprs {
            collect_divisions(e, &mut quotients, &mut remainders);
        }
        for (x, k) in shared {
            if !quotients.iter().any(|(y, m)| *m == k && *y == x) {
                quotients.push((x, k));
            }
        }
        Remainders::FromQuotient {
            quotients,
            remainders,
        }
    }

    /// The dividend to use for `x mod k`, and whether its quotient is computed anyway: the
    /// first congruent quotient dividend, else the first congruent remainder dividend, else
    /// `x`.
    fn dividend(&self, x: &Expr, k: i64) -> (Expr, bool) {
        let Remainders::FromQuotient {
            quotients,
            remainders,
        } = self
        else {
            return (x.clone(), false);
        };
        let congruent = |(y, m): &&(Expr, i64)| {
            *m == k
                && x.checked_sub(y).is_ok_and(|d| {
                    d.constant_term() % k == 0 && d.terms().iter().all(|(_, c)| c % k == 0)
                })
        };
        if let Some((y, _)) = quotients.iter().find(congruent) {
            return (y.clone(), true);
        }
        let y = remainders.iter().find(congruent).map_or(x, |(y, _)| y);
        (y.clone(), false)
    }
}

/// Appends the `(dividend, divisor)` of every floor division in `e` to `floors` and of every
/// `mod` to `mods`, outermost first, without repeats.
pub fn collect_divisions(e: &Expr, floors: &mut Vec<(Expr, i64)>, mods: &mut Vec<(Expr, i64)>) {
    for (atom, _) in e.terms() {
        let (x, k, list) = match atom {
            Atom::Var(_) => continue,
            Atom::FloorDiv(x, k) => (x, *k, &mut *floors),
            Atom::Mod(x, k) => (x, *k, &mut *mods),
            Atom::CeilDiv(..) | Atom::Min(..) | Atom::Max(..) | Atom::Mul(..) | Atom::DivBy(..) => {
                atom.operands()
                    .for_each(|x| collect_divisions(x, floors, mods));
                continue;
            }
        };
        if !list.iter().any(|(y, m)| *m == k && y == x) {
            list.push((x.clone(), k));
        }
        collect_divisions(x, floors, mods);
    }
}

/// One planned binary op: `name` of `lhs` and `rhs`, and whether no value on the way is ever
/// negative, so that the op cannot wrap as unsigned either (`nuw`; every planned op is exact in
/// its type, so `addi`, `subi` and `muli` never wrap as signed: `nsw`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlannedOp {
    pub name: &'static str,
    pub lhs: Operand,
    pub rhs: Operand,
    pub nuw: bool,
}

/// A planned sequence of binary `arith` ops and the operand holding the result. An op is
/// planned once: asking for the same op again gives the earlier result.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    pub ops: Vec<PlannedOp>,
    pub result: Option<Operand>,
    /// Set when the ops compute on integers narrower than the values' type (see
    /// [`plan_narrow`]).
    pub narrow: Option<Narrow>,
    remainders: Remainders,
    /// The range of each op's result.
    ranges: Vec<Interval>,
    /// Nesting of remainders being planned (each plans a quotient that may hold another).
    depth: usize,
}

/// Deepest nesting of remainders in one plan.
const MAX_PLAN_DEPTH: usize = 32;

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
    /// The plan of constant `c`: no ops.
    pub fn constant(c: i64) -> Plan {
        Plan {
            result: Some(Operand::Const(c)),
            ..Plan::default()
        }
    }

    /// The planned ops that divide or take a remainder, and all planned ops.
    pub fn cost(&self) -> (usize, usize) {
        let divs = self
            .ops
            .iter()
            .filter(|o| o.name.contains("div") || o.name.contains("rem"))
            .count();
        (divs, self.ops.len())
    }

    /// How costly the plan is to run, for choosing among plans of the same value (least
    /// first): computing on wider integers than `narrow` bits where there are ops, then the
    /// divisions and remainders, then all ops.
    pub fn rank(&self, narrow: u32) -> (bool, usize, usize) {
        let (divs, ops) = self.cost();
        let wide = ops > 0 && narrow < 64 && self.narrow.is_none();
        (wide, divs, ops)
    }

    /// The range of an operand; `ev` gives those of the variables.
    fn range(&self, o: Operand, ev: &RangeEvaluator) -> Interval {
        match o {
            Operand::Var(v) => ev.atom_range(&Atom::Var(v)),
            Operand::Const(c) => Interval::point(c),
            Operand::Op(i) => self.ranges.get(i).copied().unwrap_or(Interval::FULL),
        }
    }

    /// Plans op `name` of `lhs` and `rhs`, whose result lies in `range`.
    fn push(
        &mut self,
        name: &'static str,
        (lhs, rhs): (Operand, Operand),
        range: Interval,
        ev: &RangeEvaluator,
    ) -> Operand {
        if let Some(i) = self
            .ops
            .iter()
            .position(|o| o.name == name && o.lhs == lhs && o.rhs == rhs)
        {
            return Operand::Op(i);
        }
        let nuw = [self.range(lhs, ev), self.range(rhs, ev), range]
            .iter()
            .all(|r| r.lo >= 0);
        self.ops.push(PlannedOp {
            name,
            lhs,
            rhs,
            nuw,
        });
        self.ranges.push(range);
        Operand::Op(self.ops.len() - 1)
    }
}

/// Plans `e` as `arith` ops on values of `width` bits whose ranges `ev` gives, with
/// `remainders` planned as it says. `None` when a value on the way might not be exact in the
/// type.
pub fn plan(e: &Expr, ev: &RangeEvaluator, width: u32, remainders: &Remainders) -> Option<Plan> {
    let mut plan = Plan {
        remainders: remainders.clone(),
        ..Plan::default()
    };
    let result = plan_sum(&mut plan, e, ev, width)?;
    plan.result = Some(result);
    // Every constant operand must be a value of the type.
    let limit = signed_range(width);
    let constants = plan
        .ops
        .iter()
        .flat_map(|o| [o.lhs, o.rhs])
        .chain(plan.result);
    for operand in constants {
        if let Operand::Const(c) = operand
            && !limit.contains(c)
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
pub fn plan_narrow(
    e: &Expr,
    ev: &RangeEvaluator,
    width: u32,
    narrow: u32,
    remainders: &Remainders,
) -> Option<Plan> {
    if narrow < width
        && let Some(mut p) = plan(e, ev, narrow, remainders).filter(|p| !p.ops.is_empty())
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
    plan(e, ev, width, remainders)
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
            let scaled = range.scale(magnitude);
            check(scaled)?;
            v = plan.push("arith.muli", (v, Operand::Const(magnitude)), scaled, ev);
        }
        let term_range = range.scale(*c);
        acc = Some(match acc {
            None if *c < 0 => {
                // `0 - v` is exact only if `-v` fits too (`-(-2^31)` does not fit in 32 bits).
                check(term_range)?;
                let negated = plan.push("arith.subi", (Operand::Const(0), v), term_range, ev);
                (negated, term_range)
            }
            None => (v, term_range),
            Some((a, r)) => {
                let sum = r + term_range;
                check(sum)?;
                let name = if *c < 0 { "arith.subi" } else { "arith.addi" };
                (plan.push(name, (a, v), sum, ev), sum)
            }
        });
    }
    let constant = e.constant_term();
    Some(match acc {
        None => Operand::Const(constant),
        Some((a, _)) if constant == 0 => a,
        Some((a, r)) => plan.push(
            "arith.addi",
            (a, Operand::Const(constant)),
            r + Interval::point(constant),
            ev,
        ),
    })
}

fn plan_atom(plan: &mut Plan, atom: &Atom, ev: &RangeEvaluator, width: u32) -> Option<Operand> {
    let (x, k, op) = match atom {
        Atom::Var(v) => return Some(Operand::Var(*v)),
        Atom::Min(a, b) | Atom::Max(a, b) => {
            // Both operands are exact in the type ([`plan_sum`] checks), so the signed extremum
            // of the two is the extremum of their values.
            let name = match atom {
                Atom::Min(..) => "arith.minsi",
                _ => "arith.maxsi",
            };
            let (a, b) = (plan_sum(plan, a, ev, width)?, plan_sum(plan, b, ev, width)?);
            return Some(plan.push(name, (a, b), ev.atom_range(atom), ev));
        }
        Atom::Mul(a, b) => {
            // Both factors and the product are exact in the type ([`plan_sum`] checks the
            // factors, the caller the product's range).
            let (a, b) = (plan_sum(plan, a, ev, width)?, plan_sum(plan, b, ev, width)?);
            return Some(plan.push("arith.muli", (a, b), ev.atom_range(atom), ev));
        }
        Atom::DivBy(which, x, y) => return plan_divide_by(plan, atom, *which, (x, y), ev, width),
        Atom::FloorDiv(x, k) => (x, *k, "floordiv"),
        Atom::CeilDiv(x, k) => (x, *k, "ceildiv"),
        Atom::Mod(x, k) if plan.remainders != Remainders::Rem => {
            return plan_mod(plan, x, *k, ev, width);
        }
        Atom::Mod(x, k) => (x, *k, "mod"),
    };
    if !fits(Interval::point(k), width) || k <= 0 {
        return None;
    }
    let x = non_negative_dividend(x, k, op, ev)?;
    let nonneg = ev.range(&x).lo >= 0;
    let divisor = Expr::constant(k);
    if op == "ceildiv"
        && nonneg
        && let Some(v) = plan_ceil_div_unsigned(plan, atom, (&x, &divisor), ev, width)?
    {
        return Some(v);
    }
    let name = match (op, nonneg) {
        ("floordiv", true) => "arith.divui",
        ("floordiv", false) => "arith.floordivsi",
        ("ceildiv", true) => "arith.ceildivui",
        ("ceildiv", false) => "arith.ceildivsi",
        _ => "arith.remui",
    };
    let v = plan_sum(plan, &x, ev, width)?;
    Some(plan.push(name, (v, Operand::Const(k)), ev.atom_range(atom), ev))
}

/// Plans `x floordiv y`, `x ceildiv y` or `x mod y` (the atom `atom`) for a non-constant
/// divisor `y`, which must never be 0 on the domain (`None` otherwise: the division is undefined
/// there, and `arith` ops would trap or give poison). Where `x >= 0` and `y > 0` everywhere:
/// `divui`, `remui`, and for the ceiling `(x + y - 1) divui y` (`ceildivui` where that sum
/// does not fit). Otherwise `floordivsi` and `ceildivsi`, and the floor `mod`
/// as `x - (x floordivsi y) * y` (`remsi` has the sign of the dividend, the floor `mod` that of
/// the divisor; this identity gives the latter with no compare and select). Every value on the
/// way is checked to fit in the type: the quotient and the product lie in the ranges of the
/// atom `x floordiv y` and of its product with `y`.
fn plan_divide_by(
    plan: &mut Plan,
    atom: &Atom,
    which: Division,
    (x, y): (&Expr, &Expr),
    ev: &RangeEvaluator,
    width: u32,
) -> Option<Operand> {
    let divisor = ev.range(y);
    if divisor.contains(0) {
        return None;
    }
    let unsigned = ev.range(x).lo >= 0 && divisor.lo > 0;
    if which == Division::CeilDiv
        && unsigned
        && let Some(v) = plan_ceil_div_unsigned(plan, atom, (x, y), ev, width)?
    {
        return Some(v);
    }
    let name = match (which, unsigned) {
        (Division::FloorDiv, true) => "arith.divui",
        (Division::FloorDiv, false) => "arith.floordivsi",
        (Division::CeilDiv, true) => "arith.ceildivui",
        (Division::CeilDiv, false) => "arith.ceildivsi",
        (Division::Mod, true) => "arith.remui",
        (Division::Mod, false) => {
            let quotient = Atom::DivBy(Division::FloorDiv, x.clone(), y.clone());
            let quotient_range = ev.atom_range(&quotient);
            let multiple_range = quotient_range * divisor;
            (fits(quotient_range, width) && fits(multiple_range, width)).then_some(())?;
            let (vx, vy) = (plan_sum(plan, x, ev, width)?, plan_sum(plan, y, ev, width)?);
            let q = plan.push("arith.floordivsi", (vx, vy), quotient_range, ev);
            let multiple = plan.push("arith.muli", (q, vy), multiple_range, ev);
            return Some(plan.push("arith.subi", (vx, multiple), ev.atom_range(atom), ev));
        }
    };
    let (vx, vy) = (plan_sum(plan, x, ev, width)?, plan_sum(plan, y, ev, width)?);
    Some(plan.push(name, (vx, vy), ev.atom_range(atom), ev))
}

/// Plans `x ceildiv y` (the atom `atom`) for `x >= 0` and `y > 0` as `(x + y - 1) divui y`:
/// `arith.ceildivui` expands to a compare and a select besides (for a zero dividend).
/// `Some(None)` where the sum does not fit the type (the caller plans `ceildivui`), `None`
/// where planning fails.
fn plan_ceil_div_unsigned(
    plan: &mut Plan,
    atom: &Atom,
    (x, y): (&Expr, &Expr),
    ev: &RangeEvaluator,
    width: u32,
) -> Option<Option<Operand>> {
    let shifted = x.checked_add(y).and_then(|s| s.checked_add_const(-1)).ok();
    let Some(shifted) = shifted.filter(|s| fits(ev.range(s), width)) else {
        return Some(None);
    };
    let (vs, vy) = (
        plan_sum(plan, &shifted, ev, width)?,
        plan_sum(plan, y, ev, width)?,
    );
    Some(Some(plan.push(
        "arith.divui",
        (vs, vy),
        ev.atom_range(atom),
        ev,
    )))
}

/// The dividend of `x OP k` to plan: for a `mod` whose dividend may be negative, `x + m * k`
/// with the least `m` that makes it non-negative (`x mod k = (x + m * k) mod k`, so that the
/// remainder is unsigned); otherwise `x`.
fn non_negative_dividend(x: &Expr, k: i64, op: &str, ev: &RangeEvaluator) -> Option<Expr> {
    let lo = ev.range(x).lo;
    if op != "mod" || lo >= 0 {
        return Some(x.clone());
    }
    let m = lo.checked_neg()?.checked_add(k - 1)? / k;
    x.checked_add_const(m.checked_mul(k)?).ok()
}

/// Plans `x mod k` as `x - (x floordiv k) * k`, so that the remainder costs no division where
/// the quotient is computed anyway: the quotient is the normalized expression `x floordiv k`
/// (`(y floordiv a) mod k` divides `y` by `a * k`, as `y floordiv (a * k)` elsewhere does), and
/// identical divisions are planned once here and merged across expressions by `cse`.
///
/// Identity: `x mod k = y - k * floor(y / k)` for `k > 0` (floor semantics) and any `y` with
/// `x - y` a multiple of `k` (see [`Remainders::FromQuotient`]): the dividend of a floor
/// division computed anyway, whose quotient is then shared even where it may be negative
/// (`floordivsi`), or else `x` or a congruent remainder's dividend, shifted by a multiple of
/// `k` that makes it non-negative ([`non_negative_dividend`]), so that the division is the
/// unsigned `divui`. Every value on
/// the way lies between the least of 0 and `y` and the greatest of `k - 1` and `y`, which
/// [`plan_sum`] checks fits.
fn plan_mod(plan: &mut Plan, x: &Expr, k: i64, ev: &RangeEvaluator, width: u32) -> Option<Operand> {
    if !fits(Interval::point(k), width) || k <= 0 || plan.depth >= MAX_PLAN_DEPTH {
        return None;
    }
    let (x, computed) = plan.remainders.dividend(x, k);
    let x = if computed {
        x
    } else {
        non_negative_dividend(&x, k, "mod", ev)?
    };
    let quotient = x.floor_div(k).ok()?;
    plan.depth += 1;
    let v = plan_sum(plan, &x, ev, width);
    let q = plan_sum(plan, &quotient, ev, width);
    plan.depth -= 1;
    let (v, q) = (v?, q?);
    let multiple = ev.range(&quotient).scale(k);
    fits(multiple, width).then_some(())?;
    let multiple = plan.push("arith.muli", (q, Operand::Const(k)), multiple, ev);
    Some(plan.push("arith.subi", (v, multiple), Interval::new(0, k - 1), ev))
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
        Some(unsafe { stretch_value(op.result(0).ok()?) })
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
    let flags = |nuw: bool| {
        let text = if nuw {
            "#arith.overflow<nsw, nuw>"
        } else {
            "#arith.overflow<nsw>"
        };
        Attribute::parse(context, text).map(|a| (Identifier::new(context, "overflowFlags"), a))
    };
    for op in &plan.ops {
        let (a, b) = (resolve(op.lhs, &results)?, resolve(op.rhs, &results)?);
        // Every planned op is exact in its type (see `PlannedOp`).
        let attributes: Vec<_> = matches!(op.name, "arith.addi" | "arith.subi" | "arith.muli")
            .then(|| flags(op.nuw))
            .flatten()
            .into_iter()
            .collect();
        results.push(emit(op.name, &[a, b], &attributes, op_ty)?);
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
    let index = from.is_index() || to.is_index();
    Some(match (index, signed, to_width < from_width) {
        (true, true, _) => "arith.index_cast",
        (true, false, _) => "arith.index_castui",
        (false, _, true) => "arith.trunci",
        (false, true, false) => "arith.extsi",
        (false, false, false) => "arith.extui",
    })
}

#[cfg(test)]
mod tests {
    //! Property test of planning: random expressions over small random domains (some near the
    //! limits of 32 and 64 bits) are planned in both remainder styles, on 32 and 64 bits, and
    //! every plan is run in its own integer arithmetic at every point of the domain. The run
    //! must give the expression's value, and no `addi`, `subi` or `muli` may overflow as signed
    //! (every op carries `nsw`) or, where it carries `nuw`, as unsigned.

    use super::*;
    use xla_indexing_core::interval::{as_unsigned, wrap_signed};
    use xla_indexing_core::{IndexingMap, Var};
    use xla_indexing_testkit::rng::{ExprShape, SplitMix64};

    /// Runs `plan` at the point `values` (of the variables), or says which op misbehaved.
    fn run(plan: &Plan, width: u32, values: &dyn Fn(VarRef) -> i64) -> Result<i64, String> {
        let op_width = plan.narrow.as_ref().map_or(width, |n| n.width);
        let limit = signed_range(op_width);
        let mut results: Vec<i128> = Vec::new();
        let operand = |o: Operand, results: &[i128]| -> Result<i128, String> {
            Ok(match o {
                Operand::Var(v) => {
                    let x = values(v);
                    if !limit.contains(x) {
                        return Err(format!("variable {v:?} = {x} does not fit {op_width} bits"));
                    }
                    i128::from(x)
                }
                Operand::Const(c) => i128::from(c),
                Operand::Op(i) => results[i],
            })
        };
        for (i, op) in plan.ops.iter().enumerate() {
            let (a, b) = (operand(op.lhs, &results)?, operand(op.rhs, &results)?);
            let (ua, ub) = (as_unsigned(a, op_width), as_unsigned(b, op_width));
            let (exact, unsigned_exact) = match op.name {
                "arith.addi" => (a + b, ua + ub),
                "arith.subi" => (a - b, ua - ub),
                // Two operands of up to 64 unsigned bits: past `i128`, certainly past `nuw`.
                "arith.muli" => (a * b, ua.checked_mul(ub).unwrap_or(i128::MAX)),
                "arith.divui" | "arith.remui" | "arith.ceildivui" if ub == 0 => {
                    return Err(format!("op {i}: division by zero"));
                }
                "arith.divui" => (ua / ub, 0),
                "arith.remui" => (ua % ub, 0),
                "arith.ceildivui" => ((ua + ub - 1) / ub, 0),
                "arith.floordivsi" | "arith.ceildivsi" if b == 0 => {
                    return Err(format!("op {i}: division by zero"));
                }
                "arith.floordivsi" => (floor_wide(a, b), 0),
                "arith.ceildivsi" => (-floor_wide(-a, b), 0),
                "arith.minsi" => (a.min(b), 0),
                "arith.maxsi" => (a.max(b), 0),
                other => return Err(format!("op {i}: unexpected {other}")),
            };
            if matches!(op.name, "arith.addi" | "arith.subi" | "arith.muli") {
                if wrap_signed(exact, op_width) != exact {
                    return Err(format!(
                        "op {i} ({}) overflows as signed: {a}, {b}",
                        op.name
                    ));
                }
                if op.nuw && !(0..1i128 << op_width).contains(&unsigned_exact) {
                    return Err(format!("op {i} ({}) marked nuw wraps: {a}, {b}", op.name));
                }
            }
            results.push(wrap_signed(exact, op_width));
        }
        let result = operand(plan.result.ok_or("no result")?, &results)?;
        let extended = match &plan.narrow {
            Some(n) if !n.signed_result => as_unsigned(result, n.width),
            _ => result,
        };
        i64::try_from(extended).map_err(|e| e.to_string())
    }

    /// Runs `plan` (of `e`, an expression over `map`'s dimensions) at every point of the
    /// domain where `e` is defined, and checks that it gives `e`'s value; returns the number of
    /// points.
    fn run_at_every_point(
        plan: &Plan,
        e: &Expr,
        map: &IndexingMap,
        case: usize,
        width: u32,
    ) -> usize {
        let mut checked = 0;
        for (point, _) in map.domain_points(u128::MAX).unwrap_or_default() {
            let Some(expected) = e.eval(&point, &[]) else {
                continue;
            };
            let value = |v: VarRef| match v {
                VarRef::Dim(i) => point[i as usize],
                VarRef::Sym(_) => unreachable!("no symbols"),
            };
            let got = run(plan, 64, &value).unwrap_or_else(|why| {
                panic!("case {case}: {e:?} at {point:?} in {width} bits: {why}\n{plan:?}")
            });
            assert_eq!(
                got, expected,
                "case {case}: {e:?} at {point:?} in {width} bits\n{plan:?}"
            );
            checked += 1;
        }
        checked
    }

    /// `floor(a / b)` for `b != 0`, either sign.
    fn floor_wide(a: i128, b: i128) -> i128 {
        let q = a / b;
        if a % b != 0 && ((a < 0) != (b < 0)) {
            q - 1
        } else {
            q
        }
    }

    fn random_bounds(rng: &mut SplitMix64) -> Interval {
        let lo = match rng.range(0, 6) {
            0..=2 => rng.range(0, 20),
            3 => rng.range(-30, 0),
            4 => (1 << 31) - rng.range(1, 12),
            5 => -(1 << 31) + rng.range(0, 8),
            _ => i64::MAX / 4 - rng.range(0, 8),
        };
        Interval::new(lo, lo + rng.range(0, 5))
    }

    /// What the random expressions are made of: coefficients and divisors of thread-id maps.
    const SHAPE: ExprShape = ExprShape {
        constants: (-300, 300),
        coefficients: &[1, 1, 2, 3, -1, -2, 4, 128, -122, 250],
        divisors: &[2, 3, 4, 7, 10, 128, 250],
        leaf_odds: 4,
        constant_odds: 6,
        sum_terms: (2, 2),
        weights: [2, 1, 2, 1, 0, 1, 1, 1, 1],
    };

    #[test]
    fn plans_compute_their_expressions_without_overflow() {
        let mut rng = SplitMix64::new(0x9e37_79b9);
        let (mut checked, mut narrow, mut from_quotient) = (0, 0, 0);
        for case in 0..1500 {
            let n = rng.range(1, 3) as u32;
            let bounds: Vec<Interval> = (0..n).map(|_| random_bounds(&mut rng)).collect();
            let depth = rng.range(1, 3) as u32;
            let results: Vec<Expr> = (0..rng.range(1, 3))
                .map(|_| SHAPE.expr(&mut rng, depth, n, 0))
                .collect();
            let shared: Vec<(Expr, i64)> = (0..rng.range(0, 2))
                .map(|_| (SHAPE.expr(&mut rng, 1, n, 0), *rng.pick(&[2, 4, 7, 250])))
                .collect();
            let dims = bounds.iter().map(|b| Var::new(*b)).collect();
            let map = IndexingMap::new(results.clone(), dims, Vec::new(), Vec::new());
            let ev = map.range_evaluator(true);
            let styles = [
                Remainders::Rem,
                Remainders::from_quotient_of(&results, shared),
            ];
            for e in &results {
                for style in &styles {
                    for width in [32, 64] {
                        let Some(plan) = plan_narrow(e, &ev, 64, width, style) else {
                            continue;
                        };
                        narrow += usize::from(plan.narrow.is_some());
                        from_quotient += usize::from(*style != Remainders::Rem);
                        checked += run_at_every_point(&plan, e, &map, case, width);
                    }
                }
            }
        }
        // The cases reach what they are for.
        assert!(checked > 20_000, "{checked} points");
        assert!(narrow > 500, "{narrow} narrow plans");
        assert!(
            from_quotient > 500,
            "{from_quotient} plans with remainders from quotients"
        );
    }

    /// Divisions by an expression (XLA's `SymbolicExpr`): each of `floordiv`, `ceildiv` and
    /// `mod` of a random sum by a divisor of either sign that is never 0, near the limits of 32
    /// and 64 bits too, planned and run at every point of the domain.
    #[test]
    fn divisions_by_an_expression_compute_their_values() {
        let mut rng = SplitMix64::new(0x5eed_d1b5);
        let (mut checked, mut unsigned_ceilings) = (0, 0);
        for case in 0..600 {
            let dividend_bounds = random_bounds(&mut rng);
            let lo = *rng.pick(&[1, 3, -9, 1 << 20]);
            let divisor_bounds = Interval::new(lo, lo + rng.range(0, 6));
            let dims = vec![Var::new(dividend_bounds), Var::new(divisor_bounds)];
            let x = Expr::dim(0)
                .checked_scale(*rng.pick(&[1, 2, -1]))
                .and_then(|x| x.checked_add_const(rng.range(-5, 5)))
                .unwrap();
            let y = Expr::dim(1);
            let which = *rng.pick(&[Division::FloorDiv, Division::CeilDiv, Division::Mod]);
            let e = x.divide_by(which, &y).unwrap();
            let map = IndexingMap::new(vec![e.clone()], dims, Vec::new(), Vec::new());
            let ev = map.range_evaluator(true);
            for width in [32, 64] {
                let Some(plan) = plan_narrow(&e, &ev, 64, width, &Remainders::Rem) else {
                    continue;
                };
                let ceiling_unsigned = which == Division::CeilDiv
                    && plan.ops.iter().all(|o| o.name != "arith.ceildivui");
                unsigned_ceilings += usize::from(
                    ceiling_unsigned && plan.ops.iter().any(|o| o.name == "arith.divui"),
                );
                checked += run_at_every_point(&plan, &e, &map, case, width);
            }
        }
        assert!(checked > 5_000, "{checked} points");
        assert!(
            unsigned_ceilings > 50,
            "{unsigned_ceilings} ceilings as divui"
        );
    }

    #[test]
    fn remainders_share_congruent_quotients() {
        let t = Expr::dim(0)
            .checked_add(&Expr::dim(1).checked_scale(128).unwrap())
            .unwrap();
        let lagging = Expr::dim(0)
            .checked_sub(&Expr::dim(1).checked_scale(122).unwrap())
            .unwrap();
        let map = IndexingMap::new(
            vec![t.floor_div(250).unwrap(), lagging.modulo(250).unwrap()],
            vec![
                Var::new(Interval::new(0, 127)),
                Var::new(Interval::new(0, 656)),
            ],
            Vec::new(),
            Vec::new(),
        );
        let ev = map.range_evaluator(true);
        let style = Remainders::from_quotient_of(map.results(), Vec::new());
        // The remainder divides t, as the quotient does: one division.
        let plan = plan(&map.results()[1], &ev, 32, &style).unwrap();
        let divisions: Vec<&PlannedOp> = plan
            .ops
            .iter()
            .filter(|o| o.name == "arith.divui")
            .collect();
        assert_eq!(divisions.len(), 1, "{plan:?}");
        let quotient = super::plan(&map.results()[0], &ev, 32, &style).unwrap();
        assert_eq!(quotient.cost().0, 1);
        assert_eq!(quotient.ops.last().map(|o| o.name), Some("arith.divui"));
        // `remui` where remainders are not taken from quotients.
        let rem = super::plan(&map.results()[1], &ev, 32, &Remainders::Rem).unwrap();
        assert!(rem.ops.iter().any(|o| o.name == "arith.remui"), "{rem:?}");
    }
}
