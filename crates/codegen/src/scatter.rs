//! The scatter emitter (`xla_indexing_gpu::scatter` plans it): one thread per update
//! element. Each thread
//!
//! 1. computes its updates (the elemental emitter runs any fused prologue) and reads its index
//!    vector's components from the indices, each converted to `index` (zero-extended when the
//!    indices are unsigned);
//! 2. drops the update unless every component is a start at which the window fits in the
//!    operand (XLA's semantics: no clamping), under an `scf.if`;
//! 3. combines them with the output elements its write map gives: a `memref.store` per output
//!    when the combiner returns the updates, a load of every output, the combiner of them all
//!    and a store of every result for unique indices, and for one output a `memref.atomic_rmw`
//!    for an add the GPU does atomically (`atom.global.add`), and otherwise a compare-and-swap
//!    loop around the combiner, an `llvm.cmpxchg` loop on the element's bits at device scope.
//!
//! Each output buffer must hold its scatter operand when the kernel starts (XLA aliases them).

use xla_indexing_hlo::{HloError, Module};

use xla_indexing_gpu::{
    KernelPlan,
    scatter::{Combiner, ScatterPlan},
    vector::linear_offset,
};

use super::CodegenOptions;
use super::body::{Body, Scalar};
use super::buffer::{ArrayBuffer, packed_position, replaced_half};
use super::elemental::{Emitter, Index};
use super::emitter_base::lane_kernel;
use super::error::CodegenError;
use super::scalar::Typed;
use super::types::{Class, Element};

/// The `gpu.func` of a kernel the scatter emitter writes (see the module comment).
pub fn scatter_function(
    module: &Module,
    plan: &KernelPlan,
    scatter: &ScatterPlan,
    symbol: &str,
    options: &CodegenOptions,
) -> Result<String, HloError> {
    lane_kernel(
        module,
        plan,
        symbol,
        &scatter.thread_map,
        options,
        |e, outputs| land_update(e, module, plan, scatter, outputs),
    )
}

/// The current thread's (and lane's) update element landed on every output: its index vector
/// read, the update dropped where the window does not fit at its start, else combined with the
/// output elements as the plan's combiner says.
fn land_update(
    e: &mut Emitter,
    module: &Module,
    plan: &KernelPlan,
    scatter: &ScatterPlan,
    outputs: &[ArrayBuffer],
) -> Result<(), HloError> {
    let c = plan.kernel.computation;
    let at_update = Index::of(&scatter.thread_map);
    let updates = scatter
        .updates
        .iter()
        .map(|&u| e.value(c, u, &at_update))
        .collect::<Result<Vec<_>, _>>()?;
    let bounds: Vec<_> = scatter
        .write
        .map
        .rt_vars()
        .iter()
        .map(|v| v.bounds)
        .collect();
    // A window larger than the operand fits nowhere: every update is dropped.
    if bounds.iter().all(|b| b.lo <= b.hi) {
        let (starts, fit) = read_starts(e, plan, scatter)?;
        if let Some(fit) = &fit {
            e.body.open(format!("scf.if {fit} {{"));
        }
        e.enter_scope();
        let landing = Index {
            map: scatter.write.map.clone(),
            rts: starts,
        };
        land(
            e,
            module,
            plan,
            scatter,
            outputs,
            (&updates, &at_update),
            &landing,
        )?;
        e.leave_scope();
        if fit.is_some() {
            e.body.close("}", false);
        }
    }
    Ok(())
}

/// The current thread's index vector as `index` values (one per component, the write map's
/// runtime variables), and whether the window fits at that start (`None`: it always does).
pub(crate) fn read_starts(
    e: &mut Emitter,
    plan: &KernelPlan,
    scatter: &ScatterPlan,
) -> Result<(Vec<String>, Option<String>), HloError> {
    let c = plan.kernel.computation;
    let mut starts = Vec::new();
    let mut fits = Vec::new();
    for (rt, var) in scatter
        .write
        .runtime
        .iter()
        .zip(scatter.write.map.rt_vars())
    {
        let component = e.value(c, scatter.indices, &Index::of(&rt.map))?;
        let start = as_index(e, &component).map_err(|err| plan.kernel.lowering_error(err))?;
        fits.push(e.body.within(&start, (var.bounds.lo, var.bounds.hi)));
        starts.push(start);
    }
    Ok((starts, e.body.all(fits)))
}

/// `updates` (one per output, read at `at_update`) combined with the output elements at
/// `landing` (the write map at the starts) as the plan's combiner says.
pub(crate) fn land(
    e: &mut Emitter,
    module: &Module,
    plan: &KernelPlan,
    scatter: &ScatterPlan,
    outputs: &[ArrayBuffer],
    (updates, at_update): (&[Typed], &Index),
    landing: &Index,
) -> Result<(), HloError> {
    let c = plan.kernel.computation;
    let fail = |err: String| plan.kernel.lowering_error(err);
    let index = e
        .materialize(landing)
        .map_err(|err| fail(format!("output index: {err}")))?;
    let instr = &module.computations[c].instructions[scatter.hero];
    let callee = instr
        .called("to_apply")
        .first()
        .cloned()
        .ok_or_else(|| fail("the scatter has no to_apply".into()))?;
    let (out, update) = (&outputs[0], &updates[0]);
    match scatter.combiner {
        Combiner::Store => {
            for (out, update) in outputs.iter().zip(updates) {
                out.store(&mut e.body, &update.value.name, &index);
            }
        }
        Combiner::Unique => {
            let args = outputs
                .iter()
                .map(|out| Typed {
                    value: out.load(&mut e.body, &index),
                    element: out.element,
                })
                .chain(updates.iter().cloned())
                .collect();
            let new = e.apply_all(instr, &callee, args, at_update)?;
            if new.len() != outputs.len() {
                return Err(fail(format!(
                    "{callee} returns {} values for {} outputs",
                    new.len(),
                    outputs.len()
                )));
            }
            for (out, new) in outputs.iter().zip(&new) {
                out.store(&mut e.body, &new.value.name, &index);
            }
        }
        Combiner::AtomicAdd => {
            let element = out.element;
            let kind = if element.class == Class::Float {
                "addf"
            } else {
                "addi"
            };
            let (mlir, name, ty) = (element.mlir, &out.name, &out.ty);
            e.body.op(
                "old",
                mlir,
                format!(
                    "memref.atomic_rmw {kind} {}, {name}[{}] : ({mlir}, {ty}) -> {mlir}",
                    update.value.name,
                    index.join(", ")
                ),
            );
        }
        Combiner::CompareAndSwap => {
            let offset = linear_offset(&scatter.write.map, &out.shape)
                .ok_or_else(|| fail("the output has no linear offsets".into()))?;
            let at = e
                .materialize(&Index {
                    map: scatter.write.map.with_results(vec![offset]),
                    rts: landing.rts.clone(),
                })
                .map_err(|err| fail(format!("output offset: {err}")))?;
            swap_loop(e, out, &at[0], |e, current| {
                e.apply(instr, &callee, vec![current, update.clone()], at_update)
            })?;
        }
    }
    Ok(())
}

/// The compare-and-swap loop of a combiner on the element at linear offset `at` of `out`, on
/// the bits of the element (or, for packed elements, of the byte that holds it) through a
/// pointer to them: load the bits, combine the element's value with the update, `llvm.cmpxchg`
/// the new bits against the loaded ones at device scope, and retry with what the exchange saw
/// until it succeeds. (MLIR's `generic_atomic_rmw` would compare floats, which LLVM's
/// `cmpxchg` rejects, and exchanges at system scope.)
fn swap_loop(
    e: &mut Emitter,
    out: &ArrayBuffer,
    at: &str,
    combine: impl Fn(&mut Emitter, Typed) -> Result<Typed, HloError>,
) -> Result<(), HloError> {
    let element = out.element;
    let (ptr, half) = element_pointer(&mut e.body, out, at);
    let int = if half.is_some() {
        "i8".to_string()
    } else {
        format!("i{}", element.bits)
    };
    let pair = format!("!llvm.struct<({int}, i1)>");
    let first = e.body.op(
        "bits",
        &int,
        format!("llvm.load {ptr} : !llvm.ptr -> {int}"),
    );
    let (swapped, expected) = (e.body.fresh("swapped"), e.body.fresh("expected"));
    e.body.open(format!(
        "{swapped} = scf.while ({expected} = {}) : ({int}) -> {int} {{",
        first.name
    ));
    e.enter_scope();
    let current = Typed {
        value: bits_to_element(&mut e.body, &expected, element, half.as_ref()),
        element,
    };
    let new = combine(e, current)?;
    let desired = element_to_bits(
        &mut e.body,
        &new.value.name,
        element,
        (&expected, half.as_ref()),
    );
    let result = e.body.op(
        "exchanged",
        &pair,
        format!(
            "llvm.cmpxchg {ptr}, {expected}, {desired} syncscope(\"device\") acq_rel monotonic : !llvm.ptr, {int}"
        ),
    );
    let seen = e.body.op(
        "seen",
        &int,
        format!("llvm.extractvalue {}[0] : {pair}", result.name),
    );
    let done = e.body.op(
        "done",
        "i1",
        format!("llvm.extractvalue {}[1] : {pair}", result.name),
    );
    let yes = e.body.constant("true", "i1");
    let again = e.body.op(
        "again",
        "i1",
        format!("arith.xori {}, {} : i1", done.name, yes.name),
    );
    e.body.line(format!(
        "scf.condition({}) {} : {int}",
        again.name, seen.name
    ));
    e.leave_scope();
    e.body.close("} do {", true);
    let next = e.body.fresh("next");
    e.body.line(format!("^bb0({next}: {int}):"));
    e.body.line(format!("scf.yield {next} : {int}"));
    e.body.close("}", false);
    Ok(())
}

/// A pointer to the element at linear offset `at` of `out` and, for a packed element, the
/// shift (`i8`) of its bits within the byte the pointer points to.
fn element_pointer(body: &mut Body, out: &ArrayBuffer, at: &str) -> (String, Option<String>) {
    let (name, ty) = (&out.name, &out.ty);
    let base = body.op(
        "base",
        "index",
        format!("memref.extract_aligned_pointer_as_index {name} : {ty} -> index"),
    );
    let (offset, half) = if out.is_packed() {
        let (byte, shift) = packed_position(body, at, out.element.bits);
        (byte, Some(shift))
    } else {
        let bytes = body.index(i64::from(out.element.bits / 8));
        let offset = body.op(
            "bytes",
            "index",
            format!("arith.muli {at}, {} : index", bytes.name),
        );
        (offset.name, None)
    };
    let address = body.op(
        "address",
        "index",
        format!("arith.addi {}, {offset} : index", base.name),
    );
    let wide = body.op(
        "address",
        "i64",
        format!("arith.index_cast {} : index to i64", address.name),
    );
    let ptr = body.op(
        "ptr",
        "!llvm.ptr",
        format!("llvm.inttoptr {} : i64 to !llvm.ptr", wide.name),
    );
    (ptr.name, half)
}

/// The element whose bits are `bits` (or, with `half`, the element at that shift of the byte
/// `bits`).
fn bits_to_element(body: &mut Body, bits: &str, element: Element, half: Option<&String>) -> Scalar {
    let mlir = element.mlir;
    match half {
        Some(shift) => {
            let down = body.op("byte", "i8", format!("arith.shrui {bits}, {shift} : i8"));
            body.op(
                "current",
                mlir,
                format!("arith.trunci {} : i8 to {mlir}", down.name),
            )
        }
        None if element.class == Class::Float => body.op(
            "current",
            mlir,
            format!("arith.bitcast {bits} : i{} to {mlir}", element.bits),
        ),
        None => Scalar::new(bits, mlir),
    }
}

/// The bits of `value` (or, with a shift, the byte `old` with the element at that shift
/// replaced by `value`).
fn element_to_bits(
    body: &mut Body,
    value: &str,
    element: Element,
    (old, half): (&str, Option<&String>),
) -> String {
    let mlir = element.mlir;
    match half {
        Some(shift) => {
            let (keep, bits) = replaced_half(body, value, element, shift);
            let kept = body.op("byte", "i8", format!("arith.andi {old}, {keep} : i8"));
            body.op(
                "desired",
                "i8",
                format!("arith.ori {}, {bits} : i8", kept.name),
            )
            .name
        }
        None if element.class == Class::Float => {
            body.op(
                "desired",
                &format!("i{}", element.bits),
                format!("arith.bitcast {value} : {mlir} to i{}", element.bits),
            )
            .name
        }
        None => value.to_string(),
    }
}

/// An index-vector component as an `index`: sign-extended from a signed type, zero-extended
/// from an unsigned one.
pub(crate) fn as_index(e: &mut Emitter, component: &Typed) -> Result<String, CodegenError> {
    let from = component.element.mlir;
    let cast = match component.element.class {
        Class::Signed => "arith.index_cast",
        Class::Unsigned => "arith.index_castui",
        _ => return Err(CodegenError::ScatterIndexType(from)),
    };
    let name = &component.value.name;
    Ok(e.body
        .op("start", "index", format!("{cast} {name} : {from} to index"))
        .name)
}
