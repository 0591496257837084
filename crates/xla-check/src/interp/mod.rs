//! An interpreter of the ops XLA's CPU kernels and ours hold, enough to run two versions of a
//! kernel on the same inputs and compare what they write (see [`crate::check`]).
//!
//! It runs `arith` and LLVM integer ops, `cf`, `scf.for`/`scf.if`/`scf.forall`, calls,
//! `xla.apply_indexing` and ours (their maps read by the project's own parser,
//! [`IndexingMap::parse`](xla_indexing_core::IndexingMap::parse)),
//! `llvm.getelementptr`/`load`/`store` (XLA's last stage) and
//! `tensor.extract`/`insert`/`collapse_shape` (ours); for the tiled emitter's kernels, LLVM's
//! vectors (masked loads and stores, shuffles, arrays of vectors, memref descriptors) on XLA's
//! side and tiles (`xtile.extract`/`insert`, StableHLO's transpose, broadcast, iota, reshape
//! and elementwise ops) on ours.
//!
//! Each op is run by the handler that [`table`] gives for its name: one module per dialect
//! ([`func`], [`cf`], [`scf`], [`arith`], [`llvm`], [`tensor`], [`xla`], [`stablehlo`]), and
//! [`compute`] for the ops of `arith`, `math` and LLVM that compute one value from their
//! operands. An op without a handler stops the run with [`RunError::UnknownOp`], at the op's
//! line.
//!
//! Integers are computed exactly, at their type's width ([`int`]). A float is not computed: it
//! is the set of input elements it depends on ([`value`]). What inputs hold and how a run
//! starts and ends is [`entry`](mod@entry)'s.

#[macro_use]
mod error;
mod arith;
mod cf;
mod compute;
mod entry;
mod func;
mod int;
mod llvm;
mod scf;
mod stablehlo;
mod table;
mod tensor;
mod value;
mod xla;

use std::{collections::HashMap, rc::Rc};

use xla_indexing_core::IndexingMap;

pub use self::{
    entry::{INTEGERS, Writes, entry, run},
    error::RunError,
    value::Value,
};
use self::{
    error::{Need, Result},
    value::{Loc, Tensor},
};
use crate::ir::{Block, Func, Module, Op, Region};

/// The most ops one run may execute.
const STEP_LIMIT: u64 = 50_000_000;

/// The values of the SSA names in scope, by name.
type Env = HashMap<String, Value>;

/// What running one op gives.
enum Effect {
    /// The values of its results, in order (none for an op without results).
    Results(Vec<Value>),
    /// Control leaves the block.
    Flow(Flow),
}

impl Effect {
    /// No results (a store, an op without results).
    fn none() -> Effect {
        Effect::Results(Vec::new())
    }
}

impl From<Value> for Effect {
    fn from(value: Value) -> Effect {
        Effect::Results(vec![value])
    }
}

/// Where a block's execution goes.
enum Flow {
    Exit(Exit),
    /// A branch to the block with this label, with these arguments.
    Jump(String, Vec<Value>),
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
            Exit::Parallel(_) => fail!("scf.forall.in_parallel outside an scf.forall"),
        }
    }
}

/// The interpreter's state over one run.
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

impl<'m> Interp<'m> {
    /// An interpreter of `module` whose integer inputs are rotated by `rotation`.
    fn new(module: &'m Module, rotation: usize) -> Interp<'m> {
        Interp {
            module,
            memory: HashMap::new(),
            elements: HashMap::new(),
            maps: HashMap::new(),
            steps: 0,
            rotation,
            read_integers: false,
        }
    }

    /// The bit width of the module's `index`.
    fn index_width(&self) -> u32 {
        self.module.index_width
    }

    /// Calls `func` with `args`; its results.
    fn call(&mut self, func: &Func, args: Vec<Value>) -> Result<Vec<Value>> {
        if args.len() != func.args.len() {
            fail!("@{} called with {} arguments", func.name, args.len());
        }
        let mut env: Env = func
            .args
            .iter()
            .map(|(name, _)| name.clone())
            .zip(args)
            .collect();
        self.region(&func.body, &mut env)
            .map_err(|e| e.within(format!("in @{}", func.name)))?
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
                        .need_with(|| format!("no block {label}"))?;
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
                fail!("more than {STEP_LIMIT} ops run");
            }
            let at = |inner| RunError::AtOp {
                line: op.line,
                text: op.text.clone(),
                inner: Box::new(inner),
            };
            if let Some(flow) = self.op(op, env).map_err(at)? {
                return Ok(flow);
            }
        }
        // An `scf.for` or `scf.if` without results prints no `scf.yield`.
        Ok(Flow::Exit(Exit::Yield(Vec::new())))
    }

    /// Runs one op with its handler and binds its results; a terminator gives where to go.
    fn op(&mut self, op: &Op, env: &mut Env) -> Result<Option<Flow>> {
        let handler = table::handler(&op.name)?;
        match handler(self, op, env)? {
            Effect::Results(values) => {
                for (name, value) in op.results.iter().zip(values) {
                    env.insert(name.clone(), value);
                }
                Ok(None)
            }
            Effect::Flow(flow) => Ok(Some(flow)),
        }
    }

    /// The value of operand `name`.
    fn get(&self, env: &Env, name: &str) -> Result<Value> {
        env.get(name)
            .cloned()
            .need_with(|| format!("{name} is not defined"))
    }

    /// The values of the operands `names`.
    fn get_all(&self, env: &Env, names: &[&str]) -> Result<Vec<Value>> {
        names.iter().map(|n| self.get(env, n)).collect()
    }

    /// The integer value of `name`.
    fn int(&self, env: &Env, name: &str) -> Result<i64> {
        match self.get(env, name)? {
            Value::Int(v) => Ok(v),
            Value::Data(_) => fail!("{name}, which depends on float data, is used as an integer"),
            other => fail!("{name} is {other:?}, not an integer"),
        }
    }

    /// An integer operand written as a name (`%i`) or a number (`4`).
    fn int_or_literal(&self, env: &Env, item: &str) -> Result<i64> {
        if item.starts_with('%') {
            self.int(env, item)
        } else {
            item.parse()
                .ok()
                .need_with(|| format!("{item} is not an integer"))
        }
    }

    /// The tensor operand `name`.
    fn tensor(&self, env: &Env, name: &str) -> Result<Tensor> {
        match self.get(env, name)? {
            Value::Tensor(t) => Ok(t),
            other => fail!("{name} is {other:?}, not a tensor"),
        }
    }

    /// The buffer and offset a pointer operand points at.
    fn pointer(&self, env: &Env, name: &str) -> Result<Loc> {
        match self.get(env, name)? {
            Value::Ptr { buf, off } => Ok((buf, off)),
            other => fail!("{name} is {other:?}, not a pointer into a buffer"),
        }
    }

    /// What the buffer element `loc` of type `element` holds: what was stored, else the
    /// input.
    fn load(&mut self, loc: Loc, element: &str) -> Value {
        match self.memory.get(&loc) {
            Some(Value::Int(v)) => Value::Int(int::wrap(
                *v,
                int::int_width(element, self.index_width()).unwrap_or(64),
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

    /// What the input element `loc` of type `element` holds, noting an integer read.
    fn initial(&mut self, loc: Loc, element: &str) -> Value {
        let value = entry::initial(loc, element, self.index_width(), self.rotation);
        self.read_integers |= matches!(value, Value::Int(_));
        value
    }
}
