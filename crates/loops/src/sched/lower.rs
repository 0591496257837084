//! The lowered loop nest as text, in the form the InferBound seed prints (TVM's IR with
//! `debug_keep_trivial_loop`): `realize` blocks with the inferred regions, `produce` blocks,
//! `for (var, 0, extent)` loops, attached stages inside the loop they are computed at.

use std::collections::BTreeMap;
use std::fmt::Write;

use xla_indexing_core::Expr;
use xla_indexing_core::print::Names;

use crate::error::LoopsError;
use crate::sched::bound::{Bounds, StageBounds};
use crate::sched::graph::{IvId, Schedule, StageId, Val};
use crate::symbolic::{Bound, expr_to_string};

/// What a walk of the loop nest meets, in program order. Realize blocks nest: a stage's block
/// holds its produce block, then the blocks of the stages after it at the same place.
pub trait NestSink {
    /// Stage `s`'s realize block opens.
    fn realize_begin(&mut self, s: StageId);
    /// Stage `s`'s realize block closes.
    fn realize_end(&mut self, s: StageId);
    /// Stage `s`'s produce block opens (its loops and statement follow).
    fn produce_begin(&mut self, s: StageId);
    /// Stage `s`'s produce block closes.
    fn produce_end(&mut self, s: StageId);
    /// The loop of leaf variable `leaf` of stage `s`.
    fn loop_begin(&mut self, s: StageId, leaf: IvId);
    /// The loop of leaf variable `leaf` of stage `s` closes.
    fn loop_end(&mut self, s: StageId, leaf: IvId);
    /// A reduction's target set to the identity, before its first reduction loop.
    fn reduce_init(&mut self, s: StageId);
    /// Stage `s`'s statement, inside all its loops.
    fn statement(&mut self, s: StageId);
}

/// Walks the whole program's loop nest: the stages that are not computed at another stage,
/// then, inside each loop, the stages attached to it.
pub fn walk(sched: &Schedule, bounds: &Bounds, sink: &mut dyn NestSink) {
    let mut top = Vec::new();
    let mut attached: BTreeMap<(StageId, IvId), Vec<StageId>> = BTreeMap::new();
    for (s, stage) in sched.stages.iter().enumerate() {
        if bounds.stages[s].is_none() {
            continue;
        }
        match stage.attach {
            None => top.push(s),
            Some(at) => attached.entry(at).or_default().push(s),
        }
    }
    Walker {
        sched,
        attached: &attached,
        sink,
    }
    .stages(&top, None);
}

struct Walker<'a, 's> {
    sched: &'a Schedule,
    /// Per loop `(stage, leaf)`, the stages computed at it, in definition order.
    attached: &'a BTreeMap<(StageId, IvId), Vec<StageId>>,
    sink: &'s mut dyn NestSink,
}

impl Walker<'_, '_> {
    /// Each stage of `list` in turn, each realize block holding the next ones, then the loops of
    /// `rest` (stage, first leaf) inside the innermost block.
    fn stages(&mut self, list: &[StageId], rest: Option<(StageId, usize)>) {
        for &s in list {
            self.sink.realize_begin(s);
            self.sink.produce_begin(s);
            self.loops(s, 0);
            self.sink.produce_end(s);
        }
        if let Some((s, k)) = rest {
            self.loops(s, k);
        }
        for &s in list.iter().rev() {
            self.sink.realize_end(s);
        }
    }

    /// The loops of stage `s` from leaf `k` inwards, then its statement.
    fn loops(&mut self, s: StageId, k: usize) {
        let stage = &self.sched.stages[s];
        let Some(&leaf) = stage.leaves.get(k) else {
            self.sink.statement(s);
            return;
        };
        let first_reduce = stage
            .leaves
            .iter()
            .position(|l| self.sched.itervars[*l].reduce);
        if stage.body.as_ref().is_some_and(|b| b.reduce.is_some()) && first_reduce == Some(k) {
            self.sink.reduce_init(s);
        }
        self.sink.loop_begin(s, leaf);
        let attached = self.attached.get(&(s, leaf)).map_or(&[][..], Vec::as_slice);
        self.stages(attached, Some((s, k + 1)));
        self.sink.loop_end(s, leaf);
    }
}

/// The deepest nest of blocks the text form prints. Every stage's realize block holds those of
/// the stages after it, and each line is indented by its depth, so a chain of `n` stages prints
/// `n * n` spaces: 1024 blocks are about 8 MB of text.
pub const MAX_TEXT_DEPTH: usize = 1024;

/// Prints the whole program's loop nest; fails when it is more than [`MAX_TEXT_DEPTH`] blocks
/// deep.
pub fn loop_nest(sched: &Schedule, bounds: &Bounds) -> Result<String, LoopsError> {
    let names = sched.iv_names();
    let mut p = Printer {
        sched,
        bounds,
        names: Names {
            dims: &names,
            syms: &[],
        },
        out: String::new(),
        depth: 0,
        too_deep: false,
    };
    walk(sched, bounds, &mut p);
    if p.too_deep {
        return Err(LoopsError::semantic(
            format!(
                "the loop nest is more than {MAX_TEXT_DEPTH} blocks deep, the most the text form prints \
                 (each stage's realize block holds the next ones); the JSON report and the MLIR form have no such limit"
            ),
            0,
            0,
        ));
    }
    Ok(p.out)
}

/// The text sink: TVM's IR as the seed prints it.
struct Printer<'a> {
    sched: &'a Schedule,
    bounds: &'a Bounds,
    names: Names<'a>,
    out: String,
    depth: usize,
    /// Set when the nest went deeper than [`MAX_TEXT_DEPTH`]: nothing more is printed.
    too_deep: bool,
}

impl NestSink for Printer<'_> {
    fn realize_begin(&mut self, s: StageId) {
        let region: Vec<String> = self
            .b(s)
            .realize(self.sched, s)
            .map(|(lo, ext)| format!("[{}, {}]", self.expr(lo), self.bound(ext)))
            .collect();
        let line = format!(
            "realize {}({}) {{",
            self.sched.stages[s].name,
            region.join(", ")
        );
        self.open(&line);
    }

    fn realize_end(&mut self, _: StageId) {
        self.close();
    }

    fn produce_begin(&mut self, s: StageId) {
        let line = format!("produce {} {{", self.sched.stages[s].name);
        self.open(&line);
    }

    fn produce_end(&mut self, _: StageId) {
        self.close();
    }

    fn loop_begin(&mut self, s: StageId, leaf: IvId) {
        let ext = &self.b(s).ranges[&leaf].1;
        let line = format!(
            "for ({}, 0, {}) {{",
            self.sched.itervars[leaf].name,
            self.bound(ext)
        );
        self.open(&line);
    }

    fn loop_end(&mut self, _: StageId, _: IvId) {
        self.close();
    }

    fn reduce_init(&mut self, s: StageId) {
        let op = self.sched.stages[s]
            .body
            .as_ref()
            .and_then(|b| b.reduce)
            .unwrap_or("sum");
        let line = format!("{} = {}", self.store_target(s), identity(op));
        self.line(&line);
    }

    fn statement(&mut self, s: StageId) {
        let line = self.statement_text(s);
        self.line(&line);
    }
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

    fn line(&mut self, text: &str) {
        if !self.too_deep {
            let _ = writeln!(self.out, "{}{text}", "  ".repeat(self.depth));
        }
    }

    fn open(&mut self, text: &str) {
        self.line(text);
        self.depth += 1;
        self.too_deep |= self.depth > MAX_TEXT_DEPTH;
    }

    fn close(&mut self) {
        self.depth -= 1;
        self.line("}");
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

    fn statement_text(&self, s: StageId) -> String {
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
