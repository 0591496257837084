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
//! returned twice) is copied into its out-parameter with `gpu.memcpy`; so is a scatter's
//! operand into the scatter kernel's output before its launch (XLA gives the two one buffer;
//! the kernel only combines the updates into it). The ops are the
//! synchronous forms; upstream's `gpu-async-region` and `gpu-to-llvm` make them the GPU
//! runtime's calls (`mgpuMemAlloc`, `mgpuLaunchKernel`, ...).

use std::collections::BTreeMap;
use xla_indexing_hlo::Opcode;

use xla_indexing_hlo::{HloError, Module, module::Instruction, shape::ArrayShape};

use xla_indexing_gpu::{KernelPlan, kernel::element_bits};

use super::error::CodegenError;
use super::types::{memref_layout, memref_type};

/// Where a leaf of an entry instruction's value comes from, seen through tuples and
/// `get-tuple-element`: the instruction that defines it, its leaf there, and whether a bitcast
/// lies on the way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Origin {
    def: usize,
    leaf: usize,
    viewed: bool,
}

/// A device buffer of the host program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Buffer {
    /// The SSA name of the value that holds it in the host function: `%p0` (`%p0_1` for a leaf
    /// of a tuple parameter), `%out0`, `%buf0`.
    pub name: String,
    /// What the buffer is.
    pub role: BufferRole,
    /// The shape it is allocated with.
    pub shape: ArrayShape,
    /// Its memref type.
    pub ty: String,
    /// Its strides in elements, as the layout gives them.
    pub strides: Vec<i64>,
    /// Its size in bytes (sub-byte elements packed, rounded up to a byte).
    pub bytes: u64,
}

/// What a [`Buffer`] is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BufferRole {
    /// A leaf of an entry parameter, an argument of the host function.
    Parameter,
    /// A fusion result the host allocates, labelled with the fusion's name (`name#k` for
    /// result `k` of a multi-output fusion).
    Intermediate(String),
    /// A leaf of the entry's root, an out-parameter of the host function.
    Output,
}

/// A memref value of the host function: a buffer seen with a shape (a bitcast views its
/// operand's buffer with other dimensions).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostValue {
    /// Its SSA name.
    pub name: String,
    /// Its memref type.
    pub ty: String,
    /// Its HLO shape (dimensions and layout).
    pub shape: ArrayShape,
    /// Its strides in elements, as the layout gives them.
    pub strides: Vec<i64>,
    /// The index of its buffer in [`LaunchList::buffers`].
    pub buffer: usize,
}

/// One step of the host program, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Allocates the intermediate buffer of this index.
    Alloc(usize),
    /// Launches the kernel of this index in the plans with the arguments (its parameters, then
    /// its outputs).
    Launch {
        /// The index of the kernel's plan.
        kernel: usize,
        /// The kernel's arguments, in its order.
        args: Vec<HostValue>,
    },
    /// Views `source`'s buffer as `value` (a bitcast).
    View {
        /// The view.
        value: HostValue,
        /// The value viewed.
        source: HostValue,
        /// The view's memref sizes and strides (its dimensions and layout, or one dimension
        /// of bytes for packed elements).
        layout: (Vec<i64>, Vec<i64>),
    },
    /// Fills output `out` of the next launch with `source`, its scatter operand, which XLA
    /// gives the scatter kernel's output as its buffer (the kernel only combines the updates).
    Fill {
        /// The kernel's output.
        out: HostValue,
        /// The scatter's operand.
        source: HostValue,
    },
    /// Copies `source` into the out-parameter `out`.
    Copy {
        /// The out-parameter.
        out: HostValue,
        /// The value copied.
        source: HostValue,
    },
}

/// The host program of a module, as data: the buffers, the host function's arguments and
/// out-parameters, and the steps that launch every kernel in the entry computation's order.
/// [`host_function`] writes it as MLIR; a runner can follow it to launch the kernels itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaunchList {
    /// The entry computation's name.
    pub name: String,
    /// Every buffer: the parameters' leaves first, then the others as the steps meet them.
    pub buffers: Vec<Buffer>,
    /// The host function's arguments (the parameters' leaves).
    pub args: Vec<HostValue>,
    /// Its out-parameters (the root's leaves).
    pub outs: Vec<HostValue>,
    /// The steps.
    pub steps: Vec<Step>,
}

/// The host `func.func` of `module`, indented for the body of a `builtin.module`: it launches
/// the kernels `plans` (in the order of `plan_module`, named `symbols`) in the entry
/// computation's order, as [`launch_list`] lists them.
pub fn host_function(
    module: &Module,
    plans: &[KernelPlan],
    symbols: &[String],
) -> Result<String, HloError> {
    Ok(write_host(&launch_list(module, plans)?, plans, symbols))
}

/// Where and how `module` launches the kernels `plans` (in the order of `plan_module`): the
/// host program that [`host_function`] writes. An entry instruction other than a parameter,
/// fusion, tuple, `get-tuple-element` or bitcast is an error located at it.
pub fn launch_list(module: &Module, plans: &[KernelPlan]) -> Result<LaunchList, HloError> {
    let entry = &module.computations[module.entry];
    let mut host = Builder::default();
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
            values.push(host.buffer(name, BufferRole::Parameter, shape, instr)?);
        }
        params.push((i, values));
    }
    // A module without fusions is one kernel of the entry computation itself: its arguments
    // are the parameters and the root's leaves.
    if let [plan] = plans
        && plan.kernel.computation == module.entry
    {
        let args: Vec<HostValue> = params.iter().flat_map(|(_, v)| v.clone()).collect();
        let mut outs = Vec::new();
        for (j, shape) in plan.kernel.outputs.iter().enumerate() {
            let root = &entry.instructions[entry.root];
            outs.push(host.buffer(format!("%out{j}"), BufferRole::Output, shape, root)?);
        }
        host.steps.push(Step::Launch {
            kernel: 0,
            args: args.iter().chain(&outs).cloned().collect(),
        });
        return Ok(host.finish(&entry.name, args, outs));
    }

    let origins = origins(module)?;
    let root = &origins[entry.root];
    // The first root leaf a fusion result reaches directly is written in place.
    let mut claimed: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    for (j, o) in root.iter().enumerate() {
        let fusion = entry.instructions[o.def].opcode == Opcode::Fusion;
        if fusion && !o.viewed && !claimed.contains_key(&(o.def, o.leaf)) {
            claimed.insert((o.def, o.leaf), j);
        }
    }
    let mut values: Vec<Vec<HostValue>> = vec![Vec::new(); entry.instructions.len()];
    for (i, v) in &params {
        values[*i] = v.clone();
    }
    let mut outs: Vec<Option<HostValue>> = vec![None; root.len()];
    for &i in &entry.post_order {
        let instr = &entry.instructions[i];
        let operand = |k: usize| &values[instr.operands[k]];
        values[i] = match instr.opcode {
            Opcode::Parameter => continue,
            Opcode::Tuple => instr
                .operands
                .iter()
                .flat_map(|&o| values[o].clone())
                .collect(),
            Opcode::GetTupleElement => {
                let range = tuple_element(module, instr)?;
                operand(0)
                    .get(range)
                    .ok_or_else(|| error(instr, "has no tuple element at its index"))?
                    .to_vec()
            }
            Opcode::Bitcast => match operand(0).as_slice() {
                [source] => vec![host.bitcast(instr, source)?],
                _ => return Err(error(instr, "is a bitcast of a tuple")),
            },
            Opcode::Fusion => {
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
                            let name = format!("%out{j}");
                            let v = host.buffer(name, BufferRole::Output, shape, instr)?;
                            outs[j] = Some(v.clone());
                            v
                        }
                        None => host.alloc(instr, k, shape)?,
                    };
                    results.push(v);
                }
                for (o, p) in plan.emitter.outputs_from_parameters() {
                    host.steps.push(Step::Fill {
                        out: results[o].clone(),
                        source: args[p].clone(),
                    });
                }
                args.extend(results.iter().cloned());
                host.steps.push(Step::Launch { kernel: p, args });
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
                let root = &entry.instructions[entry.root];
                let name = format!("%out{j}");
                let v = host.buffer(name, BufferRole::Output, &source.shape, root)?;
                host.steps.push(Step::Copy {
                    out: v.clone(),
                    source: source.clone(),
                });
                v
            }
        };
        outputs.push(out);
    }
    let args: Vec<HostValue> = params.into_iter().flat_map(|(_, v)| v).collect();
    Ok(host.finish(&entry.name, args, outputs))
}

/// A [`LaunchList`] as it is built.
#[derive(Default)]
struct Builder {
    buffers: Vec<Buffer>,
    steps: Vec<Step>,
    allocs: usize,
    views: usize,
}

impl Builder {
    /// A value named `name` holding `shape` in `buffer`; an element type or layout the kernels
    /// do not take is an error at `at`.
    fn value(
        name: String,
        shape: &ArrayShape,
        buffer: usize,
        at: &Instruction,
    ) -> Result<HostValue, HloError> {
        let ty = memref_type(shape).map_err(|e| error(at, e))?;
        let strides = shape
            .layout_or_default()
            .strides(&shape.dims)
            .map_err(|e| error(at, CodegenError::layout(shape, e)))?;
        Ok(HostValue {
            name,
            ty,
            shape: shape.clone(),
            strides,
            buffer,
        })
    }

    /// A new buffer named `name` holding `shape`, and the value that is it; an element type
    /// or layout the kernels do not take is an error at `at`.
    fn buffer(
        &mut self,
        name: String,
        role: BufferRole,
        shape: &ArrayShape,
        at: &Instruction,
    ) -> Result<HostValue, HloError> {
        let v = Self::value(name.clone(), shape, self.buffers.len(), at)?;
        let bytes =
            byte_size(shape).ok_or_else(|| error(at, format!("{shape} has no byte size")))?;
        self.buffers.push(Buffer {
            name,
            role,
            shape: shape.clone(),
            ty: v.ty.clone(),
            strides: v.strides.clone(),
            bytes,
        });
        Ok(v)
    }

    /// A new device buffer for result `k` of `fusion`.
    fn alloc(
        &mut self,
        fusion: &Instruction,
        k: usize,
        shape: &ArrayShape,
    ) -> Result<HostValue, HloError> {
        let label = if fusion.shape.leaf_count() == 1 {
            fusion.name.clone()
        } else {
            format!("{}#{k}", fusion.name)
        };
        let name = format!("%buf{}", self.allocs);
        let v = self.buffer(name, BufferRole::Intermediate(label), shape, fusion)?;
        self.allocs += 1;
        self.steps.push(Step::Alloc(v.buffer));
        Ok(v)
    }

    /// `bitcast` as a view of its operand's buffer: the same bytes read with the result's
    /// dimensions and layout.
    fn bitcast(&mut self, instr: &Instruction, source: &HostValue) -> Result<HostValue, HloError> {
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
        let name = format!("%view{}", self.views);
        let v = Self::value(name, shape, source.buffer, instr)?;
        let layout = memref_layout(shape).map_err(|e| error(instr, e))?;
        self.views += 1;
        self.steps.push(Step::View {
            value: v.clone(),
            source: source.clone(),
            layout,
        });
        Ok(v)
    }

    /// The launch list of the entry computation `name`.
    fn finish(self, name: &str, args: Vec<HostValue>, outs: Vec<HostValue>) -> LaunchList {
        LaunchList {
            name: name.to_string(),
            buffers: self.buffers,
            args,
            outs,
            steps: self.steps,
        }
    }
}

/// The host function of `list` (kernels `plans`, named `symbols`): `args`, then `outs` as
/// out-parameters; the `index` constants, the steps, the intermediate buffers freed.
fn write_host(list: &LaunchList, plans: &[KernelPlan], symbols: &[String]) -> String {
    let mut constants: BTreeMap<u64, String> = BTreeMap::new();
    let mut constant = |n: u64| {
        let name = format!("%c{n}");
        constants
            .entry(n)
            .or_insert_with(|| format!("{name} = arith.constant {n} : index"));
        name
    };
    let list_of = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
    let mut body = Vec::new();
    let mut frees = Vec::new();
    for step in &list.steps {
        body.push(match step {
            Step::Alloc(b) => {
                let buffer = &list.buffers[*b];
                let label = match &buffer.role {
                    BufferRole::Intermediate(label) => label,
                    BufferRole::Parameter | BufferRole::Output => &buffer.name,
                };
                frees.push(format!("gpu.dealloc {} : {}", buffer.name, buffer.ty));
                format!(
                    "{} = gpu.alloc () {{xla_indexing.buffer = \"{label}\", xla_indexing.bytes = {} : i64}} : {}",
                    buffer.name, buffer.bytes, buffer.ty
                )
            }
            Step::Launch { kernel, args } => {
                let launch = &plans[*kernel].launch;
                let mut dims = |v: &[u64; 3]| {
                    v.iter()
                        .map(|&n| constant(n))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                let blocks = dims(&launch.blocks);
                let threads = dims(&launch.threads);
                let args: Vec<String> = args.iter().map(|v| format!("{} : {}", v.name, v.ty)).collect();
                format!(
                    "gpu.launch_func @kernels::@{} blocks in ({blocks}) threads in ({threads}) args({})",
                    symbols[*kernel],
                    args.join(", ")
                )
            }
            Step::View {
                value,
                source,
                layout: (sizes, strides),
            } => format!(
                "{} = memref.reinterpret_cast {} to offset: [0], sizes: [{}], strides: [{}] : {} to {}",
                value.name,
                source.name,
                list_of(sizes),
                list_of(strides),
                source.ty,
                value.ty
            ),
            Step::Copy { out, source } | Step::Fill { out, source } => format!(
                "gpu.memcpy {}, {} : {}, {}",
                out.name, source.name, out.ty, source.ty
            ),
        });
    }
    let params: Vec<String> = list
        .args
        .iter()
        .chain(&list.outs)
        .map(|v| format!("{}: {}", v.name, v.ty))
        .collect();
    let mut text = format!(
        "  func.func @{}({}) {{\n",
        quoted_symbol(&list.name),
        params.join(", ")
    );
    for line in constants.into_values().chain(body).chain(frees) {
        text.push_str(&format!("    {line}\n"));
    }
    text.push_str("    return\n  }\n");
    text
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
pub fn byte_size(shape: &ArrayShape) -> Option<u64> {
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
        out[i] = match instr.opcode {
            Opcode::Parameter | Opcode::Fusion => (0..instr.shape.leaf_count())
                .map(|leaf| Origin {
                    def: i,
                    leaf,
                    viewed: false,
                })
                .collect(),
            Opcode::Tuple => instr
                .operands
                .iter()
                .flat_map(|&o| out[o].clone())
                .collect(),
            Opcode::GetTupleElement => out[instr.operands[0]]
                .get(tuple_element(module, instr)?)
                .map(<[Origin]>::to_vec)
                .unwrap_or_default(),
            Opcode::Bitcast => out[instr.operands[0]]
                .iter()
                .map(|o| Origin { viewed: true, ..*o })
                .collect(),
            _ => Vec::new(),
        };
    }
    Ok(out)
}

/// An error located at `instr`.
fn error(instr: &Instruction, message: impl std::fmt::Display) -> HloError {
    HloError::Analysis {
        instruction: instr.name.clone(),
        line: instr.pos.line,
        column: instr.pos.column,
        message: message.to_string(),
    }
}
