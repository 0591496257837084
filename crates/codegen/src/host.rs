//! The host side of a module (`compile --emit host`): a `func.func` named after the entry
//! computation that launches every kernel of the entry computation with `gpu.launch_func`.
//!
//! Its arguments are the leaves of the entry computation's parameters (a tuple parameter gives
//! one argument per leaf, depth first), then one out-parameter per leaf of the entry's root;
//! each is a memref of the leaf's dimensions in its HLO layout (row-major memrefs for the
//! default layout, `strided<[...]>` otherwise, as the kernels' arguments). Buffers are assigned
//! per module with the simplest policy: every fusion result that is not written straight into
//! an out-parameter gets its own `gpu.alloc` (its name and byte size in the attributes
//! `xla_indexing.buffer` and `xla_indexing.bytes`), reused nowhere and freed with
//! `gpu.dealloc` after the last launch. Tuples and `get-tuple-element` only regroup buffers; a
//! `bitcast` is a `memref.reinterpret_cast` of its operand's buffer (same element type, same
//! byte size). A root leaf that no fusion writes directly (a parameter, a bitcast, a buffer
//! returned twice) is copied into its out-parameter with `gpu.memcpy`. The ops are the
//! synchronous forms; upstream's `gpu-async-region` and `gpu-to-llvm` make them the GPU
//! runtime's calls (`mgpuMemAlloc`, `mgpuLaunchKernel`, ...).

use std::collections::BTreeMap;

use xla_indexing_hlo::{
    HloError, Module,
    gpu::{KernelPlan, kernel::element_bits},
    module::Instruction,
    shape::ArrayShape,
};

use super::types::memref_type;

/// One buffer of the host function: its SSA name, its memref type and its HLO shape.
#[derive(Clone, Debug)]
struct Value {
    name: String,
    ty: String,
    shape: ArrayShape,
}

/// Where a leaf of an entry instruction's value comes from, seen through tuples and
/// `get-tuple-element`: the instruction that defines it, its leaf there, and whether a bitcast
/// lies on the way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Origin {
    def: usize,
    leaf: usize,
    viewed: bool,
}

/// The host `func.func` of `module`, indented for the body of a `builtin.module`: it launches
/// the kernels `plans` (in the order of `plan_module`, named `symbols`) in the entry
/// computation's order. An entry instruction other than a parameter, fusion, tuple,
/// `get-tuple-element` or bitcast is an error located at it.
pub fn host_function(
    module: &Module,
    plans: &[KernelPlan],
    symbols: &[String],
) -> Result<String, HloError> {
    let entry = &module.computations[module.entry];
    let mut host = Host::default();
    let mut params = Vec::new();
    for n in 0..entry.num_parameters() {
        let i = entry.parameter(n).ok_or_else(|| {
            HloError::Usage(format!(
                "entry computation {}: parameter {n} is missing",
                entry.name
            ))
        })?;
        let instr = &entry.instructions[i];
        let leaves = instr.shape.leaves();
        let mut values = Vec::new();
        for (k, shape) in leaves.iter().enumerate() {
            let name = if leaves.len() == 1 {
                format!("%p{n}")
            } else {
                format!("%p{n}_{k}")
            };
            values.push(host.value(name, shape, instr)?);
        }
        params.push((i, values));
    }
    // A module without fusions is one kernel of the entry computation itself: its arguments
    // are the parameters and the root's leaves.
    if let [plan] = plans
        && plan.kernel.computation == module.entry
    {
        let args: Vec<Value> = params.iter().flat_map(|(_, v)| v.clone()).collect();
        let mut outs = Vec::new();
        for (j, shape) in plan.kernel.outputs.iter().enumerate() {
            outs.push(host.value(format!("%out{j}"), shape, &entry.instructions[entry.root])?);
        }
        host.launch(&symbols[0], plan, args.iter().chain(&outs));
        return Ok(host.finish(&entry.name, &args, &outs));
    }

    let origins = origins(module)?;
    let root = &origins[entry.root];
    // The first root leaf a fusion result reaches directly is written in place.
    let mut claimed: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    for (j, o) in root.iter().enumerate() {
        let fusion = entry.instructions[o.def].opcode == "fusion";
        if fusion && !o.viewed && !claimed.contains_key(&(o.def, o.leaf)) {
            claimed.insert((o.def, o.leaf), j);
        }
    }
    let mut values: Vec<Vec<Value>> = vec![Vec::new(); entry.instructions.len()];
    for (i, v) in &params {
        values[*i] = v.clone();
    }
    let mut outs: Vec<Option<Value>> = vec![None; root.len()];
    for &i in &entry.post_order {
        let instr = &entry.instructions[i];
        let operand = |k: usize| &values[instr.operands[k]];
        values[i] = match instr.opcode.as_str() {
            "parameter" => continue,
            "tuple" => instr
                .operands
                .iter()
                .flat_map(|&o| values[o].clone())
                .collect(),
            "get-tuple-element" => {
                let range = tuple_element(module, instr)?;
                operand(0)
                    .get(range)
                    .ok_or_else(|| error(instr, "has no tuple element at its index"))?
                    .to_vec()
            }
            "bitcast" => match operand(0).as_slice() {
                [source] => vec![host.bitcast(instr, source)?],
                _ => return Err(error(instr, "is a bitcast of a tuple")),
            },
            "fusion" => {
                let (p, plan) = plans
                    .iter()
                    .enumerate()
                    .find(|(_, p)| {
                        (p.kernel.line, p.kernel.column) == (instr.pos.line, instr.pos.column)
                    })
                    .ok_or_else(|| error(instr, "is a fusion without a kernel"))?;
                let mut args = Vec::new();
                for (k, &o) in instr.operands.iter().enumerate() {
                    match values[o].as_slice() {
                        [v] => args.push(v.clone()),
                        _ => return Err(error(instr, format!("operand {k} is a tuple"))),
                    }
                }
                let mut results = Vec::new();
                for (k, shape) in plan.kernel.outputs.iter().enumerate() {
                    let v = match claimed.get(&(i, k)) {
                        Some(&j) => {
                            let v = host.value(format!("%out{j}"), shape, instr)?;
                            outs[j] = Some(v.clone());
                            v
                        }
                        None => host.alloc(instr, k, shape)?,
                    };
                    results.push(v);
                }
                host.launch(&symbols[p], plan, args.iter().chain(&results));
                results
            }
            other => {
                return Err(error(
                    instr,
                    format!(
                        "--emit host cannot launch `{other}` in the entry computation: only \
                         fusions, parameters, tuples, get-tuple-element and bitcasts are handled"
                    ),
                ));
            }
        };
    }
    let root_values = values[entry.root].clone();
    let mut outputs = Vec::new();
    for (j, (out, source)) in outs.into_iter().zip(&root_values).enumerate() {
        let out = match out {
            Some(v) => v,
            None => {
                // The out-parameter takes its source's shape and type, so that the copy is
                // between equal types.
                let v = Value {
                    name: format!("%out{j}"),
                    ..source.clone()
                };
                host.body.push(format!(
                    "gpu.memcpy {}, {} : {}, {}",
                    v.name, source.name, v.ty, source.ty
                ));
                v
            }
        };
        outputs.push(out);
    }
    let args: Vec<Value> = params.into_iter().flat_map(|(_, v)| v).collect();
    Ok(host.finish(&entry.name, &args, &outputs))
}

/// The body of the host function as it is written.
#[derive(Default)]
struct Host {
    body: Vec<String>,
    constants: BTreeMap<u64, String>,
    allocs: Vec<Value>,
    views: usize,
}

impl Host {
    /// A buffer named `name` holding `shape`; an element type or layout the kernels do not
    /// take is an error at `at`.
    fn value(&self, name: String, shape: &ArrayShape, at: &Instruction) -> Result<Value, HloError> {
        let ty = memref_type(shape).map_err(|e| error(at, e))?;
        Ok(Value {
            name,
            ty,
            shape: shape.clone(),
        })
    }

    /// An `index` constant, written once.
    fn constant(&mut self, n: u64) -> String {
        let name = format!("%c{n}");
        self.constants
            .entry(n)
            .or_insert_with(|| format!("{name} = arith.constant {n} : index"));
        name
    }

    /// A new device buffer for result `k` of `fusion`.
    fn alloc(
        &mut self,
        fusion: &Instruction,
        k: usize,
        shape: &ArrayShape,
    ) -> Result<Value, HloError> {
        let v = self.value(format!("%buf{}", self.allocs.len()), shape, fusion)?;
        let bytes = byte_size(shape)
            .ok_or_else(|| error(fusion, format!("output {k} {shape} has no byte size")))?;
        let label = if fusion.shape.leaf_count() == 1 {
            fusion.name.clone()
        } else {
            format!("{}#{k}", fusion.name)
        };
        self.body.push(format!(
            "{} = gpu.alloc () {{xla_indexing.buffer = \"{label}\", xla_indexing.bytes = {bytes} : i64}} : {}",
            v.name, v.ty
        ));
        self.allocs.push(v.clone());
        Ok(v)
    }

    /// `gpu.launch_func` of `symbol` with the plan's grid and block and `args` in the kernel's
    /// order (its parameters, then its outputs).
    fn launch<'a>(
        &mut self,
        symbol: &str,
        plan: &KernelPlan,
        args: impl Iterator<Item = &'a Value>,
    ) {
        let mut dims = |v: &[u64; 3]| {
            v.iter()
                .map(|&n| self.constant(n))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let blocks = dims(&plan.launch.blocks);
        let threads = dims(&plan.launch.threads);
        let args: Vec<String> = args.map(|v| format!("{} : {}", v.name, v.ty)).collect();
        self.body.push(format!(
            "gpu.launch_func @kernels::@{symbol} blocks in ({blocks}) threads in ({threads}) args({})",
            args.join(", ")
        ));
    }

    /// `bitcast` as a view of its operand's buffer: the same bytes read with the result's
    /// dimensions and layout.
    fn bitcast(&mut self, instr: &Instruction, source: &Value) -> Result<Value, HloError> {
        let Some(shape) = instr.array() else {
            return Err(error(instr, "is a bitcast to a tuple"));
        };
        if shape.element != source.shape.element || byte_size(shape) != byte_size(&source.shape) {
            return Err(error(
                instr,
                format!(
                    "bitcast of {} to {shape} changes the element type or the byte size",
                    source.shape
                ),
            ));
        }
        let strides = shape
            .layout_or_default()
            .strides(&shape.dims)
            .map_err(|e| error(instr, format!("layout of {shape}: {e}")))?;
        let v = self.value(format!("%view{}", self.views), shape, instr)?;
        self.views += 1;
        let list = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
        self.body.push(format!(
            "{} = memref.reinterpret_cast {} to offset: [0], sizes: [{}], strides: [{}] : {} to {}",
            v.name,
            source.name,
            list(&shape.dims),
            list(&strides),
            source.ty,
            v.ty
        ));
        Ok(v)
    }

    /// The function: `args`, then `outs` as out-parameters; the constants, the body, the
    /// buffers freed.
    fn finish(self, name: &str, args: &[Value], outs: &[Value]) -> String {
        let params: Vec<String> = args
            .iter()
            .chain(outs)
            .map(|v| format!("{}: {}", v.name, v.ty))
            .collect();
        let mut text = format!(
            "  func.func @{}({}) {{\n",
            quoted_symbol(name),
            params.join(", ")
        );
        let frees = self
            .allocs
            .iter()
            .map(|v| format!("gpu.dealloc {} : {}", v.name, v.ty));
        for line in self.constants.into_values().chain(self.body).chain(frees) {
            text.push_str(&format!("    {line}\n"));
        }
        text.push_str("    return\n  }\n");
        text
    }
}

/// The name as an MLIR symbol: bare when it is an identifier, quoted otherwise (`"main.3"` is
/// fine bare, `"a-b"` is not).
fn quoted_symbol(name: &str) -> String {
    let bare = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_$.".contains(c));
    if bare {
        name.to_string()
    } else {
        format!("\"{}\"", name.replace('\\', "\\\\").replace('"', "\\\""))
    }
}

/// Bytes of an array in memory (sub-byte elements packed, rounded up to a byte).
fn byte_size(shape: &ArrayShape) -> Option<u64> {
    let elements = u64::try_from(shape.element_count()?).ok()?;
    Some(
        elements
            .checked_mul(element_bits(&shape.element)?)?
            .div_ceil(8),
    )
}

/// The leaves of the tuple operand of `get-tuple-element` that `instr` selects.
fn tuple_element(module: &Module, instr: &Instruction) -> Result<std::ops::Range<usize>, HloError> {
    let entry = &module.computations[module.entry];
    let tuple = &entry.instructions[instr.operands[0]].shape;
    instr
        .int("index")
        .and_then(|i| usize::try_from(i).ok())
        .and_then(|i| tuple.element_leaves(i))
        .ok_or_else(|| error(instr, "has no tuple element at its index"))
}

/// For each entry instruction, where each leaf of its value comes from (empty for the
/// instructions the host does not handle, which the host function then reports).
fn origins(module: &Module) -> Result<Vec<Vec<Origin>>, HloError> {
    let entry = &module.computations[module.entry];
    let mut out: Vec<Vec<Origin>> = vec![Vec::new(); entry.instructions.len()];
    for &i in &entry.post_order {
        let instr = &entry.instructions[i];
        out[i] = match instr.opcode.as_str() {
            "parameter" | "fusion" => (0..instr.shape.leaf_count())
                .map(|leaf| Origin {
                    def: i,
                    leaf,
                    viewed: false,
                })
                .collect(),
            "tuple" => instr
                .operands
                .iter()
                .flat_map(|&o| out[o].clone())
                .collect(),
            "get-tuple-element" => out[instr.operands[0]]
                .get(tuple_element(module, instr)?)
                .map(<[Origin]>::to_vec)
                .unwrap_or_default(),
            "bitcast" => out[instr.operands[0]]
                .iter()
                .map(|o| Origin { viewed: true, ..*o })
                .collect(),
            _ => Vec::new(),
        };
    }
    Ok(out)
}

/// An error located at `instr`.
fn error(instr: &Instruction, message: impl Into<String>) -> HloError {
    HloError::Analysis {
        instruction: instr.name.clone(),
        line: instr.pos.line,
        column: instr.pos.column,
        message: message.into(),
    }
}
