//! The schedule as data, and the interpreter that builds it from the parsed lines.
//!
//! A [`Schedule`] has stages (placeholders and computes, in definition order, which is a
//! topological order of the read graph), iteration variables (roots from `compute` and
//! `reduce_axis`, derived ones from `split` and `fuse`), and per stage its relations, its leaf
//! variables in loop order and where it is computed (`compute_at`).

use std::collections::{BTreeMap, BTreeSet};

use xla_indexing_core::Expr;
use xla_indexing_core::interval::ceil_div;

use crate::error::{LoopsError, Pos};
use crate::sched::ast::{Line, Py, PyKind};

/// A stage: its index in [`Schedule::stages`].
pub type StageId = usize;
/// An iteration variable: its index in [`Schedule::itervars`] (and `d<id>` in expressions).
pub type IvId = usize;

/// An iteration variable. Roots have a domain `(min, extent)`; derived variables do not.
#[derive(Clone, Debug)]
pub struct IterVar {
    /// The name it prints as: a lambda parameter, a `reduce_axis` name, or derived
    /// (`ci.cj.fused.outer`).
    pub name: String,
    /// The stage whose loops it indexes (`usize::MAX` for a reduction axis no compute has used
    /// yet).
    pub stage: StageId,
    /// For a root variable, `(min, extent)`: it takes the values `min..min + extent`; `None` for
    /// one derived by `split` or `fuse`.
    pub dom: Option<(i64, i64)>,
    /// Whether it is a reduction variable (a `reduce_axis`, or derived from one).
    pub reduce: bool,
}

/// How derived variables come from their parents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    /// `parent = outer * factor + inner`.
    Split {
        /// The variable split.
        parent: IvId,
        /// The outer variable, counting blocks of `factor`.
        outer: IvId,
        /// The inner variable, in `[0, factor)`.
        inner: IvId,
        /// The extent of `inner` (positive).
        factor: i64,
    },
    /// `fused = outer * extent(inner) + inner`.
    Fuse {
        /// The outer of the two fused variables.
        outer: IvId,
        /// The inner of the two fused variables.
        inner: IvId,
        /// The variable that replaces both.
        fused: IvId,
    },
}

/// The value a compute stage stores, over its root variables (`d<id>` is iteration variable
/// `id`).
#[derive(Clone, Debug)]
pub enum Val {
    /// A constant (an integer or floating-point literal), as written.
    Const(String),
    /// An integer expression of the iteration variables used as a value.
    Index(Expr),
    /// An element of another stage.
    Read {
        /// The stage read.
        stage: StageId,
        /// The element's index, one expression per dimension of the stage read.
        index: Vec<Expr>,
    },
    /// A unary operator (`-`) applied to a value.
    Unary(&'static str, Box<Val>),
    /// A binary operator (`+`, `-`, `*`, `/`, `//`, `%`) applied to two values.
    Binary(&'static str, Box<Val>, Box<Val>),
    /// `max(a, b)` or `min(a, b)`.
    Call(&'static str, Vec<Val>),
}

/// A compute stage's body: the value and, for a reduction, its operator (`sum`, `max`, `min`).
#[derive(Clone, Debug)]
pub struct Body {
    /// The value stored (for a reduction, the value reduced).
    pub value: Val,
    /// The reduction's operator, `None` for a plain compute.
    pub reduce: Option<&'static str>,
}

/// One stage of the schedule.
#[derive(Clone, Debug)]
pub struct Stage {
    /// The stage's name: the `name=` argument, else the variable it is assigned to.
    pub name: String,
    /// Where the `placeholder` or `compute` call is.
    pub pos: Pos,
    /// The extent of each dimension (positive).
    pub shape: Vec<i64>,
    /// The root variables, one per dimension (empty for a placeholder).
    pub axis: Vec<IvId>,
    /// The reduction's root variables (empty unless the body reduces).
    pub reduce_axis: Vec<IvId>,
    /// `None` for a placeholder.
    pub body: Option<Body>,
    /// The `split`s and `fuse`s applied to the stage's variables, in order.
    pub relations: Vec<Relation>,
    /// The variables of the stage's loops, outermost first, after the `split`s and `fuse`s.
    pub leaves: Vec<IvId>,
    /// `compute_at(stage, var)`.
    pub attach: Option<(StageId, IvId)>,
}

impl Stage {
    /// The root variables: axes, then reduction axes.
    pub fn roots(&self) -> impl Iterator<Item = IvId> + '_ {
        self.axis.iter().chain(&self.reduce_axis).copied()
    }
}

/// A whole schedule.
#[derive(Clone, Debug)]
pub struct Schedule {
    /// The stages in definition order (a topological order of the reads).
    pub stages: Vec<Stage>,
    /// Every iteration variable of every stage, indexed by [`IvId`].
    pub itervars: Vec<IterVar>,
    /// The stages given to `create_schedule`.
    pub outputs: Vec<StageId>,
}

impl Val {
    /// Calls `f` on every read.
    pub fn for_each_read(&self, f: &mut impl FnMut(StageId, &[Expr])) {
        match self {
            Val::Read { stage, index } => f(*stage, index),
            Val::Unary(_, a) => a.for_each_read(f),
            Val::Binary(_, a, b) => {
                a.for_each_read(f);
                b.for_each_read(f);
            }
            Val::Call(_, args) => args.iter().for_each(|a| a.for_each_read(f)),
            Val::Const(_) | Val::Index(_) => {}
        }
    }
}

impl Schedule {
    /// The distinct index lists by which `consumer` reads `producer`, in order of appearance.
    pub fn reads(&self, consumer: StageId, producer: StageId) -> Vec<Vec<Expr>> {
        let mut out = Vec::new();
        let mut seen = BTreeSet::new();
        if let Some(body) = &self.stages[consumer].body {
            body.value.for_each_read(&mut |s, idx| {
                if s == producer && seen.insert(idx.to_vec()) {
                    out.push(idx.to_vec());
                }
            });
        }
        out
    }

    /// Per stage, the stages that read it, in definition order.
    pub fn consumers(&self) -> Vec<Vec<StageId>> {
        let mut out = vec![Vec::new(); self.stages.len()];
        for (c, stage) in self.stages.iter().enumerate() {
            if let Some(body) = &stage.body {
                body.value.for_each_read(&mut |p, _| {
                    let list: &mut Vec<StageId> = &mut out[p];
                    if list.last() != Some(&c) {
                        list.push(c);
                    }
                });
            }
        }
        out
    }

    /// The names of all iteration variables, by id (for printing `d<id>`).
    pub fn iv_names(&self) -> Vec<String> {
        self.itervars.iter().map(|v| v.name.clone()).collect()
    }

    /// The loops enclosing a stage, outermost first: for `compute_at(X, v)`, the enclosing
    /// loops of `X` followed by `X`'s leaves down to `v`.
    pub fn attach_path(&self, s: StageId) -> Vec<IvId> {
        let mut chain = Vec::new();
        let mut at = self.stages[s].attach;
        while let Some((x, v)) = at {
            chain.push((x, v));
            at = self.stages[x].attach;
        }
        let mut path = Vec::new();
        for (x, v) in chain.into_iter().rev() {
            let leaves = &self.stages[x].leaves;
            let at = leaves.iter().position(|l| *l == v).unwrap_or(0);
            path.extend_from_slice(&leaves[..=at]);
        }
        path
    }
}

/// A value while interpreting the file.
#[derive(Clone, Debug)]
enum V {
    None,
    Int(i64),
    Str(String),
    Module,
    Func(&'static str),
    Tensor(StageId),
    Op(StageId),
    Axes(StageId, bool),
    Iv(IvId),
    Sched,
    StageRef(StageId),
    Method(StageId, &'static str),
    Tuple(Vec<V>),
    Lambda(Vec<(String, Pos)>, Py),
    Index(Expr),
    Data(Val),
    /// `sum(value, axis=...)` and friends: a reduction, valid only as a compute body.
    Reduce(&'static str, Val, Vec<IvId>),
}

const FUNCS: &[&str] = &[
    "placeholder",
    "compute",
    "create_schedule",
    "reduce_axis",
    "sum",
    "max",
    "min",
    "const",
    "lower",
    "print",
];

const METHODS: &[&str] = &["split", "fuse", "compute_at"];

/// The most iteration variables of one stage (roots, reduction axes and those `split` and `fuse`
/// make): it bounds the loops of a stage, and so the depth of the walks over its loops.
pub const MAX_STAGE_ITERVARS: usize = 64;

/// The most stages one stage is nested in through `compute_at`: it bounds the attach paths, and
/// with [`MAX_STAGE_ITERVARS`] the depth of the loop nest.
pub const MAX_ATTACH_DEPTH: usize = 32;

/// Builds the schedule a parsed file describes.
pub fn interpret(lines: &[Line]) -> Result<Schedule, LoopsError> {
    let mut it = Interp {
        env: BTreeMap::new(),
        stage_names: BTreeSet::new(),
        sched: Schedule {
            stages: Vec::new(),
            itervars: Vec::new(),
            outputs: Vec::new(),
        },
        have_schedule: false,
    };
    for line in lines {
        let hint = line.targets.first().map(|(n, _)| n.as_str());
        let value = it.eval(&line.value, hint)?;
        match line.targets.as_slice() {
            [] => {}
            [(name, _)] => {
                it.env.insert(name.clone(), value);
            }
            targets => {
                let V::Tuple(items) = value else {
                    return Err(line.value.pos.error("this value cannot be unpacked"));
                };
                if items.len() != targets.len() {
                    return Err(line.value.pos.error(format!(
                        "{} names for {} values",
                        targets.len(),
                        items.len()
                    )));
                }
                for ((name, _), v) in targets.iter().zip(items) {
                    it.env.insert(name.clone(), v);
                }
            }
        }
    }
    if !it.have_schedule {
        return Err(LoopsError::semantic(
            "no `create_schedule(...)` in the file",
            0,
            0,
        ));
    }
    check_attach_depth(&it.sched)?;
    Ok(it.sched)
}

/// Fails when a stage is nested in more than [`MAX_ATTACH_DEPTH`] stages through `compute_at`
/// (a chain `compute_at` cannot see at once: each call may attach the top of a chain built
/// before). Depths are computed once per stage, so this takes linear time.
fn check_attach_depth(sched: &Schedule) -> Result<(), LoopsError> {
    let mut depth: Vec<Option<usize>> = vec![None; sched.stages.len()];
    for s in 0..sched.stages.len() {
        if depth[s].is_some() {
            continue;
        }
        let too_deep = || {
            sched.stages[s].pos.error(format!(
                "`{}` is nested in more than {MAX_ATTACH_DEPTH} stages through compute_at (the limit)",
                sched.stages[s].name
            ))
        };
        // The stages from `s` up to the first one of known depth (a cycle is cut by the limit).
        let mut chain = Vec::new();
        let mut at = Some(s);
        let mut base = 0;
        while let Some(x) = at {
            if let Some(d) = depth[x] {
                base = d + 1;
                break;
            }
            if chain.len() > MAX_ATTACH_DEPTH {
                return Err(too_deep());
            }
            chain.push(x);
            at = sched.stages[x].attach.map(|(y, _)| y);
        }
        if base + chain.len() - 1 > MAX_ATTACH_DEPTH {
            return Err(too_deep());
        }
        for (k, x) in chain.into_iter().rev().enumerate() {
            depth[x] = Some(base + k);
        }
    }
    Ok(())
}

struct Interp {
    env: BTreeMap<String, V>,
    /// The names of the stages so far.
    stage_names: BTreeSet<String>,
    sched: Schedule,
    have_schedule: bool,
}

impl Interp {
    fn eval(&mut self, e: &Py, hint: Option<&str>) -> Result<V, LoopsError> {
        let pos = e.pos;
        Ok(match &e.kind {
            PyKind::Int(v) => V::Int(*v),
            PyKind::Float(s) => V::Data(Val::Const(s.clone())),
            PyKind::Str(s) => V::Str(s.clone()),
            PyKind::Name(n) => match (self.env.get(n), n.as_str()) {
                (Some(v), _) => v.clone(),
                (None, "tvm" | "te" | "topi") => V::Module,
                (None, "True") => V::Int(1),
                (None, "False") => V::Int(0),
                (None, "None") => V::None,
                (None, f) if FUNCS.contains(&f) => {
                    V::Func(FUNCS[FUNCS.iter().position(|x| *x == f).unwrap_or(0)])
                }
                (None, _) => return Err(pos.error(format!("unknown name `{n}`"))),
            },
            PyKind::Attr(base, name) => {
                let b = self.eval(base, None)?;
                self.attr(b, name, pos)?
            }
            PyKind::Index(base, items) => {
                let b = self.eval(base, None)?;
                let items = items
                    .iter()
                    .map(|i| self.eval(i, None))
                    .collect::<Result<Vec<_>, _>>()?;
                self.index(b, items, pos)?
            }
            PyKind::Tuple(items) | PyKind::List(items) => V::Tuple(
                items
                    .iter()
                    .map(|i| self.eval(i, None))
                    .collect::<Result<_, _>>()?,
            ),
            PyKind::Lambda(params, body) => V::Lambda(params.clone(), (**body).clone()),
            PyKind::Unary(op, a) => {
                let a = self.eval(a, None)?;
                match a {
                    V::Int(v) => V::Int(
                        v.checked_neg()
                            .ok_or_else(|| pos.error("integer overflow"))?,
                    ),
                    other => match self.as_index(&other) {
                        Some(x) => V::Index(
                            x.checked_scale(-1)
                                .map_err(|_| pos.error("integer overflow"))?,
                        ),
                        None => V::Data(Val::Unary(op, Box::new(self.as_val(other, pos)?))),
                    },
                }
            }
            PyKind::Binary(op, a, b) => {
                let (a, b) = (self.eval(a, None)?, self.eval(b, None)?);
                self.binary(op, a, b, pos)?
            }
            PyKind::Call { func, args, kwargs } => {
                let f = self.eval(func, None)?;
                self.call(f, args, kwargs, hint, pos)?
            }
        })
    }

    fn attr(&mut self, base: V, name: &str, pos: Pos) -> Result<V, LoopsError> {
        Ok(match (base, name) {
            (V::Module, f) => match FUNCS.iter().find(|x| **x == f) {
                Some(f) => V::Func(f),
                None => V::Module,
            },
            (V::Tensor(s), "op") => V::Op(s),
            (V::Op(s), "axis") => V::Axes(s, false),
            (V::Op(s), "reduce_axis") => V::Axes(s, true),
            (V::StageRef(s), m) if METHODS.contains(&m) => V::Method(
                s,
                METHODS[METHODS.iter().position(|x| *x == m).unwrap_or(0)],
            ),
            (_, n) => return Err(pos.error(format!("unsupported attribute `{n}`"))),
        })
    }

    fn index(&mut self, base: V, items: Vec<V>, pos: Pos) -> Result<V, LoopsError> {
        match base {
            V::Tensor(s) => {
                let stage = &self.sched.stages[s];
                if items.len() != stage.shape.len() {
                    return Err(pos.error(format!(
                        "`{}` has {} dimensions but is read with {} indices",
                        stage.name,
                        stage.shape.len(),
                        items.len()
                    )));
                }
                let index = items
                    .iter()
                    .map(|i| self.as_index(i).ok_or_else(|| pos.error("a tensor index must be an affine expression of iteration variables")))
                    .collect::<Result<_, _>>()?;
                Ok(V::Data(Val::Read { stage: s, index }))
            }
            V::Axes(s, reduce) => {
                let [V::Int(i)] = items.as_slice() else {
                    return Err(pos.error("an axis is selected by one integer"));
                };
                let list = if reduce {
                    &self.sched.stages[s].reduce_axis
                } else {
                    &self.sched.stages[s].axis
                };
                usize::try_from(*i)
                    .ok()
                    .and_then(|i| list.get(i))
                    .map(|iv| V::Iv(*iv))
                    .ok_or_else(|| {
                        pos.error(format!("`{}` has no axis {i}", self.sched.stages[s].name))
                    })
            }
            V::Sched => match items.as_slice() {
                [V::Tensor(s) | V::Op(s)] => Ok(V::StageRef(*s)),
                _ => Err(pos.error("a schedule is indexed by a tensor or an operation")),
            },
            _ => Err(pos.error("this value cannot be indexed")),
        }
    }

    /// The value as an integer expression of iteration variables, when it is one.
    fn as_index(&self, v: &V) -> Option<Expr> {
        match v {
            V::Int(c) => Some(Expr::constant(*c)),
            V::Iv(iv) => Some(Expr::dim(*iv as u32)),
            V::Index(e) => Some(e.clone()),
            _ => None,
        }
    }

    fn as_val(&self, v: V, pos: Pos) -> Result<Val, LoopsError> {
        if let Some(e) = self.as_index(&v) {
            return Ok(Val::Index(e));
        }
        match v {
            V::Data(d) => Ok(d),
            V::Reduce(..) => Err(pos.error("a reduction must be the whole body of a compute")),
            _ => Err(pos.error("this is not a value a compute can use")),
        }
    }

    fn binary(&mut self, op: &'static str, a: V, b: V, pos: Pos) -> Result<V, LoopsError> {
        if let (Some(x), Some(y)) = (self.as_index(&a), self.as_index(&b)) {
            let r = match (op, x.as_constant(), y.as_constant()) {
                ("+", ..) => x.checked_add(&y),
                ("-", ..) => x.checked_sub(&y),
                ("*", Some(k), _) => y.checked_scale(k),
                ("*", _, Some(k)) => x.checked_scale(k),
                ("//" | "/", _, Some(k)) => x.floor_div(k),
                ("%", _, Some(k)) => x.modulo(k),
                _ => {
                    return Err(
                        pos.error(format!("`{op}` of two iteration variables is not affine"))
                    );
                }
            };
            let r = r.map_err(|e| pos.error(e.to_string()))?;
            return Ok(match r.as_constant() {
                Some(c) if matches!((&a, &b), (V::Int(_), V::Int(_))) => V::Int(c),
                _ => V::Index(r),
            });
        }
        let (a, b) = (self.as_val(a, pos)?, self.as_val(b, pos)?);
        Ok(V::Data(Val::Binary(op, Box::new(a), Box::new(b))))
    }

    fn call(
        &mut self,
        f: V,
        args: &[Py],
        kwargs: &[(String, Py)],
        hint: Option<&str>,
        pos: Pos,
    ) -> Result<V, LoopsError> {
        let mut vals = Vec::new();
        for a in args {
            vals.push(self.eval(a, None)?);
        }
        let mut kw = BTreeMap::new();
        for (k, v) in kwargs {
            let v = self.eval(v, None)?;
            kw.insert(k.as_str(), v);
        }
        let name = match kw.get("name") {
            Some(V::Str(s)) => Some(s.clone()),
            _ => hint.map(str::to_string),
        };
        match f {
            V::Func("placeholder") => {
                let shape = self.shape(vals.first(), pos)?;
                let name = name.unwrap_or_else(|| "placeholder".into());
                self.new_stage(name, shape, pos).map(V::Tensor)
            }
            V::Func("compute") => self.compute(&vals, name, pos),
            V::Func("reduce_axis") => {
                let (lo, hi) = match vals.first() {
                    Some(V::Tuple(t)) => match t.as_slice() {
                        [V::Int(lo), V::Int(hi)] => (*lo, *hi),
                        _ => {
                            return Err(
                                pos.error("reduce_axis takes a range `(lo, hi)` of integers")
                            );
                        }
                    },
                    _ => return Err(pos.error("reduce_axis takes a range `(lo, hi)` of integers")),
                };
                if hi <= lo {
                    return Err(pos.error(format!("empty reduction range ({lo}, {hi})")));
                }
                self.sched.itervars.push(IterVar {
                    name: name.unwrap_or_else(|| "k".into()),
                    stage: usize::MAX,
                    dom: Some((lo, hi - lo)),
                    reduce: true,
                });
                Ok(V::Iv(self.sched.itervars.len() - 1))
            }
            V::Func(op @ ("sum" | "max" | "min")) if kw.contains_key("axis") => {
                let axes = match &kw["axis"] {
                    V::Iv(iv) => vec![*iv],
                    V::Tuple(items) => items
                        .iter()
                        .map(|i| match i {
                            V::Iv(iv) => Ok(*iv),
                            _ => Err(pos.error("`axis` lists reduction axes")),
                        })
                        .collect::<Result<_, _>>()?,
                    _ => return Err(pos.error("`axis` must be a reduction axis")),
                };
                let [value] = vals.as_slice() else {
                    return Err(pos.error(format!("`{op}` with `axis` takes one value")));
                };
                Ok(V::Reduce(op, self.as_val(value.clone(), pos)?, axes))
            }
            V::Func(op @ ("max" | "min")) => {
                let args = vals
                    .into_iter()
                    .map(|v| self.as_val(v, pos))
                    .collect::<Result<Vec<_>, _>>()?;
                if args.len() != 2 {
                    return Err(pos.error(format!("`{op}` takes two values")));
                }
                Ok(V::Data(Val::Call(op, args)))
            }
            V::Func("const") => match vals.first() {
                Some(V::Int(v)) => Ok(V::Data(Val::Const(v.to_string()))),
                Some(V::Data(Val::Const(s))) => Ok(V::Data(Val::Const(s.clone()))),
                _ => Err(pos.error("const takes a number")),
            },
            V::Func("create_schedule") => {
                let mut outs = Vec::new();
                let mut add = |v: &V| match v {
                    V::Tensor(s) | V::Op(s) => {
                        outs.push(*s);
                        Ok(())
                    }
                    _ => Err(pos.error("create_schedule takes output tensors or operations")),
                };
                match vals.first() {
                    Some(V::Tuple(items)) => items.iter().try_for_each(&mut add)?,
                    Some(v) => add(v)?,
                    None => return Err(pos.error("create_schedule takes the outputs")),
                }
                if self.have_schedule {
                    return Err(pos.error("a file holds one schedule"));
                }
                self.have_schedule = true;
                self.sched.outputs = outs;
                Ok(V::Sched)
            }
            V::Func("lower" | "print") => Ok(V::None),
            V::Method(s, "split") => self.split(s, &vals, &kw, pos),
            V::Method(s, "fuse") => self.fuse(s, &vals, pos),
            V::Method(s, "compute_at") => self.compute_at(s, &vals, pos),
            _ => Err(pos.error("this value cannot be called")),
        }
    }

    fn shape(&self, v: Option<&V>, pos: Pos) -> Result<Vec<i64>, LoopsError> {
        let items = match v {
            Some(V::Tuple(items)) => items.clone(),
            Some(V::Int(n)) => vec![V::Int(*n)],
            _ => return Err(pos.error("a shape is a tuple of integers")),
        };
        items
            .iter()
            .map(|i| match i {
                V::Int(n) if *n > 0 => Ok(*n),
                _ => Err(pos.error("every extent of a shape must be a positive integer")),
            })
            .collect()
    }

    fn new_stage(
        &mut self,
        name: String,
        shape: Vec<i64>,
        pos: Pos,
    ) -> Result<StageId, LoopsError> {
        if !self.stage_names.insert(name.clone()) {
            return Err(pos.error(format!("two stages are named `{name}`")));
        }
        self.sched.stages.push(Stage {
            name,
            pos,
            shape,
            axis: Vec::new(),
            reduce_axis: Vec::new(),
            body: None,
            relations: Vec::new(),
            leaves: Vec::new(),
            attach: None,
        });
        Ok(self.sched.stages.len() - 1)
    }

    fn compute(&mut self, vals: &[V], name: Option<String>, pos: Pos) -> Result<V, LoopsError> {
        let shape = self.shape(vals.first(), pos)?;
        let Some(V::Lambda(params, body)) = vals.get(1) else {
            return Err(pos.error("compute takes a shape and a lambda"));
        };
        if params.len() != shape.len() {
            return Err(pos.error(format!(
                "the lambda takes {} variables for a shape of {} dimensions",
                params.len(),
                shape.len()
            )));
        }
        let s = self.new_stage(name.unwrap_or_else(|| "compute".into()), shape.clone(), pos)?;
        self.check_itervars(s, params.len(), pos)?;
        // The lambda's parameters shadow names of the file while its body is evaluated.
        let mut shadowed = Vec::new();
        for ((p, _), extent) in params.iter().zip(&shape) {
            self.sched.itervars.push(IterVar {
                name: p.clone(),
                stage: s,
                dom: Some((0, *extent)),
                reduce: false,
            });
            let iv = self.sched.itervars.len() - 1;
            self.sched.stages[s].axis.push(iv);
            shadowed.push((p.clone(), self.env.insert(p.clone(), V::Iv(iv))));
        }
        let value = self.eval(body, None);
        for (p, old) in shadowed.into_iter().rev() {
            match old {
                Some(v) => self.env.insert(p, v),
                None => self.env.remove(&p),
            };
        }
        let body = match value? {
            V::Reduce(op, value, axes) => {
                self.check_itervars(s, axes.len(), pos)?;
                for &k in &axes {
                    if self.sched.itervars[k].stage != usize::MAX {
                        return Err(pos.error(format!(
                            "reduction axis `{}` already belongs to a compute",
                            self.sched.itervars[k].name
                        )));
                    }
                    self.sched.itervars[k].stage = s;
                }
                self.sched.stages[s].reduce_axis = axes;
                Body {
                    value,
                    reduce: Some(op),
                }
            }
            other => Body {
                value: self.as_val(other, pos)?,
                reduce: None,
            },
        };
        let mut stray = None;
        body.value.for_each_read(&mut |_, idx| {
            for e in idx {
                e.for_each_var(&mut |v| {
                    if let xla_indexing_core::VarRef::Dim(i) = v
                        && self.sched.itervars[i as usize].stage != s
                    {
                        stray = Some(i as usize);
                    }
                });
            }
        });
        if let Some(i) = stray {
            return Err(pos.error(format!(
                "`{}` is not a variable of this compute (a reduction axis missing from `axis=`?)",
                self.sched.itervars[i].name
            )));
        }
        let stage = &mut self.sched.stages[s];
        stage.body = Some(body);
        stage.leaves = stage.roots().collect();
        Ok(V::Tensor(s))
    }

    fn leaf_position(&self, s: StageId, v: &V, pos: Pos) -> Result<(IvId, usize), LoopsError> {
        let V::Iv(iv) = v else {
            return Err(pos.error("expected an iteration variable"));
        };
        let stage = &self.sched.stages[s];
        if stage.body.is_none() {
            return Err(pos.error(format!(
                "`{}` is a placeholder and has no loops to schedule",
                stage.name
            )));
        }
        let var = &self.sched.itervars[*iv];
        if var.stage != s {
            return Err(pos.error(format!(
                "`{}` is not an iteration variable of stage `{}`",
                var.name, stage.name
            )));
        }
        match stage.leaves.iter().position(|l| l == iv) {
            Some(i) => Ok((*iv, i)),
            None => Err(pos.error(format!(
                "`{}` of stage `{}` was already split or fused",
                var.name, stage.name
            ))),
        }
    }

    /// Fails when stage `s` would have more than [`MAX_STAGE_ITERVARS`] iteration variables
    /// with `more` new ones.
    fn check_itervars(&self, s: StageId, more: usize, pos: Pos) -> Result<(), LoopsError> {
        let stage = &self.sched.stages[s];
        let made: usize = stage
            .relations
            .iter()
            .map(|r| match r {
                Relation::Split { .. } => 2,
                Relation::Fuse { .. } => 1,
            })
            .sum();
        if stage.axis.len() + stage.reduce_axis.len() + made + more > MAX_STAGE_ITERVARS {
            return Err(pos.error(format!(
                "`{}` would have more than {MAX_STAGE_ITERVARS} iteration variables (roots, reduction axes and those split and fuse make)",
                stage.name
            )));
        }
        Ok(())
    }

    fn derived(&mut self, s: StageId, name: String, reduce: bool) -> IvId {
        self.sched.itervars.push(IterVar {
            name,
            stage: s,
            dom: None,
            reduce,
        });
        self.sched.itervars.len() - 1
    }

    fn split(
        &mut self,
        s: StageId,
        vals: &[V],
        kw: &BTreeMap<&str, V>,
        pos: Pos,
    ) -> Result<V, LoopsError> {
        let (parent, at) = self.leaf_position(s, vals.first().unwrap_or(&V::None), pos)?;
        let by = |k: &str| match kw.get(k) {
            Some(V::Int(n)) => Some(*n),
            _ => None,
        };
        let positional = match vals.get(1) {
            Some(V::Int(n)) => Some(*n),
            _ => None,
        };
        let factor = match (positional.or(by("factor")), by("nparts")) {
            (Some(f), None) if f > 0 => f,
            (None, Some(n)) if n > 0 => {
                let extent = self
                    .max_extent(parent)
                    .ok_or_else(|| pos.error("nparts needs a variable of known extent"))?;
                ceil_div(extent, n)
            }
            _ => return Err(pos.error("split takes one positive `factor` or `nparts`")),
        };
        self.check_itervars(s, 2, pos)?;
        let pname = self.sched.itervars[parent].name.clone();
        let reduce = self.sched.itervars[parent].reduce;
        let outer = self.derived(s, format!("{pname}.outer"), reduce);
        let inner = self.derived(s, format!("{pname}.inner"), reduce);
        let stage = &mut self.sched.stages[s];
        stage.relations.push(Relation::Split {
            parent,
            outer,
            inner,
            factor,
        });
        stage.leaves.splice(at..=at, [outer, inner]);
        Ok(V::Tuple(vec![V::Iv(outer), V::Iv(inner)]))
    }

    /// The extent of a variable from the declared domains (before bound inference).
    fn max_extent(&self, iv: IvId) -> Option<i64> {
        if let Some((_, e)) = self.sched.itervars[iv].dom {
            return Some(e);
        }
        let stage = &self.sched.stages[self.sched.itervars[iv].stage];
        stage.relations.iter().find_map(|r| match *r {
            Relation::Split {
                parent,
                outer,
                factor,
                ..
            } if outer == iv => self.max_extent(parent).map(|e| ceil_div(e, factor)),
            Relation::Split {
                parent,
                inner,
                factor,
                ..
            } if inner == iv => self.max_extent(parent).map(|e| e.min(factor)),
            Relation::Fuse {
                outer,
                inner,
                fused,
            } if fused == iv => self.max_extent(outer)?.checked_mul(self.max_extent(inner)?),
            _ => None,
        })
    }

    fn fuse(&mut self, s: StageId, vals: &[V], pos: Pos) -> Result<V, LoopsError> {
        let [a, b] = vals else {
            return Err(pos.error("fuse takes two iteration variables"));
        };
        let (outer, i) = self.leaf_position(s, a, pos)?;
        let (inner, j) = self.leaf_position(s, b, pos)?;
        if j != i + 1 {
            return Err(pos.error("fuse needs two adjacent loops, outer first"));
        }
        let (o, n) = (&self.sched.itervars[outer], &self.sched.itervars[inner]);
        if o.reduce != n.reduce {
            return Err(pos.error("a data-parallel axis cannot be fused with a reduction axis"));
        }
        let (name, reduce) = (format!("{}.{}.fused", o.name, n.name), o.reduce);
        self.check_itervars(s, 1, pos)?;
        let fused = self.derived(s, name, reduce);
        let stage = &mut self.sched.stages[s];
        stage.relations.push(Relation::Fuse {
            outer,
            inner,
            fused,
        });
        stage.leaves.splice(i..=j, [fused]);
        Ok(V::Iv(fused))
    }

    fn compute_at(&mut self, s: StageId, vals: &[V], pos: Pos) -> Result<V, LoopsError> {
        let [V::StageRef(target), var] = vals else {
            return Err(pos.error("compute_at takes a stage `s[X]` and one of its loops"));
        };
        if self.sched.stages[s].body.is_none() {
            return Err(pos.error("a placeholder cannot be computed at a loop"));
        }
        let (iv, _) = self.leaf_position(*target, var, pos)?;
        // The target's chain is walked up to the depth limit: a longer one, or a cycle beyond
        // it, fails in `check_attach_depth`.
        let mut at = Some(*target);
        for _ in 0..=MAX_ATTACH_DEPTH {
            let Some(x) = at else { break };
            if x == s {
                return Err(pos.error(format!(
                    "compute_at cycle: `{}` would be computed inside itself (through `{}`)",
                    self.sched.stages[s].name, self.sched.stages[*target].name
                )));
            }
            at = self.sched.stages[x].attach.map(|(y, _)| y);
        }
        self.sched.stages[s].attach = Some((*target, iv));
        Ok(V::None)
    }
}
