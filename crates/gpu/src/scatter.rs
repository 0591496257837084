//! The scatter emitter's plan: which fusions it writes, its launch over the updates, and how
//! each update element lands on the output.
//!
//! A fusion goes to the scatter emitter when its root is a `scatter` of one operand, as in
//! XLA, whose operand is a parameter of the fusion: XLA gives the fusion's output the operand's
//! buffer, so the kernel only combines the updates into it. Ours reads the operand's values from
//! the output buffer too, so the caller fills the output with the operand first
//! ([`ScatterPlan::operand_parameter`]; `compile --emit host` copies it).
//!
//! One thread per update element (the loop emitter's launch over the updates): it reads the
//! index vector at its scatter position (the runtime variables of [`ScatterPlan::write`]), drops
//! the element when the window does not fit in the operand at that start (XLA's semantics), and
//! combines it with the output element it lands on, as [`Combiner`] says.

use xla_indexing_core::IndexingMap;

use crate::device::Device;
use crate::identity::{Class, binary_of_parameters, class_of};
use crate::launch::{LaunchDimensions, launch_dimensions};
use crate::thread_map::thread_id_map;
use xla_indexing_hlo::access::Access;
use xla_indexing_hlo::attrs::AttrValue;
use xla_indexing_hlo::module::Module;
use xla_indexing_hlo::ops::{OpContext, Outcome, input_to_output};
use xla_indexing_hlo::shape::Shape;

/// The scatter emitter's plan of one fusion.
#[derive(Clone, Debug, PartialEq)]
pub struct ScatterPlan {
    /// The hero: the `scatter` instruction, the fusion's root.
    pub hero: usize,
    /// The fusion parameter that is the scatter's operand: the output buffer must hold its
    /// values when the kernel starts (XLA aliases the two).
    pub operand_parameter: usize,
    /// The scatter's indices operand (an instruction of the fusion).
    pub indices: usize,
    /// The scatter's updates operand (an instruction of the fusion).
    pub updates: usize,
    /// How an update is combined with the output element it lands on.
    pub combiner: Combiner,
    /// The launch: one thread per update element.
    pub launch: LaunchDimensions,
    /// `(thread ids)[chunk_id, unroll_id] -> (update index)`.
    pub thread_map: IndexingMap,
    /// Thread ids to the output element the thread's update lands on: runtime variable `rt_k` is
    /// component `k` of the index vector, read from the indices where its provenance map says,
    /// and bounded by the starts at which the window fits in the operand (a start outside them
    /// drops the update).
    pub write: Access,
}

/// How the scatter emitter combines an update with the output element it lands on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Combiner {
    /// The combiner returns the update: a store (which of several colliding updates lands is
    /// unspecified, as in XLA).
    Store,
    /// `unique_indices=true`: no two updates land on one element, so a load, the combiner and
    /// a store.
    Unique,
    /// An `add` of a type the GPU adds atomically (`f32`, `f64`, `s32`, `u32`, `s64`, `u64`):
    /// `atom.global.add`.
    AtomicAdd,
    /// Any other combiner of integers or of 32- and 64-bit floats: a compare-and-swap loop
    /// around it (on a float's bits: MLIR's `generic_atomic_rmw` lowers floats to a `cmpxchg`
    /// of floats, which LLVM rejects).
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
) -> Result<Option<ScatterPlan>, String> {
    let comp = &module.computations[c];
    let hero = comp.root;
    let scatter = &comp.instructions[hero];
    if scatter.opcode != "scatter" {
        return Ok(None);
    }
    if outputs != 1 || scatter.operands.len() != 3 || !matches!(scatter.shape, Shape::Array(_)) {
        return Err(format!(
            "{} is a variadic scatter, which the scatter emitter does not write",
            scatter.name
        ));
    }
    let operand = &comp.instructions[scatter.operands[0]];
    let operand_parameter = operand
        .parameter_number
        .filter(|_| operand.opcode == "parameter");
    let Some(operand_parameter) = operand_parameter else {
        return Err(format!(
            "the operand of {} is computed in the fusion ({}); XLA gives the scatter emitter a parameter, whose buffer the output takes",
            scatter.name, operand.name
        ));
    };
    let (indices, updates) = (scatter.operands[1], scatter.operands[2]);
    let update_shape = comp.instructions[updates]
        .array()
        .ok_or_else(|| format!("the updates of {} are a tuple", scatter.name))?;
    let elements = update_shape
        .element_count()
        .and_then(|n| u64::try_from(n).ok())
        .ok_or_else(|| format!("{update_shape} has too many elements"))?;
    let launch = launch_dimensions(elements, 1, device)
        .map_err(|e| format!("cannot launch {elements} updates: {e}"))?;
    let layout = update_shape.layout_or_default();
    layout
        .validate(&update_shape.dims)
        .map_err(|e| format!("{update_shape}: {e}"))?;
    let thread_map = thread_id_map(&launch, 1, &update_shape.dims, &layout)
        .map_err(|e| format!("thread-id map: {e}"))?;
    let cx = OpContext::new(module, comp, scatter);
    let landing = match input_to_output(&cx, 2, 0).map_err(|e| e.message())? {
        Outcome::Defined(mut v) if v.len() == 1 => v.remove(0).access,
        Outcome::Defined(_) => return Err(format!("{}: no single landing map", scatter.name)),
        Outcome::NotDefined(why) => return Err(why),
    };
    let write = compose_access(&thread_map, &landing).map_err(|e| format!("write map: {e}"))?;
    Ok(Some(ScatterPlan {
        hero,
        operand_parameter,
        indices,
        updates,
        combiner: combiner(&cx)?,
        launch,
        thread_map,
        write,
    }))
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

/// How the scatter of `cx` combines its updates (see [`Combiner`]).
fn combiner(cx: &OpContext<'_>) -> Result<Combiner, String> {
    let scatter = cx.instr;
    let callee = &cx.module.computations[cx.called("to_apply").map_err(|e| e.message())?];
    let name = &callee.name;
    let root = &callee.instructions[callee.root];
    if root.opcode == "parameter" && root.parameter_number == Some(1) {
        return Ok(Combiner::Store);
    }
    if matches!(scatter.attr("unique_indices"), Some(AttrValue::Raw(v)) if v == "true") {
        return Ok(Combiner::Unique);
    }
    let adds_parameters = binary_of_parameters(callee).is_some_and(|r| r.opcode == "add");
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
    let swappable_float = root
        .array()
        .is_some_and(|s| matches!(s.element.as_str(), "f16" | "bf16" | "f32" | "f64"));
    if !integer && !swappable_float {
        return Err(format!(
            "{} combines {} elements with {name} through a compare-and-swap loop, which the scatter emitter writes for integers and 16-, 32- and 64-bit floats only",
            scatter.name,
            root.array().map_or("tuple", |s| s.element.as_str())
        ));
    }
    Ok(Combiner::CompareAndSwap)
}
