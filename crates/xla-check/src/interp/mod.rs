//! Checks that two versions of a kernel compute their indices alike, by running both on the
//! same inputs in an interpreter of the ops such kernels hold: `arith` and LLVM integer ops,
//! `cf`, `scf.for`/`scf.if`/`scf.forall`, calls, `xla.apply_indexing` (and ours; their maps read
//! by the project's own parser, [`IndexingMap::parse`]), `llvm.getelementptr`/`load`/`store` (XLA's last stage) and
//! `tensor.extract`/`insert`/`collapse_shape` (ours); for the tiled emitter's kernels, LLVM's vectors (masked
//! loads and stores, shuffles, arrays of vectors, memref descriptors) on XLA's side and tiles
//! (`xtile.extract`/`insert`, StableHLO's transpose, broadcast, iota, reshape and elementwise
//! ops) on ours, run for every tile id.
//!
//! Integers are computed exactly, at their type's width (`index` at the module's). A float is
//! not computed: it is the set of input elements it depends on, so that a stored value says
//! which elements feed it whatever float ops combine them. An integer read from an input is one
//! of a fixed set (zero, one, minus one, negative and too-large values), chosen by its buffer and
//! offset, the same on both sides; a kernel that reads integers runs once per rotation of that
//! set, so that every input integer takes every value and the clamps of gathers and dynamic
//! slices are exercised. The kernels run for every point of their domain (their loops run in
//! full), so comparing what each side writes compares the index computations over the whole
//! domain: for every output element, whether it is written, and the input elements (or the
//! integer) it gets.
//!
//! Its limits: a float is never computed, so what a float comparison chooses (argmax's index)
//! or a conversion of a float gives is data, whatever integer it is; input integers are a fixed
//! set, so a bound off by one at a value no input takes goes unnoticed.
//!
//! What the interpreter cannot run gives [`Check::Unchecked`] with the reason, never a
//! verdict: control flow that depends on a float, several workgroups, an op it does not know
//! that touches addresses or control.

use std::{
    cell::RefCell,
    collections::{BTreeMap, HashMap},
    fmt,
    rc::Rc,
};

use anyhow::{Context, Result, anyhow, bail};
use xla_indexing_core::IndexingMap;

use crate::{
    ir::{self, Block, Func, Module, Op, Region, values},
    shape,
};

/// The buffer number of the first argument without a slice of its own.
const OWN_BUFFERS: u32 = 1 << 16;

/// The most ops one run may execute.
const STEP_LIMIT: u64 = 50_000_000;

/// An input element: its buffer (argument number among the buffers) and its offset.
type Loc = (u32, i64);

/// A value in the interpreter.
#[derive(Clone, Debug, PartialEq)]
enum Value {
    /// An integer or `index`, sign-extended from its width.
    Int(i64),
    /// Float data (or anything computed from it): the input elements it depends on, sorted.
    Data(Rc<Vec<Loc>>),
    /// A pointer into buffer `buf` at element `off`.
    Ptr { buf: u32, off: i64 },
    /// A tensor of ours.
    Tensor(Tensor),
    /// A vector (XLA's tiled code) or a tile (ours, a small tensor the tiled emitter computes
    /// on): its shape and its elements, row-major.
    Vector {
        shape: Rc<[i64]>,
        elems: Rc<Vec<Value>>,
    },
    /// A memref argument (the tiled emitter's buffers): its buffer and its shape (row-major).
    Memref { buf: u32, shape: Rc<[i64]> },
}

impl Value {
    /// A vector of `shape` holding `elems`.
    fn vector(shape: &[i64], elems: Vec<Value>) -> Value {
        Value::Vector {
            shape: shape.into(),
            elems: Rc::new(elems),
        }
    }

    /// Lane `k` of a vector; a scalar is the same in every lane.
    fn lane(&self, k: usize) -> Result<Value> {
        match self {
            Value::Vector { elems, .. } => elems
                .get(k)
                .cloned()
                .with_context(|| format!("lane {k} of a vector of {}", elems.len())),
            other => Ok(other.clone()),
        }
    }
}

/// A vector's or tile's shape and elements.
type Tile = (Rc<[i64]>, Rc<Vec<Value>>);

/// Nothing: what an out-of-bounds or poison lane holds.
fn nothing() -> Value {
    Value::Data(Rc::new(Vec::new()))
}

/// A tensor value of ours: one version of the tensor that began as buffer `buf`. Inserting
/// into the latest version updates the one store in place and makes a new version; using an
/// older version after that stops the run (unchecked), so that kernels that insert into a
/// tensor of N elements N times run in linear time.
#[derive(Clone, Debug)]
struct Tensor {
    buf: u32,
    shape: Rc<[i64]>,
    element: Rc<str>,
    store: Rc<RefCell<Store>>,
    version: u64,
}

/// What has been inserted into a tensor, and its latest version.
#[derive(Debug, Default)]
struct Store {
    written: BTreeMap<i64, Value>,
    version: u64,
}

impl PartialEq for Tensor {
    fn eq(&self, other: &Tensor) -> bool {
        Rc::ptr_eq(&self.store, &other.store) && self.version == other.version
    }
}

impl Tensor {
    /// Fails unless this is the tensor's latest version.
    fn check_latest(&self) -> Result<()> {
        if self.store.borrow().version != self.version {
            bail!("a tensor is used after a later insert into it");
        }
        Ok(())
    }
}

/// What comparing two kernels found.
#[derive(Debug, PartialEq, Eq)]
pub enum Check {
    /// Both write the same elements with the same values.
    Same { elements: usize },
    /// They differ; how.
    Differs(String),
    /// The interpreter could not run one of them; why.
    Unchecked(String),
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Check::Same { elements } => write!(f, "same ({elements} elements)"),
            Check::Differs(why) => write!(f, "DIFFERS: {why}"),
            Check::Unchecked(why) => write!(f, "unchecked: {why}"),
        }
    }
}

/// An access out of a tensor's bounds: a wrong index in the kernel, not a limit of the
/// interpreter.
#[derive(Debug)]
struct OutOfBounds(String);

impl fmt::Display for OutOfBounds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for OutOfBounds {}

/// What a run wrote: per output element, its value.
type Writes = BTreeMap<Loc, Value>;

/// Runs XLA's last stage `xla` (buffers as `!llvm.ptr`) and ours `ours` (buffers as tensors)
/// and compares what they write. `emitted` is the kernel as the emitter wrote it: the
/// `xla.slice_index` of its entry's arguments say which buffers alias (an in-place kernel reads
/// and writes one slice through two arguments), for a side whose arguments do not say it.
pub fn compare(xla: &str, ours: &str, emitted: &str) -> Check {
    if several_workgroups(emitted) {
        return Check::Unchecked("the kernel runs on several workgroups".into());
    }
    let slices = ir::parse(emitted)
        .ok()
        .and_then(|m| entry(&m).ok().map(|f| f.slices.clone()))
        .unwrap_or_default();
    let parse = |text: &str, side: &str| ir::parse(text).with_context(|| format!("reading {side}"));
    let (xla, ours) = match (parse(xla, "XLA's"), parse(ours, "ours")) {
        (Ok(xla), Ok(ours)) => (xla, ours),
        (Err(e), _) | (_, Err(e)) => return Check::Unchecked(format!("{e:#}")),
    };
    let mut elements = 0;
    // Every input integer takes every value of INTEGERS in one of the rotations; a kernel
    // that reads none runs once.
    for rotation in 0..INTEGERS.len() {
        let (xla_run, ours_run) = (
            run_entry(&xla, &slices, rotation).context("XLA's"),
            run_entry(&ours, &slices, rotation).context("ours"),
        );
        let (xla_run, ours_run) = match (xla_run, ours_run) {
            (Ok(x), Ok(o)) => (x, o),
            (Err(e), _) => return Check::Unchecked(format!("{e:#}")),
            (_, Err(e)) if e.downcast_ref::<OutOfBounds>().is_some() => {
                return Check::Differs(format!("{e:#}"));
            }
            (_, Err(e)) => return Check::Unchecked(format!("{e:#}")),
        };
        if let Some(difference) = difference(&xla_run.writes, &ours_run.writes) {
            return Check::Differs(if rotation == 0 {
                difference
            } else {
                format!("{difference} (integer inputs rotated by {rotation})")
            });
        }
        elements = xla_run.writes.len();
        if !xla_run.read_integers && !ours_run.read_integers {
            break;
        }
    }
    Check::Same { elements }
}

/// The first difference between what XLA's side and ours write, if any.
fn difference(xla: &Writes, ours: &Writes) -> Option<String> {
    for (loc, value) in xla {
        match ours.get(loc) {
            None => return Some(format!("ours does not write {loc:?}")),
            Some(v) if v != value => {
                return Some(format!(
                    "at {loc:?}: XLA writes {}, ours {}",
                    show(value),
                    show(v)
                ));
            }
            Some(_) => {}
        }
    }
    ours.keys()
        .find(|loc| !xla.contains_key(loc))
        .map(|loc| format!("XLA does not write {loc:?}, ours does"))
}

/// Whether the emitted kernel has a workgroup id that can be other than 0: the interpreter runs
/// workgroup 0 only.
fn several_workgroups(emitted: &str) -> bool {
    emitted
        .lines()
        .filter(|line| line.contains("xla.workgroup_id"))
        .any(|line| {
            let upper = line
                .split("xla.range = [")
                .nth(1)
                .and_then(|r| r.split(',').nth(1))
                .and_then(|u| u.trim().split(' ').next())
                .and_then(|u| u.parse::<i64>().ok());
            upper != Some(0)
        })
}

/// A short description of a written value.
fn show(value: &Value) -> String {
    match value {
        Value::Int(v) => v.to_string(),
        Value::Data(deps) if deps.len() <= 4 => format!("data of {deps:?}"),
        Value::Data(deps) => format!("data of {} elements from {:?}", deps.len(), deps[0]),
        other => format!("{other:?}"),
    }
}

/// The integers inputs hold, in turn: zero, one and minus one, values past the ends of small
/// dimensions both ways, and values inside them, so that few elements already exercise the clamps
/// and wraps of gathers and dynamic slices.
const INTEGERS: [i64; 11] = [0, -1, 1, 17, -5, 2, 9, 100, 4, -30, 6];

/// The value an input element holds: a float is itself; an integer of `width` bits is one of
/// [`INTEGERS`], chosen by where it is and by the run's `rotation`.
fn initial(loc: Loc, element: &str, index_width: u32, rotation: usize) -> Value {
    match int_width(element, index_width) {
        Some(width) => {
            let at =
                (loc.1 + 3 * i64::from(loc.0) + rotation as i64).rem_euclid(INTEGERS.len() as i64);
            Value::Int(stored(INTEGERS[at as usize], width))
        }
        None => Value::Data(Rc::new(vec![loc])),
    }
}

/// The bit width of an integer type (`index` is `index_width`); `None` for others.
fn int_width(ty: &str, index_width: u32) -> Option<u32> {
    let ty = ty.trim();
    if ty == "index" {
        return Some(index_width);
    }
    ty.strip_prefix('i')?.parse().ok()
}

/// `v` sign-extended from `width` bits.
fn wrap(v: i64, width: u32) -> i64 {
    if width >= 64 {
        v
    } else {
        let shift = 64 - width;
        (v << shift) >> shift
    }
}

/// `v` as an unsigned `width`-bit number.
fn unsigned(v: i64, width: u32) -> u64 {
    if width >= 64 {
        v as u64
    } else {
        (v as u64) & ((1u64 << width) - 1)
    }
}

/// An integer as memory holds it: zero-extended from `width` bits (so `i1` true is 1 in a
/// tensor of `i1` and in a buffer of `i8` alike).
fn stored(v: i64, width: u32) -> i64 {
    unsigned(v, width) as i64
}

/// The union of the inputs the data among `values` depends on; integers add nothing.
fn union<'a>(values: impl IntoIterator<Item = &'a Value>) -> Result<Value> {
    let mut deps: Vec<Loc> = Vec::new();
    for value in values {
        match value {
            Value::Int(_) => {}
            Value::Data(d) => deps.extend(d.iter().copied()),
            other => bail!("data computed from {other:?}"),
        }
    }
    deps.sort_unstable();
    deps.dedup();
    Ok(Value::Data(Rc::new(deps)))
}

/// What one run wrote, and whether it read an integer input.
struct Run {
    writes: Writes,
    read_integers: bool,
}

/// Runs the module's entry function once (workgroup ids 0; the tiled emitter's tile id over
/// its whole range), its buffers fresh with integer inputs rotated by `rotation`, and returns
/// what it writes. A buffer argument is the buffer of
/// its `xla.slice_index`, or of the one `slices` gives at its position; without either (or
/// with a negative one), its own.
fn run_entry(module: &Module, slices: &[Option<i64>], rotation: usize) -> Result<Run> {
    let func = entry(module)?;
    let mut interp = Interp {
        module,
        memory: HashMap::new(),
        elements: HashMap::new(),
        maps: HashMap::new(),
        steps: 0,
        rotation,
        read_integers: false,
    };
    let is_buffer =
        |ty: &str| ty == "!llvm.ptr" || ty.starts_with("tensor<") || ty.starts_with("memref<");
    let buffer_args = func.args.iter().filter(|(_, ty)| is_buffer(ty)).count();
    let slices = buffer_slices(slices, buffer_args);
    let mut args = Vec::new();
    let mut b = 0;
    // The argument whose range is run in full (the tiled emitter's tile id), if any.
    let mut ranged: Option<(usize, i64, i64)> = None;
    for (k, (name, ty)) in func.args.iter().enumerate() {
        let slice = func.slices[k].or_else(|| slices.get(b).copied().flatten());
        b += usize::from(is_buffer(ty));
        // Slices first, then the arguments without one, by position.
        let buf = match slice {
            Some(s) if s >= 0 => u32::try_from(s)?,
            _ => OWN_BUFFERS + u32::try_from(k)?,
        };
        let value = if ty == "!llvm.ptr" {
            Value::Ptr { buf, off: 0 }
        } else if let Some(rest) = ty.strip_prefix("tensor<") {
            let (shape, element) = tensor_type(rest)?;
            Value::Tensor(Tensor {
                buf,
                shape: shape.into(),
                element: element.into(),
                store: Rc::default(),
                version: 0,
            })
        } else if ty.starts_with("memref<") {
            let (shape, _) =
                shape::shaped(ty).with_context(|| format!("argument {name} of type {ty}"))?;
            Value::Memref {
                buf,
                shape: shape.into(),
            }
        } else if int_width(ty, module.index_width).is_some() {
            if let Some((lo, hi)) = func.ranges[k].filter(|(lo, hi)| hi > lo)
                && ranged.replace((k, lo, hi)).is_some()
            {
                bail!("several arguments with ranges");
            }
            Value::Int(func.ranges[k].map_or(0, |(lo, _)| lo))
        } else {
            bail!("argument {name} of type {ty}");
        };
        args.push(value);
    }
    let results = match ranged {
        None => interp.call(func, args)?,
        Some((k, lo, hi)) => {
            let mut all = Vec::new();
            for id in lo..=hi {
                args[k] = Value::Int(id);
                all.extend(interp.call(func, args.clone())?);
            }
            all
        }
    };
    let mut writes: Writes = interp
        .memory
        .into_iter()
        .map(|(loc, value)| {
            let element = interp.elements.get(&loc.0).cloned().unwrap_or_default();
            (loc, normalize(value, &element, module.index_width))
        })
        .collect();
    for result in results {
        if let Value::Tensor(t) = result {
            t.check_latest()?;
            for (off, value) in &t.store.borrow().written {
                writes.insert(
                    (t.buf, *off),
                    normalize(value.clone(), &t.element, module.index_width),
                );
            }
        }
    }
    Ok(Run {
        writes,
        read_integers: interp.read_integers,
    })
}

/// The slices of a function's `count` buffer arguments, from the emitted kernel's `slices`:
/// the same when there are as many; else XLA has merged the arguments of one slice
/// (`xla-merge-pointers`), keeping the first of each.
fn buffer_slices(slices: &[Option<i64>], count: usize) -> Vec<Option<i64>> {
    if slices.len() == count {
        return slices.to_vec();
    }
    let mut kept: Vec<Option<i64>> = Vec::new();
    for slice in slices {
        let seen = matches!(slice, Some(s) if *s >= 0) && kept.contains(slice);
        if !seen {
            kept.push(*slice);
        }
    }
    kept
}

/// A written value as memory of `element` holds it.
fn normalize(value: Value, element: &str, index_width: u32) -> Value {
    match (value, int_width(element, index_width)) {
        (Value::Int(v), Some(width)) => Value::Int(stored(v, width)),
        (value, _) => value,
    }
}

/// The kernel's entry: the function marked `xla.entry`.
fn entry(module: &Module) -> Result<&Func> {
    let mut entries = module.funcs.iter().filter(|f| f.entry);
    let func = entries.next().context("no function is marked xla.entry")?;
    if entries.next().is_some() {
        bail!("several functions are marked xla.entry");
    }
    Ok(func)
}

/// `AxBxf32>...` (after `tensor<`) as the shape and the element type.
fn tensor_type(rest: &str) -> Result<(Vec<i64>, String)> {
    let body = rest.split(['>', ',']).next().unwrap_or(rest);
    if rest[body.len()..].starts_with(',') {
        bail!("a tensor with an encoding (a layout): tensor<{rest}");
    }
    let (dims, element) = ir::shaped(body);
    let shape = dims
        .iter()
        .map(|d| d.parse().map_err(|_| anyhow!("dynamic tensor<{rest}")))
        .collect::<Result<Vec<i64>>>()?;
    Ok((shape, element.trim().to_owned()))
}

/// Where a region's execution went.
enum Exit {
    /// `return`, `scf.yield`: with these values.
    Yield(Vec<Value>),
    /// `scf.forall.in_parallel`: the new value of each shared output, by name.
    Parallel(Vec<(String, Value)>),
}

impl Exit {
    /// The values of a `Yield`.
    fn values(self) -> Result<Vec<Value>> {
        match self {
            Exit::Yield(values) => Ok(values),
            Exit::Parallel(_) => bail!("scf.forall.in_parallel outside an scf.forall"),
        }
    }
}

/// The interpreter's state.
struct Interp<'m> {
    module: &'m Module,
    /// XLA's buffers: what has been stored.
    memory: HashMap<Loc, Value>,
    /// The element type of each of XLA's buffers, from its stores.
    elements: HashMap<u32, String>,
    /// The maps of `apply_indexing` ops, by their line.
    maps: HashMap<usize, Rc<IndexingMap>>,
    steps: u64,
    /// The rotation of integer inputs, and whether one has been read.
    rotation: usize,
    read_integers: bool,
}

type Env = HashMap<String, Value>;

impl Interp<'_> {
    /// Calls `func` with `args`; its results.
    fn call(&mut self, func: &Func, args: Vec<Value>) -> Result<Vec<Value>> {
        if args.len() != func.args.len() {
            bail!("@{} called with {} arguments", func.name, args.len());
        }
        let mut env: Env = func
            .args
            .iter()
            .map(|(name, _)| name.clone())
            .zip(args)
            .collect();
        self.region(&func.body, &mut env)
            .with_context(|| format!("in @{}", func.name))?
            .values()
    }

    /// Runs `region` from its entry block (whose arguments the caller has bound).
    fn region(&mut self, region: &Region, env: &mut Env) -> Result<Exit> {
        let mut block = &region.blocks[0];
        loop {
            match self.block(block, env)? {
                Flow::Exit(exit) => return Ok(exit),
                Flow::Jump(label, args) => {
                    block = region
                        .blocks
                        .iter()
                        .find(|b| b.label.as_deref() == Some(label.as_str()))
                        .with_context(|| format!("no block {label}"))?;
                    for ((name, _), value) in block.args.iter().zip(args) {
                        env.insert(name.clone(), value);
                    }
                }
            }
        }
    }

    /// Runs the ops of `block` up to its terminator.
    fn block(&mut self, block: &Block, env: &mut Env) -> Result<Flow> {
        for op in &block.ops {
            self.steps += 1;
            if self.steps > STEP_LIMIT {
                bail!("more than {STEP_LIMIT} ops run");
            }
            if let Some(flow) = self
                .op(op, env)
                .with_context(|| format!("line {}: `{}`", op.line, op.text))?
            {
                return Ok(flow);
            }
        }
        // An `scf.for` or `scf.if` without results prints no `scf.yield`.
        Ok(Flow::Exit(Exit::Yield(Vec::new())))
    }

    /// The value of operand `name`.
    fn get(&self, env: &Env, name: &str) -> Result<Value> {
        env.get(name)
            .cloned()
            .with_context(|| format!("{name} is not defined"))
    }

    /// The integer value of `name`.
    fn int(&self, env: &Env, name: &str) -> Result<i64> {
        match self.get(env, name)? {
            Value::Int(v) => Ok(v),
            Value::Data(_) => bail!("{name}, which depends on float data, is used as an integer"),
            other => bail!("{name} is {other:?}, not an integer"),
        }
    }

    /// Runs one op; a terminator gives where to go.
    fn op(&mut self, op: &Op, env: &mut Env) -> Result<Option<Flow>> {
        let text = op.text.as_str();
        let operands = values(text);
        let set = |env: &mut Env, values: Vec<Value>| {
            for (name, value) in op.results.iter().zip(values) {
                env.insert(name.clone(), value);
            }
        };
        match op.name.as_str() {
            "return" | "func.return" | "scf.yield" | "xtile.return" => {
                let values = operands
                    .iter()
                    .map(|n| self.get(env, n))
                    .collect::<Result<_>>()?;
                return Ok(Some(Flow::Exit(Exit::Yield(values))));
            }
            "cf.br" => {
                let (label, args) = self.target(env, text.trim_start_matches("cf.br").trim())?;
                return Ok(Some(Flow::Jump(label, args)));
            }
            "cf.cond_br" => {
                let rest = text.trim_start_matches("cf.cond_br").trim();
                let (cond, targets) = rest.split_once(',').context("cf.cond_br")?;
                let cond = self.int(env, cond.trim())?;
                let targets = ir::split_top(targets);
                let target = targets
                    .get(if cond != 0 { 0 } else { 1 })
                    .context("cf.cond_br targets")?;
                let (label, args) = self.target(env, target)?;
                return Ok(Some(Flow::Jump(label, args)));
            }
            "call" | "func.call" => {
                let callee = text
                    .split('@')
                    .nth(1)
                    .and_then(|r| r.split('(').next())
                    .context("a call without a callee")?;
                let args: Vec<Value> = operands
                    .iter()
                    .map(|n| self.get(env, n))
                    .collect::<Result<_>>()?;
                let results = match self.module.func(callee) {
                    Some(func) => self.call(func, args)?,
                    // A library function (`@xla.rsqrt.f32`, `@xla.tanh.v8f32`): data of its
                    // arguments, lane by lane.
                    None => vec![lanewise_union(&args)?; op.results.len()],
                };
                set(env, results);
            }
            "xla.apply_indexing" | "xla_indexing.apply_indexing" => {
                let map = self.map(op)?;
                let args = operands
                    .iter()
                    .map(|n| self.int(env, n))
                    .collect::<Result<Vec<_>>>()?;
                let results = apply(&map, &args)?;
                let width = self.module.index_width;
                set(
                    env,
                    results
                        .into_iter()
                        .map(|v| Value::Int(wrap(v, width)))
                        .collect(),
                );
            }
            "scf.forall" => {
                let results = self.scf_forall(op, env)?;
                set(env, results);
            }
            "scf.forall.in_parallel" => {
                let region = op.regions.first().context("in_parallel without a body")?;
                let mut updates = Vec::new();
                for insert in region.blocks.iter().flat_map(|b| &b.ops) {
                    updates.push(self.parallel_insert(insert, env)?);
                }
                return Ok(Some(Flow::Exit(Exit::Parallel(updates))));
            }
            "scf.for" => {
                let results = self.scf_for(op, env)?;
                set(env, results);
            }
            "scf.if" => {
                let cond = self.int(env, operands.first().context("scf.if")?)?;
                let region = op.regions.get(usize::from(cond == 0));
                let results = match region {
                    Some(region) => self.region(region, env)?.values()?,
                    None => Vec::new(),
                };
                set(env, results);
            }
            "builtin.unrealized_conversion_cast" => {
                let v = self.get(env, operands.first().context("cast")?)?;
                set(env, vec![v]);
            }
            "arith.constant" | "llvm.mlir.constant" => set(env, vec![constant(op, self.module)?]),
            "llvm.mlir.zero" | "llvm.mlir.poison" | "llvm.mlir.undef" | "ub.poison" => {
                // A vector, or an LLVM array of vectors, of nothing.
                let ty = text.rsplit(" : ").next().unwrap_or("");
                let shape = shape::shaped(ty)
                    .map(|(shape, _)| shape)
                    .or_else(|| shape::aggregate(ty));
                let v = match shape {
                    Some(shape) => Value::vector(&shape, vec![nothing(); shape::count(&shape)]),
                    None => nothing(),
                };
                set(env, vec![v]);
            }
            "llvm.extractvalue" => {
                let v = self.extract_value(op, env)?;
                set(env, vec![v]);
            }
            "llvm.insertvalue" => {
                let [value, aggregate] = operands[..] else {
                    bail!("an insertvalue of {} operands", operands.len());
                };
                let value = self.get(env, value)?;
                let Value::Vector { shape, elems } = self.get(env, aggregate)? else {
                    bail!("an insertvalue into no array of vectors");
                };
                let (base, sub) = sub_block(&shape, &position(text)?)?;
                let mut elems = elems.to_vec();
                for k in 0..shape::count(&sub) {
                    elems[base + k] = value.lane(k)?;
                }
                set(env, vec![Value::vector(&shape, elems)]);
            }
            "llvm.intr.masked.load" => {
                let [pointer, mask, pass] = operands[..] else {
                    bail!("a masked load of {} operands", operands.len());
                };
                let (buf, off) = self.pointer(env, pointer)?;
                let (mask, pass) = (self.get(env, mask)?, self.get(env, pass)?);
                let ty = text.rsplit("-> ").next().unwrap_or("");
                let (shape, element) = shape::shaped(ty).context("a masked load of no vector")?;
                let mut lanes = Vec::new();
                for (k, on) in mask_lanes(&mask, shape::count(&shape))?
                    .into_iter()
                    .enumerate()
                {
                    lanes.push(if on {
                        self.load((buf, off + k as i64), element)
                    } else {
                        pass.lane(k)?
                    });
                }
                set(env, vec![Value::vector(&shape, lanes)]);
            }
            "llvm.intr.masked.store" => {
                let [value, pointer, mask] = operands[..] else {
                    bail!("a masked store of {} operands", operands.len());
                };
                let (buf, off) = self.pointer(env, pointer)?;
                let (value, mask) = (self.get(env, value)?, self.get(env, mask)?);
                let ty = text.rsplit(" : ").next().unwrap_or("");
                let ty = ty.split(',').next().unwrap_or("");
                let (shape, element) = shape::shaped(ty).context("a masked store of no vector")?;
                for (k, on) in mask_lanes(&mask, shape::count(&shape))?
                    .into_iter()
                    .enumerate()
                {
                    if on {
                        self.store((buf, off + k as i64), element, value.lane(k)?);
                    }
                }
            }
            "llvm.shufflevector" => {
                let [a, b] = operands[..] else {
                    bail!("a shuffle of {} operands", operands.len());
                };
                let all: Vec<Value> = match (self.get(env, a)?, self.get(env, b)?) {
                    (Value::Vector { elems: x, .. }, Value::Vector { elems: y, .. }) => {
                        x.iter().chain(y.iter()).cloned().collect()
                    }
                    _ => bail!("a shuffle of no vectors"),
                };
                let open = text.find('[').context("a shuffle without a mask")?;
                let close = ir::matching(text, open).context("shuffle mask")?;
                let lanes = ir::split_top(&text[open + 1..close])
                    .into_iter()
                    .map(|m| match m.parse::<i64>() {
                        Ok(-1) => Ok(nothing()),
                        Ok(k) => all.get(k as usize).cloned().context("a shuffle lane"),
                        Err(_) => bail!("shuffle mask {m}"),
                    })
                    .collect::<Result<Vec<_>>>()?;
                set(env, vec![Value::vector(&[lanes.len() as i64], lanes)]);
            }
            "llvm.insertelement" => {
                let [value, vector, index] = operands[..] else {
                    bail!("an insertelement of {} operands", operands.len());
                };
                let (value, k) = (self.get(env, value)?, self.int(env, index)?);
                let Value::Vector { shape, elems } = self.get(env, vector)? else {
                    bail!("an insertelement into no vector");
                };
                let mut elems = elems.to_vec();
                *elems
                    .get_mut(k as usize)
                    .context("an insertelement out of the vector")? = value;
                set(env, vec![Value::vector(&shape, elems)]);
            }
            "llvm.extractelement" => {
                let [vector, index] = operands[..] else {
                    bail!("an extractelement of {} operands", operands.len());
                };
                let k = self.int(env, index)?;
                let v = self.get(env, vector)?.lane(usize::try_from(k)?)?;
                set(env, vec![v]);
            }
            "xtile.extract" => {
                let v = self.tile_extract(op, env)?;
                set(env, vec![v]);
            }
            "xtile.insert" => self.tile_insert(op, env)?,
            "tensor.from_elements" => {
                let ty = text.rsplit(" : ").next().unwrap_or("");
                let (shape, _) = shape::shaped(ty).context("from_elements of no tensor")?;
                let elems = operands
                    .iter()
                    .map(|n| self.get(env, n))
                    .collect::<Result<Vec<_>>>()?;
                set(env, vec![Value::vector(&shape, elems)]);
            }
            name if name.starts_with("stablehlo.") => {
                let v = self
                    .stablehlo(op, &operands, env)
                    .with_context(|| name.to_owned())?;
                set(env, vec![v]);
            }
            "llvm.getelementptr" => {
                let v = self.gep(op, env)?;
                set(env, vec![v]);
            }
            "llvm.load" => {
                let (buf, off) = self.pointer(env, operands.first().context("load")?)?;
                let ty = text.rsplit("-> ").next().unwrap_or("").trim();
                let v = match shape::shaped(ty) {
                    Some((shape, element)) => {
                        let lanes = (0..shape::count(&shape))
                            .map(|k| self.load((buf, off + k as i64), element))
                            .collect();
                        Value::vector(&shape, lanes)
                    }
                    None => self.load((buf, off), ty),
                };
                set(env, vec![v]);
            }
            "llvm.store" => {
                let (value, pointer) = (
                    operands.first().context("store")?,
                    operands.get(1).context("store")?,
                );
                let (buf, off) = self.pointer(env, pointer)?;
                let ty = text.rsplit(" : ").next().unwrap_or("");
                let ty = ty.split(',').next().unwrap_or("").trim();
                let v = self.get(env, value)?;
                match shape::shaped(ty) {
                    Some((shape, element)) => {
                        for k in 0..shape::count(&shape) {
                            self.store((buf, off + k as i64), element, v.lane(k)?);
                        }
                    }
                    None => self.store((buf, off), ty, v),
                }
            }
            "tensor.extract" => {
                let tensor = self.tensor(env, operands.first().context("extract")?)?;
                let off = self.offset(env, &tensor, &operands[1..])?;
                tensor.check_latest()?;
                let v = match tensor.store.borrow().written.get(&off) {
                    Some(v) => v.clone(),
                    None => self.initial((tensor.buf, off), &tensor.element),
                };
                let v = match (v, int_width(&tensor.element, self.module.index_width)) {
                    (Value::Int(v), Some(width)) => Value::Int(wrap(v, width)),
                    (v, _) => v,
                };
                set(env, vec![v]);
            }
            "tensor.collapse_shape" => {
                // A view of the same row-major elements (the tensor's store is keyed by
                // row-major offsets), with the shape of the result type.
                let mut tensor = self.tensor(env, operands.first().context("collapse_shape")?)?;
                let ty = text.rsplit(" into ").next().unwrap_or("");
                let (shape, _) = shape::shaped(ty.split(" loc(").next().unwrap_or(ty))
                    .with_context(|| format!("the result type of {text}"))?;
                if shape::count(&shape) != shape::count(&tensor.shape) {
                    bail!("{text} changes the number of elements");
                }
                tensor.shape = shape.into();
                set(env, vec![Value::Tensor(tensor)]);
            }
            "tensor.insert" => {
                let value = self.get(env, operands.first().context("insert")?)?;
                let mut tensor = self.tensor(env, operands.get(1).context("insert")?)?;
                let off = self.offset(env, &tensor, &operands[2..])?;
                tensor.check_latest()?;
                let value = normalize(value, &tensor.element, self.module.index_width);
                let mut store = tensor.store.borrow_mut();
                store.written.insert(off, value);
                store.version += 1;
                let version = store.version;
                drop(store);
                tensor.version = version;
                set(env, vec![Value::Tensor(tensor)]);
            }
            name => {
                // Only ops that compute one value from their operands, in dialects whose
                // other ops are all handled above; anything else could touch memory or
                // control, and stops the run.
                let computes = ["arith.", "math.", "llvm."]
                    .iter()
                    .any(|d| name.starts_with(d))
                    && op.results.len() == 1
                    && op.regions.is_empty()
                    && name != "llvm.call";
                if !computes {
                    bail!("the op {name} is not interpreted");
                }
                let v = self
                    .compute(op, &operands, env)
                    .with_context(|| name.to_owned())?;
                set(env, vec![v]);
            }
        }
        Ok(None)
    }

    /// What the buffer element `loc` of type `element` holds: what was stored, else the
    /// input.
    fn load(&mut self, loc: Loc, element: &str) -> Value {
        match self.memory.get(&loc) {
            Some(Value::Int(v)) => Value::Int(wrap(
                *v,
                int_width(element, self.module.index_width).unwrap_or(64),
            )),
            Some(v) => v.clone(),
            None => self.initial(loc, element),
        }
    }

    /// Stores `value` into the buffer element `loc` of type `element`.
    fn store(&mut self, loc: Loc, element: &str, value: Value) {
        self.elements.insert(loc.0, element.to_owned());
        self.memory.insert(loc, value);
    }

    /// `llvm.extractvalue %x[i, j]`: of a memref's descriptor, its pointers, offset (0), sizes
    /// and strides (row-major); of an array of vectors, the vector (or array) at `[i, j]`.
    fn extract_value(&self, op: &Op, env: &Env) -> Result<Value> {
        let text = &op.text;
        let aggregate = values(text).first().copied().context("extractvalue")?;
        let position = position(text)?;
        match self.get(env, aggregate)? {
            Value::Memref { buf, shape } => {
                let stride = |k: usize| shape[k + 1..].iter().product::<i64>();
                Ok(match position[..] {
                    [0] | [1] => Value::Ptr { buf, off: 0 },
                    [2] => Value::Int(0),
                    [3, k] if k < shape.len() => Value::Int(shape[k]),
                    [4, k] if k < shape.len() => Value::Int(stride(k)),
                    _ => bail!("a memref descriptor's field {position:?}"),
                })
            }
            Value::Vector { shape, elems } => {
                let (base, sub) = sub_block(&shape, &position)?;
                let part = elems[base..base + shape::count(&sub)].to_vec();
                Ok(if sub.is_empty() {
                    part.into_iter().next().unwrap_or_else(nothing)
                } else {
                    Value::vector(&sub, part)
                })
            }
            other => bail!("an extractvalue of {other:?}"),
        }
    }

    /// The offsets, sizes and strides of `xtile.extract`/`insert` (`%m[%a, 0] [2, 4] [1, 1]`,
    /// from the memref operand on), and the memref.
    fn tile_window(&self, text: &str, memref: &str, env: &Env) -> Result<(Value, [Vec<i64>; 3])> {
        let at = text
            .find(&format!("{memref}["))
            .context("a tile without offsets")?
            + memref.len();
        let lists: Vec<&str> = text[at..]
            .split(" : ")
            .next()
            .unwrap_or("")
            .split(['[', ']'])
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        let [offsets, sizes, strides] = lists[..] else {
            bail!("a tile without offsets, sizes and strides");
        };
        let numbers = |list: &str| -> Result<Vec<i64>> {
            ir::split_top(list)
                .into_iter()
                .map(|item| {
                    if item.starts_with('%') {
                        self.int(env, item)
                    } else {
                        item.parse().map_err(|_| anyhow!("tile bound {item}"))
                    }
                })
                .collect()
        };
        Ok((
            self.get(env, memref)?,
            [numbers(offsets)?, numbers(sizes)?, numbers(strides)?],
        ))
    }

    /// The memref element a tile's element `index` is at, if in bounds.
    fn tile_element(shape: &[i64], window: &[Vec<i64>; 3], index: &[i64]) -> Option<i64> {
        let [offsets, _, strides] = window;
        let at: Vec<i64> = (0..shape.len())
            .map(|k| offsets[k] + index[k] * strides[k])
            .collect();
        let inside = at.iter().zip(shape).all(|(i, n)| (0..*n).contains(i));
        inside.then(|| shape::flat(&at, shape))
    }

    /// `xtile.extract %m[offsets] [sizes] [strides] : memref<..> -> tensor<..>`: the tile;
    /// elements out of the memref are nothing (XLA masks them).
    fn tile_extract(&mut self, op: &Op, env: &Env) -> Result<Value> {
        let memref = values(&op.text)
            .first()
            .copied()
            .context("extract of nothing")?;
        let (memref, window) = self.tile_window(&op.text, memref, env)?;
        let Value::Memref { buf, shape } = memref else {
            bail!("a tile extracted from no memref");
        };
        let ty = op.text.rsplit(" : ").next().unwrap_or("");
        let element = ty
            .split(" -> ")
            .next()
            .and_then(shape::shaped)
            .map(|(_, e)| e.to_owned())
            .context("extract from no memref type")?;
        if window.iter().any(|l| l.len() != shape.len()) {
            bail!("a tile of another rank than its memref");
        }
        let sizes = window[1].clone();
        let mut lanes = Vec::new();
        for at in 0..shape::count(&sizes) as i64 {
            let index = shape::unflat(at, &sizes);
            lanes.push(match Self::tile_element(&shape, &window, &index) {
                Some(off) => self.load((buf, off), &element),
                None => nothing(),
            });
        }
        Ok(Value::vector(&sizes, lanes))
    }

    /// `xtile.insert %t into %m[offsets] [sizes] [strides] : tensor<..> -> memref<..>`: the
    /// tile's elements inside the memref are stored.
    fn tile_insert(&mut self, op: &Op, env: &Env) -> Result<()> {
        let names = values(&op.text);
        let [tile, memref, ..] = names[..] else {
            bail!("an insert of nothing");
        };
        let tile = self.get(env, tile)?;
        let (memref, window) = self.tile_window(&op.text, memref, env)?;
        let Value::Memref { buf, shape } = memref else {
            bail!("a tile inserted into no memref");
        };
        let element = op
            .text
            .rsplit(" -> ")
            .next()
            .and_then(shape::shaped)
            .map(|(_, e)| e.to_owned())
            .context("insert into no memref type")?;
        let sizes = window[1].clone();
        for at in 0..shape::count(&sizes) {
            let index = shape::unflat(at as i64, &sizes);
            if let Some(off) = Self::tile_element(&shape, &window, &index) {
                self.store((buf, off), &element, tile.lane(at)?);
            }
        }
        Ok(())
    }

    /// A StableHLO op on tiles (generic form, as the tiled emitter's kernels hold them).
    fn stablehlo(&self, op: &Op, operands: &[&str], env: &Env) -> Result<Value> {
        let text = &op.text;
        let result = text.rsplit("-> ").next().unwrap_or("");
        let (out, element) = shape::shaped(result).context("a result of no tensor type")?;
        let vector = |k: usize| -> Result<Tile> {
            match self.get(env, operands.get(k).context("an operand")?)? {
                Value::Vector { shape, elems } => Ok((shape, elems)),
                _ => bail!("an operand that is no tile"),
            }
        };
        let name = op.name.trim_start_matches("stablehlo.");
        Ok(match name {
            "transpose" => {
                let permutation = shape::array_attr(text, "permutation").context("permutation")?;
                let permutation: Vec<usize> = permutation.iter().map(|&p| p as usize).collect();
                let (shape, elems) = vector(0)?;
                let (shape, elems) = shape::transpose(&shape, &elems, &permutation);
                Value::vector(&shape, elems)
            }
            "broadcast_in_dim" => {
                let dims = shape::array_attr(text, "broadcast_dimensions").context("dimensions")?;
                let dims: Vec<usize> = dims.iter().map(|&d| d as usize).collect();
                let (shape, elems) = vector(0)?;
                Value::vector(&out, shape::broadcast(&shape, &elems, &dims, &out))
            }
            "reshape" => {
                let (_, elems) = vector(0)?;
                Value::vector(&out, elems.to_vec())
            }
            "iota" => {
                let dim = text
                    .split("iota_dimension = ")
                    .nth(1)
                    .and_then(|r| r.split(' ').next())
                    .and_then(|d| d.parse::<usize>().ok())
                    .context("iota_dimension")?;
                let width = int_width(element, self.module.index_width).context("a float iota")?;
                let lanes = shape::iota(&out, dim)
                    .into_iter()
                    .map(|v| Value::Int(wrap(v, width)))
                    .collect();
                Value::vector(&out, lanes)
            }
            _ => {
                // Elementwise: on integers as `arith` computes them, on floats as data.
                let args = operands
                    .iter()
                    .map(|n| self.get(env, n))
                    .collect::<Result<Vec<_>>>()?;
                let arith = match name {
                    "add" => "arith.addi",
                    "subtract" => "arith.subi",
                    "multiply" => "arith.muli",
                    "maximum" => "arith.maxsi",
                    "minimum" => "arith.minsi",
                    "and" => "arith.andi",
                    "or" => "arith.ori",
                    "xor" => "arith.xori",
                    _ => "",
                };
                let width = int_width(element, self.module.index_width);
                let mut lanes = Vec::new();
                for k in 0..shape::count(&out) {
                    let lane = args.iter().map(|a| a.lane(k)).collect::<Result<Vec<_>>>()?;
                    let ints: Option<Vec<i64>> = lane
                        .iter()
                        .map(|v| match v {
                            Value::Int(i) => Some(*i),
                            _ => None,
                        })
                        .collect();
                    // Lanes out of the memref are nothing, and stay data.
                    lanes.push(match (width, ints) {
                        (Some(width), Some(ints)) if !arith.is_empty() => {
                            Value::Int(integer(arith, "", &ints, width)?)
                        }
                        (Some(_), Some(_)) => {
                            bail!("the integer op stablehlo.{name} is not interpreted")
                        }
                        _ => union(&lane)?,
                    });
                }
                Value::vector(&out, lanes)
            }
        })
    }

    /// What the input element `loc` of type `element` holds, noting an integer read.
    fn initial(&mut self, loc: Loc, element: &str) -> Value {
        let value = initial(loc, element, self.module.index_width, self.rotation);
        self.read_integers |= matches!(value, Value::Int(_));
        value
    }

    /// The map an `apply_indexing` op applies, inline (`<"...">`) or through an alias.
    fn map(&mut self, op: &Op) -> Result<Rc<IndexingMap>> {
        if let Some(map) = self.maps.get(&op.line) {
            return Ok(map.clone());
        }
        let text = op.text.split_whitespace().nth(1).context("no map")?;
        let text = if text.starts_with("#xla") {
            op.text.as_str()
        } else {
            let alias = text.split('(').next().unwrap_or(text);
            self.module
                .aliases
                .get(alias)
                .with_context(|| format!("no alias {alias}"))?
        };
        let inner = text
            .split_once("<\"")
            .and_then(|(_, rest)| rest.split_once("\">"))
            .map(|(inner, _)| inner)
            .context("no map text")?;
        let map = Rc::new(IndexingMap::parse(inner)?);
        self.maps.insert(op.line, map.clone());
        Ok(map)
    }

    /// A branch target `^bb1(%a, %b : index, index)` or `^bb1`: its label and arguments.
    fn target(&self, env: &Env, target: &str) -> Result<(String, Vec<Value>)> {
        let target = target.trim();
        let label = target.split('(').next().unwrap_or(target).trim().to_owned();
        let args = match target.find('(') {
            Some(open) => {
                let close = ir::matching(target, open).context("unbalanced target")?;
                let inner = &target[open + 1..close];
                let names = inner.split(" : ").next().unwrap_or("");
                values(names)
                    .into_iter()
                    .map(|n| self.get(env, n))
                    .collect::<Result<_>>()?
            }
            None => Vec::new(),
        };
        Ok((label, args))
    }

    /// `scf.for %iv = %lb to %ub step %s iter_args(%a = %x) -> (...) {`; its results.
    fn scf_for(&mut self, op: &Op, env: &mut Env) -> Result<Vec<Value>> {
        let head = op.text.split(" iter_args(").next().unwrap_or(&op.text);
        let names = values(head);
        let [iv, lb, ub, step, ..] = names.as_slice() else {
            bail!("scf.for without bounds");
        };
        let (lb, ub, step) = (self.int(env, lb)?, self.int(env, ub)?, self.int(env, step)?);
        if step <= 0 {
            bail!("scf.for with step {step}");
        }
        let mut carried: Vec<(String, Value)> = Vec::new();
        if let Some(rest) = op.text.split(" iter_args(").nth(1) {
            let close = ir::matching(&format!("({rest}"), 0).context("iter_args")?;
            for pair in ir::split_top(&rest[..close - 1]) {
                let (name, init) = pair.split_once(" = ").context("iter_args")?;
                carried.push((name.trim().to_owned(), self.get(env, init.trim())?));
            }
        }
        let body = op.regions.first().context("scf.for without a body")?;
        let mut i = lb;
        while i < ub {
            env.insert((*iv).to_owned(), Value::Int(i));
            for (name, value) in &carried {
                env.insert(name.clone(), value.clone());
            }
            let next = self.region(body, env)?.values()?;
            for ((_, value), next) in carried.iter_mut().zip(next) {
                *value = next;
            }
            i += step;
        }
        Ok(carried.into_iter().map(|(_, v)| v).collect())
    }

    /// `scf.forall (%i, %j) in (M, N) shared_outs(%o = %x) -> (...) {`, whose body ends in
    /// `scf.forall.in_parallel`; its results, the shared outputs after every iteration.
    fn scf_forall(&mut self, op: &Op, env: &mut Env) -> Result<Vec<Value>> {
        let text = &op.text;
        let open = text.find('(').context("scf.forall")?;
        let close = ir::matching(text, open).context("scf.forall")?;
        let ivs: Vec<String> = values(&text[open..close])
            .iter()
            .map(|v| (*v).to_owned())
            .collect();
        let rest = text[close..]
            .strip_prefix(") in ")
            .context("only `scf.forall (...) in (...)` is interpreted")?;
        let bounds_close = ir::matching(rest, 0).context("scf.forall bounds")?;
        let bounds = ir::split_top(&rest[1..bounds_close])
            .into_iter()
            .map(|b| {
                if b.starts_with('%') {
                    self.int(env, b)
                } else {
                    b.parse::<i64>().map_err(|_| anyhow!("bound {b}"))
                }
            })
            .collect::<Result<Vec<i64>>>()?;
        if bounds.len() != ivs.len() {
            bail!(
                "{} bounds for {} induction variables",
                bounds.len(),
                ivs.len()
            );
        }
        let mut outs: Vec<(String, Value)> = Vec::new();
        if let Some(shared) = rest.split(" shared_outs(").nth(1) {
            let shared =
                &shared[..ir::matching(&format!("({shared}"), 0).context("shared_outs")? - 1];
            for pair in ir::split_top(shared) {
                let (name, init) = pair.split_once(" = ").context("shared_outs")?;
                outs.push((name.trim().to_owned(), self.get(env, init.trim())?));
            }
        }
        let body = op.regions.first().context("scf.forall without a body")?;
        let points: i64 = bounds.iter().product();
        for point in 0..points {
            let mut rest = point;
            for (iv, bound) in ivs.iter().zip(&bounds).rev() {
                env.insert(iv.clone(), Value::Int(rest % bound));
                rest /= bound;
            }
            for (name, value) in &outs {
                env.insert(name.clone(), value.clone());
            }
            let Exit::Parallel(updates) = self.region(body, env)? else {
                bail!("an scf.forall body that does not end in scf.forall.in_parallel");
            };
            for (name, value) in updates {
                let out = outs
                    .iter_mut()
                    .find(|(n, _)| *n == name)
                    .with_context(|| format!("{name} is not a shared output"))?;
                out.1 = value;
            }
        }
        Ok(outs.into_iter().map(|(_, v)| v).collect())
    }

    /// `tensor.parallel_insert_slice %src into %out[0, 0] [M, N] [1, 1]`, of a whole tensor
    /// only: the output's name and its new value.
    fn parallel_insert(&self, op: &Op, env: &Env) -> Result<(String, Value)> {
        if op.name != "tensor.parallel_insert_slice" {
            bail!(
                "the op {} in scf.forall.in_parallel is not interpreted",
                op.name
            );
        }
        let names = values(&op.text);
        let (src, out) = (names.first().context("src")?, names.get(1).context("out")?);
        if names.len() != 2 {
            bail!("a parallel_insert_slice at dynamic offsets");
        }
        let value = self.tensor(env, src)?;
        let target = self.tensor(env, out)?;
        let open = op.text.find('[').context("offsets")?;
        let lists: Vec<&str> = op.text[open..]
            .split(" : ")
            .next()
            .unwrap_or("")
            .split(['[', ']'])
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        let numbers = |l: &str| -> Vec<i64> {
            ir::split_top(l)
                .iter()
                .filter_map(|n| n.parse().ok())
                .collect()
        };
        let whole = lists.len() == 3
            && numbers(lists[0]).iter().all(|o| *o == 0)
            && numbers(lists[1]) == target.shape.to_vec()
            && numbers(lists[2]).iter().all(|s| *s == 1);
        if !whole || value.shape != target.shape {
            bail!("a parallel_insert_slice of part of a tensor");
        }
        Ok(((*out).to_owned(), Value::Tensor(value)))
    }

    /// `llvm.getelementptr [inbounds] %base[i, j] : (...) -> !llvm.ptr, T`: into an array
    /// `!llvm.array<N x T>` (indices `[0, i]`) or over elements `T` (index `[i]`).
    fn gep(&self, op: &Op, env: &Env) -> Result<Value> {
        let text = &op.text;
        let open = text.find('[').context("gep without indices")?;
        let close = ir::matching(text, open).context("gep")?;
        let base = values(&text[..open]);
        let (buf, off) = self.pointer(env, base.first().context("gep without a base")?)?;
        let indices = ir::split_top(&text[open + 1..close])
            .into_iter()
            .map(|i| {
                if i.starts_with('%') {
                    self.int(env, i)
                } else {
                    i.parse::<i64>().map_err(|_| anyhow!("index {i}"))
                }
            })
            .collect::<Result<Vec<i64>>>()?;
        let element = text.rsplit(", ").next().unwrap_or("").trim();
        let step = match (element.starts_with("!llvm.array<"), indices.as_slice()) {
            (true, [0, i]) => *i,
            (false, [i]) if !element.starts_with("!llvm.") => *i,
            _ => bail!("an address into {element} by {indices:?}"),
        };
        Ok(Value::Ptr {
            buf,
            off: off + step,
        })
    }

    /// The buffer and offset a pointer operand points at.
    fn pointer(&self, env: &Env, name: &str) -> Result<Loc> {
        match self.get(env, name)? {
            Value::Ptr { buf, off } => Ok((buf, off)),
            other => bail!("{name} is {other:?}, not a pointer into a buffer"),
        }
    }

    /// The tensor operand `name`.
    fn tensor(&self, env: &Env, name: &str) -> Result<Tensor> {
        match self.get(env, name)? {
            Value::Tensor(t) => Ok(t),
            other => bail!("{name} is {other:?}, not a tensor"),
        }
    }

    /// The row-major offset of the indices `names` in `tensor` (checked in bounds).
    fn offset(&self, env: &Env, tensor: &Tensor, names: &[&str]) -> Result<i64> {
        if names.len() != tensor.shape.len() {
            bail!(
                "{} indices into a tensor of rank {}",
                names.len(),
                tensor.shape.len()
            );
        }
        let mut off = 0;
        for (name, size) in names.iter().zip(tensor.shape.iter()) {
            let i = self.int(env, name)?;
            if !(0..*size).contains(&i) {
                return Err(OutOfBounds(format!("index {i} out of [0, {size})")).into());
            }
            off = off * size + i;
        }
        Ok(off)
    }

    /// The value of an op that computes one: integer ops exactly, others as data.
    fn compute(&self, op: &Op, operands: &[&str], env: &Env) -> Result<Value> {
        let text = &op.text;
        let args = operands
            .iter()
            .map(|n| self.get(env, n))
            .collect::<Result<Vec<_>>>()?;
        let ty = shape::element_types(text.rsplit(" : ").next().unwrap_or("").trim());
        let shape = args.iter().find_map(|a| match a {
            Value::Vector { shape, .. } => Some(shape.clone()),
            _ => None,
        });
        match shape {
            Some(shape) => {
                let lanes = (0..shape::count(&shape))
                    .map(|k| {
                        let lane = args.iter().map(|a| a.lane(k)).collect::<Result<Vec<_>>>()?;
                        self.scalar(op, &ty, &lane)
                    })
                    .collect::<Result<Vec<_>>>()?;
                Ok(Value::vector(&shape, lanes))
            }
            None => self.scalar(op, &ty, &args),
        }
    }

    /// The value of an op on scalars `args` of type `ty` (the text after ` : `, element types
    /// for vectors).
    fn scalar(&self, op: &Op, ty: &str, args: &[Value]) -> Result<Value> {
        let text = &op.text;
        let index_width = self.module.index_width;
        let name = op.name.as_str();
        // Casts: `: i32 to index`, `llvm.zext %x : i32 to i64`.
        if let Some((from, to)) = ty.split_once(" to ") {
            let (Some(from), Some(to)) = (int_width(from, index_width), int_width(to, index_width))
            else {
                return union(args);
            };
            let Some(Value::Int(v)) = args.first() else {
                return union(args);
            };
            let zero_extend = matches!(name, "arith.index_castui" | "arith.extui" | "llvm.zext");
            let v = if zero_extend {
                unsigned(*v, from) as i64
            } else {
                wrap(*v, from)
            };
            return Ok(Value::Int(wrap(v, to)));
        }
        let ints: Option<Vec<i64>> = args
            .iter()
            .map(|a| match a {
                Value::Int(v) => Some(*v),
                _ => None,
            })
            .collect();
        let width = ty
            .rsplit(", ")
            .next()
            .and_then(|t| int_width(t, index_width));
        let (Some(ints), Some(width)) = (ints, width) else {
            return if matches!(name, "arith.select" | "llvm.select") {
                select(args)
            } else {
                union(args)
            };
        };
        integer(name, text, &ints, width).map(Value::Int)
    }
}

/// The union of `args` lane by lane when one is a vector (a vector of the unions), else
/// [`union`].
fn lanewise_union(args: &[Value]) -> Result<Value> {
    let shape = args.iter().find_map(|a| match a {
        Value::Vector { shape, .. } => Some(shape.clone()),
        _ => None,
    });
    let Some(shape) = shape else {
        return union(args);
    };
    let lanes = (0..shape::count(&shape))
        .map(|k| union(&args.iter().map(|a| a.lane(k)).collect::<Result<Vec<_>>>()?))
        .collect::<Result<Vec<_>>>()?;
    Ok(Value::vector(&shape, lanes))
}

/// The results of `map` at `values` (its dimensions, then its symbols); its domain is not
/// checked.
fn apply(map: &IndexingMap, values: &[i64]) -> Result<Vec<i64>> {
    let dims = map.dims().len();
    if values.len() != dims + map.num_symbols() {
        bail!(
            "a map of {} variables applied to {}",
            dims + map.num_symbols(),
            values.len()
        );
    }
    let (dims, symbols) = values.split_at(dims);
    map.evaluate(dims, symbols)
        .with_context(|| format!("{map} overflows at {values:?}"))
}

/// The position `[i, j]` of `llvm.extractvalue`/`insertvalue`.
fn position(text: &str) -> Result<Vec<usize>> {
    let open = text.find('[').context("no position")?;
    let close = ir::matching(text, open).context("position")?;
    ir::split_top(&text[open + 1..close])
        .iter()
        .map(|p| p.parse::<usize>().map_err(|_| anyhow!("position {p}")))
        .collect()
}

/// Where the block at `position` of an array of vectors of `shape` starts, and its shape.
fn sub_block(shape: &[i64], position: &[usize]) -> Result<(usize, Vec<i64>)> {
    if position.len() > shape.len() || position.iter().zip(shape).any(|(&p, &n)| p as i64 >= n) {
        bail!("position {position:?} in {shape:?}");
    }
    let sub = shape[position.len()..].to_vec();
    let index: Vec<i64> = position.iter().map(|&p| p as i64).collect();
    let base = shape::flat(&index, &shape[..position.len()]) as usize * shape::count(&sub);
    Ok((base, sub))
}

/// Where a block's execution goes.
enum Flow {
    Exit(Exit),
    Jump(String, Vec<Value>),
}

/// A select whose condition or operands are data: the chosen operand when the condition is
/// known, else what all three depend on.
fn select(args: &[Value]) -> Result<Value> {
    match args {
        [Value::Int(c), a, b] => Ok(if *c != 0 { a.clone() } else { b.clone() }),
        _ => union(args),
    }
}

/// `arith.constant` and `llvm.mlir.constant`.
fn constant(op: &Op, module: &Module) -> Result<Value> {
    let text = &op.text;
    let ty = text.rsplit(" : ").next().unwrap_or("").trim();
    if let Some((shape, element)) = shape::shaped(ty) {
        // `dense<[1, 2]> : vector<2xi32>`, `dense<0.0> : tensor<4xf32>` (a splat).
        let items = shape::dense_items(text).context("a shaped constant that is not dense")?;
        let lanes = items
            .iter()
            .map(|item| literal(item, element, module.index_width))
            .collect::<Result<Vec<_>>>()?;
        let n = shape::count(&shape);
        let lanes = match lanes.len() {
            1 => vec![lanes[0].clone(); n],
            len if len == n => lanes,
            len => bail!("{len} values for {n} elements"),
        };
        return Ok(Value::vector(&shape, lanes));
    }
    let body = text
        .trim_start_matches("arith.constant")
        .trim_start_matches("llvm.mlir.constant")
        .trim()
        .trim_start_matches('(');
    let item = body.split([' ', ')']).next().unwrap_or("");
    literal(item, ty, module.index_width)
}

/// One constant `item` of type `ty`: an integer (`true` is -1 as an `i1`), else data.
fn literal(item: &str, ty: &str, index_width: u32) -> Result<Value> {
    match (item, int_width(ty, index_width)) {
        ("true", _) => Ok(Value::Int(-1)),
        ("false", _) => Ok(Value::Int(0)),
        (item, Some(width)) => {
            let v: i64 = item
                .parse()
                .map_err(|_| anyhow!("integer constant {item}"))?;
            Ok(Value::Int(wrap(v, width)))
        }
        _ => Ok(nothing()),
    }
}

/// An integer op of `arith` or `llvm` on `args` at `width` bits.
fn integer(name: &str, text: &str, args: &[i64], width: u32) -> Result<i64> {
    let op = name
        .strip_prefix("arith.")
        .or_else(|| name.strip_prefix("llvm."))
        .unwrap_or(name);
    let arg = |k: usize| -> Result<i64> {
        args.get(k)
            .map(|v| wrap(*v, width))
            .with_context(|| format!("{name} needs {} operands", k + 1))
    };
    let u = |k: usize| -> Result<u64> { Ok(unsigned(arg(k)?, width)) };
    let divisor = |k: usize| -> Result<i64> {
        let v = arg(k)?;
        if v == 0 {
            bail!("division by zero");
        }
        Ok(v)
    };
    let v = match op {
        "addi" | "add" => arg(0)?.wrapping_add(arg(1)?),
        "subi" | "sub" => arg(0)?.wrapping_sub(arg(1)?),
        "muli" | "mul" => arg(0)?.wrapping_mul(arg(1)?),
        "divsi" | "sdiv" => arg(0)?.wrapping_div(divisor(1)?),
        "remsi" | "srem" => arg(0)?.wrapping_rem(divisor(1)?),
        "divui" | "udiv" => (u(0)? / unsigned(divisor(1)?, width)) as i64,
        "remui" | "urem" => (u(0)? % unsigned(divisor(1)?, width)) as i64,
        "floordivsi" | "ceildivsi" => {
            let (a, b) = (arg(0)?, divisor(1)?);
            let q = a.wrapping_div(b);
            let inexact = a.wrapping_rem(b) != 0;
            let negative = (a < 0) != (b < 0);
            match op {
                "floordivsi" => q - i64::from(inexact && negative),
                _ => q + i64::from(inexact && !negative),
            }
        }
        "ceildivui" => u(0)?.div_ceil(unsigned(divisor(1)?, width)) as i64,
        "minsi" => arg(0)?.min(arg(1)?),
        "maxsi" => arg(0)?.max(arg(1)?),
        "minui" => u(0)?.min(u(1)?) as i64,
        "maxui" => u(0)?.max(u(1)?) as i64,
        "andi" | "and" => arg(0)? & arg(1)?,
        "ori" | "or" => arg(0)? | arg(1)?,
        "xori" | "xor" => arg(0)? ^ arg(1)?,
        "shli" | "shl" => arg(0)?.wrapping_shl(u(1)? as u32),
        "shrui" | "lshr" => (u(0)? >> u(1)?.min(63)) as i64,
        "shrsi" | "ashr" => arg(0)? >> u(1)?.min(63),
        "select" => {
            if args.first().copied().unwrap_or(0) != 0 {
                arg(1)?
            } else {
                arg(2)?
            }
        }
        "cmpi" | "icmp" => {
            let predicate = text
                .split_whitespace()
                .nth(1)
                .unwrap_or("")
                .trim_matches([',', '"']);
            let (a, b, ua, ub) = (arg(0)?, arg(1)?, u(0)?, u(1)?);
            let holds = match predicate {
                "eq" => a == b,
                "ne" => a != b,
                "slt" => a < b,
                "sle" => a <= b,
                "sgt" => a > b,
                "sge" => a >= b,
                "ult" => ua < ub,
                "ule" => ua <= ub,
                "ugt" => ua > ub,
                "uge" => ua >= ub,
                other => bail!("predicate {other}"),
            };
            return Ok(if holds { -1 } else { 0 });
        }
        _ => bail!("the integer op {name} is not interpreted"),
    };
    Ok(wrap(v, width))
}

/// Whether each of the `count` lanes of `mask` (an `i1` vector known without data) is on.
fn mask_lanes(mask: &Value, count: usize) -> Result<Vec<bool>> {
    (0..count)
        .map(|k| match mask.lane(k)? {
            Value::Int(0) => Ok(false),
            Value::Int(_) => Ok(true),
            _ => bail!("a mask that depends on data"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// XLA's last stage of `pad(x: 5x7, 0, (1, 2, 1) x (0, 0, 0))`, as dumped (trimmed to the
    /// wrapped function).
    const XLA_PAD: &str = "module attributes {dlti.dl_spec = #dlti.dl_spec<index = 64 : i32>} {
  func.func private @wrapped_pad_wrapped(%arg0: !llvm.ptr {llvm.align = 64 : index}, %arg1: !llvm.ptr {llvm.align = 64 : index}, %arg2: !llvm.ptr {llvm.align = 64 : index}, %arg3: index, %arg4: index, %arg5: index) attributes {llvm.always_inline, xla.entry} {
    %c-7 = arith.constant -7 : index
    %c2 = arith.constant 2 : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c9 = arith.constant 9 : index
    %c12 = arith.constant 12 : index
    %c7 = arith.constant 7 : index
    cf.br ^bb1(%c0 : index)
  ^bb1(%0: index):  // 2 preds: ^bb0, ^bb9
    %1 = arith.cmpi slt, %0, %c12 : index
    cf.cond_br %1, ^bb2, ^bb10
  ^bb2:  // pred: ^bb1
    %2 = arith.addi %0, %c1 overflow<nsw> : index
    %3 = arith.remui %2, %c2 : index
    %4 = arith.cmpi eq, %3, %c0 : index
    %5 = arith.cmpi sge, %0, %c1 : index
    %6 = arith.cmpi sle, %0, %c9 : index
    %7 = arith.andi %5, %6 : i1
    %8 = arith.andi %4, %7 : i1
    %9 = arith.muli %0, %c7 overflow<nsw> : index
    cf.br ^bb3(%c0 : index)
  ^bb3(%10: index):  // 2 preds: ^bb2, ^bb8
    %11 = arith.cmpi slt, %10, %c7 : index
    cf.cond_br %11, ^bb4, ^bb9
  ^bb4:  // pred: ^bb3
    cf.cond_br %8, ^bb5, ^bb6
  ^bb5:  // pred: ^bb4
    %12 = arith.divui %2, %c2 : index
    %13 = arith.muli %12, %c7 overflow<nsw> : index
    %14 = arith.addi %13, %10 overflow<nsw> : index
    %15 = arith.addi %14, %c-7 overflow<nsw> : index
    %16 = arith.index_castui %15 : index to i64
    %17 = llvm.getelementptr inbounds %arg0[0, %16] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<35 x f32>
    %18 = llvm.load %17 invariant : !llvm.ptr -> f32
    cf.br ^bb7(%18 : f32)
  ^bb6:  // pred: ^bb4
    %19 = llvm.getelementptr inbounds %arg1[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<1 x f32>
    %20 = llvm.load %19 invariant : !llvm.ptr -> f32
    cf.br ^bb7(%20 : f32)
  ^bb7(%21: f32):  // 2 preds: ^bb5, ^bb6
    cf.br ^bb8
  ^bb8:  // pred: ^bb7
    %22 = arith.addi %9, %10 overflow<nsw> : index
    %23 = arith.index_castui %22 : index to i64
    %24 = llvm.getelementptr inbounds %arg2[0, %23] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<84 x f32>
    llvm.store %21, %24 : f32, !llvm.ptr
    %25 = arith.addi %10, %c1 overflow<nsw> : index
    cf.br ^bb3(%25 : index)
  ^bb9:  // pred: ^bb3
    %26 = arith.addi %0, %c1 overflow<nsw> : index
    cf.br ^bb1(%26 : index) {loop_annotation = #loop_annotation}
  ^bb10:  // pred: ^bb1
    return
  }
}";

    /// The same pad as tensors and `scf`, one quotient shared: `DIVISOR` and `OFFSET` let a
    /// test break it.
    fn ours_pad(divisor: i64, offset: i64) -> String {
        format!(
            "module {{
  func.func @wrapped_pad(%arg0: tensor<5x7xf32>, %arg1: tensor<f32>, %arg2: tensor<12x7xf32>) -> tensor<12x7xf32> attributes {{xla.entry}} {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant {divisor} : index
    %c7 = arith.constant 7 : index
    %c9 = arith.constant 9 : index
    %c12 = arith.constant 12 : index
    %off = arith.constant {offset} : index
    %r = scf.for %i = %c0 to %c12 step %c1 iter_args(%t = %arg2) -> (tensor<12x7xf32>) {{
      %p = arith.addi %i, %c1 : index
      %q = arith.divui %p, %c2 : index
      %m = arith.muli %q, %c2 : index
      %even = arith.cmpi eq, %m, %p : index
      %lo = arith.cmpi sge, %i, %c1 : index
      %hi = arith.cmpi sle, %i, %c9 : index
      %in = arith.andi %lo, %hi : i1
      %both = arith.andi %in, %even : i1
      %r2 = scf.for %j = %c0 to %c7 step %c1 iter_args(%u = %t) -> (tensor<12x7xf32>) {{
        %v = scf.if %both -> (f32) {{
          %row = arith.subi %q, %off : index
          %x = tensor.extract %arg0[%row, %j] : tensor<5x7xf32>
          scf.yield %x : f32
        }} else {{
          %pad = tensor.extract %arg1[] : tensor<f32>
          scf.yield %pad : f32
        }}
        %w = tensor.insert %v into %u[%i, %j] : tensor<12x7xf32>
        scf.yield %w : tensor<12x7xf32>
      }}
      scf.yield %r2 : tensor<12x7xf32>
    }}
    return %r : tensor<12x7xf32>
  }}
}}"
        )
    }

    /// [`ours_pad`]`(2, 1)` with an `exp`, after `canonicalize, cse, convert-scf-to-cf` (as
    /// `mlir-opt` printed it): tensors through block arguments.
    const OURS_PAD_CF: &str = r#"module attributes {dlti.dl_spec = #dlti.dl_spec<index = 64 : i32>} {
  func.func @wrapped_pad(%arg0: tensor<5x7xf32>, %arg1: tensor<f32>, %arg2: tensor<12x7xf32>) -> tensor<12x7xf32> attributes {xla.entry} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c7 = arith.constant 7 : index
    %c9 = arith.constant 9 : index
    %c12 = arith.constant 12 : index
    cf.br ^bb1(%c0, %arg2 : index, tensor<12x7xf32>)
  ^bb1(%0: index, %1: tensor<12x7xf32>):  // 2 preds: ^bb0, ^bb9
    %2 = arith.cmpi slt, %0, %c12 : index
    cf.cond_br %2, ^bb2, ^bb10
  ^bb2:  // pred: ^bb1
    %3 = arith.addi %0, %c1 : index
    %4 = arith.divui %3, %c2 : index
    %5 = arith.muli %4, %c2 : index
    %6 = arith.cmpi eq, %5, %3 : index
    %7 = arith.cmpi sge, %0, %c1 : index
    %8 = arith.cmpi sle, %0, %c9 : index
    %9 = arith.andi %7, %8 : i1
    %10 = arith.andi %9, %6 : i1
    cf.br ^bb3(%c0, %1 : index, tensor<12x7xf32>)
  ^bb3(%11: index, %12: tensor<12x7xf32>):  // 2 preds: ^bb2, ^bb8
    %13 = arith.cmpi slt, %11, %c7 : index
    cf.cond_br %13, ^bb4, ^bb9
  ^bb4:  // pred: ^bb3
    cf.cond_br %10, ^bb5, ^bb6
  ^bb5:  // pred: ^bb4
    %14 = arith.subi %4, %c1 : index
    %extracted = tensor.extract %arg0[%14, %11] : tensor<5x7xf32>
    %15 = math.exp %extracted : f32
    cf.br ^bb7(%15 : f32)
  ^bb6:  // pred: ^bb4
    %extracted_0 = tensor.extract %arg1[] : tensor<f32>
    cf.br ^bb7(%extracted_0 : f32)
  ^bb7(%16: f32):  // 2 preds: ^bb5, ^bb6
    cf.br ^bb8
  ^bb8:  // pred: ^bb7
    %inserted = tensor.insert %16 into %12[%0, %11] : tensor<12x7xf32>
    %17 = arith.addi %11, %c1 : index
    cf.br ^bb3(%17, %inserted : index, tensor<12x7xf32>)
  ^bb9:  // pred: ^bb3
    %18 = arith.addi %0, %c1 : index
    cf.br ^bb1(%18, %12 : index, tensor<12x7xf32>)
  ^bb10:  // pred: ^bb1
    return %1 : tensor<12x7xf32>
  }
}"#;

    /// XLA's workgroup loop, as the emitter writes it around the pad.
    #[test]
    fn a_forall_over_one_workgroup() {
        let forall = OURS_PAD_CF
            .replace(
                "    cf.br ^bb1(%c0, %arg2 : index, tensor<12x7xf32>)",
                "    %f = scf.forall (%w0, %w1) in (1, 1) shared_outs(%o = %arg2) -> (tensor<12x7xf32>) {\n      %r = func.call @body(%arg0, %arg1, %o) : (tensor<5x7xf32>, tensor<f32>, tensor<12x7xf32>) -> tensor<12x7xf32>\n      scf.forall.in_parallel {\n        tensor.parallel_insert_slice %r into %o[0, 0] [12, 7] [1, 1] : tensor<12x7xf32> into tensor<12x7xf32>\n      }\n    }\n    return %f : tensor<12x7xf32>\n  }\n  func.func private @body(%arg0: tensor<5x7xf32>, %arg1: tensor<f32>, %arg2: tensor<12x7xf32>) -> tensor<12x7xf32> {\n    %c0 = arith.constant 0 : index\n    %c1 = arith.constant 1 : index\n    %c2 = arith.constant 2 : index\n    %c7 = arith.constant 7 : index\n    %c9 = arith.constant 9 : index\n    %c12 = arith.constant 12 : index\n    cf.br ^bb1(%c0, %arg2 : index, tensor<12x7xf32>)",
            );
        assert_eq!(compare(XLA_PAD, &forall, ""), Check::Same { elements: 84 });
        let part = forall.replace("[12, 7] [1, 1]", "[6, 7] [1, 1]");
        assert!(
            matches!(compare(XLA_PAD, &part, ""), Check::Unchecked(ref why) if why.contains("part of a tensor"))
        );
    }

    #[test]
    fn tensors_through_block_arguments() {
        assert_eq!(
            compare(XLA_PAD, OURS_PAD_CF, ""),
            Check::Same { elements: 84 }
        );
    }

    #[test]
    fn the_same_pad_written_two_ways_is_the_same() {
        assert_eq!(
            compare(XLA_PAD, &ours_pad(2, 1), ""),
            Check::Same { elements: 84 }
        );
    }

    #[test]
    fn a_wrong_index_is_found() {
        // Rows read one too low: the first padded row would read row -1.
        let check = compare(XLA_PAD, &ours_pad(2, 2), "");
        assert!(
            matches!(check, Check::Differs(ref why) if why.contains("out of [0, 5)")),
            "{check}"
        );
        // Dividing by 3: other rows, other elements.
        let check = compare(XLA_PAD, &ours_pad(3, 1), "");
        assert!(matches!(check, Check::Differs(_)), "{check}");
    }

    #[test]
    fn integers_wrap_at_their_width() {
        assert_eq!(
            integer("arith.addi", "", &[i64::from(i32::MAX), 1], 32).unwrap(),
            i64::from(i32::MIN)
        );
        assert_eq!(integer("arith.divui", "", &[-1, 2], 8).unwrap(), 127);
        assert_eq!(integer("arith.floordivsi", "", &[-7, 2], 64).unwrap(), -4);
        assert_eq!(integer("arith.floordivsi", "", &[7, -2], 64).unwrap(), -4);
        assert_eq!(integer("arith.ceildivsi", "", &[7, 2], 64).unwrap(), 4);
        assert_eq!(integer("arith.ceildivsi", "", &[-7, 2], 64).unwrap(), -3);
        assert_eq!(integer("arith.remsi", "", &[-7, 2], 64).unwrap(), -1);
        assert_eq!(
            integer("arith.cmpi", "arith.cmpi ult, %a, %b", &[-1, 2], 64).unwrap(),
            0
        );
        assert_eq!(
            integer("llvm.icmp", "llvm.icmp \"slt\" %a, %b", &[-1, 2], 64).unwrap(),
            -1
        );
    }

    #[test]
    fn data_flows_through_float_ops_and_selects() {
        let a = Value::Data(Rc::new(vec![(0, 1)]));
        let b = Value::Data(Rc::new(vec![(1, 0), (0, 1)]));
        assert_eq!(
            union([&a, &b, &Value::Int(3)]).unwrap(),
            Value::Data(Rc::new(vec![(0, 1), (1, 0)]))
        );
        assert_eq!(select(&[Value::Int(0), a.clone(), b.clone()]).unwrap(), b);
        let cond = Value::Data(Rc::new(vec![(2, 2)]));
        assert_eq!(
            select(&[cond, a, Value::Int(1)]).unwrap(),
            Value::Data(Rc::new(vec![(0, 1), (2, 2)]))
        );
    }

    #[test]
    fn maps_applied_inline_and_through_aliases() {
        let text = "#indexing_map = #xla.indexing_map<\"(d0) -> ((d0 + 1) mod 2), domain: d0 in [1, 9]\">
module {
  func.func @f(%arg0: !llvm.ptr) attributes {xla.entry} {
    %c3 = arith.constant 3 : index
    %0 = xla.apply_indexing #indexing_map(%c3)
    %1 = xla.apply_indexing #xla.indexing_map<\"(d0)[s0] -> (d0 * 4 + s0), domain: d0 in [0, 3], s0 in [0, 3]\">(%0)[%c3]
    %2 = arith.index_castui %1 : index to i64
    %3 = llvm.getelementptr inbounds %arg0[0, %2] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<8 x f32>
    %cst = arith.constant 1.0 : f32
    llvm.store %cst, %3 : f32, !llvm.ptr
    return
  }
}";
        let writes = run_entry(&ir::parse(text).unwrap(), &[], 0).unwrap().writes;
        // (3 + 1) mod 2 = 0; 0 * 4 + 3 = 3.
        assert_eq!(
            writes.keys().copied().collect::<Vec<_>>(),
            vec![(OWN_BUFFERS, 3)]
        );
    }

    /// XLA's spelling (`/` and `%`, rounding down) and a unary minus on the operand after it,
    /// as the project's parser reads them.
    #[test]
    fn maps_in_xla_spelling() {
        let map = IndexingMap::parse(
            "(d0, d1)[s0] -> ((d0 - 1) / 2, (d0 - 1) mod 2, d1 ceildiv 4, -d0 % 3, min(d1, s0 * 2)), domain: d0 in [0, 9], d1 in [0, 6], s0 in [0, 3]",
        )
        .unwrap();
        assert_eq!(apply(&map, &[0, 5, 1]).unwrap(), vec![-1, 1, 2, 0, 2]);
        assert_eq!(apply(&map, &[4, 3, 3]).unwrap(), vec![1, 1, 1, 2, 3]);
        assert!(apply(&map, &[1, 2]).is_err());
        let named = IndexingMap::parse(
            "(pid, tid) -> (((pid * 30 + tid) mod 30) floordiv 15), domain: pid in [0, 1], tid in [0, 29]",
        )
        .unwrap();
        assert_eq!(apply(&named, &[0, 29]).unwrap(), vec![1]);
        assert_eq!(apply(&named, &[1, 14]).unwrap(), vec![0]);
    }

    /// An in-place kernel: XLA has merged its two arguments of slice 0 into one pointer.
    #[test]
    fn aliased_arguments_are_one_buffer() {
        let xla = "module {
  func.func @f_wrapped(%arg0: !llvm.ptr, %arg1: index) attributes {xla.entry} {
    %c1 = arith.constant 1 : i64
    %0 = llvm.getelementptr inbounds %arg0[0, %c1] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<2 x f32>
    %1 = llvm.load %0 : !llvm.ptr -> f32
    %2 = arith.mulf %1, %1 : f32
    llvm.store %2, %0 : f32, !llvm.ptr
    return
  }
}";
        let ours = |slice: i64| {
            format!(
                "module {{
  func.func @f(%arg0: tensor<2xf32> {{xla.slice_index = 0 : index}}, %arg1: tensor<2xf32> {{xla.slice_index = {slice} : index}}) -> tensor<2xf32> attributes {{xla.entry}} {{
    %c1 = arith.constant 1 : index
    %0 = tensor.extract %arg0[%c1] : tensor<2xf32>
    %1 = arith.mulf %0, %0 : f32
    %2 = tensor.insert %1 into %arg1[%c1] : tensor<2xf32>
    return %2 : tensor<2xf32>
  }}
}}"
            )
        };
        let emitted = ours(0);
        assert_eq!(
            compare(xla, &ours(0), &emitted),
            Check::Same { elements: 1 }
        );
        // Were the output another slice, ours would write elsewhere.
        assert!(matches!(
            compare(xla, &ours(1), &emitted),
            Check::Differs(_)
        ));
        assert_eq!(
            buffer_slices(&[Some(0), Some(0), Some(1)], 2),
            vec![Some(0), Some(1)]
        );
        assert_eq!(
            buffer_slices(&[Some(-1), Some(-1)], 1),
            vec![Some(-1), Some(-1)]
        );
    }

    #[test]
    fn an_old_version_of_a_tensor_is_not_run() {
        let ours = "module {
  func.func @f(%arg0: tensor<2xf32>) -> tensor<2xf32> attributes {xla.entry} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cst = arith.constant 1.0 : f32
    %0 = tensor.insert %cst into %arg0[%c0] : tensor<2xf32>
    %1 = tensor.insert %cst into %arg0[%c1] : tensor<2xf32>
    return %1 : tensor<2xf32>
  }
}";
        let check = compare(ours, ours, "");
        assert!(
            matches!(check, Check::Unchecked(ref why) if why.contains("later insert")),
            "{check}"
        );
    }

    #[test]
    fn several_workgroups_are_not_run() {
        let one = "    %0 = xla.workgroup_id x {xla.range = [0 : index, 0 : index]}";
        let two = "    %0 = xla.workgroup_id x {xla.range = [0 : index, 1 : index]}";
        assert!(!several_workgroups(one));
        assert!(several_workgroups(&format!("{one}\n{two}")));
        assert!(matches!(
            compare(XLA_PAD, &ours_pad(2, 1), two),
            Check::Unchecked(_)
        ));
    }

    /// A kernel that reads its data at 2 unless an integer input is 0 (then at 1), and one that
    /// always reads at 2: they differ only where that input is 0.
    #[test]
    fn integer_inputs_take_every_value() {
        let kernel = |zero_at: i64| {
            format!(
                "module {{
  func.func @f(%arg0: tensor<4xf32>, %arg1: tensor<1xi32>, %arg2: tensor<1xf32>) -> tensor<1xf32> attributes {{xla.entry}} {{
    %c0 = arith.constant 0 : index
    %c0_i32 = arith.constant 0 : i32
    %zero = arith.constant {zero_at} : index
    %c2 = arith.constant 2 : index
    %i = tensor.extract %arg1[%c0] : tensor<1xi32>
    %is0 = arith.cmpi eq, %i, %c0_i32 : i32
    %at = arith.select %is0, %zero, %c2 : index
    %x = tensor.extract %arg0[%at] : tensor<4xf32>
    %r = tensor.insert %x into %arg2[%c0] : tensor<1xf32>
    return %r : tensor<1xf32>
  }}
}}"
            )
        };
        // The integer is 0 in one rotation only, not the first.
        let check = compare(&kernel(1), &kernel(2), "");
        assert!(
            matches!(check, Check::Differs(ref why) if why.contains("rotated by")),
            "{check}"
        );
        assert_eq!(
            compare(&kernel(1), &kernel(1), ""),
            Check::Same { elements: 1 }
        );
    }

    /// A 2x3 transpose as XLA's tiled code (masked vector loads, a shuffle, a vector store)
    /// and as the tiled emitter's tiles (`col` is where ours reads its first column).
    const XLA_TILED: &str = "module {
  func.func @t_impl(%arg0: memref<2x3xf32>, %arg1: memref<3x2xf32>, %arg2: index {xla.range = [0 : index, 0 : index]}) attributes {num_opaque_args = 0 : i32} {
    %mask = arith.constant dense<[true, true, true, false]> : vector<4xi1>
    %zero = arith.constant dense<0.000000e+00> : vector<4xf32>
    %c3 = llvm.mlir.constant(3 : i64) : i64
    %in = builtin.unrealized_conversion_cast %arg0 : memref<2x3xf32> to !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
    %out = builtin.unrealized_conversion_cast %arg1 : memref<3x2xf32> to !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
    %p = llvm.extractvalue %in[1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
    %q = llvm.extractvalue %out[1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
    %r0 = llvm.intr.masked.load(%p, %mask, %zero), alignment(4) : (!llvm.ptr, vector<4xi1>, vector<4xf32>) -> vector<4xf32>
    %p1 = llvm.getelementptr %p[%c3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %r1 = llvm.intr.masked.load(%p1, %mask, %zero), alignment(4) : (!llvm.ptr, vector<4xi1>, vector<4xf32>) -> vector<4xf32>
    %t = llvm.shufflevector %r0, %r1 [0, 4, 1, 5, 2, 6] : vector<4xf32>
    llvm.store %t, %q <alignment = 4> : vector<6xf32>, !llvm.ptr
    return
  }
}";

    fn ours_tiled(col: usize) -> String {
        format!(
            "module {{
  xtile.entry_func @t(%arg0: memref<2x3xf32>, %arg1: memref<3x2xf32>, %arg2: index {{xla.range = [0 : index, 0 : index]}}) attributes {{num_opaque_args = 0 : i32}} {{
    %c0 = arith.constant 0 : index
    %col = arith.constant {col} : index
    %0 = xtile.extract %arg0[%c0, %col] [2, 4] [1, 1] : memref<2x3xf32> -> tensor<2x4xf32>
    %1 = \"stablehlo.transpose\"(%0) <{{permutation = array<i64: 1, 0>}}> : (tensor<2x4xf32>) -> tensor<4x2xf32>
    %2 = math.exp %1 : tensor<4x2xf32>
    xtile.insert %1 into %arg1[%c0, %c0] [4, 2] [1, 1] : tensor<4x2xf32> -> memref<3x2xf32>
    xtile.return
  }}
}}"
        )
    }

    #[test]
    fn vectors_and_tiles() {
        // The vector at [3, 0] of an array of 4 x 1 vectors of 8.
        assert_eq!(sub_block(&[4, 1, 8], &[3, 0]).unwrap(), (24, vec![8]));
        assert!(sub_block(&[4, 1, 8], &[4]).is_err());
        assert_eq!(
            compare(XLA_TILED, &ours_tiled(0), ""),
            Check::Same { elements: 6 }
        );
        let check = compare(XLA_TILED, &ours_tiled(1), "");
        assert!(matches!(check, Check::Differs(_)), "{check}");
    }

    #[test]
    fn tensor_types() {
        assert_eq!(
            tensor_type("5x7xindex>").unwrap(),
            (vec![5, 7], "index".to_owned())
        );
        assert_eq!(tensor_type("f32>").unwrap(), (vec![], "f32".to_owned()));
        assert!(tensor_type("4x2xf32, dense<[1, 0]>>").is_err());
    }

    #[test]
    fn what_cannot_be_run_is_unchecked() {
        // A branch on a float comparison (a sort's).
        let branch = "module {
  func.func @f(%arg0: !llvm.ptr) attributes {xla.entry} {
    %0 = llvm.load %arg0 : !llvm.ptr -> f32
    %1 = arith.cmpf olt, %0, %0 : f32
    cf.cond_br %1, ^bb1, ^bb1
  ^bb1:
    return
  }
}";
        assert!(
            matches!(compare(branch, branch, ""), Check::Unchecked(ref why) if why.contains("float data"))
        );
        let while_loop = "module {
  func.func @f(%arg0: tensor<2xf32>) -> tensor<2xf32> attributes {xla.entry} {
    %0 = scf.while (%i = %arg0) : (tensor<2xf32>) -> tensor<2xf32> {
      scf.condition(%c) %i : tensor<2xf32>
    } do {
      scf.yield %i : tensor<2xf32>
    }
    return %0 : tensor<2xf32>
  }
}";
        assert!(
            matches!(compare(while_loop, while_loop, ""), Check::Unchecked(ref why) if why.contains("scf.while is not interpreted"))
        );
        let none = "module {\n  func.func @f() {\n    return\n  }\n}";
        assert!(
            matches!(compare(none, none, ""), Check::Unchecked(ref why) if why.contains("xla.entry"))
        );
    }
}
