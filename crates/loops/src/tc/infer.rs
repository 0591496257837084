//! Range inference, as the Tensor Comprehensions seed describes it.
//!
//! Per statement: the variables bounded by a `where k in lo:hi` clause are fixed first. Then, in
//! rounds, every index expression of every access (reads, `exists` clauses, and the written
//! tensor once its size is known) that mentions exactly one unresolved variable gives the
//! condition `0 <= expr <= size - 1`; it is solved for the largest interval of that variable, for
//! every value of the variables resolved in earlier rounds (their extreme values dominate). The
//! intervals a round finds for one variable are intersected. Whatever no round resolves is an
//! error that asks for a `where` clause. Index expressions that no round used are preconditions:
//! proven from the ranges when possible, reported as warnings otherwise.
//!
//! Bounds are symbolic in the size names (sizes are assumed to be at least 1); sizes given
//! numerically are substituted first, so the same code yields numbers.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

use xla_indexing_core::{Expr, IndexingMap, Interval, Var, VarRef};

use crate::error::{LoopsError, Pos};
use crate::symbolic::{Bound, bound_le, provably_le};
use crate::tc::ast::{Def, Dim, Ex, Program, Stmt, Where};
use crate::tc::report::{DefReport, RangeReport, StmtReport, TensorSize};

/// Functions that may appear in values (not tensors).
const FUNCTIONS: &[&str] = &[
    "min", "max", "exp", "log", "sqrt", "tanh", "sigmoid", "abs", "fabs", "fmax", "fmin", "pow",
];

/// Infers the ranges of every definition of `program`. `sizes` gives values to size names.
pub fn infer(program: &Program, sizes: &BTreeMap<String, i64>) -> Result<RangeReport, LoopsError> {
    let defs = program
        .defs
        .iter()
        .map(|d| infer_def(d, sizes))
        .collect::<Result<_, _>>()?;
    Ok(RangeReport { defs })
}

/// The sizes of a tensor, `None` for an output not yet written.
struct Tensor {
    dims: Option<Vec<Bound>>,
    is_output: bool,
}

/// What the names of one definition stand for.
struct Scope<'a> {
    /// Size names, in order of appearance; size `i` is symbol `s<i>` in expressions.
    sizes: Vec<String>,
    known: &'a BTreeMap<String, i64>,
    tensors: BTreeMap<String, Tensor>,
    scalars: BTreeSet<String>,
}

/// `a <= b` for all sizes >= 1.
fn size_le(a: &Expr, b: &Expr) -> bool {
    provably_le(a, b, &|v| match v {
        VarRef::Sym(_) => Interval::new(1, i64::MAX),
        VarRef::Dim(_) => Interval::FULL,
    })
}

fn overflow(pos: Pos) -> LoopsError {
    pos.error("integer overflow while solving for a range")
}

fn infer_def(def: &Def, known: &BTreeMap<String, i64>) -> Result<DefReport, LoopsError> {
    let mut scope = Scope {
        sizes: Vec::new(),
        known,
        tensors: BTreeMap::new(),
        scalars: BTreeSet::new(),
    };
    for p in def.inputs.iter().chain(&def.outputs) {
        if scope.tensors.contains_key(&p.name) || scope.scalars.contains(&p.name) {
            return Err(p.pos.error(format!("`{}` is declared twice", p.name)));
        }
        let is_output = def.outputs.iter().any(|o| o.name == p.name);
        match &p.dims {
            Some(dims) if dims.is_empty() && !is_output => {
                scope.scalars.insert(p.name.clone());
            }
            Some(dims) => {
                let dims = dims.iter().map(|d| scope.dim_bound(d)).collect();
                scope.tensors.insert(
                    p.name.clone(),
                    Tensor {
                        dims: Some(dims),
                        is_output,
                    },
                );
            }
            None => {
                scope.tensors.insert(
                    p.name.clone(),
                    Tensor {
                        dims: None,
                        is_output,
                    },
                );
            }
        }
    }
    let mut report = DefReport {
        name: def.name.clone(),
        stmts: Vec::new(),
        sizes: Vec::new(),
        warnings: Vec::new(),
    };
    for stmt in &def.stmts {
        let r = StmtInference::new(&scope, stmt)?.run(&mut report.warnings)?;
        let out = scope
            .tensors
            .get_mut(&stmt.lhs)
            .expect("checked by StmtInference::new");
        if out.dims.is_none() {
            out.dims = Some(r.extents.clone());
        }
        report.stmts.push(r.report);
    }
    let names = scope.size_names();
    for o in &def.outputs {
        let dims = scope.tensors[&o.name]
            .dims
            .as_ref()
            .ok_or_else(|| o.pos.error(format!("output `{}` is never written", o.name)))?;
        report.sizes.push(TensorSize {
            tensor: o.name.clone(),
            dims: dims.iter().map(|b| b.display(&names).to_string()).collect(),
        });
    }
    Ok(report)
}

impl Scope<'_> {
    fn size_index(&mut self, name: &str) -> u32 {
        match self.sizes.iter().position(|s| s == name) {
            Some(i) => i as u32,
            None => {
                self.sizes.push(name.to_string());
                (self.sizes.len() - 1) as u32
            }
        }
    }

    fn dim_bound(&mut self, d: &Dim) -> Bound {
        match d {
            Dim::Const(v) => Bound::constant(*v),
            Dim::Size(s) => match self.known.get(s) {
                Some(v) => {
                    self.size_index(s);
                    Bound::constant(*v)
                }
                None => Bound::Expr(Expr::sym(self.size_index(s))),
            },
        }
    }

    fn size_names(&self) -> xla_indexing_core::print::Names<'_> {
        xla_indexing_core::print::Names {
            dims: &[],
            syms: &self.sizes,
        }
    }
}

/// One tensor access: `tensor(args)`.
struct Access<'s> {
    tensor: &'s str,
    pos: Pos,
    args: Cow<'s, [Ex]>,
    text: String,
    /// The written tensor, present as an access once its size is known.
    is_write: bool,
}

/// What a statement's inference produces for the definition.
struct StmtResult {
    report: StmtReport,
    extents: Vec<Bound>,
}

/// The state of range inference for one statement.
struct StmtInference<'s> {
    scope: &'s Scope<'s>,
    stmt: &'s Stmt,
    /// Index variables: the written indices first, then the others in order of appearance.
    vars: Vec<String>,
    accesses: Vec<Access<'s>>,
    /// `lo, hi` (inclusive) per variable once resolved.
    ranges: Vec<Option<(Bound, Bound)>>,
}

impl<'s> StmtInference<'s> {
    fn new(scope: &'s Scope<'s>, stmt: &'s Stmt) -> Result<Self, LoopsError> {
        let out = scope
            .tensors
            .get(&stmt.lhs)
            .ok_or_else(|| stmt.pos.error(format!("unknown tensor `{}`", stmt.lhs)))?;
        if !out.is_output {
            return Err(stmt.pos.error(format!(
                "`{}` is an input: a statement must write an output",
                stmt.lhs
            )));
        }
        let mut this = StmtInference {
            scope,
            stmt,
            vars: Vec::new(),
            accesses: Vec::new(),
            ranges: Vec::new(),
        };
        for (name, pos) in &stmt.indices {
            if this.vars.contains(name) {
                return Err(pos.error(format!(
                    "index `{name}` appears twice on the left-hand side"
                )));
            }
            if scope.sizes.contains(name)
                || scope.scalars.contains(name)
                || scope.tensors.contains_key(name)
            {
                return Err(pos.error(format!(
                    "`{name}` is a size, scalar or tensor, not an index variable"
                )));
            }
            this.vars.push(name.clone());
        }
        if let Some(dims) = &out.dims
            && dims.len() != stmt.indices.len()
        {
            return Err(stmt.pos.error(format!(
                "`{}` has {} dimensions but is written with {} indices",
                stmt.lhs,
                dims.len(),
                stmt.indices.len()
            )));
        }
        this.collect(&stmt.rhs)?;
        for w in &stmt.wheres {
            match w {
                Where::Exists(e) => {
                    if !matches!(e, Ex::Call { .. }) {
                        return Err(stmt.pos.error("`exists` needs a tensor access"));
                    }
                    this.collect(e)?;
                }
                Where::Range { var, pos, lo, hi } => {
                    this.collect(lo)?;
                    this.collect(hi)?;
                    if scope.sizes.contains(var) || scope.scalars.contains(var) {
                        return Err(pos.error(format!("`{var}` is not an index variable")));
                    }
                    if !this.vars.contains(var) {
                        this.vars.push(var.clone());
                    }
                }
            }
        }
        if out.dims.is_some() {
            let args: Vec<Ex> = stmt
                .indices
                .iter()
                .map(|(n, p)| Ex::Name(n.clone(), *p))
                .collect();
            let text = Ex::Call {
                name: stmt.lhs.clone(),
                pos: stmt.pos,
                args: args.clone(),
            }
            .to_string();
            this.accesses.push(Access {
                tensor: &stmt.lhs,
                pos: stmt.pos,
                args: Cow::Owned(args),
                text,
                is_write: true,
            });
        }
        this.ranges = vec![None; this.vars.len()];
        Ok(this)
    }

    /// Registers the variables and accesses of `e`, checking that every name is known.
    fn collect(&mut self, e: &'s Ex) -> Result<(), LoopsError> {
        match e {
            Ex::Int(_) | Ex::Float(_) => Ok(()),
            Ex::Name(n, pos) => {
                if self.scope.tensors.contains_key(n) {
                    return Err(pos.error(format!("tensor `{n}` is used without indices")));
                }
                if !self.scope.sizes.contains(n)
                    && !self.scope.scalars.contains(n)
                    && !self.vars.contains(n)
                {
                    self.vars.push(n.clone());
                }
                Ok(())
            }
            Ex::Call { name, pos, args } => {
                if let Some(t) = self.scope.tensors.get(name) {
                    match &t.dims {
                        None => {
                            return Err(pos.error(format!(
                                "`{name}` is read before a statement defines its size"
                            )));
                        }
                        Some(d) if d.len() != args.len() => {
                            return Err(pos.error(format!(
                                "`{name}` has {} dimensions but is accessed with {} indices",
                                d.len(),
                                args.len()
                            )));
                        }
                        Some(_) => {}
                    }
                    self.accesses.push(Access {
                        tensor: name,
                        pos: *pos,
                        args: Cow::Borrowed(args),
                        text: e.to_string(),
                        is_write: false,
                    });
                } else if !FUNCTIONS.contains(&name.as_str()) {
                    return Err(pos.error(format!("unknown tensor or function `{name}`")));
                }
                args.iter().try_for_each(|a| self.collect(a))
            }
            Ex::Unary(_, a) => self.collect(a),
            Ex::Binary(_, a, b) => {
                self.collect(a)?;
                self.collect(b)
            }
            Ex::Ternary(c, a, b) => {
                self.collect(c)?;
                self.collect(a)?;
                self.collect(b)
            }
        }
    }

    fn var_index(&self, name: &str) -> Option<usize> {
        self.vars.iter().position(|v| v == name)
    }

    /// `e` as a quasi-affine expression over variables (`d<i>`) and unknown sizes (`s<i>`), when
    /// it is one.
    fn affine(&self, e: &Ex) -> Option<Expr> {
        match e {
            Ex::Int(v) => Some(Expr::constant(*v)),
            Ex::Name(n, _) => {
                if let Some(i) = self.scope.sizes.iter().position(|s| s == n) {
                    return Some(match self.scope.known.get(n) {
                        Some(v) => Expr::constant(*v),
                        None => Expr::sym(i as u32),
                    });
                }
                self.var_index(n).map(|i| Expr::dim(i as u32))
            }
            Ex::Unary("-", a) => self.affine(a)?.checked_scale(-1).ok(),
            Ex::Binary(op, a, b) => {
                let (x, y) = (self.affine(a)?, self.affine(b)?);
                match *op {
                    "+" => x.checked_add(&y).ok(),
                    "-" => x.checked_sub(&y).ok(),
                    "*" => match (x.as_constant(), y.as_constant()) {
                        (Some(k), _) => y.checked_scale(k).ok(),
                        (_, Some(k)) => x.checked_scale(k).ok(),
                        _ => None,
                    },
                    "/" => x.floor_div(y.as_constant()?).ok(),
                    "%" => x.modulo(y.as_constant()?).ok(),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The variables of `e` outside nested tensor reads.
    fn free_vars(&self, e: &Ex, out: &mut BTreeSet<usize>) {
        match e {
            Ex::Name(n, _) => out.extend(self.var_index(n)),
            Ex::Call { name, args, .. } if !self.scope.tensors.contains_key(name) => {
                args.iter().for_each(|a| self.free_vars(a, out));
            }
            Ex::Unary(_, a) => self.free_vars(a, out),
            Ex::Binary(_, a, b) => {
                self.free_vars(a, out);
                self.free_vars(b, out);
            }
            Ex::Ternary(c, a, b) => {
                self.free_vars(c, out);
                self.free_vars(a, out);
                self.free_vars(b, out);
            }
            _ => {}
        }
    }

    fn dims_of(&self, tensor: &str) -> &'s [Bound] {
        self.scope.tensors[tensor].dims.as_deref().unwrap_or(&[])
    }

    /// The range `[lo, hi]` of a quasi-affine expression over resolved variables; `None` when it
    /// mentions an unresolved one.
    fn expr_range(&self, e: &Expr) -> Option<(Bound, Bound)> {
        let mut lo = Bound::constant(e.constant_term());
        let mut hi = lo.clone();
        for (atom, coef) in e.terms() {
            let (alo, ahi) = self.atom_range(atom)?;
            let (a, b) = if *coef > 0 { (alo, ahi) } else { (ahi, alo) };
            lo = lo.add(&a.scale(*coef).ok()?).ok()?;
            hi = hi.add(&b.scale(*coef).ok()?).ok()?;
        }
        Some((
            Bound::max_of(vec![lo], &size_le),
            Bound::min_of(vec![hi], &size_le),
        ))
    }

    fn atom_range(&self, atom: &xla_indexing_core::Atom) -> Option<(Bound, Bound)> {
        use xla_indexing_core::Atom;
        match atom {
            Atom::Var(VarRef::Dim(v)) => self.ranges[*v as usize].clone(),
            Atom::Var(VarRef::Sym(s)) => {
                Some((Bound::Expr(Expr::sym(*s)), Bound::Expr(Expr::sym(*s))))
            }
            Atom::FloorDiv(x, k) => {
                let (lo, hi) = self.expr_range(x)?;
                Some((lo.floor_div(*k).ok()?, hi.floor_div(*k).ok()?))
            }
            Atom::CeilDiv(x, k) => {
                let (lo, hi) = self.expr_range(x)?;
                Some((lo.ceil_div(*k).ok()?, hi.ceil_div(*k).ok()?))
            }
            Atom::Mod(_, k) => Some((Bound::constant(0), Bound::constant(k - 1))),
            // `min` and `max` are monotone in both operands.
            Atom::Min(a, b) | Atom::Max(a, b) => {
                let ((alo, ahi), (blo, bhi)) = (self.expr_range(a)?, self.expr_range(b)?);
                Some(if matches!(atom, Atom::Min(..)) {
                    (
                        Bound::min_of(vec![alo, blo], &size_le),
                        Bound::min_of(vec![ahi, bhi], &size_le),
                    )
                } else {
                    (
                        Bound::max_of(vec![alo, blo], &size_le),
                        Bound::max_of(vec![ahi, bhi], &size_le),
                    )
                })
            }
            // TC's index expressions are quasi-affine (`affine` builds none of these).
            Atom::Mul(..) | Atom::DivBy(..) => None,
        }
    }

    /// The range of any index expression: exact structure where quasi-affine, interval
    /// arithmetic with `min`/`max` clamps otherwise; a side is `None` when unbounded (a value
    /// read from a tensor, a scalar).
    fn ex_range(&self, e: &Ex) -> (Option<Bound>, Option<Bound>) {
        if let Some((lo, hi)) = self.affine(e).and_then(|x| self.expr_range(&x)) {
            return (Some(lo), Some(hi));
        }
        let add = |a: Option<Bound>, b: Option<Bound>| a?.add(&b?).ok();
        let neg = |a: Option<Bound>| a?.scale(-1).ok();
        match e {
            Ex::Unary("-", a) => {
                let (lo, hi) = self.ex_range(a);
                (neg(hi), neg(lo))
            }
            Ex::Binary("+", a, b) => {
                let ((al, ah), (bl, bh)) = (self.ex_range(a), self.ex_range(b));
                (add(al, bl), add(ah, bh))
            }
            Ex::Binary("-", a, b) => {
                let ((al, ah), (bl, bh)) = (self.ex_range(a), self.ex_range(b));
                (add(al, neg(bh)), add(ah, neg(bl)))
            }
            Ex::Binary("*", a, b) | Ex::Binary("*", b, a) if matches!(**a, Ex::Int(_)) => {
                let Ex::Int(k) = **a else {
                    unreachable!("matched above")
                };
                let (lo, hi) = self.ex_range(b);
                let scale = |x: Option<Bound>| x?.scale(k).ok();
                if k >= 0 {
                    (scale(lo), scale(hi))
                } else {
                    (scale(hi), scale(lo))
                }
            }
            Ex::Binary("/", a, b) if matches!(**b, Ex::Int(k) if k > 0) => {
                let Ex::Int(k) = **b else {
                    unreachable!("matched above")
                };
                let (lo, hi) = self.ex_range(a);
                (
                    lo.and_then(|x| x.floor_div(k).ok()),
                    hi.and_then(|x| x.floor_div(k).ok()),
                )
            }
            Ex::Call { name, args, .. } if (name == "min" || name == "max") && args.len() == 2 => {
                let ((al, ah), (bl, bh)) = (self.ex_range(&args[0]), self.ex_range(&args[1]));
                // min: the lower end needs both, the upper end either; max the other way round.
                let both = |x: Option<Bound>, y: Option<Bound>, f: fn(Vec<Bound>, crate::symbolic::LeOracle<'_>) -> Bound| {
                    Some(f(vec![x?, y?], &size_le))
                };
                let either = |x: Option<Bound>, y: Option<Bound>, f: fn(Vec<Bound>, crate::symbolic::LeOracle<'_>) -> Bound| {
                    match (x, y) {
                        (Some(x), Some(y)) => Some(f(vec![x, y], &size_le)),
                        (x, y) => x.or(y),
                    }
                };
                if name == "min" {
                    (both(al, bl, Bound::min_of), either(ah, bh, Bound::min_of))
                } else {
                    (either(al, bl, Bound::max_of), both(ah, bh, Bound::max_of))
                }
            }
            _ => (None, None),
        }
    }

    /// Solves `lo <= e <= hi` for variable `v`, for all values of the resolved variables.
    /// `None` when `e` is not of a solvable form (`v` inside a `mod`, several times, ...).
    fn solve(&self, e: &Expr, v: u32, lo: &Bound, hi: &Bound) -> Option<(Bound, Bound)> {
        use xla_indexing_core::Atom;
        let holding: Vec<&(Atom, i64)> = e
            .terms()
            .iter()
            .filter(|(a, _)| Expr::atom(a.clone()).uses(VarRef::Dim(v)))
            .collect();
        let [(atom, coef)] = holding.as_slice() else {
            return None;
        };
        let rest = e
            .checked_sub(&Expr::atom(atom.clone()).checked_scale(*coef).ok()?)
            .ok()?;
        let (rlo, rhi) = self.expr_range(&rest)?;
        // coef * atom in [lo - rlo, hi - rhi]
        let low = lo.add(&rlo.scale(-1).ok()?).ok()?;
        let high = hi.add(&rhi.scale(-1).ok()?).ok()?;
        let (alo, ahi) = if *coef > 0 {
            (low.ceil_div(*coef).ok()?, high.floor_div(*coef).ok()?)
        } else {
            (
                high.scale(-1).ok()?.ceil_div(-coef).ok()?,
                low.scale(-1).ok()?.floor_div(-coef).ok()?,
            )
        };
        match atom {
            Atom::Var(_) => Some((alo, ahi)),
            Atom::FloorDiv(x, k) => {
                // floor(x / k) in [a, b]  <=>  x in [k * a, k * b + k - 1]
                let xlo = alo.scale(*k).ok()?;
                let xhi = ahi.scale(*k).ok()?.add_expr(&Expr::constant(k - 1)).ok()?;
                self.solve(x, v, &xlo, &xhi)
            }
            Atom::CeilDiv(x, k) => {
                // ceil(x / k) in [a, b]  <=>  x in [k * a - k + 1, k * b]
                let xlo = alo.scale(*k).ok()?.add_expr(&Expr::constant(1 - k)).ok()?;
                let xhi = ahi.scale(*k).ok()?;
                self.solve(x, v, &xlo, &xhi)
            }
            Atom::Mod(..) | Atom::Min(..) | Atom::Max(..) | Atom::Mul(..) | Atom::DivBy(..) => None,
        }
    }

    fn run(mut self, warnings: &mut Vec<String>) -> Result<StmtResult, LoopsError> {
        self.apply_wheres()?;
        let mut used: BTreeSet<(usize, usize)> = BTreeSet::new();
        loop {
            let mut found: BTreeMap<usize, (Bound, Bound)> = BTreeMap::new();
            for (ai, acc) in self.accesses.iter().enumerate() {
                for (d, arg) in acc.args.iter().enumerate() {
                    let mut free = BTreeSet::new();
                    self.free_vars(arg, &mut free);
                    free.retain(|v| self.ranges[*v].is_none());
                    let [v] = free.iter().copied().collect::<Vec<_>>()[..] else {
                        continue;
                    };
                    let size = &self.dims_of(acc.tensor)[d];
                    let last = size
                        .add_expr(&Expr::constant(-1))
                        .map_err(|_| overflow(acc.pos))?;
                    let Some(sol) = self
                        .affine(arg)
                        .and_then(|e| self.solve(&e, v as u32, &Bound::constant(0), &last))
                    else {
                        continue;
                    };
                    used.insert((ai, d));
                    let merged = match found.remove(&v) {
                        None => sol,
                        Some((lo, hi)) => (
                            Bound::max_of(vec![lo, sol.0], &size_le),
                            Bound::min_of(vec![hi, sol.1], &size_le),
                        ),
                    };
                    found.insert(v, merged);
                }
            }
            if found.is_empty() {
                break;
            }
            for (v, r) in found {
                self.ranges[v] = Some(r);
            }
        }
        if let Some(v) = self.ranges.iter().position(Option::is_none) {
            return Err(self.unresolved_error(v));
        }
        self.check_preconditions(&used, warnings);
        Ok(self.result(warnings))
    }

    fn apply_wheres(&mut self) -> Result<(), LoopsError> {
        for w in &self.stmt.wheres {
            let Where::Range { var, pos, lo, hi } = w else {
                continue;
            };
            let bound = |e: &Ex| {
                self.affine(e)
                    .filter(|x| !x.terms().iter().any(|(a, _)| {
                        let mut dims = false;
                        Expr::atom(a.clone()).for_each_var(&mut |v| dims |= matches!(v, VarRef::Dim(_)));
                        dims
                    }))
                    .ok_or_else(|| pos.error(format!("the bounds of `{var}` must be built from sizes and constants (+, -, * by a constant, /)")))
            };
            let lo =
                Bound::Expr(crate::symbolic::normalize(&bound(lo)?).map_err(|_| overflow(*pos))?);
            let hi = Bound::Expr(
                crate::symbolic::normalize(
                    &bound(hi)?
                        .checked_add_const(-1)
                        .map_err(|_| overflow(*pos))?,
                )
                .map_err(|_| overflow(*pos))?,
            );
            let v = self.var_index(var).expect("where variables are registered");
            let merged = match self.ranges[v].take() {
                None => (lo, hi),
                Some((l, h)) => (
                    Bound::max_of(vec![l, lo], &size_le),
                    Bound::min_of(vec![h, hi], &size_le),
                ),
            };
            let after_hi = merged
                .1
                .add_expr(&Expr::constant(1))
                .map_err(|_| overflow(*pos))?;
            if bound_le(&after_hi, &merged.0, &size_le) {
                let names = self.scope.size_names();
                return Err(pos.error(format!(
                    "contradictory where clauses: `{var}` would range over [{}, {}], which is empty",
                    merged.0.display(&names),
                    merged.1.display(&names)
                )));
            }
            self.ranges[v] = Some(merged);
        }
        Ok(())
    }

    fn unresolved_error(&self, v: usize) -> LoopsError {
        let name = &self.vars[v];
        let mut blocking = Vec::new();
        let mut shared = Vec::new();
        for acc in &self.accesses {
            for arg in acc.args.iter() {
                let mut free = BTreeSet::new();
                self.free_vars(arg, &mut free);
                free.retain(|w| self.ranges[*w].is_none());
                if !free.contains(&v) {
                    continue;
                }
                if free.len() == 1 {
                    blocking.push(acc.text.clone());
                } else {
                    shared.push((
                        acc.text.clone(),
                        free.iter()
                            .map(|w| format!("`{}`", self.vars[*w]))
                            .collect::<Vec<_>>()
                            .join(" and "),
                    ));
                }
            }
        }
        let message = if let Some(text) = blocking.first() {
            format!(
                "cannot infer the range of `{name}`: `{text}` does not determine it (a data-dependent or non-affine index); add `where {name} in lo:hi`"
            )
        } else if let Some((text, vars)) = shared.first() {
            format!(
                "ambiguous ranges: {vars} are only used together (`{text}`), so there is more than one maximal range; add a `where` clause"
            )
        } else {
            format!(
                "cannot infer the range of `{name}`: no tensor access uses it; add `where {name} in lo:hi`"
            )
        };
        let pos = self
            .stmt
            .indices
            .iter()
            .find(|(n, _)| n == name)
            .map_or(self.stmt.pos, |(_, p)| *p);
        pos.error(message)
    }

    fn check_preconditions(&self, used: &BTreeSet<(usize, usize)>, warnings: &mut Vec<String>) {
        let names = self.scope.size_names();
        for (ai, acc) in self.accesses.iter().enumerate() {
            for (d, arg) in acc.args.iter().enumerate() {
                if used.contains(&(ai, d)) {
                    continue;
                }
                let size = &self.dims_of(acc.tensor)[d];
                let Ok(last) = size.add_expr(&Expr::constant(-1)) else {
                    continue;
                };
                let (lo, hi) = self.ex_range(arg);
                let safe_lo = lo
                    .as_ref()
                    .is_some_and(|l| bound_le(&Bound::constant(0), l, &size_le));
                let safe_hi = hi.as_ref().is_some_and(|h| bound_le(h, &last, &size_le));
                if safe_lo && safe_hi {
                    continue;
                }
                let range = match (&lo, &hi) {
                    (Some(l), Some(h)) => format!(
                        "; it ranges over [{}, {}]",
                        l.display(&names),
                        h.display(&names)
                    ),
                    _ => " (its value is data-dependent)".to_string(),
                };
                warnings.push(format!(
                    "unchecked precondition: `{}` stays in bounds only if `{arg}` lies in [0, {}] (dimension {d} of {}){range}",
                    acc.text,
                    last.display(&names),
                    acc.tensor
                ));
            }
        }
    }

    fn result(&self, warnings: &mut Vec<String>) -> StmtResult {
        let names = self.scope.size_names();
        let mut extents = Vec::new();
        for (d, (name, _)) in self.stmt.indices.iter().enumerate() {
            let (lo, hi) = self.ranges[d].as_ref().expect("every variable is resolved");
            if bound_le(&Bound::constant(1), lo, &size_le) {
                warnings.push(format!(
                    "`{name}` starts at {}, not 0: the first elements of {}'s dimension {d} are never written",
                    lo.display(&names),
                    self.stmt.lhs
                ));
            }
            let extent = hi
                .add(&lo.scale(-1).unwrap_or_else(|_| Bound::constant(0)))
                .and_then(|b| b.add_expr(&Expr::constant(1)))
                .map(|b| Bound::min_of(vec![b], &size_le))
                .unwrap_or_else(|_| hi.clone());
            extents.push(extent);
        }
        for (v, r) in self.ranges.iter().enumerate() {
            let (lo, hi) = r.as_ref().expect("every variable is resolved");
            if let Ok(after) = hi.add_expr(&Expr::constant(1))
                && bound_le(&after, lo, &size_le)
            {
                warnings.push(format!("the range of `{}` is empty", self.vars[v]));
            }
        }
        let ranges = self
            .vars
            .iter()
            .zip(&self.ranges)
            .map(|(n, r)| {
                let (lo, hi) = r.as_ref().expect("every variable is resolved");
                (
                    n.clone(),
                    lo.display(&names).to_string(),
                    hi.display(&names).to_string(),
                )
            })
            .collect();
        StmtResult {
            report: StmtReport {
                text: format!(
                    "{}({}) {} {}",
                    self.stmt.lhs,
                    self.stmt
                        .indices
                        .iter()
                        .map(|(n, _)| n.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                    self.stmt.op,
                    self.stmt.rhs
                ),
                ranges,
                maps: self.maps(),
            },
            extents,
        }
    }

    /// Every access as an indexing map over the statement's domain: written indices are dims,
    /// the other variables range vars, and indices that are not quasi-affine (data-dependent,
    /// clamped) runtime vars. Empty unless every range is a number.
    fn maps(&self) -> Vec<(String, String)> {
        let bounds: Option<Vec<Interval>> = self
            .ranges
            .iter()
            .map(|r| {
                let (lo, hi) = r.as_ref()?;
                Some(Interval::new(lo.as_constant()?, hi.as_constant()?))
            })
            .collect();
        let Some(bounds) = bounds else {
            return Vec::new();
        };
        let nd = self.stmt.indices.len();
        let named = |i: usize| Var::named(bounds[i], self.vars[i].clone());
        let dims: Vec<Var> = (0..nd).map(named).collect();
        let range_vars: Vec<Var> = (nd..self.vars.len()).map(named).collect();
        let nr = range_vars.len();
        let to_map_vars = |v: VarRef| match v {
            VarRef::Dim(i) if (i as usize) < nd => Some(Expr::dim(i)),
            VarRef::Dim(i) => Some(Expr::sym(i - nd as u32)),
            VarRef::Sym(_) => None,
        };
        let mut out = Vec::new();
        for acc in self.accesses.iter().filter(|a| !a.is_write) {
            let mut rt_vars = Vec::new();
            let mut results = Vec::new();
            for arg in acc.args.iter() {
                let affine = self.affine(arg).filter(|e| {
                    let mut sizes = false;
                    e.for_each_var(&mut |v| sizes |= matches!(v, VarRef::Sym(_)));
                    !sizes
                });
                match affine.and_then(|e| e.rewrite_vars(&mut |v| to_map_vars(v)).ok()) {
                    Some(e) => results.push(e),
                    None => {
                        let (lo, hi) = self.ex_range(arg);
                        let value = |b: Option<Bound>, default| {
                            b.and_then(|b| b.as_constant()).unwrap_or(default)
                        };
                        let iv = Interval::new(value(lo, i64::MIN), value(hi, i64::MAX));
                        results.push(Expr::sym((nr + rt_vars.len()) as u32));
                        rt_vars.push(Var::named(iv, format!("rt{}", rt_vars.len())));
                    }
                }
            }
            let map = IndexingMap::new(results, dims.clone(), range_vars.clone(), rt_vars);
            out.push((acc.text.clone(), map.to_string()));
        }
        out
    }
}
