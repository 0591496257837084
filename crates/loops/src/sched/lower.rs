//! The lowered loop nest as text, in the form the InferBound seed prints (TVM's IR with
//! `debug_keep_trivial_loop`): `realize` blocks with the inferred regions, `produce` blocks,
//! `for (var, 0, extent)` loops, attached stages inside the loop they are computed at.

use std::fmt::Write;

use xla_indexing_core::Expr;
use xla_indexing_core::print::Names;

use crate::sched::bound::{Bounds, StageBounds};
use crate::sched::graph::{Schedule, StageId, Val};
use crate::symbolic::{Bound, expr_to_string};

/// Prints the whole program's loop nest.
pub fn loop_nest(sched: &Schedule, bounds: &Bounds) -> String {
    let names = sched.iv_names();
    let p = Printer {
        sched,
        bounds,
        names: Names {
            dims: &names,
            syms: &[],
        },
    };
    let mut out = String::new();
    let top: Vec<StageId> = (0..sched.stages.len())
        .filter(|s| sched.stages[*s].attach.is_none() && bounds.stages[*s].is_some())
        .collect();
    p.stages(&top, &mut out, 0, &mut |_, _| {});
    out
}

struct Printer<'a> {
    sched: &'a Schedule,
    bounds: &'a Bounds,
    names: Names<'a>,
}

fn indent(out: &mut String, depth: usize) {
    out.push_str(&"  ".repeat(depth));
}

impl Printer<'_> {
    fn b(&self, s: StageId) -> &StageBounds {
        self.bounds.stages[s]
            .as_ref()
            .expect("compute stages have bounds")
    }

    fn expr(&self, e: &Expr) -> String {
        expr_to_string(e, &self.names)
    }

    fn bound(&self, b: &Bound) -> String {
        b.display(&self.names).to_string()
    }

    /// `realize S(...) { produce S {...} <rest> }` for each stage in turn, nested, with `rest`
    /// innermost.
    fn stages(
        &self,
        list: &[StageId],
        out: &mut String,
        depth: usize,
        rest: &mut dyn FnMut(&mut String, usize),
    ) {
        let Some((&s, tail)) = list.split_first() else {
            rest(out, depth);
            return;
        };
        let stage = &self.sched.stages[s];
        let region: Vec<String> = self
            .b(s)
            .realize(self.sched, s)
            .map(|(lo, ext)| format!("[{}, {}]", self.expr(lo), self.bound(ext)))
            .collect();
        indent(out, depth);
        let _ = writeln!(out, "realize {}({}) {{", stage.name, region.join(", "));
        indent(out, depth + 1);
        let _ = writeln!(out, "produce {} {{", stage.name);
        self.loops(s, 0, out, depth + 2);
        indent(out, depth + 1);
        out.push_str("}\n");
        self.stages(tail, out, depth + 1, rest);
        indent(out, depth);
        out.push_str("}\n");
    }

    /// The loops of stage `s` from leaf `k` inwards, then its statement.
    fn loops(&self, s: StageId, k: usize, out: &mut String, depth: usize) {
        let stage = &self.sched.stages[s];
        let body = stage.body.as_ref().expect("compute stage");
        let Some(&leaf) = stage.leaves.get(k) else {
            indent(out, depth);
            let _ = writeln!(out, "{}", self.statement(s));
            return;
        };
        let first_reduce = stage
            .leaves
            .iter()
            .position(|l| self.sched.itervars[*l].reduce);
        if let (Some(op), Some(first)) = (body.reduce, first_reduce)
            && first == k
        {
            indent(out, depth);
            let _ = writeln!(out, "{} = {}", self.store_target(s), identity(op));
        }
        let ext = &self.b(s).ranges[&leaf].1;
        indent(out, depth);
        let _ = writeln!(
            out,
            "for ({}, 0, {}) {{",
            self.sched.itervars[leaf].name,
            self.bound(ext)
        );
        let attached: Vec<StageId> = (0..self.sched.stages.len())
            .filter(|x| self.sched.stages[*x].attach == Some((s, leaf)))
            .collect();
        self.stages(&attached, out, depth + 1, &mut |out, d| {
            self.loops(s, k + 1, out, d)
        });
        indent(out, depth);
        out.push_str("}\n");
    }

    fn store_target(&self, s: StageId) -> String {
        let b = self.b(s);
        let idx: Vec<String> = self.sched.stages[s]
            .axis
            .iter()
            .map(|a| self.expr(&b.root_value[a]))
            .collect();
        format!("{}({})", self.sched.stages[s].name, idx.join(", "))
    }

    fn statement(&self, s: StageId) -> String {
        let body = self.sched.stages[s].body.as_ref().expect("compute stage");
        let target = self.store_target(s);
        let value = self.value(s, &body.value, false);
        match body.reduce {
            None => format!("{target} = {value}"),
            Some("sum") => format!("{target} = {target} + {value}"),
            Some(op) => format!("{target} = {op}({target}, {value})"),
        }
    }

    /// A value of stage `s`'s body with its root variables replaced by their loop expressions.
    fn value(&self, s: StageId, v: &Val, nested: bool) -> String {
        let b = self.b(s);
        let at = |e: &Expr| {
            e.rewrite_vars(&mut |r| match r {
                xla_indexing_core::VarRef::Dim(i) => b.root_value.get(&(i as usize)).cloned(),
                xla_indexing_core::VarRef::Sym(_) => None,
            })
            .map(|e| self.expr(&e))
            .unwrap_or_else(|_| "<overflow>".into())
        };
        match v {
            Val::Const(c) => c.clone(),
            Val::Index(e) => at(e),
            Val::Read { stage, index } => {
                let idx: Vec<String> = index.iter().map(at).collect();
                format!("{}({})", self.sched.stages[*stage].name, idx.join(", "))
            }
            Val::Unary(op, a) => format!("{op}{}", self.value(s, a, true)),
            Val::Binary(op, a, c) => {
                let text = format!("{} {op} {}", self.value(s, a, true), self.value(s, c, true));
                if nested { format!("({text})") } else { text }
            }
            Val::Call(f, args) => {
                let args: Vec<String> = args.iter().map(|a| self.value(s, a, false)).collect();
                format!("{f}({})", args.join(", "))
            }
        }
    }
}

/// The initial value of a reduction.
pub fn identity(op: &str) -> &'static str {
    match op {
        "max" => "-inf",
        "min" => "inf",
        _ => "0",
    }
}
