//! The scatter emitter (`xla_indexing_gpu::scatter` plans it): one thread per update
//! element. Each thread
//!
//! 1. computes its update (the elemental emitter runs any fused prologue) and reads its index
//!    vector's components from the indices, each converted to `index` (zero-extended when the
//!    indices are unsigned);
//! 2. drops the update unless every component is a start at which the window fits in the
//!    operand (XLA's semantics: no clamping), under an `scf.if`;
//! 3. combines it with the output element its write map gives: a `memref.store` when the
//!    combiner returns the update, a load, the combiner and a store for unique indices, a
//!    `memref.atomic_rmw` for an add the GPU does atomically (`atom.global.add`), and otherwise
//!    a compare-and-swap loop around the combiner, an `llvm.cmpxchg` loop on the element's bits
//!    at device scope.
//!
//! The output buffer must hold the scatter's operand when the kernel starts (XLA aliases them).

use xla_indexing_hlo::{HloError, Module};

use xla_indexing_gpu::{
    KernelPlan,
    scatter::{Combiner, ScatterPlan},
    vector::linear_offset,
};

use super::CodegenOptions;
use super::elemental::{Emitter, Index};
use super::emitter_base::{Begun, begin_kernel, close_loop, end_kernel, open_loop};
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
    let kernel = &plan.kernel;
    let c = kernel.computation;
    let fail = |e: String| kernel.error(format!("cannot be lowered: {e}"));
    let Begun {
        text,
        emitter: mut e,
        outputs,
        ..
    } = begin_kernel(module, plan, symbol, (&[], &scatter.thread_map), options)?;
    let (out, out_ty) = &outputs[0];
    let element = Element::of(&kernel.outputs[0].element).map_err(fail)?;
    let at_update = Index {
        map: scatter.thread_map.clone(),
        rts: Vec::new(),
    };
    open_loop(&mut e, &scatter.thread_map, &[]);
    let update = e.value(c, scatter.updates, &at_update)?;
    let bounds: Vec<_> = scatter
        .write
        .map
        .rt_vars()
        .iter()
        .map(|v| v.bounds)
        .collect();
    // A window larger than the operand fits nowhere: every update is dropped.
    if bounds.iter().all(|b| b.lo <= b.hi) {
        let mut starts = Vec::new();
        let mut fits = Vec::new();
        for (rt, b) in scatter.write.runtime.iter().zip(&bounds) {
            let at = Index {
                map: rt.map.clone(),
                rts: Vec::new(),
            };
            let component = e.value(c, scatter.indices, &at)?;
            let start = as_index(&mut e, &component).map_err(fail)?;
            fits.push(within(&mut e, &start, (b.lo, b.hi)));
            starts.push(start);
        }
        let fit = fits.into_iter().reduce(|a, b| {
            e.body
                .op("fits", "i1", format!("arith.andi {a}, {b} : i1"))
                .name
        });
        if let Some(fit) = &fit {
            e.body.open(format!("scf.if {fit} {{"));
        }
        e.enter_scope();
        let landing = Index {
            map: scatter.write.map.clone(),
            rts: starts,
        };
        let index = e
            .materialize(&landing)
            .map_err(|err| fail(format!("output index: {err}")))?
            .join(", ");
        let instr = &module.computations[c].instructions[scatter.hero];
        let callee = instr
            .called("to_apply")
            .first()
            .cloned()
            .ok_or_else(|| fail("the scatter has no to_apply".into()))?;
        let combine = |e: &mut Emitter, current: Typed| {
            e.apply(instr, &callee, vec![current, update.clone()], &at_update)
        };
        let mlir = element.mlir;
        match scatter.combiner {
            Combiner::Store => e.body.line(format!(
                "memref.store {}, {out}[{index}] : {out_ty}",
                update.value.name
            )),
            Combiner::Unique => {
                let current = e.body.op(
                    "current",
                    mlir,
                    format!("memref.load {out}[{index}] : {out_ty}"),
                );
                let new = combine(
                    &mut e,
                    Typed {
                        value: current,
                        element,
                    },
                )?;
                e.body.line(format!(
                    "memref.store {}, {out}[{index}] : {out_ty}",
                    new.value.name
                ));
            }
            Combiner::AtomicAdd => {
                let kind = if element.class == Class::Float {
                    "addf"
                } else {
                    "addi"
                };
                e.body.op(
                    "old",
                    mlir,
                    format!(
                        "memref.atomic_rmw {kind} {}, {out}[{index}] : ({mlir}, {out_ty}) -> {mlir}",
                        update.value.name
                    ),
                );
            }
            Combiner::CompareAndSwap => {
                let offset = linear_offset(&scatter.write.map, &plan.outputs[0].shape)
                    .ok_or_else(|| fail("the output has no linear offsets".into()))?;
                let at = e
                    .materialize(&Index {
                        map: scatter.write.map.with_results(vec![offset]),
                        rts: landing.rts.clone(),
                    })
                    .map_err(|err| fail(format!("output offset: {err}")))?
                    .join(", ");
                swap_loop(&mut e, (out, out_ty, &at), element, combine)?;
            }
        }
        e.leave_scope();
        if fit.is_some() {
            e.body.close("}", false);
        }
    }
    close_loop(&mut e, &[], &[]);
    Ok(end_kernel(text, e))
}

/// The compare-and-swap loop of a combiner on the element at offset `at` of buffer
/// `out: out_ty`, on the element's bits through a pointer to it: load the bits, combine their
/// value with the update, `llvm.cmpxchg` the new bits against the loaded ones at device scope,
/// and retry with what the exchange saw until it succeeds. (MLIR's `generic_atomic_rmw` would
/// compare floats, which LLVM's `cmpxchg` rejects, and exchanges at system scope.)
fn swap_loop(
    e: &mut Emitter,
    (out, out_ty, at): (&str, &str, &str),
    element: Element,
    combine: impl Fn(&mut Emitter, Typed) -> Result<Typed, HloError>,
) -> Result<(), HloError> {
    let (mlir, int) = (element.mlir, format!("i{}", element.bits));
    let pair = format!("!llvm.struct<({int}, i1)>");
    let base = e.body.op(
        "base",
        "index",
        format!("memref.extract_aligned_pointer_as_index {out} : {out_ty} -> index"),
    );
    let bytes = e.body.index(i64::from(element.bits / 8));
    let offset = e.body.op(
        "bytes",
        "index",
        format!("arith.muli {at}, {} : index", bytes.name),
    );
    let address = e.body.op(
        "address",
        "index",
        format!("arith.addi {}, {} : index", base.name, offset.name),
    );
    let wide = e.body.op(
        "address",
        "i64",
        format!("arith.index_cast {} : index to i64", address.name),
    );
    let ptr = e.body.op(
        "ptr",
        "!llvm.ptr",
        format!("llvm.inttoptr {} : i64 to !llvm.ptr", wide.name),
    );
    let first = e.body.op(
        "bits",
        &int,
        format!("llvm.load {} : !llvm.ptr -> {int}", ptr.name),
    );
    let (swapped, expected) = (e.body.fresh("swapped"), e.body.fresh("expected"));
    e.body.open(format!(
        "{swapped} = scf.while ({expected} = {}) : ({int}) -> {int} {{",
        first.name
    ));
    e.enter_scope();
    let float = element.class == Class::Float;
    let current = if float {
        e.body.op(
            "current",
            mlir,
            format!("arith.bitcast {expected} : {int} to {mlir}"),
        )
    } else {
        super::body::Scalar::new(expected.clone(), mlir)
    };
    let new = combine(
        e,
        Typed {
            value: current,
            element,
        },
    )?;
    let desired = if float {
        e.body.op(
            "desired",
            &int,
            format!("arith.bitcast {} : {mlir} to {int}", new.value.name),
        )
    } else {
        new.value.clone()
    };
    let result = e.body.op(
        "exchanged",
        &pair,
        format!(
            "llvm.cmpxchg {}, {expected}, {} syncscope(\"device\") acq_rel monotonic : !llvm.ptr, {int}",
            ptr.name, desired.name
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

/// An index-vector component as an `index`: sign-extended from a signed type, zero-extended
/// from an unsigned one.
fn as_index(e: &mut Emitter, component: &Typed) -> Result<String, String> {
    let from = component.element.mlir;
    let cast = match component.element.class {
        Class::Signed => "arith.index_cast",
        Class::Unsigned => "arith.index_castui",
        _ => return Err(format!("scatter indices of type {from}")),
    };
    let name = &component.value.name;
    Ok(e.body
        .op("start", "index", format!("{cast} {name} : {from} to index"))
        .name)
}

/// `lo <= start <= hi`, as an `i1`.
fn within(e: &mut Emitter, start: &str, (lo, hi): (i64, i64)) -> String {
    let lo = e.body.index(lo).name;
    let hi = e.body.index(hi).name;
    let above = e
        .body
        .op(
            "above",
            "i1",
            format!("arith.cmpi sge, {start}, {lo} : index"),
        )
        .name;
    let below = e
        .body
        .op(
            "below",
            "i1",
            format!("arith.cmpi sle, {start}, {hi} : index"),
        )
        .name;
    e.body
        .op("fits", "i1", format!("arith.andi {above}, {below} : i1"))
        .name
}
