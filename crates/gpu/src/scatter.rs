//! The scatter emitter's plan: which fusions it writes, its launch over the updates, and how
//! each update element lands on the outputs.
//!
//! A fusion goes to the scatter emitter when its root is a `scatter`, as in XLA, whose operands
//! are parameters of the fusion: XLA gives each of the fusion's outputs its operand's buffer,
//! so the kernel only combines the updates into them. Ours reads the operands' values from the
//! output buffers too, so the caller fills each output with its operand first
//! ([`ScatterPlan::operand_parameters`]; `compile --emit host` copies them).
//!
//! One thread per update element, or per vector of them, as XLA distributes them
//! (`scatter_distribution.rs`: the loop emitter's launch over the updates, or a warp per
//! update slice when there are many long slices): a thread reads the index vector at its
//! scatter position (the runtime variables of [`ScatterPlan::write`]), drops
//! the element when the window does not fit in the operands at that start (XLA's semantics), and
//! combines it with the output elements it lands on, as [`Combiner`] says. A variadic scatter
//! (`N` operands, `N` updates of one shape, a combiner of `2N` scalars returning `N`) lands every
//! update element at the same index of every output; its outputs can only be combined one
//! element at a time, so the emitter writes it when the combiner stores the updates or the
//! indices are unique.

use xla_indexing_core::IndexingMap;
use xla_indexing_hlo::Opcode;

use crate::device::Device;
use crate::error::PlanError;
use crate::identity::{Class, binary_of_parameters, class_of};
use crate::kernel::element_bits;
use crate::launch::LaunchDimensions;
use crate::scatter_distribution::{Distribution, Updates, distribute};
use xla_indexing_hlo::access::Access;
use xla_indexing_hlo::attrs::AttrValue;
use xla_indexing_hlo::module::{Computation, Instruction, Module};
use xla_indexing_hlo::ops::{OpContext, Outcome, input_to_output};
use xla_indexing_hlo::shape::Shape;

/// The scatter emitter's plan of one fusion.
#[derive(Clone, Debug, PartialEq)]
pub struct ScatterPlan {
    /// The hero: the `scatter` instruction, the fusion's root.
    pub hero: usize,
    /// Per output, the fusion parameter that is the scatter's operand of that output: the
    /// output buffer must hold its values when the kernel starts (XLA aliases the two).
    pub operand_parameters: Vec<usize>,
    /// The scatter's indices operand (an instruction of the fusion).
    pub indices: usize,
    /// The scatter's updates operands, one per output (instructions of the fusion).
    pub updates: Vec<usize>,
    /// Per output, the updates (positions in [`ScatterPlan::updates`]) its new values are
    /// computed from.
    pub reads: Vec<Vec<usize>>,
    /// How an update is combined with the output element it lands on.
    pub combiner: Combiner,
    /// Which threads take which update elements, as XLA's emitter distributes them.
    pub distribution: Distribution,
    /// The launch: one thread per update element (or vector of them), or a warp per slice.
    pub launch: LaunchDimensions,
    /// `(thread ids)[chunk_id, unroll_id] -> (update index)`.
    pub thread_map: IndexingMap,
    /// Thread ids to the output element the thread's updates land on (the same in every
    /// output): runtime variable `rt_k` is
    /// component `k` of the index vector, read from the indices where its provenance map says,
    /// and bounded by the starts at which the window fits in the operand (a start outside them
    /// drops the update).
    pub write: Access,
}

/// How the scatter emitter combines updates with the output elements they land on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Combiner {
    /// The combiner returns the updates: a store per output (which of several colliding updates
    /// lands is unspecified, as in XLA, and may differ between a variadic scatter's outputs).
    Store,
    /// `unique_indices=true`: no two updates land on one element, so a load of every output's
    /// element, the combiner of them all and a store of every result.
    Unique,
    /// An `add` of a type the GPU adds atomically (`f32`, `f64`, `s32`, `u32`, `s64`, `u64`):
    /// `atom.global.add`. Single-operand scatters only.
    AtomicAdd,
    /// Any other combiner of one operand's integers or 16-, 32- and 64-bit floats: a
    /// compare-and-swap loop around it (on a float's bits: MLIR's `generic_atomic_rmw` lowers
    /// floats to a `cmpxchg` of floats, which LLVM rejects).
    CompareAndSwap,
}

impl Combiner {
    /// `store`, `unique`, `atomic add` or `compare-and-swap`.
    pub fn name(self) -> &'static str {
        match self {
            Combiner::Store => "store",
            Combiner::Unique => "unique",
            Combiner::AtomicAdd => "atomic add",
            Combiner::CompareAndSwap => "compare-and-swap",
        }
    }
}

/// The scatter emitter's plan of the fusion computed by computation `c` with `outputs`
/// outputs: `Ok(None)` when its root is no scatter, `Err` why a scatter root is not emitted.
pub fn plan_scatter(
    module: &Module,
    c: usize,
    outputs: usize,
    device: &Device,
) -> Result<Option<ScatterPlan>, PlanError> {
    let comp = &module.computations[c];
    let hero = comp.root;
    let scatter = &comp.instructions[hero];
    if scatter.opcode != Opcode::Scatter {
        return Ok(None);
    }
    let n = scatter.operands.len() / 2;
    let shaped = match &scatter.shape {
        Shape::Array(_) => n == 1,
        Shape::Tuple(leaves) => n > 1 && leaves.len() == n,
    };
    if scatter.operands.len() != 2 * n + 1 || outputs != n || !shaped {
        return Err(PlanError::Unsupported(format!(
            "{} has {} operands and {outputs} outputs where the scatter emitter writes N operands, indices and N updates into N outputs",
            scatter.name,
            scatter.operands.len()
        )));
    }
    let operand_parameters = scatter.operands[..n]
        .iter()
        .map(|&o| operand_parameter(comp, scatter, o))
        .collect::<Result<Vec<_>, _>>()?;
    let (indices, updates) = (scatter.operands[n], scatter.operands[n + 1..].to_vec());
    let update_shape = comp.instructions[updates[0]].array().ok_or_else(|| {
        PlanError::Unsupported(format!("the updates of {} are a tuple", scatter.name))
    })?;
    if updates[1..]
        .iter()
        .any(|&u| comp.instructions[u].array().map(|s| &s.dims) != Some(&update_shape.dims))
    {
        return Err(PlanError::Unsupported(format!(
            "the updates of {} differ in shape",
            scatter.name
        )));
    }
    let window: Vec<usize> = scatter
        .ints("update_window_dims")
        .unwrap_or_default()
        .iter()
        .filter_map(|&d| usize::try_from(d).ok())
        .collect();
    let cx = OpContext::new(module, comp, scatter);
    let (landing, reads) = landing(&cx, n)?;
    // XLA accumulates sorted indices of one output; how many starts the updates share.
    let sorted =
        matches!(scatter.attr("indices_are_sorted"), Some(AttrValue::Raw(v)) if v == "true");
    let sorted_starts = (sorted && n == 1).then(|| {
        landing
            .map
            .rt_vars()
            .iter()
            .map(|v| v.bounds.count() as i64)
            .product::<i64>()
    });
    // One index per slice, of this width, can be read several at a time where the indices are
    // a parameter in the default layout.
    let index_array = comp.instructions[indices].array();
    let index_bits = (landing.map.rt_vars().len() == 1)
        .then_some(index_array)
        .flatten()
        .and_then(|a| element_bits(&a.element));
    let indices_loadable = comp.instructions[indices].opcode == Opcode::Parameter
        && index_array.is_some_and(|a| a.has_default_layout());
    let (distribution, launch, thread_map) = distribute(
        &Updates {
            shape: update_shape,
            window: &window,
            sorted_starts,
            index_bits,
            indices_loadable,
        },
        device,
    )?;
    let write = compose_access(&thread_map, &landing).map_err(PlanError::WriteMap)?;
    Ok(Some(ScatterPlan {
        hero,
        operand_parameters,
        indices,
        updates,
        reads,
        combiner: combiner(&cx, n)?,
        distribution,
        launch,
        thread_map,
        write,
    }))
}

/// The fusion parameter that operand `o` of `scatter` is (XLA gives the scatter emitter
/// parameters, whose buffers the outputs take).
fn operand_parameter(
    comp: &Computation,
    scatter: &Instruction,
    o: usize,
) -> Result<usize, PlanError> {
    let operand = &comp.instructions[o];
    operand
        .parameter_number
        .filter(|_| operand.opcode == Opcode::Parameter)
        .ok_or_else(|| {
            PlanError::Unsupported(format!(
                "the operand of {} is computed in the fusion ({}); XLA gives the scatter emitter a parameter, whose buffer the output takes",
                scatter.name, operand.name
            ))
        })
}

/// Where the updates of the scatter of `cx` (with `n` outputs) land, the same output index for
/// every update and output, and per output the updates its combiner reads.
fn landing(cx: &OpContext<'_>, n: usize) -> Result<(Access, Vec<Vec<usize>>), PlanError> {
    let mut landing = None;
    let mut reads = vec![Vec::new(); n];
    for j in 0..n {
        match input_to_output(cx, n + 1 + j, 0).map_err(PlanError::Hlo)? {
            Outcome::Defined(v) => {
                for r in v {
                    reads
                        .get_mut(r.leaf)
                        .ok_or_else(|| {
                            PlanError::Unsupported(format!(
                                "{} has no output {}",
                                cx.instr.name, r.leaf
                            ))
                        })?
                        .push(j);
                    landing.get_or_insert(r.access);
                }
            }
            Outcome::NotDefined(why) => return Err(PlanError::Undefined(why)),
        }
    }
    let landing = landing.ok_or_else(|| {
        PlanError::Unsupported(format!("{}: no update lands on an output", cx.instr.name))
    })?;
    Ok((landing, reads))
}

/// `second` after `first`, over all of `first`'s variables (kept, so that the maps take the
/// kernel loop's dims and symbols), the runtime variables' provenance maps composed alike.
fn compose_access(
    first: &IndexingMap,
    second: &Access,
) -> Result<Access, xla_indexing_core::ComposeError> {
    let mut map = first.compose(&second.map)?;
    map.simplify();
    let mut runtime = second.runtime.clone();
    for rt in &mut runtime {
        rt.map = first.compose(&rt.map)?;
        rt.map.simplify();
    }
    Ok(Access {
        map,
        runtime,
        participants: Vec::new(),
    })
}

/// How the scatter of `cx`, with `n` outputs, combines its updates (see [`Combiner`]).
fn combiner(cx: &OpContext<'_>, n: usize) -> Result<Combiner, PlanError> {
    let scatter = cx.instr;
    let callee = &cx.module.computations[cx.called("to_apply").map_err(PlanError::Hlo)?];
    let name = &callee.name;
    let root = &callee.instructions[callee.root];
    if returns_updates(callee, n) {
        return Ok(Combiner::Store);
    }
    if matches!(scatter.attr("unique_indices"), Some(AttrValue::Raw(v)) if v == "true") {
        return Ok(Combiner::Unique);
    }
    if n > 1 {
        return Err(PlanError::Unsupported(format!(
            "{} combines the elements of its {n} outputs with {name} where indices may repeat; the outputs would have to be combined together atomically, which the scatter emitter does not write (it writes variadic scatters whose combiner returns the updates or whose indices are unique)",
            scatter.name
        )));
    }
    let adds_parameters = binary_of_parameters(callee).is_some_and(|r| r.opcode == Opcode::Add);
    let atomic_type = root.array().is_some_and(|s| {
        matches!(
            s.element.as_str(),
            "f32" | "f64" | "s32" | "u32" | "s64" | "u64"
        )
    });
    if adds_parameters && atomic_type {
        return Ok(Combiner::AtomicAdd);
    }
    let class = root.array().and_then(|s| class_of(&s.element));
    let integer = matches!(class, Some((Class::Signed | Class::Unsigned, _)));
    let swappable_float = root.array().is_some_and(|s| {
        matches!(s.element.as_str(), "f16" | "bf16" | "f32" | "f64") || s.element.starts_with("f8")
    });
    if !integer && !swappable_float {
        return Err(PlanError::Unsupported(format!(
            "{} combines {} elements with {name} through a compare-and-swap loop, which the scatter emitter writes for integers and 8-, 16-, 32- and 64-bit floats only",
            scatter.name,
            root.array().map_or("tuple", |s| s.element.as_str())
        )));
    }
    Ok(Combiner::CompareAndSwap)
}

/// Whether `callee`, the combiner of a scatter with `n` outputs, returns the updates: its
/// parameters `n` to `2n - 1`, as its root (one output) or in order in its root `tuple`.
fn returns_updates(callee: &Computation, n: usize) -> bool {
    let root = &callee.instructions[callee.root];
    let results = if n > 1 && root.opcode == Opcode::Tuple {
        root.operands.clone()
    } else {
        vec![callee.root]
    };
    results.len() == n
        && results.iter().zip(n..).all(|(&r, p)| {
            let r = &callee.instructions[r];
            r.opcode == Opcode::Parameter && r.parameter_number == Some(p)
        })
}
