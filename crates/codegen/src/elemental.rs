//! The elemental emitter: the value of an instruction of a fused computation at an index, as
//! MLIR text.
//!
//! An index is never a list of SSA values that flows from op to op. It is an [`Index`]: an
//! indexing map from the variables in scope (the thread ids, the range variables of the thread
//! loop and of enclosing reduction loops, runtime variables) to the instruction's index. Going
//! from an instruction to its operand composes the index with the op's output-to-input map
//! (`xla_indexing_hlo::ops::output_to_input`), so that a parameter is read through one
//! `xla_indexing.apply_indexing` of the thread-id map composed with every map on the way,
//! simplified as a whole.
//!
//! Regions: reductions and dots iterate their range variables with `xla_indexing.loop`; pad,
//! concatenate and dynamic-update-slice choose an operand with `scf.if` on the conditions under
//! which the operand's map reads it. Values are reused within a region and the regions it
//! encloses.

use std::collections::HashMap;
use xla_indexing_hlo::Opcode;

use xla_indexing_core::{ComposeError, Expr, IndexingMap, Interval, Var};
use xla_indexing_hlo::{
    HloError, Instruction, Module,
    access::Access,
    attrs::AttrValue,
    ops::{OpContext, OpKind, OperandAccess, Outcome, instruction_kind, output_to_input},
};

use super::array_constant;
use super::body::{Body, Scalar};
use super::buffer::ArrayBuffer;
use super::elementwise::elementwise;
use super::lanes::Lanes;
use super::scalar::{Typed, convert, float_literal};
use super::types::{Class, Element};

/// The loop variables in scope, as SSA names: the kernel's thread ids (the dims of every
/// [`Index`]) and the range variables of the enclosing loops (their symbols).
#[derive(Clone, Debug)]
pub struct Frame {
    pub dims: Vec<String>,
    pub syms: Vec<String>,
}

/// An index into an instruction's result: `map` takes the frame's dims, its first
/// `map.range_vars().len()` symbols and the runtime variables `rts` (SSA names) to the index.
#[derive(Clone, Debug)]
pub struct Index {
    pub map: IndexingMap,
    pub rts: Vec<String>,
}

impl From<IndexingMap> for Index {
    /// The index `map` gives, a map without runtime variables.
    fn from(map: IndexingMap) -> Index {
        Index {
            map,
            rts: Vec::new(),
        }
    }
}

impl Index {
    /// The index `map` gives, a map without runtime variables.
    pub fn of(map: &IndexingMap) -> Index {
        Index::from(map.clone())
    }
}

/// Where parameters come from: the kernel's buffers, or the scalars a reducer is applied to.
enum Params {
    Buffers(Vec<ArrayBuffer>),
    Scalars(Vec<Typed>),
}

/// The cache key of a value: parameter source, computation, instruction, and the index with
/// the SSA names its symbols stand for.
type Key = (usize, usize, usize, String);

/// The deepest the emitter recurses: one level per instruction on the way from a root to a
/// parameter (through reducers too). The `scf.if`s of a concatenate's operands add a level each,
/// up to [`MAX_REGIONS`]. The code generator's thread has the stack for it
/// (`xla_indexing_core::stack::STACK_BYTES`).
const MAX_DEPTH: usize = 20_000;

/// The deepest nesting of regions (`scf.if`, `xla_indexing.loop`) in a kernel: MLIR's parser
/// recurses into each region, and `mlir-opt` overflows its stack near 4000.
const MAX_REGIONS: usize = 2000;

/// Emits the values of a module's instructions into a [`Body`].
pub struct Emitter<'m> {
    module: &'m Module,
    pub body: Body,
    pub(crate) frame: Frame,
    /// Values of the enclosing regions (every result of an instruction), innermost last.
    scopes: Vec<HashMap<Key, Vec<Typed>>>,
    /// Parameter sources with their ids, innermost last.
    params: Vec<(usize, Params)>,
    /// The lanes of an unrolled thread's group, when the kernel computes them one by one and
    /// shares vector accesses between them (`vector.rs`).
    pub(crate) lanes: Option<Lanes>,
    next_params: usize,
    /// Whether composed maps are simplified before they are written.
    simplify: bool,
    /// How deep the emitter has recursed (at most [`MAX_DEPTH`]).
    depth: usize,
    /// Values given for instructions of the kernel's computation, whatever the index (the
    /// reduction emitter's results, the transpose emitter's value from its shared tile: their
    /// epilogues read them at the element they write).
    given: HashMap<(usize, usize), Typed>,
    /// The array constants too large for a vector constant, as module-level `memref.global`
    /// ops the kernel reads (see [`Emitter::global_lines`]).
    globals: Globals,
}

/// A kernel's global constants: `memref.global` ops named after the kernel, one per distinct
/// table.
#[derive(Default)]
struct Globals {
    /// The kernel's symbol, the globals' prefix.
    prefix: String,
    /// Each table's `dense<...> : type` text and its global's name, in the order made.
    made: Vec<(String, String)>,
}

impl<'m> Emitter<'m> {
    /// An emitter whose parameters are `buffers`, in parameter order;
    /// `simplify` says whether composed maps are simplified before they are written.
    pub fn new(
        module: &'m Module,
        (body, frame): (Body, Frame),
        buffers: Vec<ArrayBuffer>,
        simplify: bool,
        symbol: &str,
    ) -> Self {
        Emitter {
            module,
            body,
            frame,
            scopes: vec![HashMap::new()],
            params: vec![(0, Params::Buffers(buffers))],
            next_params: 1,
            lanes: None,
            simplify,
            depth: 0,
            given: HashMap::new(),
            globals: Globals {
                prefix: symbol.to_string(),
                made: Vec::new(),
            },
        }
    }

    /// The `memref.global` ops of the kernel's large array constants, to be written beside it
    /// in the `gpu.module` (indented for its body).
    pub(crate) fn global_lines(&self) -> String {
        self.globals
            .made
            .iter()
            .map(|(table, name)| {
                let (values, ty) = table.split_once(" : ").unwrap_or((table, ""));
                format!("    memref.global \"private\" constant @{name} : {ty} = {values}\n")
            })
            .collect()
    }

    /// Makes `value` the value of instruction `i` of computation `c` wherever the kernel's own
    /// computation reads it (not in called computations).
    pub(crate) fn give(&mut self, c: usize, i: usize, value: Typed) {
        self.given.insert((c, i), value);
    }

    /// Opens a scope for the values of a region the caller opened: values computed until
    /// [`Emitter::leave_scope`] are not reused after it.
    pub(crate) fn enter_scope(&mut self) {
        self.scopes.push(HashMap::new());
    }

    /// Closes the scope of [`Emitter::enter_scope`].
    pub(crate) fn leave_scope(&mut self) {
        self.scopes.pop();
    }

    fn simplify(&self, map: &mut IndexingMap) {
        if self.simplify {
            map.simplify();
        }
    }

    /// The value of instruction `i` of computation `c` at `index`.
    pub fn value(&mut self, c: usize, i: usize, index: &Index) -> Result<Typed, HloError> {
        self.leaf(c, i, None, index)
    }

    /// The value of result `leaf` of instruction `i` of computation `c` at `index`: `None` for
    /// an array-shaped instruction, `Some(k)` for result `k` of a variadic reduce.
    pub fn leaf(
        &mut self,
        c: usize,
        i: usize,
        leaf: Option<usize>,
        index: &Index,
    ) -> Result<Typed, HloError> {
        let instr = &self.module.computations[c].instructions[i];
        let mut results = self.results(c, i, index)?;
        match (leaf, instr.array().is_none()) {
            (None, false) if results.len() == 1 => Ok(results.remove(0)),
            (Some(k), true) if k < results.len() => Ok(results.swap_remove(k)),
            (None, true) => Err(fail(instr, "its value is a tuple, read where one array is")),
            _ => Err(fail(instr, format!("it has no result {leaf:?}"))),
        }
    }

    /// Every result of instruction `i` of computation `c` at `index` (one for an array-shaped
    /// instruction), computed once per region.
    fn results(&mut self, c: usize, i: usize, index: &Index) -> Result<Vec<Typed>, HloError> {
        if self.params.len() == 1
            && let Some(v) = self.given.get(&(c, i))
        {
            return Ok(vec![v.clone()]);
        }
        let key = self.key(c, i, index);
        if let Some(v) = self.scopes.iter().rev().find_map(|s| s.get(&key)) {
            return Ok(v.clone());
        }
        let instr = &self.module.computations[c].instructions[i];
        let v = self.deeper(instr, |e| e.compute(c, i, index))?;
        if let Some(scope) = self.scopes.last_mut() {
            scope.insert(key, v.clone());
        }
        Ok(v)
    }

    /// Runs `f` one level deeper, or fails naming `instr` past [`MAX_DEPTH`].
    fn deeper<T>(
        &mut self,
        instr: &Instruction,
        f: impl FnOnce(&mut Self) -> Result<T, HloError>,
    ) -> Result<T, HloError> {
        if self.depth >= MAX_DEPTH {
            return Err(fail(
                instr,
                format!("its value nests more than {MAX_DEPTH} instructions deep"),
            ));
        }
        self.depth += 1;
        let result = f(self);
        self.depth -= 1;
        result
    }

    /// Opens a region with `line`, or fails naming `instr` past [`MAX_REGIONS`].
    fn open_region(&mut self, instr: &Instruction, line: String) -> Result<(), HloError> {
        if self.body.regions() >= MAX_REGIONS {
            return Err(fail(
                instr,
                format!(
                    "its regions would be nested more than {MAX_REGIONS} deep (MLIR's parser recurses into each)"
                ),
            ));
        }
        self.body.open(line);
        Ok(())
    }

    /// Whether values are being emitted at the top of the thread loop's body: not under a
    /// condition, in an inner loop or in a called computation, at `regions` regions and
    /// `scopes` scopes deep.
    pub(crate) fn at_top(&self, regions: usize, scopes: usize) -> bool {
        self.scopes.len() == scopes && self.params.len() == 1 && self.body.regions() == regions
    }

    /// How many scopes are open (1 at the kernel's top).
    pub(crate) fn scope_depth(&self) -> usize {
        self.scopes.len()
    }

    fn key(&self, c: usize, i: usize, index: &Index) -> Key {
        let syms = &self.frame.syms[..index.map.range_vars().len().min(self.frame.syms.len())];
        let id = self.params.last().map_or(0, |p| p.0);
        let text = format!("{}|{}|{}", index.map, syms.join(","), index.rts.join(","));
        (id, c, i, text)
    }

    /// Every result of instruction `i` of computation `c` at `index`: a reduction's (several
    /// for a variadic reduce), a `get-tuple-element`'s leaf of one, or an array's value.
    fn compute(&mut self, c: usize, i: usize, index: &Index) -> Result<Vec<Typed>, HloError> {
        let instr = &self.module.computations[c].instructions[i];
        if instr.opcode == Opcode::GetTupleElement {
            let k = instr
                .int("index")
                .and_then(|k| usize::try_from(k).ok())
                .ok_or_else(|| fail(instr, "get-tuple-element without an index"))?;
            return Ok(vec![self.leaf(c, instr.operands[0], Some(k), index)?]);
        }
        if matches!(
            instruction_kind(instr),
            Some(OpKind::Reduce | OpKind::ReduceWindow)
        ) {
            return self.reduce(c, i, index);
        }
        Ok(vec![self.compute_array(c, i, index)?])
    }

    /// The value of array-shaped instruction `i` of computation `c` at `index` (not a
    /// reduction: [`Emitter::reduce`]).
    fn compute_array(&mut self, c: usize, i: usize, index: &Index) -> Result<Typed, HloError> {
        let module = self.module;
        let comp = &module.computations[c];
        let instr = &comp.instructions[i];
        let shape = instr
            .shape
            .as_array()
            .ok_or_else(|| fail(instr, "tuple-shaped values are not lowered"))?;
        let element = Element::of(&shape.element).map_err(|e| fail(instr, e))?;
        match instr.opcode {
            Opcode::Parameter => return self.parameter(instr, index, element),
            Opcode::Constant => return self.constant(instr, &shape.dims, index, element),
            Opcode::Iota => return self.iota(instr, index, element),
            _ => {}
        }
        let accesses = self.operand_accesses(c, instr)?;
        let operand = |k: usize| operand_access(instr, &accesses, k);
        use OpKind::*;
        match instruction_kind(instr) {
            Some(Elementwise | BitcastConvert) => {
                let mut args = Vec::new();
                for k in 0..instr.operands.len() {
                    let (o, a) = operand(k)?;
                    let at = self.operand_index(c, index, &a.access)?;
                    args.push(self.value(c, o, &at)?);
                }
                if instr.opcode == Opcode::Map {
                    let [callee] = instr.called("to_apply") else {
                        return Err(fail(instr, "map without to_apply"));
                    };
                    return self.apply(instr, callee, args, index);
                }
                let attr = |key: &str| match instr.attr(key) {
                    Some(AttrValue::Raw(v)) => Some(v.clone()),
                    _ => None,
                };
                let value = elementwise(&mut self.body, instr.opcode, &attr, element, &args)
                    .map_err(|e| fail(instr, e))?;
                Ok(Typed { value, element })
            }
            Some(Broadcast | Bitcast | Reshape | Transpose | Reverse | Slice | DynamicSlice) => {
                let (o, a) = operand(0)?;
                let at = self.operand_index(c, index, &a.access)?;
                self.value(c, o, &at)
            }
            Some(Pad) => self.choose(instr, c, index, &[operand(0)?], operand(1)?, element),
            Some(Concatenate) => {
                let n = instr.operands.len();
                let all = (0..n).map(operand).collect::<Result<Vec<_>, _>>()?;
                let (last, rest) = all.split_last().ok_or_else(|| fail(instr, "no operands"))?;
                self.choose(instr, c, index, rest, *last, element)
            }
            Some(DynamicUpdateSlice) => {
                self.choose(instr, c, index, &[operand(1)?], operand(0)?, element)
            }
            Some(Dot) => {
                let zero = match element.class {
                    Class::Float => float_literal(0.0, element),
                    Class::Pred | Class::Complex => {
                        return Err(fail(
                            instr,
                            format!("dots of {} values are not lowered", shape.element),
                        ));
                    }
                    _ => "0".into(),
                };
                let zero = Typed {
                    value: self.body.constant(&zero, element.mlir),
                    element,
                };
                let (lhs, l) = operand(0)?;
                let (rhs, r) = operand(1)?;
                let mut sums = self.reduction(
                    instr,
                    c,
                    index,
                    &[(lhs, &l.access), (rhs, &r.access)],
                    vec![zero],
                    |e, args, _| {
                        // The product and the sum in the result type, each rounded to it.
                        let typed = |value| Typed { value, element };
                        let a = typed(convert(&mut e.body, &args[1], element));
                        let b = typed(convert(&mut e.body, &args[2], element));
                        let arith = |e: &mut Self, op: Opcode, x: &Typed, y: &Typed| {
                            elementwise(
                                &mut e.body,
                                op,
                                &|_| None,
                                element,
                                &[x.clone(), y.clone()],
                            )
                            .map(typed)
                            .map_err(|e| fail(instr, e))
                        };
                        let p = arith(e, Opcode::Multiply, &a, &b)?;
                        Ok(vec![arith(e, Opcode::Add, &args[0], &p)?])
                    },
                )?;
                Ok(sums.remove(0))
            }
            _ => Err(fail(instr, format!("{} is not lowered", instr.opcode))),
        }
    }

    /// The maps from `instr`'s (first) result to its operands.
    fn operand_accesses(
        &self,
        c: usize,
        instr: &Instruction,
    ) -> Result<Vec<OperandAccess>, HloError> {
        let cx = OpContext::new(self.module, &self.module.computations[c], instr);
        match output_to_input(&cx, 0)? {
            Outcome::Defined(v) => Ok(v),
            Outcome::NotDefined(reason) => Err(fail(instr, reason)),
        }
    }

    /// A `reduce` or `reduce-window` of `n` inputs and `n` initial values: its `n` results,
    /// carried together through one loop over the reduced elements, the reducer applied to the
    /// accumulators and the inputs' values at each.
    fn reduce(&mut self, c: usize, i: usize, index: &Index) -> Result<Vec<Typed>, HloError> {
        let instr = &self.module.computations[c].instructions[i];
        let n = instr.operands.len() / 2;
        if n == 0 || instr.operands.len() != 2 * n || instr.shape.leaf_count() != n {
            return Err(fail(
                instr,
                format!(
                    "{} operands for {} results: a reduction takes one input and one initial value per result",
                    instr.operands.len(),
                    instr.shape.leaf_count()
                ),
            ));
        }
        let [callee] = instr.called("to_apply") else {
            return Err(fail(instr, "reduction without to_apply"));
        };
        let accesses = self.operand_accesses(c, instr)?;
        let mut inits = Vec::with_capacity(n);
        for k in n..2 * n {
            let (init, a) = operand_access(instr, &accesses, k)?;
            let at = self.operand_index(c, index, &a.access)?;
            inits.push(self.value(c, init, &at)?);
        }
        let inputs = (0..n)
            .map(|k| operand_access(instr, &accesses, k).map(|(o, a)| (o, &a.access)))
            .collect::<Result<Vec<_>, _>>()?;
        self.reduction(instr, c, index, &inputs, inits, |e, args, at| {
            e.apply_all(instr, callee, args.to_vec(), at)
        })
    }

    /// A parameter: a load from its buffer, or the reducer's scalar.
    fn parameter(
        &mut self,
        instr: &Instruction,
        index: &Index,
        element: Element,
    ) -> Result<Typed, HloError> {
        let n = instr.parameter_number.unwrap_or(0);
        match self.params.last().map(|p| &p.1) {
            Some(Params::Scalars(values)) => values
                .get(n)
                .cloned()
                .ok_or_else(|| fail(instr, format!("the reducer has no parameter {n}"))),
            Some(Params::Buffers(buffers)) => {
                let buffer = buffers
                    .get(n)
                    .cloned()
                    .ok_or_else(|| fail(instr, format!("the kernel has no parameter {n}")))?;
                if let Some(value) = self
                    .vector_lane(&buffer, index, element)
                    .map_err(|e| fail(instr, e))?
                {
                    return Ok(value);
                }
                let at = self.materialize(index).map_err(|e| fail(instr, e))?;
                let value = buffer.load(&mut self.body, &at);
                Ok(Typed { value, element })
            }
            None => Err(fail(instr, "no parameters in scope")),
        }
    }

    /// A constant of `dims` at `index`: a scalar's literal, or an array's element at the index
    /// as a lane of one vector constant (`array_constant.rs`).
    fn constant(
        &mut self,
        instr: &Instruction,
        dims: &[i64],
        index: &Index,
        element: Element,
    ) -> Result<Typed, HloError> {
        let text = instr.literal.as_deref().unwrap_or("").trim();
        let literal = |t: &str| {
            scalar_literal(t, element).ok_or_else(|| {
                fail(
                    instr,
                    format!("constant `{t}` is not a value of {}", shape_element(instr)),
                )
            })
        };
        if dims.is_empty() {
            let value = literal(text)?;
            return Ok(Typed {
                value: self.body.constant(&value, element.mlir),
                element,
            });
        }
        let written = array_constant::elements(text, dims).map_err(|e| fail(instr, e))?;
        let position = array_constant::row_major_position(index.map.results(), dims)
            .map_err(|e| fail(instr, e))?;
        let at = Index {
            map: index.map.with_results(vec![position]),
            rts: index.rts.clone(),
        };
        let at = self.materialize(&at).map_err(|e| fail(instr, e))?;
        if element.class != Class::Complex {
            let values = written
                .into_iter()
                .map(literal)
                .collect::<Result<Vec<_>, _>>()?;
            let value = self.table_lane(&values, element, &at[0]);
            return Ok(Typed { value, element });
        }
        // A complex table is two tables of its parts.
        let part = element.part();
        let mut parts = [Vec::new(), Vec::new()];
        for e in written {
            let (re, im) = array_constant::complex_parts(e).ok_or_else(|| {
                fail(
                    instr,
                    format!("constant element `{e}` is not a complex value"),
                )
            })?;
            for (list, t) in parts.iter_mut().zip([re, im]) {
                list.push(scalar_literal(t, part).ok_or_else(|| {
                    fail(
                        instr,
                        format!("constant element `{e}` is not a {}", element.mlir),
                    )
                })?);
            }
        }
        let [re, im] = parts.map(|values| self.table_lane(&values, part, &at[0]).name);
        let ty = element.mlir;
        let value = self
            .body
            .op("v", ty, format!("complex.create {re}, {im} : {ty}"));
        Ok(Typed { value, element })
    }

    /// Element `at` of the table of `values` (MLIR literals of `element`): a lane of one vector
    /// constant, or for more than [`array_constant::MAX_ELEMENTS`] values, as XLA reads large
    /// constants, a load from a global constant of the `gpu.module`.
    fn table_lane(&mut self, values: &[String], element: Element, at: &str) -> Scalar {
        if values.len() > array_constant::MAX_ELEMENTS {
            return self.global_element(values, element, at);
        }
        let ty = element.mlir;
        let vector = format!("vector<{}x{ty}>", values.len());
        let table = self.body.op(
            "table",
            &vector,
            format!("arith.constant dense<[{}]> : {vector}", values.join(", ")),
        );
        self.body.op(
            "v",
            ty,
            format!("vector.extract {}[{at}] : {ty} from {vector}", table.name),
        )
    }

    /// Element `at` of the global constant of `values` (made on first use).
    fn global_element(&mut self, values: &[String], element: Element, at: &str) -> Scalar {
        let ty = format!("memref<{}x{}>", values.len(), element.mlir);
        let table = format!("dense<[{}]> : {ty}", values.join(", "));
        let made = &mut self.globals.made;
        let name = match made.iter().find(|(t, _)| *t == table) {
            Some((_, name)) => name.clone(),
            None => {
                let name = format!("{}_constant{}", self.globals.prefix, made.len());
                made.push((table, name.clone()));
                name
            }
        };
        let global = self
            .body
            .op("table", &ty, format!("memref.get_global @{name} : {ty}"));
        self.body.op(
            "v",
            element.mlir,
            format!("memref.load {}[{at}] : {ty}", global.name),
        )
    }

    /// `iota`: the index along `iota_dimension`, converted to the element type.
    fn iota(
        &mut self,
        instr: &Instruction,
        index: &Index,
        element: Element,
    ) -> Result<Typed, HloError> {
        let d = instr
            .int("iota_dimension")
            .and_then(|d| usize::try_from(d).ok())
            .filter(|&d| d < index.map.results().len())
            .ok_or_else(|| fail(instr, "iota without a valid iota_dimension"))?;
        let one = Index {
            map: index.map.with_results(vec![index.map.results()[d].clone()]),
            rts: index.rts.clone(),
        };
        let at = self.materialize(&one).map_err(|e| fail(instr, e))?;
        let wide = self.body.op(
            "v",
            "i64",
            format!("arith.index_cast {} : index to i64", at[0]),
        );
        let s64 = Typed {
            value: wide,
            element: Element::of("s64").expect("s64 is lowered"),
        };
        Ok(Typed {
            value: convert(&mut self.body, &s64, element),
            element,
        })
    }

    /// `callee` (a reducer, a `map`'s or a scatter's computation) applied to scalars.
    pub(crate) fn apply(
        &mut self,
        instr: &Instruction,
        callee: &str,
        args: Vec<Typed>,
        at: &Index,
    ) -> Result<Typed, HloError> {
        let mut values = self.apply_all(instr, callee, args, at)?;
        match values.len() {
            1 => Ok(values.remove(0)),
            n => Err(fail(
                instr,
                format!("{callee} returns {n} values where one is read"),
            )),
        }
    }

    /// `callee` applied to scalars: its root's value, or each value of its root `tuple` (a
    /// variadic reducer's).
    pub(crate) fn apply_all(
        &mut self,
        instr: &Instruction,
        callee: &str,
        args: Vec<Typed>,
        at: &Index,
    ) -> Result<Vec<Typed>, HloError> {
        let c = self
            .module
            .computation(callee)
            .ok_or_else(|| fail(instr, format!("calls unknown computation {callee}")))?;
        let id = self.next_params;
        self.next_params += 1;
        self.params.push((id, Params::Scalars(args)));
        self.scopes.push(HashMap::new());
        let comp = &self.module.computations[c];
        let root = &comp.instructions[comp.root];
        let results = if root.opcode == Opcode::Tuple {
            root.operands.clone()
        } else {
            vec![comp.root]
        };
        let scalar = Index {
            map: at.map.with_results(Vec::new()),
            rts: at.rts.clone(),
        };
        let values = results
            .into_iter()
            .map(|r| self.value(c, r, &scalar))
            .collect();
        self.scopes.pop();
        self.params.pop();
        values
    }

    /// The index of an operand read through `access` at `index`; runtime variables get their
    /// values (clamped to their bounds, as dynamic-slice clamps offsets) emitted here.
    fn operand_index(
        &mut self,
        c: usize,
        index: &Index,
        access: &Access,
    ) -> Result<Index, HloError> {
        let comp = &self.module.computations[c];
        let who = &comp.instructions[comp.root];
        let mut rts = index.rts.clone();
        for (k, rt) in access.runtime.iter().enumerate() {
            let source = comp
                .instructions
                .iter()
                .position(|i| i.name == rt.instruction)
                .ok_or_else(|| fail(who, format!("no instruction {}", rt.instruction)))?;
            let at = Index {
                map: compose(&index.map, &rt.map, who)?,
                rts: index.rts.clone(),
            };
            let offset = self.value(c, source, &at)?;
            let bounds = access.map.rt_vars()[k].bounds;
            rts.push(self.clamped_index(&offset, bounds));
        }
        let map = compose(&index.map, &access.map, who)?;
        Ok(Index { map, rts })
    }

    /// An integer scalar as an `index` clamped to `bounds`.
    pub(crate) fn clamped_index(&mut self, v: &Typed, bounds: Interval) -> String {
        let cast = if v.element.is_signed() {
            "arith.index_cast"
        } else {
            "arith.index_castui"
        };
        let i = self.body.op(
            "v",
            "index",
            format!("{cast} {} : {} to index", v.value.name, v.element.mlir),
        );
        let lo = self.body.index(bounds.lo);
        let hi = self.body.index(bounds.hi);
        let up = self.body.op(
            "v",
            "index",
            format!("arith.maxsi {}, {} : index", i.name, lo.name),
        );
        self.body
            .op(
                "v",
                "index",
                format!("arith.minsi {}, {} : index", up.name, hi.name),
            )
            .name
    }

    /// The SSA names of `index`'s results: one `xla_indexing.apply_indexing` of its simplified
    /// map over the variables it uses.
    pub(crate) fn materialize(&mut self, index: &Index) -> Result<Vec<String>, ComposeError> {
        let mut map = index.map.clone();
        self.simplify(&mut map);
        if map.results().is_empty() {
            return Ok(Vec::new());
        }
        let nr = map.range_vars().len();
        let all: Vec<&String> = self.frame.dims[..map.dims().len()]
            .iter()
            .chain(&self.frame.syms[..nr])
            .chain(&index.rts)
            .collect();
        let removed = map.remove_unused_vars();
        let operands: Vec<&str> = all
            .iter()
            .zip(&removed)
            .filter(|(_, r)| !**r)
            .map(|(v, _)| v.as_str())
            .collect();
        let n = map.results().len();
        let name = self.body.fresh("i");
        let types = vec!["index"; n].join(", ");
        let head = if n == 1 {
            name.clone()
        } else {
            format!("{name}:{n}")
        };
        self.body.line(format!(
            "{head} = xla_indexing.apply_indexing #xla_indexing.map<\"{map}\">({}) : {types}",
            operands.join(", ")
        ));
        Ok(if n == 1 {
            vec![name]
        } else {
            (0..n).map(|k| format!("{name}#{k}")).collect()
        })
    }

    /// The value of the first of `branches` whose map reads its operand at `index`, else of
    /// `fallback`: a chain of `scf.if`s on the conditions of each branch (pad, concatenate,
    /// dynamic-update-slice `instr`).
    fn choose(
        &mut self,
        instr: &Instruction,
        c: usize,
        index: &Index,
        branches: &[(usize, &OperandAccess)],
        fallback: (usize, &OperandAccess),
        element: Element,
    ) -> Result<Typed, HloError> {
        let mut branches = branches;
        // The first branch whose operand may be read, with the conditions under which it is.
        let (o, mut at, conditions, rest) = loop {
            let Some(((o, a), rest)) = branches.split_first() else {
                let at = self.operand_index(c, index, &fallback.1.access)?;
                return self.value(c, fallback.0, &at);
            };
            let operand = &self.module.computations[c].instructions[*o];
            let dims = operand.array().map(|s| s.dims.clone()).unwrap_or_default();
            let at = self.operand_index(c, index, &a.access)?;
            match read_conditions(index, &at, &dims) {
                Some(conditions) => break (*o, at, conditions, rest),
                None => branches = rest,
            }
        };
        self.simplify(&mut at.map);
        if conditions.is_empty() {
            return self.value(c, o, &at);
        }
        let operand = &self.module.computations[c].instructions[o];
        let test = self
            .test(&at, index, &conditions)
            .map_err(|e| fail(operand, e))?;
        let ty = element.mlir;
        let result = self.body.fresh("r");
        self.open_region(instr, format!("{result} = scf.if {test} -> ({ty}) {{"))?;
        self.scopes.push(HashMap::new());
        let then = self.value(c, o, &at);
        self.scopes.pop();
        let then = then?;
        self.body
            .line(format!("scf.yield {} : {ty}", then.value.name));
        self.body.close("} else {", true);
        self.scopes.push(HashMap::new());
        let other = self.choose(instr, c, index, rest, fallback, element);
        self.scopes.pop();
        let other = other?;
        self.body
            .line(format!("scf.yield {} : {ty}", other.value.name));
        self.body.close("}", false);
        Ok(Typed {
            value: Scalar::new(result, ty),
            element,
        })
    }

    /// An `i1` that holds where every `(expression, interval)` of `conditions` does; the
    /// expressions are over `at`'s variables and are evaluated under `outer`'s constraints only.
    fn test(
        &mut self,
        at: &Index,
        outer: &Index,
        conditions: &[(Expr, Interval)],
    ) -> Result<String, ComposeError> {
        let map = on_outer_domain(&at.map, &outer.map)
            .with_results(conditions.iter().map(|(e, _)| e.clone()).collect());
        let values = self.materialize(&Index {
            map,
            rts: at.rts.clone(),
        })?;
        let mut all: Option<String> = None;
        for (v, (_, iv)) in values.iter().zip(conditions) {
            let mut parts = Vec::new();
            if iv.lo == iv.hi {
                parts.push(("eq", iv.lo));
            } else {
                if iv.lo != Interval::FULL.lo {
                    parts.push(("sge", iv.lo));
                }
                if iv.hi != Interval::FULL.hi {
                    parts.push(("sle", iv.hi));
                }
            }
            for (predicate, bound) in parts {
                let b = self.body.index(bound);
                let t = self.body.op(
                    "t",
                    "i1",
                    format!("arith.cmpi {predicate}, {v}, {} : index", b.name),
                );
                all = Some(match all {
                    None => t.name,
                    Some(prev) => {
                        self.body
                            .op("t", "i1", format!("arith.andi {prev}, {} : i1", t.name))
                            .name
                    }
                });
            }
        }
        Ok(all.unwrap_or_else(|| self.body.constant("true", "i1").name))
    }

    /// A reduction over the range variables that `inputs`' maps add at `index` (the same ones
    /// for every input, as a dot's two operands share its contracting dimensions): an
    /// `xla_indexing.loop` carrying the accumulators from `inits`; `step` combines the
    /// accumulators and the inputs' values at one point (in that order) into the next
    /// accumulators. Returns the final accumulators.
    fn reduction(
        &mut self,
        instr: &Instruction,
        c: usize,
        index: &Index,
        inputs: &[(usize, &Access)],
        inits: Vec<Typed>,
        step: impl Fn(&mut Self, &[Typed], &Index) -> Result<Vec<Typed>, HloError>,
    ) -> Result<Vec<Typed>, HloError> {
        let nr = index.map.range_vars().len();
        if !index.rts.is_empty() {
            return Err(fail(
                instr,
                "reductions under dynamic offsets are not lowered",
            ));
        }
        let at: Vec<Index> = inputs
            .iter()
            .map(|(_, a)| self.operand_index(c, index, a))
            .collect::<Result<_, _>>()?;
        let first = &at[0].map;
        let k = first.range_vars().len() - nr;
        let bounds = |m: &IndexingMap| -> Vec<Interval> {
            m.range_vars()[nr..].iter().map(|v| v.bounds).collect()
        };
        if at.iter().any(|a| bounds(&a.map) != bounds(first)) {
            return Err(fail(instr, "the operands' range variables differ"));
        }
        // The loop: the enclosing range variables become dims; constraints over them alone
        // already hold here, the others restrict the iteration.
        let mut loop_map = first.convert_range_vars_to_dims(&(0..nr).collect::<Vec<_>>());
        let nd = loop_map.dims().len() - nr;
        let keep: Vec<(Expr, Interval)> = loop_map
            .constraints()
            .iter()
            .filter(|(e, _)| {
                let mut new = false;
                e.for_each_var(&mut |v| {
                    new |= matches!(v, xla_indexing_core::VarRef::Sym(_));
                });
                new
            })
            .map(|(e, iv)| (e.clone(), *iv))
            .collect();
        loop_map.clear_constraints();
        for (e, iv) in keep {
            loop_map.add_constraint(e, iv);
        }
        self.simplify(&mut loop_map);
        let dims: Vec<String> = self.frame.dims[..nd]
            .iter()
            .chain(&self.frame.syms[..nr])
            .cloned()
            .collect();
        let ivs: Vec<String> = (0..k).map(|_| self.body.fresh("r")).collect();
        let results: Vec<String> = (0..loop_map.results().len())
            .map(|_| self.body.fresh("x"))
            .collect();
        let accs: Vec<String> = inits.iter().map(|_| self.body.fresh("acc")).collect();
        let name = self.body.fresh("red");
        let types: Vec<&str> = inits.iter().map(|v| v.element.mlir).collect();
        let syms = if ivs.is_empty() {
            String::new()
        } else {
            format!("[{}]", ivs.join(", "))
        };
        let carried: Vec<String> = accs
            .iter()
            .zip(&inits)
            .map(|(acc, init)| format!("{acc} = {}", init.value.name))
            .collect();
        let defined = match inits.len() {
            1 => name.clone(),
            n => format!("{name}:{n}"),
        };
        self.open_region(instr, format!(
            "{defined} = xla_indexing.loop ({}){syms} -> ({}) in #xla_indexing.map<\"{loop_map}\"> iter_args({}) -> ({}) {{",
            dims.join(", "),
            results.join(", "),
            carried.join(", "),
            types.join(", ")
        ))?;
        let saved = self.frame.syms.clone();
        self.frame.syms.truncate(nr);
        self.frame.syms.extend(ivs);
        self.scopes.push(HashMap::new());
        let body = (|| {
            let mut args: Vec<Typed> = accs
                .iter()
                .zip(&inits)
                .map(|(acc, init)| Typed {
                    value: Scalar::new(acc.clone(), init.element.mlir),
                    element: init.element,
                })
                .collect();
            for ((o, _), a) in inputs.iter().zip(&at) {
                let mut a = a.clone();
                self.simplify(&mut a.map);
                args.push(self.value(c, *o, &a)?);
            }
            step(self, &args, &at[0])
        })();
        self.scopes.pop();
        self.frame.syms = saved;
        let next = body?;
        if next.len() != inits.len() {
            return Err(fail(
                instr,
                format!(
                    "the reducer gives {} values for {} accumulators",
                    next.len(),
                    inits.len()
                ),
            ));
        }
        let yielded: Vec<&str> = next.iter().map(|v| v.value.name.as_str()).collect();
        self.body.line(format!(
            "xla_indexing.yield {} : {}",
            yielded.join(", "),
            types.join(", ")
        ));
        self.body.close("}", false);
        Ok(inits
            .iter()
            .enumerate()
            .map(|(k, init)| Typed {
                value: Scalar::new(
                    if inits.len() == 1 {
                        name.clone()
                    } else {
                        format!("{name}#{k}")
                    },
                    init.element.mlir,
                ),
                element: init.element,
            })
            .collect())
    }
}

/// `second ∘ first` for emission, an error naming `instr` when it overflows.
fn compose(
    first: &IndexingMap,
    second: &IndexingMap,
    instr: &Instruction,
) -> Result<IndexingMap, HloError> {
    first
        .compose(second)
        .map_err(|e| fail(instr, format!("composing indexing maps: {e}")))
}

/// The conditions under which the operand index `at` (just composed from `index`, not yet
/// simplified) is read: the constraints the operand's map added, and the index lying within
/// the operand's `dims`. Conditions that always hold under `index`'s domain are dropped;
/// `None` when one never holds.
fn read_conditions(index: &Index, at: &Index, dims: &[i64]) -> Option<Vec<(Expr, Interval)>> {
    if at.map.is_known_empty() {
        return None;
    }
    let own = index.map.constraints();
    let mut all: Vec<(Expr, Interval)> = at
        .map
        .constraints()
        .iter()
        .filter(|(e, iv)| own.get(*e) != Some(*iv))
        .map(|(e, iv)| (e.clone(), *iv))
        .collect();
    // Composing turns the operand map's constraints on a bare variable into narrower bounds.
    let (m, o) = (&at.map, &index.map);
    let nr = m.range_vars().len();
    let shared = [
        (m.dims(), o.dims(), 0, true),
        (m.range_vars(), o.range_vars(), 0, false),
        (m.rt_vars(), o.rt_vars(), nr, false),
    ];
    for (own_vars, outer_vars, first, is_dim) in shared {
        for (k, (v, w)) in own_vars.iter().zip(outer_vars).enumerate() {
            if v.bounds != w.bounds {
                let k = (first + k) as u32;
                let var = if is_dim { Expr::dim(k) } else { Expr::sym(k) };
                all.push((var, v.bounds));
            }
        }
    }
    for (r, &size) in at.map.results().iter().zip(dims) {
        all.push((r.clone(), Interval::new(0, size - 1)));
    }
    let outer = on_outer_domain(&at.map, &index.map);
    let ev = outer.range_evaluator(false);
    let mut kept = Vec::new();
    for (e, iv) in all {
        let range = ev.range(&e);
        if iv.contains_interval(range) {
            continue;
        }
        if !iv.intersect(range).is_feasible() {
            return None;
        }
        if !kept.contains(&(e.clone(), iv)) {
            kept.push((e, iv));
        }
    }
    Some(kept)
}

/// `at`, composed from `outer`, over `outer`'s domain: the variables they share take `outer`'s
/// bounds and the constraints are `outer`'s (the operand maps of pad, concatenate and
/// dynamic-update-slice add no range variables, so the symbols line up). `at`'s own domain
/// assumes that its operand is read; conditions on reading it are evaluated without that
/// assumption.
fn on_outer_domain(at: &IndexingMap, outer: &IndexingMap) -> IndexingMap {
    let shared = |own: &[Var], theirs: &[Var]| -> Vec<Var> {
        own.iter()
            .enumerate()
            .map(|(k, v)| theirs.get(k).unwrap_or(v).clone())
            .collect()
    };
    let mut map = IndexingMap::new(
        at.results().to_vec(),
        shared(at.dims(), outer.dims()),
        shared(at.range_vars(), outer.range_vars()),
        shared(at.rt_vars(), outer.rt_vars()),
    );
    for (e, iv) in outer.constraints() {
        map.add_constraint(e.clone(), *iv);
    }
    map
}

/// The MLIR literal of a scalar constant written `text` in HLO, of element type `e`.
fn scalar_literal(text: &str, e: Element) -> Option<String> {
    match e.class {
        Class::Fp4 => {
            let v: f32 = match text {
                "inf" => f32::INFINITY,
                "-inf" => f32::NEG_INFINITY,
                "nan" | "-nan" => f32::NAN,
                t => t.parse().ok()?,
            };
            // The code's bits as an `i4` literal (read signed).
            Some((((super::fp4::code(v) << 4) as i8) >> 4).to_string())
        }
        Class::Fp8(fp8) => {
            let v: f32 = match text {
                "inf" => f32::INFINITY,
                "-inf" => f32::NEG_INFINITY,
                "nan" | "-nan" => f32::NAN,
                t => t.parse::<f64>().ok()? as f32,
            };
            // The code's bits as an `i8` literal (read signed).
            Some((fp8.encode(v) as i8).to_string())
        }
        Class::Pred => match text {
            "true" | "1" => Some("true".into()),
            "false" | "0" => Some("false".into()),
            _ => None,
        },
        Class::Float => {
            let v: f64 = match text {
                "inf" => f64::INFINITY,
                "-inf" => f64::NEG_INFINITY,
                "nan" | "-nan" => f64::NAN,
                t => t.parse().ok()?,
            };
            Some(float_literal(v, e))
        }
        Class::Complex => {
            let (re, im) = text.strip_prefix('(')?.strip_suffix(')')?.split_once(',')?;
            let part = e.part();
            let t = part.mlir;
            Some(format!(
                "[{} : {t}, {} : {t}]",
                scalar_literal(re.trim(), part)?,
                scalar_literal(im.trim(), part)?
            ))
        }
        Class::Signed | Class::Unsigned => {
            let v: i128 = text.parse().ok()?;
            let bits = e.bits;
            let (lo, hi) = if e.is_signed() {
                (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
            } else {
                (0, (1i128 << bits) - 1)
            };
            if v < lo || v > hi {
                return None;
            }
            // MLIR reads integer literals in the type's width; write unsigned values that do
            // not fit the signed range as their two's-complement.
            let wrapped = if v > (1i128 << (bits - 1)) - 1 {
                v - (1i128 << bits)
            } else {
                v
            };
            Some(wrapped.to_string())
        }
    }
}

/// Operand `k` of `instr` and the map `accesses` read it through; an operand read as a tuple
/// is an error naming `instr`.
fn operand_access<'a>(
    instr: &Instruction,
    accesses: &'a [OperandAccess],
    k: usize,
) -> Result<(usize, &'a OperandAccess), HloError> {
    let a = accesses
        .iter()
        .find(|a| a.operand == k)
        .ok_or_else(|| fail(instr, format!("operand {k} has no indexing map")))?;
    if a.leaf != 0 {
        return Err(fail(instr, "tuple-shaped operands are not lowered"));
    }
    Ok((instr.operands[k], a))
}

/// The element type of `instr`'s (array) shape, as HLO writes it.
fn shape_element(instr: &Instruction) -> &str {
    instr.array().map_or("?", |a| a.element.as_str())
}

/// A lowering error naming the instruction.
fn fail(instr: &Instruction, message: impl std::fmt::Display) -> HloError {
    HloError::Analysis {
        instruction: instr.name.clone(),
        line: instr.pos.line,
        column: instr.pos.column,
        message: format!("cannot be lowered: {message}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_respect_the_type() {
        let e = |n| Element::of(n).unwrap();
        assert_eq!(scalar_literal("255", e("u8")).as_deref(), Some("-1"));
        assert_eq!(scalar_literal("256", e("u8")), None);
        assert_eq!(scalar_literal("-129", e("s8")), None);
        assert_eq!(scalar_literal("true", e("pred")).as_deref(), Some("true"));
        assert_eq!(
            scalar_literal("-inf", e("f32")).as_deref(),
            Some("0xFF800000")
        );
        assert_eq!(scalar_literal("{1, 2}", e("f32")), None);
        assert_eq!(
            scalar_literal("(1, -inf)", e("c64")).as_deref(),
            Some("[1.0e0 : f32, 0xFF800000 : f32]")
        );
        assert_eq!(scalar_literal("(1)", e("c128")), None);
    }
}
