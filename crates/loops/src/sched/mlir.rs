//! The lowered loop nest as MLIR text (no MLIR library): one `func.func` whose arguments are the
//! placeholders and the outputs, `affine.for` loops over every leaf variable from 0 to its
//! largest extent, `affine.if` around the statements where a loop runs past the needed region,
//! and `memref.alloc` of the inferred realized region for every stage computed inside another.
//!
//! Every tensor is `f32`. An allocated stage is indexed relative to its region's minimum, which
//! is an expression of enclosing loops; reductions store their identity before the first
//! reduction loop. The text verifies with `mlir-opt`.
//!
//! ```
//! let text = "A = placeholder((4, 4))\n\
//!             B = compute((4, 4), lambda bi, bj: A[bi, bj] + 2)\n\
//!             C = compute((4, 4), lambda ci, cj: B[ci, cj] * 3)\n\
//!             s = create_schedule(C)\n\
//!             s[B].compute_at(s[C], C.op.axis[0])\n";
//! let sched = xla_indexing_loops::sched::parse(text).unwrap();
//! let mlir = xla_indexing_loops::sched::infer_bounds(&sched).unwrap().to_mlir().unwrap();
//! assert!(mlir.contains("%B = memref.alloc() : memref<1x4xf32>"));
//! assert!(mlir.contains("affine.store %2, %B[%bi, %bj] : memref<1x4xf32>"));
//! assert!(mlir.contains("%3 = affine.load %B[0, %cj] : memref<1x4xf32>"));
//! ```

use std::fmt::Write;

use xla_indexing_core::names::SsaNames;
use xla_indexing_core::print::Names;
use xla_indexing_core::{Expr, Syntax, VarRef};

use crate::error::LoopsError;
use crate::sched::bound::{Bounds, StageBounds};
use crate::sched::graph::{IvId, Schedule, StageId, Val};
use crate::sched::lower::{NestSink, walk};
use crate::symbolic::Bound;

/// The loop nest of a schedule with its bounds as an MLIR function.
pub fn loop_nest_mlir(sched: &Schedule, bounds: &Bounds) -> Result<String, LoopsError> {
    let mut names = SsaNames::default();
    let stage_names: Vec<String> = sched.stages.iter().map(|s| names.fresh(&s.name)).collect();
    let iv_names: Vec<String> = sched
        .itervars
        .iter()
        .map(|v| names.fresh(&v.name))
        .collect();
    let mut is_arg: Vec<bool> = sched.stages.iter().map(|s| s.body.is_none()).collect();
    for &s in &sched.outputs {
        is_arg[s] = true;
    }
    let mut emitter = Emitter {
        sched,
        bounds,
        stage_names: &stage_names,
        iv_names: &iv_names,
        is_arg: &is_arg,
        out: String::new(),
        depth: 1,
        open: Vec::new(),
        next_value: 0,
        error: None,
    };
    let args: Vec<String> = (0..sched.stages.len())
        .filter(|s| is_arg[*s])
        .map(|s| format!("{}: {}", stage_names[s], emitter.memref(s)))
        .collect();
    let func = sched
        .outputs
        .first()
        .map(|o| stage_names[*o].trim_start_matches('%').to_string())
        .unwrap_or_else(|| "schedule".into());
    walk(sched, bounds, &mut emitter);
    if let Some(e) = emitter.error {
        return Err(e);
    }
    Ok(format!(
        "func.func @{func}({}) {{\n{}  return\n}}\n",
        args.join(", "),
        emitter.out
    ))
}

struct Emitter<'a> {
    sched: &'a Schedule,
    bounds: &'a Bounds,
    stage_names: &'a [String],
    iv_names: &'a [String],
    /// Placeholders and outputs are function arguments; other stages are allocated.
    is_arg: &'a [bool],
    out: String,
    depth: usize,
    /// The loops open at the current point, outermost first.
    open: Vec<IvId>,
    next_value: usize,
    error: Option<LoopsError>,
}

impl NestSink for Emitter<'_> {
    fn realize_begin(&mut self, s: StageId) {
        if !self.is_arg[s] {
            let line = format!(
                "{} = memref.alloc() : {}",
                self.stage_names[s],
                self.memref(s)
            );
            self.line(&line);
        }
    }

    fn realize_end(&mut self, s: StageId) {
        if !self.is_arg[s] {
            let line = format!(
                "memref.dealloc {} : {}",
                self.stage_names[s],
                self.memref(s)
            );
            self.line(&line);
        }
    }

    fn produce_begin(&mut self, s: StageId) {
        let line = format!("// produce {}", self.sched.stages[s].name);
        self.line(&line);
    }

    fn produce_end(&mut self, _: StageId) {}

    fn loop_begin(&mut self, s: StageId, leaf: IvId) {
        let upper = self.loop_upper(s, leaf);
        let line = format!("affine.for {} = 0 to {upper} {{", self.iv_names[leaf]);
        self.line(&line);
        self.depth += 1;
        self.open.push(leaf);
    }

    fn loop_end(&mut self, _: StageId, _: IvId) {
        self.open.pop();
        self.depth -= 1;
        self.line("}");
    }

    fn reduce_init(&mut self, s: StageId) {
        let op = self.reduction(s);
        let guarded = self.guard_begin(s);
        let init = self.value_line(format!("arith.constant {} : f32", identity(op)));
        self.store(s, &init);
        self.guard_end(guarded);
    }

    fn statement(&mut self, s: StageId) {
        let Some(body) = &self.sched.stages[s].body else {
            return;
        };
        let guarded = self.guard_begin(s);
        let value = self.value(s, &body.value);
        let result = match body.reduce {
            None => value,
            Some(op) => {
                let (memref, index) = (self.memref(s), self.store_index(s));
                let old = self.value_line(format!(
                    "affine.load {}[{index}] : {memref}",
                    self.stage_names[s]
                ));
                let combine = match op {
                    "max" => "arith.maximumf",
                    "min" => "arith.minimumf",
                    _ => "arith.addf",
                };
                self.value_line(format!("{combine} {old}, {value} : f32"))
            }
        };
        self.store(s, &result);
        self.guard_end(guarded);
    }
}

impl Emitter<'_> {
    fn b(&self, s: StageId) -> &StageBounds {
        self.bounds.stages[s]
            .as_ref()
            .expect("the walk visits compute stages, which have bounds")
    }

    fn line(&mut self, text: &str) {
        let _ = writeln!(self.out, "{}{text}", "  ".repeat(self.depth));
    }

    /// Emits `%N = rhs` and returns `%N`.
    fn value_line(&mut self, rhs: String) -> String {
        let name = format!("%{}", self.next_value);
        self.next_value += 1;
        self.line(&format!("{name} = {rhs}"));
        name
    }

    fn fail(&mut self, message: String) {
        let pos = self.sched.stages.first().map(|s| s.pos).unwrap_or_default();
        self.error.get_or_insert(pos.error(message));
    }

    /// The memref type of a stage: its shape as an argument, its largest realized region when
    /// allocated.
    fn memref(&self, s: StageId) -> String {
        let stage = &self.sched.stages[s];
        let sizes: Vec<i64> = match (&self.bounds.stages[s], self.is_arg[s]) {
            (Some(b), false) => stage
                .axis
                .iter()
                .map(|a| b.max_extent.get(a).copied().unwrap_or(1))
                .collect(),
            _ => stage.shape.clone(),
        };
        let dims: String = sizes.iter().map(|d| format!("{d}x")).collect();
        format!("memref<{dims}f32>")
    }

    /// The upper bound of a loop: its extent, a `min` map of enclosing loops when the extent
    /// varies with them, or the largest extent when it is a `max` (guards cut the rest).
    fn loop_upper(&self, s: StageId, leaf: IvId) -> String {
        let b = self.b(s);
        let largest = b.max_extent.get(&leaf).copied().unwrap_or(1).to_string();
        let candidates: Vec<Expr> = match b.ranges.get(&leaf).map(|r| &r.1) {
            Some(Bound::Expr(e)) => vec![e.clone()],
            Some(Bound::Min(xs)) => match xs.iter().map(|x| x.as_expr().cloned()).collect() {
                Some(all) => all,
                None => return largest,
            },
            _ => return largest,
        };
        if let [only] = candidates.as_slice()
            && let Some(c) = only.as_constant()
        {
            return c.to_string();
        }
        if !candidates.iter().all(|e| self.in_scope(e)) {
            return largest;
        }
        let (formals, actuals, results) = self.affine_map(&candidates);
        format!(
            "min affine_map<({formals}) -> ({})>({actuals})",
            results.join(", ")
        )
    }

    /// Whether every variable of `e` is an open loop.
    fn in_scope(&self, e: &Expr) -> bool {
        let mut ok = true;
        e.for_each_var(&mut |v| {
            ok &= matches!(v, VarRef::Dim(d) if self.open.contains(&(d as usize)));
        });
        ok
    }

    /// An expression of open loops in the inline form of `affine.load` and `affine.store`.
    fn affine(&mut self, e: &Expr) -> String {
        if !self.in_scope(e) {
            let names = Names {
                dims: self.iv_names,
                syms: &[],
            };
            self.fail(format!(
                "the index {} uses a loop that is not open there",
                e.display(&names)
            ));
        }
        let names = Names {
            dims: self.iv_names,
            syms: &[],
        };
        // MLIR reads this text: its spelling.
        e.display(&names).in_syntax(Syntax::Mlir).to_string()
    }

    /// `index` (over stage `s`'s loops) into the buffer of stage `target`: relative to the
    /// realized region's minimum when the buffer is allocated.
    fn buffer_index(&mut self, target: StageId, index: &[Expr]) -> String {
        let mut parts = Vec::with_capacity(index.len());
        for (i, e) in index.iter().enumerate() {
            let local = match (&self.bounds.stages[target], self.is_arg[target]) {
                (Some(b), false) => {
                    let axis = self.sched.stages[target].axis[i];
                    e.checked_sub(&b.ranges[&axis].0)
                }
                _ => Ok(e.clone()),
            };
            match local {
                Ok(local) => parts.push(self.affine(&local)),
                Err(err) => {
                    self.fail(format!(
                        "index of {}: {err}",
                        self.sched.stages[target].name
                    ));
                    parts.push("0".into());
                }
            }
        }
        parts.join(", ")
    }

    /// The element stage `s`'s statement writes, in its buffer.
    fn store_index(&mut self, s: StageId) -> String {
        let index: Vec<Expr> = self.sched.stages[s]
            .axis
            .iter()
            .map(|a| self.b(s).root_value[a].clone())
            .collect();
        self.buffer_index(s, &index)
    }

    fn store(&mut self, s: StageId, value: &str) {
        let (memref, index) = (self.memref(s), self.store_index(s));
        let line = format!(
            "affine.store {value}, {}[{index}] : {memref}",
            self.stage_names[s]
        );
        self.line(&line);
    }

    fn reduction(&self, s: StageId) -> &'static str {
        self.sched.stages[s]
            .body
            .as_ref()
            .and_then(|b| b.reduce)
            .unwrap_or("sum")
    }

    /// Opens an `affine.if` over stage `s`'s guards on open loops, when it has any.
    fn guard_begin(&mut self, s: StageId) -> bool {
        let guards: Vec<_> = self
            .b(s)
            .guards
            .iter()
            .filter(|(e, _)| self.in_scope(e))
            .cloned()
            .collect();
        let mut constraints = Vec::new();
        for (e, iv) in &guards {
            if iv.lo > i64::MIN {
                match e.checked_add_const(iv.lo.saturating_neg()) {
                    Ok(x) => constraints.push(x),
                    Err(err) => self.fail(format!("guard: {err}")),
                }
            }
            if iv.hi < i64::MAX {
                match Expr::constant(iv.hi).checked_sub(e) {
                    Ok(x) => constraints.push(x),
                    Err(err) => self.fail(format!("guard: {err}")),
                }
            }
        }
        if constraints.is_empty() {
            return false;
        }
        let (formals, actuals, results) = self.affine_map(&constraints);
        let conditions: Vec<String> = results.iter().map(|r| format!("{r} >= 0")).collect();
        let line = format!(
            "affine.if affine_set<({formals}) : ({})>({actuals}) {{",
            conditions.join(", ")
        );
        self.line(&line);
        self.depth += 1;
        true
    }

    fn guard_end(&mut self, opened: bool) {
        if opened {
            self.depth -= 1;
            self.line("}");
        }
    }

    /// Emits the operations of a value of stage `s`'s body; returns the `f32` result.
    fn value(&mut self, s: StageId, v: &Val) -> String {
        match v {
            Val::Const(c) => match float_literal(c) {
                Some(lit) => self.value_line(format!("arith.constant {lit} : f32")),
                None => {
                    self.fail(format!("the constant {c} is not a number"));
                    self.value_line("arith.constant 0.0 : f32".into())
                }
            },
            Val::Index(e) => {
                let at = self.at_loops(s, e);
                if !self.in_scope(&at) {
                    self.fail(format!(
                        "a value of {} uses a loop that is not open",
                        self.sched.stages[s].name
                    ));
                }
                if let Some(c) = at.as_constant() {
                    return self.value_line(format!("arith.constant {c}.0 : f32"));
                }
                let (formals, actuals, expr) = self.affine_map(std::slice::from_ref(&at));
                let index = self.value_line(format!(
                    "affine.apply affine_map<({formals}) -> ({})>({actuals})",
                    expr.join(", ")
                ));
                let int = self.value_line(format!("arith.index_cast {index} : index to i64"));
                self.value_line(format!("arith.sitofp {int} : i64 to f32"))
            }
            Val::Read { stage, index } => {
                let index: Vec<Expr> = index.iter().map(|e| self.at_loops(s, e)).collect();
                let text = self.buffer_index(*stage, &index);
                let memref = self.memref(*stage);
                self.value_line(format!(
                    "affine.load {}[{text}] : {memref}",
                    self.stage_names[*stage]
                ))
            }
            Val::Unary(_, a) => {
                let a = self.value(s, a);
                self.value_line(format!("arith.negf {a} : f32"))
            }
            Val::Binary(op, a, b) => {
                let (a, b) = (self.value(s, a), self.value(s, b));
                let instr = match *op {
                    "+" => "arith.addf",
                    "-" => "arith.subf",
                    "*" => "arith.mulf",
                    "%" => "arith.remf",
                    _ => "arith.divf",
                };
                let result = self.value_line(format!("{instr} {a}, {b} : f32"));
                if *op == "//" {
                    self.value_line(format!("math.floor {result} : f32"))
                } else {
                    result
                }
            }
            Val::Call(f, args) => {
                let instr = if *f == "min" {
                    "arith.minimumf"
                } else {
                    "arith.maximumf"
                };
                let mut values = args.iter().map(|a| self.value(s, a)).collect::<Vec<_>>();
                let first = values.remove(0);
                values.into_iter().fold(first, |acc, x| {
                    self.value_line(format!("{instr} {acc}, {x} : f32"))
                })
            }
        }
    }

    /// An expression over stage `s`'s root variables, over the loops instead.
    fn at_loops(&mut self, s: StageId, e: &Expr) -> Expr {
        let root_value = &self.b(s).root_value;
        match e.rewrite_vars(&mut |r| match r {
            VarRef::Dim(i) => root_value.get(&(i as usize)).cloned(),
            VarRef::Sym(_) => None,
        }) {
            Ok(x) => x,
            Err(err) => {
                self.fail(format!("index of {}: {err}", self.sched.stages[s].name));
                e.clone()
            }
        }
    }

    /// `(formals, actuals, results)` of an `affine_map` (or `affine_set`) over the loops that
    /// `exprs` use: `d0, d1`, the loops' SSA names, and each expression over `d0, d1`.
    fn affine_map(&self, exprs: &[Expr]) -> (String, String, Vec<String>) {
        let mut used: Vec<usize> = Vec::new();
        for e in exprs {
            e.for_each_var(&mut |v| {
                if let VarRef::Dim(d) = v
                    && !used.contains(&(d as usize))
                {
                    used.push(d as usize);
                }
            });
        }
        used.sort_unstable();
        let mut dims = vec![String::new(); self.iv_names.len()];
        for (k, v) in used.iter().enumerate() {
            if let Some(slot) = dims.get_mut(*v) {
                *slot = format!("d{k}");
            }
        }
        let names = Names {
            dims: &dims,
            syms: &[],
        };
        let formals: Vec<String> = (0..used.len()).map(|k| format!("d{k}")).collect();
        let actuals: Vec<&str> = used.iter().map(|v| self.iv_names[*v].as_str()).collect();
        let results: Vec<String> = exprs
            .iter()
            .map(|e| e.display(&names).in_syntax(Syntax::Mlir).to_string())
            .collect();
        (formals.join(", "), actuals.join(", "), results)
    }
}

/// The identity of a reduction as an `f32` literal (infinities in hexadecimal).
fn identity(op: &str) -> &'static str {
    match op {
        "max" => "0xFF800000",
        "min" => "0x7F800000",
        _ => "0.0",
    }
}

/// A number as an MLIR float literal: digits with a decimal point, exponent optional.
fn float_literal(text: &str) -> Option<String> {
    let v: f64 = text.trim().parse().ok()?;
    if !v.is_finite() {
        return None;
    }
    let s = format!("{v:e}");
    let (mantissa, exponent) = s.split_once('e')?;
    let mantissa = if mantissa.contains('.') {
        mantissa.to_string()
    } else {
        format!("{mantissa}.0")
    };
    Some(format!("{mantissa}e{exponent}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_have_a_decimal_point() {
        assert_eq!(float_literal("2").as_deref(), Some("2.0e0"));
        assert_eq!(float_literal("0.125").as_deref(), Some("1.25e-1"));
        assert_eq!(float_literal("-3e20").as_deref(), Some("-3.0e20"));
        assert_eq!(float_literal("inf"), None);
        assert_eq!(float_literal("x"), None);
    }

    #[test]
    fn names_are_valid_and_unique() {
        let mut names = SsaNames::default();
        assert_eq!(names.fresh("ci.cj.fused.outer"), "%ci.cj.fused.outer");
        assert_eq!(names.fresh("B"), "%B");
        assert_eq!(names.fresh("B"), "%B_1");
        assert_eq!(names.fresh("1x"), "%v1x");
        assert_eq!(names.fresh("a b"), "%a_b");
    }
}
